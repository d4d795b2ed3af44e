"""Light pages: the game page and its map are compressed, together under 200 KB mid-game (standard and
Colonial); the map has its own address, cached per reader, and never gives one reader another's view."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import Api, start_game

LIMIT = 200_000
"""The most a game page and its map may weigh together, compressed (bytes)."""

GZIP = {"Accept-Encoding": "gzip"}


def _seat_game(client: TestClient, map_name: str) -> tuple[int, Api, dict[str, Api]]:
    """A running game on ``map_name``: a master and one player per power (seats dealt at random)."""
    master = Api(client, f"wm_{map_name[:4]}")
    r = master.post("/api/games", {"name": "Weight", "map": map_name})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    powers = master.get(f"/api/games/{gid}").json()["powers"]
    joined = []
    for n, _ in enumerate(powers):
        api = Api(client, f"w_{map_name[:4]}{n}")
        assert api.post(f"/api/games/{gid}/join", {"role": "player"}).status_code == 200
        joined.append(api)
    return gid, master, {api.get(f"/api/games/{gid}").json()["you"]["power"]: api for api in joined}


def _move_everyone(master: Api, players: dict[str, Api], gid: int, steps: int) -> None:
    """``steps`` adjudications where every unit takes its first legal move (else its first order)."""
    for _ in range(steps):
        for api in players.values():
            legal: dict[str, list[str]] = api.get(f"/api/games/{gid}/orders").json().get("legal") or {}
            orders = [next((o for o in opts if " - " in o), opts[0]) for opts in legal.values() if opts]
            if orders:
                api.put(f"/api/games/{gid}/orders", {"orders": orders})
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200


def _raw(api: Api, path: str, headers: dict[str, str] | None = None) -> tuple[Any, int]:
    """An answer and the number of bytes that came over the wire (compressed, as sent)."""
    with api.client.stream("GET", path, headers={**api.headers, **GZIP, **(headers or {})}) as r:
        size = sum(len(chunk) for chunk in r.iter_raw())
    return r, size


def _map_address(page: str) -> str:
    found = re.search(r'id="map" data-src="([^"]+)"', page)
    assert found, "the game page names its map's address"
    return found.group(1).replace("&amp;", "&")


@pytest.mark.parametrize("map_name", ["standard", "colonial"])
def test_the_game_page_and_its_map_weigh_under_200_kb_compressed_mid_game(
    app_client: TestClient, map_name: str
) -> None:
    gid, master, players = _seat_game(app_client, map_name)
    _move_everyone(master, players, gid, 4)
    api = sorted(players.items())[0][1]
    page, page_bytes = _raw(api, f"/games/{gid}")
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    text = api.get(f"/games/{gid}").text
    assert "<svg" not in text  # the map is not in the page: it has its own address
    board, map_bytes = _raw(api, _map_address(text))
    assert board.status_code == 200 and board.headers["content-encoding"] == "gzip"
    print(f"{map_name}: page {page_bytes} B + map {map_bytes} B compressed")
    assert page_bytes + map_bytes < LIMIT, (page_bytes, map_bytes)


def _page_map(api: Api, gid: int) -> str:
    r = api.get(f"/games/{gid}")
    assert r.status_code == 200, r.text
    return _map_address(r.text)


def test_a_player_s_map_address_and_map_change_by_no_byte_when_only_hidden_state_changes(
    app_client: TestClient,
) -> None:
    gid, master, players = start_game(app_client)
    france, germany = players["FRANCE"], players["GERMANY"]
    assert france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).status_code == 200
    assert germany.put(f"/api/games/{gid}/orders", {"orders": ["A MUN H"]}).status_code == 200
    address = _page_map(france, gid)
    assert "as=FRANCE" in address and "v=" in address
    board = france.get(address)
    assert board.status_code == 200 and board.headers["cache-control"] == "private, max-age=31536000, immutable"

    # Germany's orders change (hidden from France): France's address and map stay byte for byte
    assert germany.put(f"/api/games/{gid}/orders", {"orders": ["A MUN - RUH", "F KIE - HOL"]}).status_code == 200
    assert _page_map(france, gid) == address
    again = france.get(address)
    assert again.content == board.content and again.headers["etag"] == board.headers["etag"]

    # what France sees moving (the phase adjudicated) gives a new address and picture (the above could fail)
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    moved = _page_map(france, gid)
    assert moved != address
    assert france.get(moved).content != board.content
    # the old address now answers the current picture, no longer as immutable
    stale = france.get(address)
    assert stale.headers["cache-control"] == "private, no-cache" and stale.content != board.content


def test_another_reader_s_map_address_is_refused(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    france, england = players["FRANCE"], players["ENGLAND"]
    address = _page_map(france, gid)
    assert france.get(address).status_code == 200
    for other in (england, master):
        r = other.get(address)
        assert r.status_code == 403 and "<svg" not in r.text, r.text
        assert (
            other.get(address.replace("as=FRANCE", "as=" + ("ENGLAND" if other is england else "master"))).status_code
            == 200
        )
    outsider = Api(app_client, "weight_outsider")
    assert outsider.get(address).status_code in (403, 404)
    # history maps too: the address names its reader
    assert france.get(f"/games/{gid}/history/0/map.svg?as=FRANCE").status_code in (200, 404)
    assert england.get(f"/games/{gid}/map.svg?as=FRANCE").status_code == 403


def test_a_map_is_revalidated_by_its_etag(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    france = players["FRANCE"]
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    for address in (_page_map(france, gid), f"/games/{gid}/history/0/map.svg?as=FRANCE"):
        first = france.get(address)
        assert first.status_code == 200 and first.headers["cache-control"].startswith("private")
        etag = first.headers["etag"]
        r = france.client.get(address, headers={**france.headers, "If-None-Match": etag})
        assert r.status_code == 304 and r.content == b"" and r.headers["etag"] == etag
        assert r.headers["cache-control"].startswith("private")
        r = france.client.get(address, headers={**france.headers, "If-None-Match": f"W/{etag}"})
        assert r.status_code == 304  # the tag a compressing proxy may have weakened still matches
        r = france.client.get(address, headers={**france.headers, "If-None-Match": '"other"'})
        assert r.status_code == 200 and r.content == first.content
    history = france.client.get(f"/games/{gid}/history/0/map.svg?as=FRANCE", headers=france.headers)
    assert history.headers["cache-control"] == "private, no-cache"  # revalidated: never served stale


def test_pages_are_compressed_and_the_event_stream_is_not(client: httpx.Client) -> None:
    gid, _, players = start_game(client)  # type: ignore[arg-type]
    france = players["FRANCE"]
    page = client.get(f"/games/{gid}", headers={**france.headers, **GZIP})
    assert page.headers["content-encoding"] == "gzip" and "Accept-Encoding" in page.headers["vary"]
    assert "Cookie" in page.headers["vary"]  # the answer still depends on who asks
    with client.stream("GET", f"/api/games/{gid}/events", headers={**france.headers, **GZIP}) as stream:
        assert stream.status_code == 200
        assert "content-encoding" not in stream.headers
        first = next(stream.iter_lines())  # the first event arrives at once, not held by a compressor
        assert first
