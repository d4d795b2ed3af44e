"""Write ``main.sqlite3`` and ``expected.json``: a database as written by the code before phase records
(commit 5210d7c, schema 0011, each game one JSON document with its typed orders), and what every reader
read of each game's history then.

Run from the repository root with that code checked out::

    python -m tests.data.records.make_fixture

The migration test (``tests/server/test_records_migration.py``) upgrades a copy of the database and
compares every reader's history with ``expected.json``.  Games: a standard game (orders typed in odd
spellings, four phases), a Colonial game, a Submarines game and an Espionnite game left in its
reaction step with a change given.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from arbitre.server import security
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings

HERE = Path(__file__).parent
DB = HERE / "main.sqlite3"
EXPECTED = HERE / "expected.json"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
PASSWORD = "password123"


class Api:
    """A token client of the API."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client, self.name = client, name
        assert client.post("/api/register", json={"name": name, "password": PASSWORD}).status_code == 201
        self.token = client.post("/api/tokens", json={"name": name, "password": PASSWORD}).json()["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any) -> Any:
        return self.client.post(path, json=body, headers=self.headers)

    def put(self, path: str, body: Any) -> Any:
        return self.client.put(path, json=body, headers=self.headers)


def readers_paths(gid: int, count: int) -> list[str]:
    """Every history reader of a game with ``count`` played phases."""
    paths = [f"/api/games/{gid}/history"]
    for i in range(count):
        paths += [f"/api/games/{gid}/history/{i}"]
    return paths


def read_all(api: Api, gid: int) -> dict[str, str]:
    """What ``api``'s user reads of the game's history."""
    count = len(api.get(f"/api/games/{gid}/history").json())
    return {path: api.get(path).json() for path in readers_paths(gid, count)}


def play(master: Api, players: dict[str, Api], gid: int, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        r = players[power].put(f"/api/games/{gid}/orders", {"orders": lines})
        assert r.status_code == 200, r.text
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200


def seated(client: TestClient, tag: str, body: dict[str, Any]) -> tuple[int, Api, dict[str, Api], Api]:
    """A running game: master, one player per power (each choosing it), an observer."""
    master = Api(client, f"gm_{tag}")
    r = master.post("/api/games", {"name": tag, "assignment": "choice", **body})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    powers = master.get(f"/api/games/{gid}").json()["powers"]
    observer = Api(client, f"ob_{tag}")
    assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
    players = {}
    for p in powers:
        api = Api(client, f"{tag}_{p.lower()[:8]}")
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        players[p] = api
    assert master.get(f"/api/games/{gid}").json()["game"]["status"] == "active"
    return gid, master, players, observer


def main() -> None:
    if DB.exists():
        DB.unlink()
    security._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    clock = ManualClock()
    site = make_site(Settings(database_url=f"sqlite:///{DB}", run_worker=False), clock)
    games: list[dict[str, Any]] = []
    with TestClient(create_app(site=site)) as client:
        # standard: odd spellings, a dislodgement and its retreat, builds
        gid, master, pl, ob = seated(client, "standard", {})
        play(
            master,
            pl,
            gid,
            {
                "FRANCE": ["a par-bur", "F brest - mid-atlantic ocean", "a mar h"],
                "GERMANY": ["A Munich - Ruhr", "f kie-den", "a ber-kie"],
                "ITALY": ["A VEN - TYR", "f nap-ion", "a rom - apu"],
                "ENGLAND": ["F LON-NTH", "f edi - nwg", "A LVP - YOR"],
                "AUSTRIA": ["A VIE - GAL", "a bud-ser", "F TRI - ALB"],
                "RUSSIA": ["A MOS - UKR", "F SEV - BLA", "a war - gal", "F STP/SC - BOT"],
                "TURKEY": ["F ANK - BLA", "A CON - BUL", "a smy - arm"],
            },
        )
        play(
            master,
            pl,
            gid,
            {
                "FRANCE": ["A BUR - MUN", "F MAO - POR", "A MAR S A BUR - MUN"],
                "GERMANY": ["A RUH - BEL", "F DEN H", "A KIE - HOL"],
                "ENGLAND": ["F NTH - NWY", "F NWG - BAR", "A YOR - LON"],
                "ITALY": ["A TYR - VIE", "F ION - TUN", "A APU - NAP"],
                "AUSTRIA": ["A VIE S A GAL", "A SER - GRE", "F ALB S A SER - GRE"],
            },
        )
        play(master, pl, gid, {"GERMANY": ["A MUN - BOH"]})  # retreat (the winter comes next)
        play(master, pl, gid, {"FRANCE": ["A PAR B", "F BRE B"]})
        games.append(
            {
                "tag": "standard",
                "id": gid,
                "master": master.token,
                "observer": ob.token,
                "players": {p: a.token for p, a in pl.items()},
            }
        )
        # colonial
        gid, master, pl, ob = seated(client, "colonial", {"map": "colonial"})
        legal = {p: api.get(f"/api/games/{gid}/orders").json()["legal"] for p, api in pl.items()}
        orders = {p: [opts[-1] for opts in list(lg.values())[:3]] for p, lg in legal.items() if lg}
        play(master, pl, gid, orders)
        legal = {p: api.get(f"/api/games/{gid}/orders").json()["legal"] for p, api in pl.items()}
        orders = {
            p: [opts[1 if len(opts) > 1 else 0] for opts in list(lg.values())[:3]] for p, lg in legal.items() if lg
        }
        play(master, pl, gid, orders)
        games.append(
            {
                "tag": "colonial",
                "id": gid,
                "master": master.token,
                "observer": ob.token,
                "players": {p: a.token for p, a in pl.items()},
            }
        )
        # submarines
        gid, master, pl, ob = seated(
            client, "submarines", {"rules": ["submarines"], "options": {"start_submarines": "FRANCE:BRE"}}
        )
        play(master, pl, gid, {"FRANCE": ["S BRE - ENG", "A PAR - PIC"], "ENGLAND": ["F LON - NTH"]})
        play(master, pl, gid, {"FRANCE": ["S ENG - NTH", "A PIC - BEL"], "ENGLAND": ["F NTH - HOL"]})
        games.append(
            {
                "tag": "submarines",
                "id": gid,
                "master": master.token,
                "observer": ob.token,
                "players": {p: a.token for p, a in pl.items()},
            }
        )
        # espionnite: one phase played, the next in its reaction step with a change
        gid, master, pl, ob = seated(client, "espionnite", {"rules": ["espionnite"]})
        for p, lines in {"FRANCE": ["A PAR - BUR", "SPY MUN"], "GERMANY": ["A MUN - BUR", "COUNTERSPY KIE"]}.items():
            assert pl[p].put(f"/api/games/{gid}/orders", {"orders": lines}).json()["rejected"] == []
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200  # lock
        assert pl["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["a par - pic"]}).json()["rejected"] == []
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200  # adjudicate
        for p, lines in {"FRANCE": ["A PIC - BEL", "SPY KIE"], "ITALY": ["A VEN - TYR", "SPY TRI"]}.items():
            assert pl[p].put(f"/api/games/{gid}/orders", {"orders": lines}).json()["rejected"] == []
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200  # lock
        assert pl["ITALY"].put(f"/api/games/{gid}/orders", {"orders": ["a ven - pie"]}).json()["rejected"] == []
        state = master.get(f"/api/games/{gid}").json()
        assert state["game"]["step"] == "reaction", state["game"]
        games.append(
            {
                "tag": "espionnite",
                "id": gid,
                "master": master.token,
                "observer": ob.token,
                "players": {p: a.token for p, a in pl.items()},
            }
        )
        # what every reader read
        for g in games:
            readers = {"master": g["master"], "observer": g["observer"], **g["players"]}
            g["read"] = {}
            for who, token in readers.items():
                api = Api.__new__(Api)
                api.client, api.headers = client, {"Authorization": f"Bearer {token}"}
                g["read"][who] = read_all(api, g["id"])
            g["current"] = {}
            for who in ("master", "observer", *sorted(g["players"])[:2]):
                api = Api.__new__(Api)
                api.client, api.headers = client, {"Authorization": f"Bearer {readers[who]}"}
                g["current"][who] = api.get(f"/api/games/{g['id']}").json()
    site.db.dispose()
    EXPECTED.write_text(
        json.dumps({"clock": clock.now().isoformat(), "games": games}, separators=(",", ":"), sort_keys=True) + "\n"
    )
    print(f"wrote {DB} ({DB.stat().st_size} bytes) and {EXPECTED} ({EXPECTED.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
