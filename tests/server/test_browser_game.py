"""A whole game in a real browser: register seven players, create, join, orders checked as typed, adjudication
by everyone ready and by deadline, a retreat, builds, press, the master console, French pages, the history."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import register

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def give_orders(page: Any, base: str, gid: int, orders: list[str], ready: bool) -> None:
    page.goto(f"{base}/games/{gid}")
    if page.query_selector("#show-now"):  # the page opens on the last phase once one was played
        page.click("#show-now")
    page.fill("#orders", "\n".join(orders))
    if orders:
        page.wait_for_selector("#check .ok")
    if ready:
        page.check("#ready")
    else:
        page.uncheck("#ready")
    page.click("#submit-orders")
    page.wait_for_selector("#note")  # the page after the redirect: "Orders saved." (or adjudicated)


def phase(page: Any, base: str, gid: int) -> str:
    page.goto(f"{base}/games/{gid}")
    text: str = page.get_attribute("#phase", "data-phase") or ""
    return text


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_whole_game_in_the_browser(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        pages = {}
        for who in ["master", *POWERS]:
            ctx = b.new_context(locale="en-US")
            pages[who] = ctx.new_page()
            register(pages[who], base, f"web_{who.lower()}")
        gm = pages["master"]
        # the master creates a game where players choose their power
        gm.goto(base + "/games/new")
        gm.fill("#game-name", "Browser game")
        gm.select_option("#map", "standard")
        gm.select_option("#assignment", "choice")
        gm.select_option("#press", "full")
        gm.fill("#deadline-M", "60")
        gm.click("#create")
        gm.wait_for_selector("#waiting")
        gid = int(gm.url.rstrip("/").split("/")[-1])
        for p in POWERS:
            page = pages[p]
            page.goto(f"{base}/games/{gid}")
            page.select_option("#join-power", p)
            page.click("#join")
            page.wait_for_selector("#you")
        assert "active" in phase(gm, base, gid) or gm.inner_text("#status") == "active"

        # orders are checked as they are typed, with the engine's messages
        fr = pages["FRANCE"]
        fr.goto(f"{base}/games/{gid}")
        fr.fill("#orders", "A PAR - MUN")
        fr.wait_for_selector("#check .bad")
        assert "MUN" in fr.inner_text("#check")
        fr.fill("#orders", "A PAR - BUR")
        fr.wait_for_selector("#check .ok")
        # the picker adds exactly the order chosen from the engine's legal orders; typed orders stay
        fr.select_option("#pick-order", "A MAR H")
        fr.click("#pick-add")
        assert fr.input_value("#orders").splitlines() == ["A PAR - BUR", "A MAR H"]
        fr.select_option("#pick-order", "A MAR - GAS")
        fr.click("#pick-add")  # a second order for the same unit replaces its line
        assert fr.input_value("#orders").splitlines() == ["A PAR - BUR", "A MAR - GAS"]

        # S1901M: adjudicated when everyone is ready
        moves = {"GERMANY": ["A MUN - BUR"], "ITALY": ["A VEN - PIE"], "FRANCE": ["A PAR - PIC"]}
        for p in POWERS:
            give_orders(pages[p], base, gid, moves.get(p, []), ready=True)
        assert phase(gm, base, gid) == "F1901M"

        # F1901M: adjudicated by the deadline
        moves = {"GERMANY": ["A BUR - MAR"], "ITALY": ["A PIE S A BUR - MAR"], "FRANCE": ["A MAR H"]}
        for p, orders in moves.items():
            give_orders(pages[p], base, gid, orders, ready=False)
        assert phase(gm, base, gid) == "F1901M"
        clock.advance(61 * 60)
        assert worker.tick(site) == 1
        assert phase(fr, base, gid) == "F1901R"

        # the retreat: only France has something to order
        assert fr.inner_text("#dislodged")
        de = pages["GERMANY"]
        de.goto(f"{base}/games/{gid}")
        assert de.query_selector("#nothing-to-order") is not None
        give_orders(fr, base, gid, ["A MAR - GAS"], ready=True)
        assert phase(gm, base, gid) == "W1901A"

        # builds and disbands
        give_orders(de, base, gid, ["A MUN B"], ready=True)
        give_orders(fr, base, gid, ["A GAS D"], ready=True)
        assert phase(gm, base, gid) == "S1902M"
        gm.goto(f"{base}/games/{gid}")
        assert "A MUN" in gm.inner_text("#units")

        # press: a private message reaches only its recipient
        fr.goto(f"{base}/games/{gid}/messages")
        fr.check("#to-GERMANY")
        fr.fill("#body", "Shall we talk about Burgundy?")
        fr.click("#send")
        fr.wait_for_selector("#note")
        de.goto(f"{base}/games/{gid}/messages")
        assert "Burgundy" in de.inner_text("#messages")
        it = pages["ITALY"]
        it.goto(f"{base}/games/{gid}/messages")
        assert "Burgundy" not in it.content()

        # the master console: pause and resume
        gm.goto(f"{base}/games/{gid}/master")
        status_is = "s => document.querySelector('#status') && document.querySelector('#status').innerText === s"
        gm.click("#master-pause")
        gm.wait_for_function(status_is, arg="paused")
        gm.click("#master-resume")
        gm.wait_for_function(status_is, arg="active")

        # French pages
        it.goto(f"{base}/games/{gid}")
        it.click("#switch-lang")
        it.wait_for_selector("html[lang=fr]")
        assert "Vos ordres" in it.content()
        assert "Historique" in it.inner_text("nav.tabs")

        # the history: every phase, with its orders and results
        fr.goto(f"{base}/games/{gid}/history")
        links = fr.query_selector_all(".phase-link")
        assert [x.inner_text() for x in links] == [
            "Spring 1901, movement",
            "Fall 1901, movement",
            "Fall 1901, retreats",
            "Winter 1901, adjustments",
        ]
        links[1].click()
        fr.wait_for_selector("#results")
        results = fr.inner_text("#results")
        assert "A BUR - MAR" in results and "A PIE S A BUR - MAR" in results
