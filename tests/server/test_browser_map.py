"""Ordering on the map in a real browser: a standard game played by clicks only (a support, a convoy, a
retreat, a build), the last-phase board and its results in words, and the page at phone width."""

from __future__ import annotations

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import box_lines, login, new_game, open_now, order_by_clicks, shot, submit, tap


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_standard_game_by_clicks(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "clk")
        fr = login(b, base, "clk_france")
        open_now(fr, base, gid)
        shot(fr, "map-01-start")
        order_by_clicks(fr, ["PAR", "BUR"])
        assert box_lines(fr) == ["A PAR - BUR"]
        order_by_clicks(fr, ["MAR", "PAR", "BUR"], "A MAR S A PAR - BUR")
        order_by_clicks(fr, ["BRE", "MAO"])
        assert box_lines(fr) == ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]
        fr.wait_for_selector("#previews .preview >> nth=2", state="attached")
        shot(fr, "map-02-france-orders")
        submit(fr)
        shot(fr, "map-03-saved")
