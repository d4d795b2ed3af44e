"""In a real browser: a game made on the creation page with the "tournament" lateness preset; Italy's
player never orders, falls into civil disorder, the call for a replacement appears on the public board,
and a newcomer takes the seat through the take-over link (the late player loses it).

Screenshots go to ``var/screenshots/lateness/`` (git-ignored), desktop and phone (390 px) widths.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.app import create_app
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.conftest import POWERS, Api
from tests.server.mapclick import register, shoot_both

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots" / "lateness"


def shoot(page: Any, name: str) -> None:
    shoot_both(page, SHOTS, name)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_late_player_is_replaced_through_a_take_over_link(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b, TestClient(create_app(site=site)) as api:
        gm = b.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
        register(gm, base, "late_master")
        gm.goto(base + "/games/new")
        gm.fill("#game-name", "Tournament round 1")
        gm.select_option("#assignment", "choice")
        for key in ("M", "R", "A"):
            gm.fill(f"#deadline-{key}", "60")
        gm.select_option("#lateness-preset", "tournament")
        gm.fill("#lateness-timezone", "Europe/Paris")
        gm.fill("#last-year", "1910")
        gm.select_option("#scoring", "c-diplo")
        gm.click("#lateness-fields summary")
        shoot(gm, "01-creation-with-presets")
        gm.click("#create")
        gm.wait_for_selector("#waiting")
        gid = int(gm.url.rstrip("/").split("/")[-1].split("?")[0])

        players = {}
        for p in POWERS:
            players[p] = Api(api, f"{p.lower()[:3]}{uuid.uuid4().hex[:6]}")
            assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        board = api.get(f"/api/games/{gid}/lateness").json()
        assert board["settings"]["preset"] == "tournament" and board["settings"]["timezone"] == "Europe/Paris"
        ending = api.get(f"/api/games/{gid}/scores").json()["ending"]
        assert ending == {"scoring": "c-diplo", "last_year": 1910, "target_centers": None}

        # Italy never orders; the others are ready every step; the clock runs past each deadline
        for _ in range(12):
            if api.get(f"/api/games/{gid}/lateness").json()["calls"]:
                break
            for p in POWERS:
                if p != "ITALY":
                    players[p].put(f"/api/games/{gid}/orders", {"ready": True})
            clock.advance(25 * 3600)
            worker.tick(site)
        board = api.get(f"/api/games/{gid}/lateness").json()
        assert board["disorder"] == ["ITALY"] and [c["power"] for c in board["calls"]] == ["ITALY"]
        gm.goto(f"{base}/games/{gid}/lateness")
        assert gm.query_selector("#calls #takeover-ITALY") is not None and gm.query_selector("#missed") is not None
        shoot(gm, "02-game-board-civil-disorder")

        # a newcomer finds the call on the site-wide board and follows the take-over link
        me = b.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900}).new_page()
        me.goto(base + "/lateness")
        shoot(me, "03-site-board-logged-out")
        me.click("#calls .takeover-link")
        me.wait_for_selector("#login-first")
        shoot(me, "04-takeover-logged-out")
        register(me, base, "newcomer")
        me.goto(base + "/lateness")
        me.click("#calls .takeover-link")
        me.click("#take-seat")
        me.wait_for_selector("#you")
        assert "Italie" in me.inner_text("#you")  # the power by its French name
        shoot(me, "05-game-as-the-replacement")
        assert players["ITALY"].get(f"/api/games/{gid}/orders").status_code == 403  # the late player lost it
        board = api.get(f"/api/games/{gid}/lateness").json()
        assert board["disorder"] == [] and board["calls"] == []
        me.goto(f"{base}/games/{gid}/lateness")
        assert me.query_selector("#no-calls") is not None
        shoot(me, "06-game-board-after")

        # the master declares a draw: the final page shows the C-Diplo scores
        gm.goto(f"{base}/games/{gid}/master")
        gm.once("dialog", lambda d: d.accept())
        gm.click("#master-draw")
        gm.wait_for_selector("#note")
        me.goto(f"{base}/games/{gid}")
        me.wait_for_selector("#scores")
        assert "C-Diplo" in me.inner_text("#scores")
        shoot(me, "07-final-page-scores")
