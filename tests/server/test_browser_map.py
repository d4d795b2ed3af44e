"""Ordering on the map in a real browser: a standard game played by clicks only (moves, a support, a convoy,
a retreat, a build), the last-phase board with its results in words, History's arrows, the phone layout."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import Bot, box_lines, login, new_game, open_now, order_by_clicks, shot, submit


def adjudicate(master: Bot, gid: int, bots: dict[str, Bot], orders: dict[str, list[str]], phase: str) -> None:
    """The other powers' orders by API, then the master adjudicates ``phase`` (unless everyone was ready)."""
    for p, lines in orders.items():
        assert bots[p].c.put(f"/api/games/{gid}/orders", json={"orders": lines}).json()["rejected"] == []
    if phase_of(master, gid) == phase:
        assert master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200


def phase_of(master: Bot, gid: int) -> str:
    phase: str = master.c.get(f"/api/games/{gid}").json()["game"]["phase"]
    return phase


def last_results(page: Any) -> str:
    text: str = page.inner_text("#last-results")
    return text


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_standard_game_by_clicks(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "clk")
        fr = login(b, base, "clk_france")
        en = login(b, base, "clk_england")
        # Spring 1901: moves and a support, by clicks; a preview of each order is drawn at once
        open_now(fr, base, gid)
        shot(fr, "map-01-start")
        order_by_clicks(fr, ["PAR", "BUR"])
        assert box_lines(fr) == ["A PAR - BUR"]
        order_by_clicks(fr, ["MAR", "PAR", "BUR"], "A MAR S A PAR - BUR")
        order_by_clicks(fr, ["BRE", "MAO"])
        order_by_clicks(fr, ["BRE", "ENG"])  # a second order for the same unit replaces the first
        assert box_lines(fr) == ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - ENG"]
        assert fr.locator("#previews .preview").count() == 3
        shot(fr, "map-02-france-spring")
        submit(fr)
        open_now(en, base, gid)
        order_by_clicks(en, ["LON", "NTH"])
        order_by_clicks(en, ["LVP", "YOR"])
        submit(en)
        adjudicate(
            master,
            gid,
            bots,
            {"GERMANY": ["A MUN - RUH", "A BER - MUN", "F KIE - HOL"], "ITALY": ["A VEN - PIE"]},
            "S1901M",
        )
        assert phase_of(master, gid) == "F1901M"

        # the page opens on what happened, drawn, with results in words
        fr.goto(f"{base}/games/{gid}")
        fr.wait_for_selector("#last-results")
        assert fr.get_attribute("#show-last", "aria-pressed") == "true"
        assert "succeeds" in last_results(fr) and "no order given: holds" in last_results(fr)
        shot(fr, "map-03-last-phase")

        # Fall 1901: a convoy (England), Germany dislodges France's army in Burgundy
        open_now(en, base, gid)
        order_by_clicks(en, ["NTH", "YOR", "NWY"], "F NTH C A YOR - NWY")
        order_by_clicks(en, ["YOR", "NWY"], "A YOR - NWY VIA")
        assert box_lines(en) == ["F NTH C A YOR - NWY", "A YOR - NWY VIA"]
        shot(en, "map-04-england-convoy")
        submit(en)
        open_now(fr, base, gid)
        order_by_clicks(fr, ["BUR"], "A BUR H")
        order_by_clicks(fr, ["MAR", "SPA"])
        order_by_clicks(fr, ["ENG", "BEL"])
        submit(fr)
        adjudicate(master, gid, bots, {"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"]}, "F1901M")
        assert phase_of(master, gid) == "F1901R"
        fr.goto(f"{base}/games/{gid}")
        assert "dislodged by A RUH, retreats:" in last_results(fr)
        en.goto(f"{base}/games/{gid}")
        assert "A YOR - NWY VIA" in last_results(en)

        # the retreat, by clicks on the dislodged unit and where it goes
        open_now(fr, base, gid)
        shot(fr, "map-05-retreat")
        order_by_clicks(fr, ["BUR", "PIC"])
        assert box_lines(fr) == ["A BUR R PIC"]
        submit(fr)
        adjudicate(master, gid, bots, {}, "F1901R")
        assert phase_of(master, gid) == "W1901A"

        # the build: one click on a home centre (an army is the only unit Paris can hold)
        open_now(fr, base, gid)
        order_by_clicks(fr, ["PAR"])
        assert box_lines(fr) == ["A PAR B"]
        shot(fr, "map-06-build")
        submit(fr)
        adjudicate(master, gid, bots, {}, "W1901A")
        assert phase_of(master, gid) == "S1902M"
        fr.goto(f"{base}/games/{gid}")
        assert "A PAR B" in last_results(fr)
        shot(fr, "map-07-after-build")

        # the replay: France's own map of every played phase, one after the other
        fr.goto(f"{base}/games/{gid}/history")
        fr.click(".replay-play")
        fr.wait_for_function(
            "document.querySelector('.replay-phase').textContent === 'Winter 1901, adjustments'", timeout=20000
        )
        assert fr.get_attribute("#replay-frame", "src").endswith("/history/3/map.svg?as=FRANCE")
        shot(fr, "map-08-replay")

        # History steps phase by phase, with links and the arrow keys
        fr.goto(f"{base}/games/{gid}/history/0")
        fr.keyboard.press("ArrowRight")
        fr.wait_for_url("**/history/1")
        fr.keyboard.press("ArrowLeft")
        fr.wait_for_url("**/history/0")
        fr.click("#next")
        fr.wait_for_url("**/history/1")
        assert "dislodged by A RUH" in fr.inner_text("#results")
