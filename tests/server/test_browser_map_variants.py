"""The variants' orders given on the map in a real browser: Colonial's train move and Suez passage (drawn on
the board), Submarines (submerge, move in the depths, torpedo), Espionnite (a spy, then one reaction change);
and the page at phone width (390 px): the map pans and zooms, and ordering works by tap."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import Bot, box_lines, login, new_game, open_now, order_by_clicks, shot, submit

COLONIAL = ["BRITAIN", "CHINA", "FRANCE", "HOLLAND", "JAPAN", "RUSSIA", "TURKEY"]


def play(master: Bot, bots: dict[str, Bot], gid: int, orders: dict[str, list[str]]) -> None:
    for p, lines in orders.items():
        assert bots[p].c.put(f"/api/games/{gid}/orders", json={"orders": lines}).json()["rejected"] == []
    assert master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200


def state(master: Bot, gid: int) -> Any:
    return master.c.get(f"/api/games/{gid}").json()["game"]


def last_map(page: Any, base: str) -> str:
    """The SVG of the last-phase board shown on the page."""
    src = page.get_attribute("#last-map", "src")
    text: str = page.request.get(base + src).text()
    return text


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_colonial_train_and_suez_on_the_map(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "col", "colonial", powers=COLONIAL)
        # Turkey's fleet reaches the Mediterranean and an army is convoyed into Egypt (by API)
        play(master, bots, gid, {"TURKEY": ["F CON - MED"]})
        while state(master, gid)["phase"] != "F1870M":
            play(master, bots, gid, {})
        play(master, bots, gid, {"TURKEY": ["F MED C A ANG - EGY", "A ANG - EGY"]})
        while not state(master, gid)["phase"].endswith("M"):
            play(master, bots, gid, {})
        ru = login(b, base, "col_russia")
        tu = login(b, base, "col_turkey")
        open_now(ru, base, gid)
        order_by_clicks(ru, ["MOS", "KRA"])  # the railroad: no need to click the stations on the way
        assert box_lines(ru) == ["A MOS - TSR - KRA"]
        shot(ru, "colonial-01-train-preview")
        submit(ru, ready=False)
        open_now(tu, base, gid)
        order_by_clicks(tu, ["MED", "RED"], "F MED - RED")
        assert box_lines(tu) == ["F MED - RED"]
        legal = tu.evaluate("fetch(location.pathname.replace('/games/', '/api/games/') + '/legal').then(r => r.json())")
        permission = [o for o in legal["legal"].get("SUEZ", []) if "MED" in o]
        if permission:  # Turkey holds Egypt: it lets its own fleet through, by clicking the fleet and the sea
            order_by_clicks(tu, ["MED", "RED"], permission[0])
        shot(tu, "colonial-02-suez-preview")
        submit(tu, ready=False)
        play(master, bots, gid, {})
        tu.goto(f"{base}/games/{gid}")
        svg = last_map(tu, base)
        assert 'data-kind="train_move"' in svg  # the train's route along the railway
        passage = svg.split('data-places="MED RED"', 1)[1].split("</g>", 1)[0]
        assert "<title>canal</title>" in passage  # the fleet's arrow goes through the canal
        assert "F MED - RED" in tu.inner_text("#last-results")
        shot(tu, "colonial-03-drawn")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_submarines_on_the_map(site: Site, clock: ManualClock) -> None:
    pytest.importorskip("arbitre.variants.submarines")
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(
            base, "smap", rules=["submarines"], options={"start_submarines": "FRANCE:BRE,ENGLAND:LON"}
        )
        play(master, bots, gid, {"FRANCE": ["SM BRE - MAO"]})
        play(master, bots, gid, {})
        fr = login(b, base, "smap_france")
        open_now(fr, base, gid)
        order_by_clicks(fr, ["MAO", "MAO-1"], "SM MAO - MAO-1")  # submerge: the sea's depths are a target of their own
        assert box_lines(fr) == ["SM MAO - MAO-1"]
        shot(fr, "subs-01-submerge")
        submit(fr, ready=False)
        play(master, bots, gid, {})
        play(master, bots, gid, {})
        open_now(fr, base, gid)
        order_by_clicks(fr, ["MAO-1", "IRI-1"], "SM MAO-1 - IRI-1")  # a move in the depths
        assert box_lines(fr) == ["SM MAO-1 - IRI-1"]
        submit(fr, ready=False)
        play(master, bots, gid, {"ENGLAND": ["SM LON - ENG"]})
        play(master, bots, gid, {})
        open_now(fr, base, gid)
        order_by_clicks(fr, ["IRI-1", "IRI"], "SM IRI-1 Torp. IRI")  # a torpedo at the surface above
        assert box_lines(fr) == ["SM IRI-1 Torp. IRI"]
        shot(fr, "subs-02-torpedo")
        submit(fr, ready=False)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_espionnite_spy_and_reaction_on_the_map(site: Site, clock: ManualClock) -> None:
    pytest.importorskip("arbitre.variants.espionnite")
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "emap", rules=["espionnite"])
        fr = login(b, base, "emap_france")
        open_now(fr, base, gid)
        order_by_clicks(fr, ["PAR", "BUR"])
        order_by_clicks(fr, ["MUN"])  # a place with no unit of France's: the spy goes there
        assert box_lines(fr) == ["A PAR - BUR", "SPY MUN"]
        shot(fr, "spy-01-orders")
        submit(fr)
        bots["GERMANY"].c.put(f"/api/games/{gid}/orders", json={"orders": ["A MUN - BUR"]})
        for p, bot in bots.items():
            if p != "FRANCE":
                bot.c.put(f"/api/games/{gid}/orders", json={"ready": True})
        assert state(master, gid)["step"] == "reaction"
        fr.goto(f"{base}/games/{gid}")
        assert "A MUN - BUR" in fr.inner_text("#reveal")
        # the reaction: one change, made on the map; a second click-order replaces it (one line)
        open_now(fr, base, gid)  # waits for the fetched map
        order_by_clicks(fr, ["PAR", "GAS"])
        order_by_clicks(fr, ["PAR", "PIC"])
        assert box_lines(fr) == ["A PAR - PIC"]
        shot(fr, "spy-02-reaction")
        submit(fr)
        for p, bot in bots.items():
            if p != "FRANCE":
                bot.c.put(f"/api/games/{gid}/orders", json={"ready": True})
        assert state(master, gid)["phase"] == "F1901M"
        fr.goto(f"{base}/games/{gid}")
        assert "A PAR - PIC" in fr.inner_text("#last-results")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_phone_layout(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, _bots = new_game(base, "phone")
        fr = login(b, base, "phone_france", width=390, height=844)
        open_now(fr, base, gid)
        width = fr.evaluate("document.documentElement.scrollWidth")
        assert width <= 392  # nothing wider than the phone
        shot(fr, "phone-01-page")
        before = fr.get_attribute("#map svg", "viewBox")
        fr.click(".zoom-in")
        fr.click(".zoom-in")
        assert fr.get_attribute("#map svg", "viewBox") != before
        order_by_clicks(fr, ["PAR", "BUR"])  # tap, on the zoomed map
        assert box_lines(fr) == ["A PAR - BUR"]
        fr.locator("#map").scroll_into_view_if_needed()
        shot(fr, "phone-02-zoomed-order")
        fr.click(".zoom-reset")
        assert fr.get_attribute("#map svg", "viewBox") == before
