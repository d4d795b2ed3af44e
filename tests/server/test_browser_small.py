"""Small things in a real browser: confirmation of irreversible master actions, the countdown (running,
paused, extended), who has given orders, the creation form keeping what was typed, /api/docs offline."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import login, new_game, shot


def status(page: Any) -> str:
    text: str = page.inner_text("#status")
    return text


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_master_confirmation_countdown_and_progress(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "small")
        assert (
            bots["FRANCE"]
            .c.put(f"/api/games/{gid}/orders", json={"orders": ["A PAR H", "A MAR H", "F BRE H"], "ready": True})
            .json()
        )
        gm = login(b, base, "small_gm")
        gm.goto(f"{base}/games/{gid}")
        # the countdown, in the reader's time zone (Europe/Paris in these tests), with the absolute time
        assert re.search(r"\d+ (d|h|min)", gm.inner_text("#clock")) and "left" in gm.inner_text("#clock")
        assert "GMT+1" in gm.inner_text("#deadline-local") or "CET" in gm.inner_text("#deadline-local")
        # everyone sees who has given orders and who is ready
        row = gm.locator("#roster tr[data-power=FRANCE]").inner_text()
        assert row.count("yes") == 2, row  # every unit ordered (one of three would read "partly"), and ready
        assert gm.locator("#roster tr[data-power=ITALY]").inner_text().count("no") == 2
        gm.goto(f"{base}/games/{gid}/master")
        gm.click("#master-pause")
        gm.wait_for_selector("#note")
        assert re.fullmatch(r"paused, 1 h( \d+ min)? left", gm.inner_text("#clock")), gm.inner_text("#clock")
        gm.click("#master-resume")
        gm.wait_for_selector("#note")
        gm.fill("#extend-minutes", "1440")
        gm.click("#master-extend")
        gm.wait_for_selector("#note")
        assert gm.inner_text("#clock").startswith("1 d")  # the extension moves the countdown
        # "End the game" asks first: dismissed, nothing happens; accepted, the game ends
        gm.once("dialog", lambda d: d.dismiss())
        gm.click("#master-end")
        gm.wait_for_timeout(300)
        assert status(gm) == "active"
        shot(gm, "small-01-master")
        gm.once("dialog", lambda d: d.accept())
        gm.click("#master-end")
        gm.wait_for_selector("#note")
        assert status(gm) != "active"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_form_errors_keep_the_input_and_docs_work_offline(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        new_game(base, "forms", powers=[])
        page = login(b, base, "forms_gm")
        page.goto(base + "/games/new")
        page.fill("#game-name", "Mine")
        page.check("#rule-espionnite")
        page.fill("#options", "no_equals_sign\nalso bad")
        page.fill("#deadline-M", "soon")
        page.uncheck("#show-progress")
        page.click("#create")
        page.wait_for_selector("#problems")
        problems = page.inner_text("#problems")
        assert "no_equals_sign" in problems and "also bad" in problems and "soon" in problems
        assert page.input_value("#game-name") == "Mine" and page.is_checked("#rule-espionnite")
        assert page.input_value("#deadline-M") == "soon" and not page.is_checked("#show-progress")
        shot(page, "small-02-form-errors")
        # /api/docs: Swagger UI from the package's own files; no request leaves the server
        outside: list[str] = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base) else None)
        page.goto(base + "/api/docs")
        page.wait_for_selector("[data-path='/api/games/{game_id}/legal']", timeout=30000)
        assert outside == []
        shot(page, "small-03-api-docs")
        assert page.request.get(base + "/static/favicon.svg").status == 200
