"""The drawn-board cache (``arbitre.server.boards``): a hidden change leaves a player's page and map byte for
byte as they were, a cached drawing is the fresh drawing, and an entry is shared only by equal views."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from arbitre.server.boards import BOARDS, BoardCache, board_key
from arbitre.server.services import played_view
from arbitre.server.site import Site
from arbitre.server.viewing import current_view, draw_svg, map_tag
from arbitre.store.models import GameRow
from arbitre.views import View
from arbitre.views.model import VisibleUnit
from tests.server.conftest import POWERS, Api, start_game
from tests.server.test_submarines import play, twin_games


def _bytes(api: Api, gid: int, paths: list[str]) -> dict[str, bytes]:
    """The answers at ``paths``, with the per-visit CSRF tokens and the game id set aside."""
    out = {}
    for path in paths:
        r = api.get(path.format(gid=gid))
        assert r.status_code == 200, (path, r.text)
        body = re.sub(rb'(name="csrf" value|data-csrf)="[0-9a-f]+"', b"", r.content)
        out[path] = re.sub(rb"/games/%d(?=\D)" % gid, b"/games/ID", body).replace(b'data-game="%d"' % gid, b"")
    return out


PAGE_AND_MAP = ["/games/{gid}", "/games/{gid}/map.svg"]


def test_another_power_s_orders_change_no_byte_of_a_player_s_page_or_map(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client)
    france, germany = players["FRANCE"], players["GERMANY"]
    assert france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).status_code == 200
    # that Germany gave orders is public (the players' table); what they are is not
    assert germany.put(f"/api/games/{gid}/orders", {"orders": ["A MUN H"]}).status_code == 200
    before = _bytes(france, gid, PAGE_AND_MAP)

    assert germany.put(f"/api/games/{gid}/orders", {"orders": ["A MUN - RUH", "F KIE - HOL"]}).status_code == 200
    assert _bytes(france, gid, PAGE_AND_MAP) == before

    # France's own change shows at once (the comparison above could fail)
    assert france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - PIC"]}).status_code == 200
    after = _bytes(france, gid, PAGE_AND_MAP)
    assert after["/games/{gid}"] != before["/games/{gid}"] and b"A PAR - PIC" in after["/games/{gid}"]


def test_a_foreign_submerged_move_changes_no_byte_and_equal_views_share_one_drawing(app_client: TestClient) -> None:
    """Two Submarines games differ only in where France's submerged submarine went: England's page and maps
    are byte-identical, and the second game's are the first game's drawings (equal views, one entry)."""
    master = Api(app_client, "cachemaster")
    players = {p: Api(app_client, f"cache_{p.lower()}") for p in POWERS}
    games = twin_games(master, players)
    for gid in games:
        play(master, players, gid, {"FRANCE": ["SM BRE - MAO"]})  # S1901M
        play(master, players, gid, {})  # S1901R
        play(master, players, gid, {"FRANCE": ["SM MAO - MAO-1"]})  # F1901M: dives
        play(master, players, gid, {})  # F1901R
    moved, stayed = games
    play(master, players, moved, {"FRANCE": ["SM MAO-1 - IRI-1"], "ENGLAND": ["F LON - ENG"]})
    play(master, players, stayed, {"FRANCE": ["SM MAO-1 H"], "ENGLAND": ["F LON - ENG"]})
    paths = [*PAGE_AND_MAP, *(f"/games/{{gid}}/history/{i}/map.svg" for i in range(5))]

    england = players["ENGLAND"]
    first = _bytes(england, moved, paths)
    hits, misses = BOARDS.hits, BOARDS.misses
    second = _bytes(england, stayed, paths)
    assert second == first
    assert BOARDS.misses == misses and BOARDS.hits > hits  # nothing drawn again: the same views, the same entries
    # France's own boards differ between the games: the cache never hands one game's drawing to the other
    france = players["FRANCE"]
    assert _bytes(france, moved, paths[1:2]) != _bytes(france, stayed, paths[1:2])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_cached_drawing_is_the_fresh_drawing(app_client: TestClient, site: Site, lang: str) -> None:
    gid, master, players = start_game(app_client)
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).status_code == 200
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    assert players["ITALY"].put(f"/api/games/{gid}/orders", {"orders": ["A VEN - TRI"]}).status_code == 200
    observer = Api(app_client, f"watch{lang}")
    assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
    readers = {"FRANCE": players["FRANCE"], "ITALY": players["ITALY"], "master": master, "observer": observer}
    with site.db.reading() as s:
        row = s.scalars(select(GameRow).where(GameRow.id == gid)).one()
        game = site.referee.game(s, row)
        played = {viewer: played_view(site, s, row, 0, viewer) for viewer in readers}  # from the phase's record
    for viewer, api in readers.items():
        assert api.put("/api/me", {"lang": lang}).status_code == 200
        for _ in range(2):  # the first answer fills the cache, the second comes from it
            now, past, page = (api.get(f"/games/{gid}{p}") for p in ("/map.svg", "/history/0/map.svg", ""))
            assert now.text == draw_svg(current_view(game, viewer), lang), viewer
            past_view = played[viewer]
            assert past_view is not None and past.text == draw_svg(past_view, lang), viewer
            # the page names its map's address (it fetches the map there): the same fresh drawing
            found = re.search(r'id="map" data-src="([^"]+)"', page.text)
            assert found is not None and "<svg" not in page.text, viewer
            address = found.group(1).replace("&amp;", "&")
            assert f"v={map_tag(current_view(game, viewer), lang)}&" in address
            assert api.get(address).text == now.text, viewer


def _view(hidden: bool) -> View:
    units = (VisibleUnit("FRANCE", "A", "PAR"), VisibleUnit(None, "F", "MAO", hidden=hidden))
    return View("ENGLAND", "standard", "S1901M", units, {"PAR": "FRANCE"})


def test_the_key_holds_every_input() -> None:
    assert board_key(_view(False), "en", "svg") == board_key(_view(False), "en", "svg")  # equal views, one entry
    assert board_key(_view(False), "en", "svg") != board_key(_view(True), "en", "svg")  # any field counts
    assert board_key(_view(False), "en", "svg") != board_key(_view(False), "fr", "svg")
    assert board_key(_view(False), "en", "svg") != board_key(_view(False), "en", "inline")


def test_the_cache_is_bounded_and_keeps_the_recent() -> None:
    cache = BoardCache(size=2)
    drawn: list[str] = []

    def draw(text: str) -> str:
        drawn.append(text)
        return text

    for key in (b"a", b"b", b"a", b"c", b"a", b"b"):
        assert cache.get(key, lambda k=key: draw(k.decode())) == key.decode()
    assert len(cache) == 2
    assert drawn == ["a", "b", "c", "b"]  # "b" was the least recently used when "c" came
    assert cache.get(b"none", lambda: None) is None and len(cache) == 2  # no renderer: nothing kept
