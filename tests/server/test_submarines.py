"""Submarines on the server: nothing a power (or an observer) can fetch depends on a foreign submerged unit.

Two games are played identically, except for the order of France's submerged
submarine in Spring 1902 (``SM MAO-1 - IRI-1`` in one, ``SM MAO-1 H`` in the
other).  Every page and API answer another power or an observer can fetch must
then be the same in both games, byte for byte once the game ids are set aside;
and none names the submarine's new place.  Their event streams, read while
the games are played, are the same too.
"""

from __future__ import annotations

import contextlib
import re

from fastapi.testclient import TestClient

from arbitre.server.site import Site
from tests.server.browser import live_server
from tests.server.conftest import POWERS, Api
from tests.server.sse import StreamReader

SETTINGS = {
    "name": "Deep",
    "rules": ["submarines"],
    "options": {"start_submarines": "FRANCE:BRE"},
    "assignment": "choice",
    "press": "full",
}

DIVE: list[dict[str, list[str]]] = [
    {"FRANCE": ["SM BRE - MAO"]},  # S1901M
    {},  # S1901R: held for everyone
    {"FRANCE": ["SM MAO - MAO-1"]},  # F1901M: dives
    {},  # F1901R
]
"""The orders of 1901 that take France's submarine under the Mid-Atlantic, step by step."""


def twin_games(master: Api, players: dict[str, Api], observer: Api | None = None) -> list[int]:
    """Two Submarines games made alike by ``master``, each power taken by the same player (and watched by
    ``observer``): what differs later is only what the tests play in them."""
    games = []
    for _ in range(2):
        r = master.post("/api/games", SETTINGS)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        for p in POWERS:
            assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        if observer is not None:
            assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
        games.append(gid)
    return games


def play(master: Api, players: dict[str, Api], gid: int, orders: dict[str, list[str]]) -> None:
    """Give these orders and have the master adjudicate the step."""
    for power, lines in orders.items():
        r = players[power].put(f"/api/games/{gid}/orders", {"orders": lines})
        assert r.status_code == 200 and r.json()["rejected"] == [], r.text
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200


def open_streams(
    url: str, games: list[int], readers: list[tuple[str, Api]], streams: contextlib.ExitStack
) -> dict[int, dict[str, StreamReader]]:
    """Each reader's event stream of each game, opened (greeted) and closed when ``streams`` closes."""
    heard = {
        gid: {who: StreamReader(f"{url}/api/games/{gid}/events", api.headers) for who, api in readers} for gid in games
    }
    for group in heard.values():
        for reader in group.values():
            streams.callback(reader.close)
            reader.wait_for("hello")
    return heard


def fetch_all(api: Api, gid: int) -> dict[str, str]:
    """Everything ``api``'s user can read about game ``gid``, pages and API, with the game id set aside."""
    paths = [
        f"/api/games/{gid}",
        f"/api/games/{gid}/orders",
        f"/api/games/{gid}/legal",
        f"/api/games/{gid}/history",
        f"/api/games/{gid}/messages",
        f"/games/{gid}",
        f"/games/{gid}/history",
        f"/games/{gid}/messages",
        f"/games/{gid}/map.svg",
    ]
    count = len(api.get(f"/api/games/{gid}/history").json())
    for i in range(count):
        paths += [f"/api/games/{gid}/history/{i}", f"/games/{gid}/history/{i}", f"/games/{gid}/history/{i}/map.svg"]
    out = {}
    for path in paths:
        r = api.get(path)
        text = re.sub(rf"/games/{gid}(?=\D)", "/games/ID", r.text).replace(f'data-game="{gid}"', 'data-game="ID"')
        text = re.sub(r"<title>[^<]*</title>", "", text) if path.endswith(".svg") else text
        text = re.sub(r'"id":\d+', '"id":ID', text)
        text = re.sub(r'name="csrf" value="[0-9a-f]+"', "", text)
        out[re.sub(r"/games/\d+", "/games/ID", path)] = f"{r.status_code} {text}"
    return out


