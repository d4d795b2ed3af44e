"""Drafts and what to do, in a real browser at 1366 px and 390 px, in English and French: a draft survives a
reload and is found on a second device, leaving warns only with unsaved changes, "I am ready" submits what the
box shows, the units without orders and the winter counts are named, another player's ready switch changes
live, and an invitation survives registration."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.site import Site
from tests.server.browser import browser, live_server, show_now
from tests.server.mapclick import ARTIFACTS, PASSWORD, Bot, new_game

pytestmark = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)

SIZES = [(1366, 900), (390, 844)]
FR_ALL_VALID = "Tous les ordres sont valables."
WORDS = {
    "en": {
        "draft": "Draft saved, not submitted.",
        "missing": "No order yet: A MAR, F BRE",
        "so_far": "The orders written so far are valid.",
        "partly": "partly",
        "submitted": "Submitted.",
        "leave": "Your orders are not saved yet. Leave anyway?",
        "retreats": ("Retreats:", "No order yet: A MAR", "The orders written so far are valid."),
        "disbands": ("Disbands:", "Disbands required: 1; given: 0."),
        "builds": ("Builds:", "Builds allowed: 1; given: 0."),
    },
    "fr": {
        "draft": "Brouillon enregistré, non soumis.",
        "missing": "Pas encore d'ordre : A MAR, F BRE",
        "so_far": "Les ordres écrits jusqu'ici sont valables.",
        "partly": "en partie",
        "submitted": "Soumis.",
        "leave": "Vos ordres ne sont pas encore enregistrés. Quitter quand même ?",
        "retreats": ("Retraites :", "Pas encore d'ordre : A MAR", "Les ordres écrits jusqu'ici sont valables."),
        "disbands": ("Dissolutions :", "Dissolutions requises : 1 ; données : 0."),
        "builds": ("Constructions :", "Constructions permises : 1 ; données : 0."),
    },
}


def _page(b: Any, base: str, name: str, lang: str, width: int, height: int) -> Any:
    ctx = b.new_context(
        viewport={"width": width, "height": height}, locale="fr-FR" if lang == "fr" else "en-GB", bypass_csp=True
    )
    page = ctx.new_page()
    page.goto(base + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("#nav-account")
    if lang == "fr" and page.inner_text("#switch-lang") == "Français":
        page.click("#switch-lang")
    return page


def _shot(page: Any, name: str) -> None:
    (ARTIFACTS / "drafts").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "drafts" / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_draft_survives_reload_and_a_second_device(site: Site, lang: str, width: int, height: int) -> None:
    words = WORDS[lang]
    with live_server(site) as base, browser() as b:
        gid, _, bots = new_game(base, f"dr{lang}{width}")
        fr = _page(b, base, bots["FRANCE"].name, lang, width, height)
        fr.goto(f"{base}/games/{gid}")
        # nothing typed: the page names every unit without an order, not "All orders are valid."
        fr.wait_for_selector("#check .ok")
        assert "A MAR" in fr.inner_text("#to-do-list") and "F BRE" in fr.inner_text("#to-do-list")
        fr.fill("#orders", "A PAR - BUR")
        fr.wait_for_function("document.getElementById('draft-status').dataset.state === 'draft'")
        assert fr.inner_text("#draft-status") == words["draft"]
        # the units still without an order are named once, on the to-do line (redrawn live), not by the check
        fr.wait_for_function("(w) => document.getElementById('to-do-list').textContent === w", arg=words["missing"])
        fr.wait_for_function("(w) => document.getElementById('check').textContent === w", arg=words["so_far"])
        _shot(fr, f"draft-{lang}-{width}")
        # a reload keeps it, marked as not submitted
        fr.reload()
        assert fr.input_value("#orders") == "A PAR - BUR"
        assert fr.get_attribute("#draft-status", "data-state") == "draft"
        # a second device (another browser context, logged in as the same player) opens with it
        other = _page(b, base, bots["FRANCE"].name, lang, width, height)
        other.goto(f"{base}/games/{gid}")
        assert other.input_value("#orders") == "A PAR - BUR"
        # the draft is not submitted orders: the API's orders stay empty
        assert bots["FRANCE"].c.get(f"/api/games/{gid}/orders").json()["lines"] == []


# each language and each width once (en at 1366 px, fr at 390 px): the two cases cost what two widths did
@pytest.mark.parametrize(("lang", "width", "height"), [("en", *SIZES[0]), ("fr", *SIZES[1])])
def test_leaving_warns_only_with_unsaved_changes(site: Site, lang: str, width: int, height: int) -> None:
    with live_server(site) as base, browser() as b:
        gid, _, bots = new_game(base, f"lv{lang}{width}")
        fr = _page(b, base, bots["FRANCE"].name, lang, width, height)
        fr.goto(f"{base}/games/{gid}")
        fr.wait_for_selector("#check .ok")
        # the warning's words are the reader's (the browser shows its own, the page's are kept for the others)
        assert fr.get_attribute("#orders-form", "data-t-leave") == WORDS[lang]["leave"]
        dialogs: list[str] = []

        def on_dialog(d: Any) -> None:
            dialogs.append(d.type)
            d.dismiss()

        fr.on("dialog", on_dialog)
        # an unsaved change: the box changed and the 300 ms save has not run yet
        fr.evaluate("""() => { const box = document.getElementById('orders');
            box.value = 'A PAR - PIC'; box.dispatchEvent(new Event('input')); }""")
        fr.evaluate("() => document.getElementById('tab-messages').click()")
        fr.wait_for_timeout(100)
        assert dialogs == ["beforeunload"]
        assert "/messages" not in fr.url
        # once saved, leaving does not warn
        fr.wait_for_function("document.getElementById('draft-status').dataset.state === 'draft'")
        assert fr.inner_text("#draft-status") == WORDS[lang]["draft"]
        fr.click("#tab-messages")
        fr.wait_for_url(f"**/games/{gid}/messages")
        assert dialogs == ["beforeunload"]
        assert bots["FRANCE"].c.get(f"/api/games/{gid}/draft").json()["lines"] == ["A PAR - PIC"]


# the writer and the reader swap widths with the language: each is seen at 1366 px and 390 px, in both languages
@pytest.mark.parametrize(
    ("lang", "writer", "reader"), [("en", *SIZES), ("fr", *reversed(SIZES))], ids=["en-1366to390", "fr-390to1366"]
)
def test_ready_submits_what_is_shown_and_others_see_it_live(
    site: Site, lang: str, writer: tuple[int, int], reader: tuple[int, int]
) -> None:
    with live_server(site) as base, browser() as b:
        gid, _, bots = new_game(base, f"rd{lang}")
        fr = _page(b, base, bots["FRANCE"].name, lang, *writer)
        en = _page(b, base, bots["ENGLAND"].name, lang, *reader)
        en.goto(f"{base}/games/{gid}")
        en.wait_for_selector('#roster tr[data-power="FRANCE"] td.ready')
        no = en.inner_text('#roster tr[data-power="FRANCE"] td.ready')
        fr.goto(f"{base}/games/{gid}")
        fr.fill("#orders", "A PAR - BUR")
        fr.wait_for_selector("#check .ok")
        fr.check("#ready")  # without pressing "Submit orders"
        fr.wait_for_function("document.getElementById('draft-status').dataset.state === 'submitted'")
        got = bots["FRANCE"].c.get(f"/api/games/{gid}/orders").json()
        assert (got["lines"], got["ready"]) == (["A PAR - BUR"], True)
        # England's page changes live: France's switch and its orders "partly" given
        en.wait_for_function(
            "(no) => document.querySelector('#roster tr[data-power=\"FRANCE\"] td.ready').textContent !== no", arg=no
        )
        assert en.inner_text('#roster tr[data-power="FRANCE"] td.given') == WORDS[lang]["partly"]
        assert fr.inner_text("#draft-status") == WORDS[lang]["submitted"]
        _shot(en, f"ready-live-{lang}-{reader[0]}")


def test_what_to_do_in_retreats_and_winter(site: Site) -> None:
    """Each phase kind's hint and count, in English at 1366 px and in French at 390 px, in one game: a page is
    reused across languages by switching the account's language (the API) and the viewport, then reloading."""
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "wtd")

        def play(orders: dict[str, list[str]]) -> None:
            for p, lines in orders.items():
                assert bots[p].c.put(f"/api/games/{gid}/orders", json={"orders": lines}).status_code == 200
            assert master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200

        def reread(page: Any, power: str, lang: str, width: int, height: int) -> None:
            assert bots[power].c.put("/api/me", json={"lang": lang}).status_code == 200
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{base}/games/{gid}")
            page.wait_for_selector(f"html[lang={lang}]")
            show_now(page)

        def retreats(page: Any, lang: str) -> None:
            hint, missing, so_far = WORDS[lang]["retreats"]
            assert page.inner_text("#map-hint").startswith(hint)
            assert page.inner_text("#to-do-list") == missing
            # said once: the check line says the lines written are valid, not the missing units again
            page.wait_for_function("(w) => document.getElementById('check').textContent === w", arg=so_far)

        def disbands(page: Any, lang: str) -> None:
            hint, count = WORDS[lang]["disbands"]
            assert page.inner_text("#map-hint").startswith(hint)
            assert page.inner_text("#to-do-list") == count

        fr = _page(b, base, bots["FRANCE"].name, "en", 1366, 900)
        fr.goto(f"{base}/games/{gid}")
        assert "click one of your units" in fr.inner_text("#map-hint")
        play({"GERMANY": ["A MUN - BUR"], "ITALY": ["A VEN - PIE"]})
        play({"GERMANY": ["A BUR - MAR"], "ITALY": ["A PIE S A BUR - MAR"], "FRANCE": ["A MAR H"]})
        fr.goto(f"{base}/games/{gid}")
        retreats(fr, "en")
        _shot(fr, "todo-retreats")
        reread(fr, "FRANCE", "fr", 390, 844)
        retreats(fr, "fr")
        _shot(fr, "todo-retreats-fr-phone")
        play({"FRANCE": ["A MAR - GAS"]})
        fr.goto(f"{base}/games/{gid}")  # still French on a phone
        show_now(fr)
        disbands(fr, "fr")
        _shot(fr, "todo-disbands-fr-phone")
        reread(fr, "FRANCE", "en", 1366, 900)
        disbands(fr, "en")
        de = _page(b, base, bots["GERMANY"].name, "en", 1366, 900)
        de.goto(f"{base}/games/{gid}")
        show_now(de)
        hint, count = WORDS["en"]["builds"]
        assert de.inner_text("#map-hint").startswith(hint)
        assert de.inner_text("#to-do-list") == count
        _shot(de, "todo-builds")
        reread(de, "GERMANY", "fr", 390, 844)
        hint, count = WORDS["fr"]["builds"]
        assert de.inner_text("#map-hint").startswith(hint)
        assert de.inner_text("#to-do-list") == count
        de.fill("#orders", "A MUN B")
        de.wait_for_function("document.getElementById('to-do-list').dataset.complete === '1'")
        assert "Constructions permises : 1 ; données : 1." in de.inner_text("#to-do-list")
        de.wait_for_function("(w) => document.getElementById('check').textContent === w", arg=FR_ALL_VALID)
        _shot(de, "todo-builds-fr-phone")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_invitation_survives_registration(site: Site, lang: str) -> None:
    with live_server(site) as base, browser() as b:
        master = Bot(base, f"inv_gm_{lang}")
        r = master.c.post("/api/games", json={"name": "Invited", "private": True, "assignment": "choice"})
        gid = r.json()["id"]
        path = master.c.get(f"/api/games/{gid}").json()["invitation"]["path"]
        page = b.new_context(
            viewport={"width": 390, "height": 844}, locale="fr-FR" if lang == "fr" else "en-GB"
        ).new_page()
        page.goto(base + path)
        if lang == "fr" and page.inner_text("#switch-lang") == "Français":
            page.click("#switch-lang")
        assert page.query_selector("#login-to-join") is not None
        page.click("#register-to-join")
        page.fill("#name", f"newcomer_{lang}")
        page.fill("#password", PASSWORD)
        page.click("#submit")
        page.wait_for_selector("#join-form")
        assert page.url.split("?")[0] == base + path
        page.click("#join")
        page.wait_for_selector("#you")
        assert page.url.split("?")[0] == f"{base}/games/{gid}"
        _shot(page, f"invitation-{lang}")
        # a next that leaves the site is never followed
        page.goto(base + "/register?next=" + "/%5Cevil.example")
        assert page.get_attribute("#next", "value") == "/"
