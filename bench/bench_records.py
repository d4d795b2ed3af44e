"""Reading a game right after a phase: the cost at 60 played phases against 4 (phases as records).

Two standard games on a fresh SQLite site (``--phases`` short and long, default 4 and 60), played
through the JSON API (every power's orders at random among its legal ones, the master adjudicating).
Then, ``--reps`` times each, a player's first read after a phase is timed: the game's cached state
and the drawn boards forgotten first (as a processed phase does), then ``GET /api/games/{id}`` and
the game page ``GET /games/{id}``.  Printed: the medians per game length and their ratio (target
≤ 1.5×), and, as the peer, what loading the long game cost before records (replaying every phase
from the orders as typed: ``Game.from_data`` of the old document).

The MILA case: France's MILA client (frames over the site's websocket, as MILA's client writes them)
``synchronize`` and ``get_phase_history`` of the last phase, each timed first after a phase (the game's cached
state forgotten), then the same two timed as the first MILA reads of a new process (a second site opened on
the database, as each of ``--workers N`` and each restart is).  Each audience's MILA timeline is stored with
the records (``mila_steps``), so neither folds the game's records.  The two games are read in turn, rep by
rep, so that the machine's load drifts alike over both.

    .venv/bin/python bench/bench_records.py [--phases 4 60] [--reps 30] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from arbitre.judge import Game
from arbitre.server import security
from arbitre.server.app import create_app, make_site
from arbitre.server.boards import BOARDS
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings, Site

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def core() -> str:
    """Which core runs: compiled (mypyc) or pure Python."""
    import arbitre.adjudicator.movement as movement

    return "compiled" if str(movement.__file__).endswith(".so") else "pure Python"


class Api:
    """A token client of the API."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        assert client.post("/api/register", json={"name": name, "password": "password123"}).status_code == 201
        token = client.post("/api/tokens", json={"name": name, "password": "password123"}).json()["token"]
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        r = self.client.request(method, path, json=body, headers=self.headers)
        assert r.status_code < 300, (path, r.text)
        return r


def play(client: TestClient, tag: str, phases: int, rng: random.Random) -> tuple[int, Api, Game]:
    """A game played to ``phases`` played phases; also the same game in the engine (the old document)."""
    master = Api(client, f"gm{tag}")
    gid = master.call("POST", "/api/games", {"name": tag, "assignment": "choice"}).json()["id"]
    players = {}
    for p in POWERS:
        players[p] = Api(client, f"{tag}{p.lower()}")
        players[p].call("POST", f"/api/games/{gid}/join", {"role": "player", "power": p})
    shadow = Game.new()
    for _ in range(phases):
        for p, api in players.items():
            legal = api.call("GET", f"/api/games/{gid}/legal").json()["legal"]
            lines = [rng.choice(options) for options in legal.values() if options]
            if lines:
                api.call("PUT", f"/api/games/{gid}/orders", {"orders": lines})
                shadow.set_orders(p, lines)
        master.call("POST", f"/api/games/{gid}/master", {"action": "adjudicate"})
        shadow.advance()
        if shadow.is_over:
            break
    return gid, players["FRANCE"], shadow


def first_read(site: Site, api: Api, gid: int, path: str, reps: int) -> float:
    """Median milliseconds of ``path`` read first after a phase (cached game and boards forgotten)."""
    times = []
    for _ in range(reps):
        site.referee.cache.forget(gid)
        BOARDS.clear()
        start = time.perf_counter()
        api.call("GET", path)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


class MilaClient:
    """A MILA client over the site's websocket, frames written by hand (as ``diplomacy`` 1.1.2 writes them)."""

    def __init__(self, ws: Any, name: str, power: str, gid: int, join: bool = True) -> None:
        self.ws = ws
        self.token = self.ask("sign_in", username=name, password="password123")["data"]
        self.game = {"token": self.token, "game_id": str(gid), "game_role": power}
        if join:  # a synchronize or a phase history needs no join first
            assert self.ask("join_game", token=self.token, game_id=str(gid), power_name=power)["name"] == "data_game"

    def ask(self, name: str, **fields: Any) -> dict[str, Any]:
        """A request's response (notifications met on the way are dropped)."""
        self.ws.send_text(json.dumps({"name": name, "request_id": uuid.uuid4().hex, **fields}))
        while True:
            frame: dict[str, Any] = json.loads(self.ws.receive_text())
            if "notification_id" not in frame:
                assert frame["name"] != "error", frame
                return frame