def test_no_answer_depends_on_a_foreign_submerged_unit(app_client: TestClient, site: Site) -> None:
    master = Api(app_client, "deepmaster")
    players = {p: Api(app_client, f"deep_{p.lower()}") for p in POWERS}
    observer = Api(app_client, "deepwatcher")
    games = twin_games(master, players, observer)
    readers = [(p, players[p]) for p in POWERS if p != "FRANCE"] + [("observer", observer)]
    with live_server(site) as url, contextlib.ExitStack() as streams:
        # every other reader's event stream of both games, open while they are played
        heard = open_streams(url, games, readers, streams)

        def step(gid: int, orders: dict[str, list[str]]) -> None:
            play(master, players, gid, orders)
            now = master.get(f"/api/games/{gid}").json()["game"]["phase"]
            for reader in heard[gid].values():
                reader.wait_for("phase", phase=now)

        for gid in games:
            for orders in DIVE:
                step(gid, orders)
            assert master.get(f"/api/games/{gid}").json()["game"]["phase"] == "S1902M"
        moved, stayed = games
        step(moved, {"FRANCE": ["SM MAO-1 - IRI-1"], "ENGLAND": ["F LON - ENG"]})
        step(stayed, {"FRANCE": ["SM MAO-1 H"], "ENGLAND": ["F LON - ENG"]})
        # the event streams: the same for every other reader in both games
        for who, _api in readers:
            a, b = (re.sub(rf'"game":{gid}\b', '"game":ID', heard[gid][who].text()) for gid in (moved, stayed))
            assert a == b, who
            # (each "given" is France's or England's orders state: the same words in both games)
            assert [k for k in heard[moved][who].kinds() if k != "given"] == ["hello", *["phase"] * 5], who
    # the master sees the submarine; France sees its own submarine
    gm_units = {u["place"] for u in master.get(f"/api/games/{moved}").json()["view"]["units"]}
    assert "IRI-1" in gm_units
    fr_units = {u["place"] for u in players["FRANCE"].get(f"/api/games/{moved}").json()["view"]["units"]}
    assert "IRI-1" in fr_units
    # every other reader: identical answers in both games, and no trace of the submarine's place or order
    for who, api in [*((p, players[p]) for p in POWERS if p != "FRANCE"), ("observer", observer)]:
        a, b = fetch_all(api, moved), fetch_all(api, stayed)
        assert a.keys() == b.keys()
        for path in a:
            assert a[path] == b[path], (who, path)
            assert "IRI-1" not in a[path], (who, path)
        state = api.get(f"/api/games/{moved}").json()
        assert all(u["place"] not in ("MAO-1", "IRI-1") or u["power"] is None for u in state["view"]["units"])


def test_the_orders_state_others_read_ignores_a_foreign_submerged_unit(app_client: TestClient, site: Site) -> None:
    """France orders every unit it has in one game and every unit but its submerged submarine in the other:
    the orders state others read (the players table's "Orders given", the API's progress, the ``given``
    event) is "all" in both, so it tells nobody that a hidden unit exists or was ordered."""
    master = Api(app_client, "stillmaster")
    players = {p: Api(app_client, f"still_{p.lower()}") for p in POWERS}
    observer = Api(app_client, "stillwatcher")
    games = twin_games(master, players, observer)
    readers = [(p, players[p]) for p in POWERS if p != "FRANCE"] + [("observer", observer)]
    for gid in games:
        for orders in DIVE:
            play(master, players, gid, orders)
        assert master.get(f"/api/games/{gid}").json()["game"]["phase"] == "S1902M"
    every, all_but_hidden = games
    with live_server(site) as url, contextlib.ExitStack() as streams:
        heard = open_streams(url, games, readers, streams)
        for gid, lines in ((every, ["A PAR H", "A MAR H", "SM MAO-1 H"]), (all_but_hidden, ["A PAR H", "A MAR H"])):
            r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": lines})
            assert r.status_code == 200 and r.json()["rejected"] == [], r.text
            for reader in heard[gid].values():
                reader.wait_for("given", power="FRANCE", orders="all")
        for who, _api in readers:
            a, b = (re.sub(rf'"game":{gid}\b', '"game":ID', heard[gid][who].text()) for gid in games)
            assert a == b, who
    # France itself is told its submarine has no order yet; nobody else reads anything of it
    todo = players["FRANCE"].get(f"/api/games/{all_but_hidden}/orders").json()
    assert "SM MAO-1" in str(todo), todo
    for who, api in readers:
        assert api.get(f"/api/games/{every}").json()["progress"]["FRANCE"]["orders"] == "all", who
        a, b = fetch_all(api, every), fetch_all(api, all_but_hidden)
        assert a.keys() == b.keys()
        for path in a:
            assert a[path] == b[path], (who, path)
