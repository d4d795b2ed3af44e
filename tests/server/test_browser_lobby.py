"""The lobby, a private game through its invitation link, a draw vote that passes, and an anonymous
game's pages, in a real browser (desktop and 390 px phone width; screenshots under test-artifacts/)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import POWERS, Bot, login, new_game, shot

PHONE = {"width": 390, "height": 844}


def phone(b: Any, base: str, name: str) -> Any:
    """A phone-sized page logged in as ``name``."""
    return login(b, base, name, width=PHONE["width"], height=PHONE["height"])


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_private_game_through_an_invitation_link(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        new_game(base, "lobbyrun")  # a running game, listed after the open ones
        host = Bot(base, "inv_host")
        Bot(base, "inv_guest")
        page = login(b, base, "inv_host")
        page.goto(base + "/games/new")
        page.fill("#game-name", "Club night")
        page.select_option("#assignment", "choice")
        page.check("#creator-player")
        page.select_option("#creator-power", "FRANCE")
        page.check("#private")
        page.fill("#join-code", "tulip")
        page.check("#anonymous")
        shot(page, "lobby-01-new-game-form")
        page.click("#create")
        page.wait_for_selector("#invitation")
        link = page.input_value("#invite-link")
        assert "/invite/" in link and page.inner_text("#invite-code") == "tulip"
        assert "No game master" in page.inner_text("#master-name")
        shot(page, "lobby-02-private-game-page")
        # the private game is not in anyone else's lobby
        guest = phone(b, base, "inv_guest")
        guest.goto(base + "/")
        assert "Club night" not in guest.content() and "lobbyrun" in guest.inner_text("#running-games")
        shot(guest, "lobby-03-lobby-phone")
        private_id = page.url.split("/games/")[1].split("?")[0]
        assert guest.goto(f"{base}/games/{private_id}").status == 404  # the game itself does not exist for them
        # the invitation link: settings and roster, a code to give
        guest.goto(link)
        assert guest.inner_text("#join-title") == "Club night"
        assert "Private" in guest.inner_text("#settings") and "Anonymous" in guest.inner_text("#settings")
        assert "inv_host" not in guest.content()  # anonymous: the creator plays, and is not named
        shot(guest, "lobby-04-join-page-phone")
        guest.select_option("#join-power", "ITALY")
        guest.fill("#join-code", "wrong")
        guest.click("#join")
        assert "join code" in guest.inner_text("#problem")
        guest.goto(link)
        guest.select_option("#join-power", "ITALY")
        guest.fill("#join-code", "tulip")
        guest.click("#join")
        guest.wait_for_selector("#note")
        assert "Ital" in guest.inner_text("#you")  # the power asked for, by name
        shot(guest, "lobby-05-joined-phone")
        assert "Club night" in guest.content()
        # the desktop join page of a public game and the lobby
        desk = login(b, base, "inv_guest")
        desk.goto(base + "/")
        assert desk.locator("#my-games").inner_text().count("Club night") == 1
        shot(desk, "lobby-06-lobby-desktop")
        host.c.close()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_draw_vote_that_passes(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "drawvote")
        fr = login(b, base, "drawvote_france")
        fr.goto(f"{base}/games/{gid}/votes")
        fr.click("#propose-draw-button")
        fr.wait_for_selector("#note")
        assert fr.locator(".vote").first.get_attribute("data-status") == "open"
        shot(fr, "vote-01-proposed")
        vote = int(str(fr.locator(".vote").first.get_attribute("id")).split("-")[1])
        for p in POWERS:
            if p not in ("FRANCE", "TURKEY"):
                r = bots[p].c.post(f"/api/games/{gid}/votes/{vote}/ballot", json={"choice": "yes"})
                assert r.status_code == 200, r.text
        tr = phone(b, base, "drawvote_turkey")
        tr.goto(f"{base}/games/{gid}/votes")
        assert tr.locator(".ballots").count() == 0  # draw votes are secret by default
        shot(tr, "vote-02-turkey-phone")
        tr.click(f"#vote-{vote}-yes")
        tr.wait_for_selector("#note")
        assert tr.locator(f"#vote-{vote}").get_attribute("data-status") == "passed"
        assert tr.inner_text("#status") == "finished" and tr.inner_text("#result") == "drawn"
        shot(tr, "vote-03-passed-phone")
        fr.goto(f"{base}/games/{gid}")
        assert "Austria" in fr.inner_text("#winners")  # powers by name
        shot(fr, "vote-04-drawn-game")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_an_anonymous_games_pages(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        master = Bot(base, "anonb_gm")
        gid = master.c.post("/api/games", json={"name": "Masked", "assignment": "choice", "anonymous": True}).json()[
            "id"
        ]
        bots = {}
        for p in POWERS:
            bots[p] = Bot(base, f"anonb_{p.lower()}")
            assert bots[p].c.post(f"/api/games/{gid}/join", json={"power": p}).status_code == 200
        assert bots["FRANCE"].c.post(f"/api/games/{gid}/messages", json={"to": "*", "body": "bonjour"}).status_code
        for width, name in ((1280, "desktop"), (390, "phone")):
            page = login(b, base, "anonb_england", width=width, height=900)
            page.goto(f"{base}/games/{gid}")
            roster = page.inner_text("#roster")
            assert "anonymous" in roster and "anonb_" not in roster
            assert "anonb_france" not in page.content()
            page.locator("#roster").scroll_into_view_if_needed()
            shot(page, f"anon-01-game-{name}")
            page.goto(f"{base}/games/{gid}/messages")
            assert "anonb_france" not in page.content() and "bonjour" in page.content()
            shot(page, f"anon-02-messages-{name}")
        gm = login(b, base, "anonb_gm")
        gm.goto(f"{base}/games/{gid}")
        assert "anonb_france" in gm.inner_text("#roster")  # the master knows who plays