def mila_reads(site: Site, client: TestClient, games: list[tuple[str, int]], reps: int) -> list[tuple[float, ...]]:
    """For each game (France's account name, game id): median milliseconds of France's MILA synchronize and of
    its phase history of the last phase, each read first after a phase (the game's cached state forgotten), then
    of the same two reads as the first MILA reads of a new process (a second site opened on the database, as
    each of ``--workers N`` or a restart is: nothing of the game in memory; signing in is not timed).  The games
    are read in turn, rep by rep, so that the machine's load drifts alike over both."""
    asks = (
        ("sync", "synchronize", {"timestamp": 0}),
        ("history", "get_phase_history", {"from_phase": -1, "to_phase": -1}),
    )
    times: list[dict[str, list[float]]] = [{"sync": [], "history": [], "cold": [], "cold_history": []} for _ in games]
    with client.websocket_connect("/") as ws:
        milas = [MilaClient(ws, name, "FRANCE", gid) for name, gid in games]
        for _ in range(reps):
            for mila, (_, gid), got in zip(milas, games, times, strict=True):
                for kind, name, fields in asks:
                    site.referee.cache.forget(gid)
                    start = time.perf_counter()
                    mila.ask(name, **mila.game, **fields)
                    got[kind].append((time.perf_counter() - start) * 1000)
    for _ in range(max(5, reps // 2)):  # a new process's first read varies much: as many reps as it takes
        for (name, gid), got in zip(games, times, strict=True):
            for kind, request, fields in asks:
                fresh = make_site(Settings(database_url=site.db.url, run_worker=False), ManualClock())
                with TestClient(create_app(site=fresh)) as other, other.websocket_connect("/") as ws:
                    mila = MilaClient(ws, name, "FRANCE", gid, join=False)
                    start = time.perf_counter()
                    mila.ask(request, **mila.game, **fields)
                    got["cold" if kind == "sync" else "cold_history"].append((time.perf_counter() - start) * 1000)
                fresh.db.dispose()
    return [tuple(statistics.median(got[k]) for k in ("sync", "history", "cold", "cold_history")) for got in times]


def old_load(game: Game, reps: int) -> float:
    """Median milliseconds of loading the old one-document form of ``game`` (replaying every phase)."""
    gmap = game.rules.game_map
    from arbitre.judge.codec import position_to_data

    doc = {
        "format": "arbitre-game/1",
        "map": "standard",
        "rules": [],
        "options": {},
        "position": position_to_data(game.position, gmap),
        "history": [{"position": position_to_data(r.position, gmap), "orders": r.orders} for r in game.history],
    }
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        Game.from_data(doc)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, nargs=2, default=[4, 60])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"core: {core()}; load average {os.getloadavg()[0]:.1f}")
    security._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        site = make_site(
            Settings(database_url=f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", run_worker=False), ManualClock()
        )
        with TestClient(create_app(site=site)) as client:
            rows = []
            games: list[tuple[str, int]] = []
            for n in args.phases:
                gid, api, shadow = play(client, f"g{n}", n, rng)
                played = len(api.call("GET", f"/api/games/{gid}/history").json())
                api_ms = first_read(site, api, gid, f"/api/games/{gid}", args.reps)
                page_ms = first_read(site, api, gid, f"/games/{gid}", args.reps)
                rows.append((played, api_ms, page_ms, old_load(shadow, max(3, args.reps // 5))))
                games.append((f"g{n}france", gid))
            milas = mila_reads(site, client, games, args.reps)
        site.db.dispose()
    for played, api_ms, page_ms, replay_ms in rows:
        print(
            f"{played:3d} phases: API {api_ms:6.1f} ms, page {page_ms:6.1f} ms (median of {args.reps}); "
            f"before records, loading it replayed every phase: {replay_ms:6.1f} ms"
        )
    (short, a1, p1, _), (long, a2, p2, _) = rows
    print(f"ratio {long} / {short} phases: API {a2 / a1:.2f}x, page {p2 / p1:.2f}x (target <= 1.5x)")
    for (played, *_), (sync_ms, history_ms, cold_ms, cold_history_ms) in zip(rows, milas, strict=True):
        print(
            f"{played:3d} phases, MILA: synchronize {sync_ms:6.1f} ms, last phase's history {history_ms:6.1f} ms "
            f"(median of {args.reps}); first reads of a new process: synchronize {cold_ms:6.1f} ms, "
            f"last phase's history {cold_history_ms:6.1f} ms"
        )
    (s1, h1, c1, ch1), (s2, h2, c2, ch2) = milas[0], milas[-1]
    print(f"ratio {long} / {short} phases, MILA: synchronize {s2 / s1:.2f}x, history {h2 / h1:.2f}x (target <= 1.5x)")
    print(f"ratio {long} / {short} phases, MILA in a new process: synchronize {c2 / c1:.2f}x, history {ch2 / ch1:.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
