"""Hidden-state pairs through the database: a game's history reloaded from its stored rows reads the same.

Two Submarines games differ only in the route of Germany's submerged submarine.  After the process's
game cache is emptied (so every answer rebuilds the game from the database), France's and an
observer's history answers — the API's phase list and phases, the history pages and their maps —
are byte for byte the same; the master's are not (the pair does differ in hidden state).
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from arbitre.server.site import Site
from tests.server.conftest import Api, start_game

TURNS = [
    ({"GERMANY": ["SM KIE - HEL"], "FRANCE": ["A PAR - BUR"]},) * 2,
    ({"GERMANY": ["SM HEL - HEL-1"], "FRANCE": ["A BUR - RUH"]},) * 2,
    (
        {"GERMANY": ["SM HEL-1 - NTH-1"], "FRANCE": ["A RUH - HOL"]},
        {"GERMANY": ["SM HEL-1 H"], "FRANCE": ["A RUH - HOL"]},
    ),
    ({"GERMANY": ["SM NTH-1 - NWG-1"]}, {"GERMANY": ["SM HEL-1 - NTH-1"]}),
]


def _game(client: TestClient, watcher: Api, n: int) -> tuple[int, Api, dict[str, Api]]:
    gid, master, players = start_game(client, rules=["submarines"], options={"start_submarines": "GERMANY:KIE"})
    assert watcher.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
    for turn in TURNS:
        for power, lines in turn[n].items():
            r = players[power].put(f"/api/games/{gid}/orders", {"orders": lines})
            assert r.status_code == 200 and not r.json()["rejected"], r.text
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
        while not master.get(f"/api/games/{gid}").json()["game"]["phase"].endswith("M"):
            # Submarines: a retreat step follows every movement phase (empty here)
            assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    return gid, master, players


def _scrub(text: str, gid: int, names: dict[str, str]) -> str:
    """An answer with the game id, the per-visit tokens and the (random) user names set aside."""
    text = re.sub(rf"/games/{gid}(?=\D)", "/games/ID", text).replace(f'data-game="{gid}"', 'data-game="ID"')
    text = re.sub(rf'"(game|id)":{gid}\b', r'"\1":ID', text)
    text = re.sub(r'name="csrf" value="[0-9a-f]+"', "", text)
    text = re.sub(r'data-csrf="[0-9a-f]+"', "", text)
    for name, label in sorted(names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(name, label)
    return text


def _history(api: Api, gid: int, names: dict[str, str]) -> dict[str, str]:
    """Every history answer ``api`` reads: the list and each phase, as JSON and as pages, and their maps."""
    paths = ["/api/games/{}/history", "/games/{}/history"]
    count = len(api.get(f"/api/games/{gid}/history").json())
    for i in range(count):
        paths += [f"/api/games/{{}}/history/{i}", f"/games/{{}}/history/{i}"]
    out = {}
    for path in paths:
        r = api.get(path.format(gid))
        out[path.format("ID")] = f"{r.status_code} {_scrub(r.text, gid, names)}"
        for i in sorted(set(re.findall(rf"/games/{gid}/history/(\d+)/map\.svg", r.text))):
            m = api.get(f"/games/{gid}/history/{i}/map.svg")  # as the reader sees it (the page adds a query)
            out[f"/games/ID/history/{i}/map.svg"] = f"{m.status_code} {_scrub(m.text, gid, names)}"
    return out


def test_history_reloaded_from_the_database_reads_the_same(app_client: TestClient, site: Site) -> None:
    watcher = Api(app_client, "history_watcher")
    games = [_game(app_client, watcher, n) for n in (0, 1)]
    answers: dict[str, list[dict[str, str]]] = {"FRANCE": [], "observer": [], "master": []}
    for gid, master, players in games:
        site.referee.cache.forget(gid)  # every answer below rebuilds the game from its stored rows
        names = {api.name: f"<{power}>" for power, api in players.items()} | {master.name: "<master>"}
        answers["FRANCE"].append(_history(players["FRANCE"], gid, names))
        answers["observer"].append(_history(watcher, gid, names))
        answers["master"].append(_history(master, gid, names))
    for viewer in ("FRANCE", "observer"):
        a, b = answers[viewer]
        assert a.keys() == b.keys()
        assert len(a) > 8  # the phase list, four movement phases (and retreats), pages and maps
        assert all(v.startswith("200 ") for v in a.values()), viewer
        assert sum(k.endswith("map.svg") for k in a) >= 8 and "<svg" in a["/games/ID/history/0/map.svg"]
        for key in a:
            assert a[key] == b[key], (viewer, key)
        assert "NTH-1" not in "".join(a.values()) and "NWG-1" not in "".join(a.values())
    a, b = answers["master"]
    assert any(a[k] != b[k] for k in a)  # the master sees the submarine's two routes
