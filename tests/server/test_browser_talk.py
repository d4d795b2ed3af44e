"""Conversations, words and time zones in a real browser (1366 px and 390 px, English and French).

A group message to two powers appears in one conversation for its three parties, live, with its unread
count, and not for a fourth power; public press is its own thread; a French reader's map carries no
English result words; an account registered from a browser in Tokyo gets its e-mails in Tokyo time.
Screenshots go to the git-ignored ``test-artifacts``.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import PASSWORD, login, new_game, shot
from tests.server.smtp_sink import Sink

GROUP = "ENGLAND,FRANCE,GERMANY"
PUBLIC_FR = "Presse publique"


def _badge(page: Any, key: str) -> str:
    """The unread count shown beside conversation ``key`` ("" when none is shown)."""
    item = page.locator(f'#conversations li[data-conversation="{key}"] .unread')
    if item.count() == 0 or item.get_attribute("hidden") is not None:
        return ""
    return str(item.inner_text())


def _wait_badge(page: Any, key: str, n: int) -> None:
    page.wait_for_function(
        '([k, n]) => { const e = document.querySelector(`#conversations li[data-conversation="${k}"] .unread`);'
        " return e && !e.hidden && e.textContent === String(n); }",
        arg=[key, n],
    )


def _wait_total(page: Any, n: int) -> None:
    """Wait until the header says ``n`` unread messages."""
    page.wait_for_function(
        "(n) => { const b = document.getElementById('messages-unread');"
        " return b && !b.hidden && b.dataset.unread === String(n) && b.textContent.includes(String(n)); }",
        arg=n,
    )


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_group_message_is_one_live_conversation_for_its_three_parties(site: Site) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "talk")
        assert bots["GERMANY"].c.put("/api/me", json={"lang": "fr"}).status_code == 200
        england = login(b, base, "talk_england", width=1366, height=900)
        germany = login(b, base, "talk_germany", width=390, height=844)  # a French phone
        italy = login(b, base, "talk_italy", width=390, height=844)  # an English phone: public press
        for page in (england, germany, italy):
            page.goto(f"{base}/games/{gid}/messages")
            page.wait_for_function("document.getElementById('live').dataset.state === 'open'")
            # nothing ticked: the game master is not chosen for you
            assert page.locator("#to input:checked").count() == 0
        r = bots["FRANCE"].c.post(f"/api/games/{gid}/messages", json={"to": ["ENGLAND", "GERMANY"], "body": "Triple?"})
        assert r.status_code == 201, r.text
        # live: the new conversation, named by its powers in the reader's language, with one unread message
        _wait_badge(england, GROUP, 1)
        _wait_badge(germany, GROUP, 1)
        # the header's total of unread messages moves live too, for its readers only
        _wait_total(england, 1)
        _wait_total(germany, 1)
        assert italy.get_attribute("#messages-unread", "data-unread") == "0" and not italy.is_visible(
            "#messages-unread"
        )
        assert england.inner_text(f'#conversations li[data-conversation="{GROUP}"] a') == "France, Germany"
        assert germany.inner_text(f'#conversations li[data-conversation="{GROUP}"] a') == "Angleterre, France"
        assert "Triple?" in england.inner_text("#messages") and "France → England, Germany" in england.inner_text(
            "#messages"
        )
        shot(england, "talk-01-group-live-1366")
        shot(germany, "talk-02-group-live-390-fr")
        # England opens it: France and Germany are ticked; the reply goes to the same conversation
        england.click(f'#conversations li[data-conversation="{GROUP}"] a')
        england.wait_for_selector(f'#thread[data-conversation="{GROUP}"]')
        assert england.is_checked("#to-FRANCE") and england.is_checked("#to-GERMANY")
        assert not england.is_checked("#to-MASTER") and _badge(england, GROUP) == ""
        england.fill("#body", "Agreed, against Russia")
        england.click("#send")
        england.wait_for_selector("#messages li:has-text('Agreed, against Russia')")
        assert GROUP in england.url.replace("%2C", ",")
        _wait_badge(germany, GROUP, 2)
        _wait_total(germany, 2)
        assert england.get_attribute("#messages-unread", "data-unread") == "0"  # the conversation it opened is read
        shot(england, "talk-03-thread-1366")
        # public press: its own thread, for everyone
        italy.check("#to-public")
        italy.fill("#body", "Peace in the Mediterranean")
        italy.click("#send")
        italy.wait_for_selector("#messages li:has-text('Peace in the Mediterranean')")
        _wait_badge(england, "*", 1)
        _wait_badge(germany, "*", 1)
        _wait_total(england, 1)
        _wait_total(germany, 3)
        # the fourth power never saw the group: no conversation, no words, no count
        italy.goto(f"{base}/games/{gid}/messages")
        assert italy.locator(f'#conversations li[data-conversation="{GROUP}"]').count() == 0
        assert "Triple?" not in italy.content() and "Agreed" not in italy.content()
        assert italy.get_attribute("#messages-unread", "data-unread") == "0"
        assert italy.inner_text('#conversations li[data-conversation="*"] a') == "Public press"
        assert germany.inner_text('#conversations li[data-conversation="*"] a') == PUBLIC_FR
        assert italy.evaluate("document.documentElement.scrollWidth") <= 390 + 1
        shot(italy, "talk-04-public-390")
        germany.goto(f"{base}/games/{gid}/messages?c={GROUP}")
        text = germany.inner_text("#thread")
        assert "Triple?" in text and "Agreed, against Russia" in text and "GERMANY" not in text
        shot(germany, "talk-05-thread-390-fr")
        # a phone at 390 px: the page is not wider than the screen
        assert germany.evaluate("document.documentElement.scrollWidth") <= 390 + 1


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_french_readers_map_and_history_have_no_english_result_words(site: Site) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "mots")
        assert bots["FRANCE"].c.put("/api/me", json={"lang": "fr"}).status_code == 200
        for power, lines in {"FRANCE": ["A PAR - BUR", "A MAR - BUR"], "GERMANY": ["A MUN - BUR"]}.items():
            assert bots[power].c.put(f"/api/games/{gid}/orders", json={"orders": lines}).status_code == 200
        assert master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200
        svg = bots["FRANCE"].c.get(f"/games/{gid}/history/0/map.svg").text
        texts = " ".join(re.findall(r"<(?:title|text)[^>]*>([^<]*)<", svg))
        for word in ("succeeds", "fails", "standoff", "bounced", "Spring", "unknown power"):
            assert word not in texts, word
        assert "échoue" in texts and "blocage en BUR" in texts
        english = bots["GERMANY"].c.get(f"/games/{gid}/history/0/map.svg").text
        assert "standoff in BUR" in english and "fails" in english
        # the History page's replay names its phases in French, at both widths
        for width in (1366, 390):
            page = login(b, base, "mots_france", width=width, height=900)
            page.goto(f"{base}/games/{gid}/history")
            page.wait_for_selector("#replay .replay-phase")
            assert page.inner_text("#replay .replay-phase") == "Printemps 1901, mouvements"
            assert "S1901M" not in page.inner_text("#replay")
            shot(page, f"talk-06-history-fr-{width}")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_an_account_made_in_a_tokyo_browser_gets_its_emails_in_tokyo_time(
    mail_site: Site, sink: tuple[str, Sink], clock: ManualClock
) -> None:
    _, received = sink
    with live_server(mail_site) as base, browser() as b:
        for width in (1366, 390):
            name = f"tokyo{width}"
            page = b.new_context(
                viewport={"width": width, "height": 900}, locale="en-GB", timezone_id="Asia/Tokyo", bypass_csp=True
            ).new_page()
            page.goto(base + "/register")
            page.fill("#name", name)
            page.fill("#password", PASSWORD)
            page.click("#submit")
            page.wait_for_selector("#nav-account")
            api = httpx.Client(base_url=base, timeout=60)
            token = api.post("/api/tokens", json={"name": name, "password": PASSWORD}).json()["token"]
            api.headers["Authorization"] = f"Bearer {token}"
            settings = api.get("/api/me/notifications").json()
            assert settings["time_zone"] == "Asia/Tokyo"  # the browser's zone, not UTC
            assert api.put("/api/me/notifications", json={"email": f"{name}@example.org"}).status_code == 200
            r = api.post("/api/games", json={"name": f"Tea {width}", "assignment": "choice", "deadlines": {"M": 86400}})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            # seven players fill the game; the account is its master
            for p in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
                other = httpx.Client(base_url=base, timeout=60)
                login_body = {"name": f"{p.lower()[:3]}{width}", "password": PASSWORD}
                assert other.post("/api/register", json=login_body).status_code == 201
                other.headers["Authorization"] = f"Bearer {other.post('/api/tokens', json=login_body).json()['token']}"
                assert other.post(f"/api/games/{gid}/join", json={"role": "player", "power": p}).status_code == 200
            sender.tick(mail_site)
            (started,) = [m for m in received.messages(f"{name}@example.org") if "started" in m.subject]
            # the first deadline: 24 h after the start, 2030-01-02 00:00 UTC, which is 09:00 in Tokyo
            assert "Wednesday 2 January 2030, 09:00 (Asia/Tokyo)" in started.text(), started.text()
            # the game page shows the same zone
            page.goto(f"{base}/games/{gid}")
            page.wait_for_selector("#deadline-local")
            assert "09:00" in page.inner_text("#deadline-local")
            shot(page, f"talk-07-tokyo-{width}")
