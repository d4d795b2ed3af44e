"""The votes page follows the game's votes live (real browser, desktop and 390 px phone; screenshots under
test-artifacts/): a vote opened, a ballot cast and a vote withdrawn by other players appear without a
reload, and a player takes its own ballot back with the page's button."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import login, new_game, shot

PHONE = {"width": 390, "height": 844}


def on_votes_page(page: Any, base: str, gid: int) -> None:
    """Open the votes page and wait until its event stream is connected."""
    page.goto(f"{base}/games/{gid}/votes")
    page.wait_for_function("document.getElementById('live').dataset.state === 'open'")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_votes_page_updates_live(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "livevote")
        fr = login(b, base, "livevote_france")
        ge = login(b, base, "livevote_germany", width=PHONE["width"], height=PHONE["height"])
        for page in (fr, ge):
            on_votes_page(page, base, gid)
        assert fr.locator("#no-votes").count() == 1
        r = bots["ITALY"].c.post(f"/api/games/{gid}/votes", json={"kind": "extend", "minutes": 90})
        assert r.status_code == 201, r.text
        vote = r.json()["id"]
        for page in (fr, ge):  # no reload: the stream's vote_opened swaps the list
            page.wait_for_selector(f"#vote-{vote}[data-status=open]")
        assert fr.locator(f"#vote-{vote}-yes").count() == 1
        shot(fr, "livevote-01-opened-desktop")
        shot(ge, "livevote-02-opened-phone")
        r = bots["ENGLAND"].c.post(f"/api/games/{gid}/votes/{vote}/ballot", json={"choice": "yes"})
        assert r.status_code == 200, r.text
        fr.wait_for_function(f"document.querySelector('#vote-{vote} .ballots').textContent.includes('England')")
        ge.click(f"#vote-{vote}-yes")  # Germany votes on its phone (a form: the page reloads)
        ge.wait_for_selector(f"#vote-{vote}-withdraw-ballot")
        fr.wait_for_function(f"document.querySelector('#vote-{vote} .ballots').textContent.includes('Germany')")
        shot(ge, "livevote-03-voted-phone")
        ge.click(f"#vote-{vote}-withdraw-ballot")
        ge.wait_for_selector(f"#vote-{vote}-withdraw-ballot", state="detached")
        assert ge.locator(f"#vote-{vote}-yes").count() == 1  # asked again
        fr.wait_for_function(f"!document.querySelector('#vote-{vote} .ballots').textContent.includes('Germany')")
        shot(fr, "livevote-04-ballot-taken-back-desktop")
        r = bots["ITALY"].c.delete(f"/api/games/{gid}/votes/{vote}")
        assert r.status_code == 200, r.text
        for page in (fr, ge):
            page.wait_for_selector(f"#vote-{vote}[data-status=withdrawn]")
        assert fr.locator(f"#vote-{vote}-yes").count() == 0
        shot(fr, "livevote-05-withdrawn-desktop")
        shot(ge, "livevote-06-withdrawn-phone")
