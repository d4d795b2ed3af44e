"""A tournament in a real browser: the director creates it from the form, invites nine players (one
accepts on a phone, the others through the API) and seats two rounds (seven play, two sit out, in turn); a player reads the page on a phone.  Screenshots
under test-artifacts/ (desktop and 390 px)."""

from __future__ import annotations

import re

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import Bot, login, shot

PLAYERS = [f"tour_p{i}" for i in range(9)]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_director_runs_a_tournament_from_the_pages(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        Bot(base, "tour_director")
        bots = [Bot(base, name) for name in PLAYERS]
        page = login(b, base, "tour_director")
        page.goto(base + "/tournaments")
        assert "No tournament yet." in page.inner_text("main")
        page.click("#new-tournament")
        page.fill("#tournament-name", "Coupe d'hiver")
        page.select_option("#tournament-scoring", "c-diplo")
        page.fill("#tournament-last-year", "1999x")
        page.click("#create-tournament")
        assert "last_year" in page.inner_text("#problems")  # a typo comes back with the form, as typed
        assert page.input_value("#tournament-name") == "Coupe d'hiver"
        page.fill("#tournament-last-year", "1910")
        page.fill("#tournament-penalty", "2")
        shot(page, "tournament-01-new")
        page.click("#create-tournament")
        page.wait_for_selector("#register-form")
        assert "C-Diplo" in page.inner_text("#tournament-settings")
        for name in PLAYERS:
            page.fill("#register-user", name)
            page.click("#register-player")
            page.wait_for_selector("#note")
        # invited is not enrolled: the director sees the invitations, nobody plays yet
        assert page.inner_text("#tournament-invited").count("tour_p") == 9
        assert "tour_p" not in page.inner_text("#tournament-players")
        tid = page.url.split("?")[0].rsplit("/", 1)[1]
        # one player accepts on the page (on a phone), the others through the API
        first = login(b, base, PLAYERS[0], width=390, height=844)
        first.goto(f"{base}/tournaments/{tid}")
        assert "invites you" in first.inner_text("#you-invited")
        shot(first, "tournament-02-invited-phone")
        first.click("#accept-invitation")
        first.wait_for_selector("#you-joined")
        for bot in bots[1:]:
            assert bot.c.post(f"/api/tournaments/{tid}/join").status_code == 200
        page.goto(f"{base}/tournaments/{tid}")
        assert page.inner_text("#tournament-players").count("tour_p") == 9
        assert page.query_selector("#tournament-invited") is None
        page.fill("#round-deadline-M", "60")
        page.click("#seat-round")
        page.wait_for_selector("h2:has-text('Round 1')")
        seats = page.inner_text(".board-seats")
        assert len(re.findall(r"tour_p\d", seats)) == 7 and "France:" in seats  # powers by name
        first_out = set(re.findall(r"tour_p\d", page.inner_text(".not-playing")))
        assert len(first_out) == 2
        shot(page, "tournament-03-round-one")
        page.click("#seat-round")
        page.wait_for_selector("h2:has-text('Round 2')")
        second_out = set(re.findall(r"tour_p\d", page.locator(".not-playing").nth(1).inner_text()))
        assert len(second_out) == 2 and not first_out & second_out  # those who sat out play now
        # a player, on a phone, reads the page: no forms for them, the rounds and the standings
        player = login(b, base, PLAYERS[0], width=390, height=844)
        player.goto(page.url.split("?")[0])
        assert player.query_selector("#register-form") is None and player.query_selector("#standings")
        assert player.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # no sideways scroll
        shot(player, "tournament-04-phone")
        player.goto(base + "/tournaments")
        assert "Coupe d'hiver" in player.inner_text("#tournaments")
