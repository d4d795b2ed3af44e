"""Load benchmark of the game server: many concurrent clients over loopback, for a bounded time.

For each backend (SQLite file, and PostgreSQL when ``--postgres-url`` or
``ARBITRE_TEST_POSTGRES_URL`` is given) the script:

* starts ``uvicorn arbitre.server.asgi:app`` in a child process on a fresh database
  (``--server-workers`` processes; SQLite is always served by one);
* registers ``7 × games`` players and the masters through the API, creates the
  games and fills them (each client is one power of one game, with a bearer token);
* runs ``--clients`` concurrent clients for ``--seconds`` seconds; each loops over
  an order submission (``PUT /api/games/{id}/orders`` with random legal orders of its
  units, not ready, so the phase stays put) and a page load (``GET /games/{id}``, the
  HTML game page with the player's own view);
* prints requests per second and p50/p99 latency per request kind, and the error count.

With ``--rate R`` the load is *open-loop*: requests arrive at R per second
(evenly spaced, in turn a page load, an order submission and an API read
``GET /api/games/{id}`` (a bot's poll), each from the next player in turn)
whether or not earlier ones have been answered, as players do;
a request's latency counts from its planned arrival, so a server that falls
behind shows it in its p99.  The server's CPU time per request is read from
``/proc`` (its process and its children).  ``--rates 50,100,200`` runs several
rates and prints, per backend, the highest that keeps page p99 under 100 ms and
submission p99 under 250 ms.

Every request goes to 127.0.0.1; the run stops by itself after ``--seconds``.

Run from the repository root::

    .venv/bin/python bench/bench_server.py [--clients 28] [--seconds 20] [--postgres-url URL]
    .venv/bin/python bench/bench_server.py --rates 50,100,200 --seconds 15      # open loop
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from backends import each_backend

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@dataclass
class Stats:
    """Latencies (seconds) per request kind, and errors."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0

    def add(self, kind: str, seconds: float) -> None:
        """Record one successful request."""
        self.latencies.setdefault(kind, []).append(seconds)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db_url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start the server on ``db_url``; return the process and its base URL once it answers."""
    port = free_port()
    env = {**os.environ, "ARBITRE_DATABASE_URL": db_url, "ARBITRE_WORKER_INTERVAL": "5"}
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "arbitre.server.asgi:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--workers",
        str(workers),
        "--no-proxy-headers",  # as `arbitre serve`: forwarded addresses are the app's business (ARBITRE_TRUSTED_PROXIES)
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/api/games", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start:\n" + log.read_text())


def setup_games(url: str, games: int) -> list[dict[str, Any]]:
    """Create ``games`` full games; return one client description per power."""
    clients: list[dict[str, Any]] = []
    with httpx.Client(base_url=url, timeout=60) as c:

        def account(name: str) -> dict[str, str]:
            c.post("/api/register", json={"name": name, "password": "password123"}).raise_for_status()
            token = c.post("/api/tokens", json={"name": name, "password": "password123"}).json()["token"]
            return {"Authorization": f"Bearer {token}"}

        for g in range(games):
            tag = uuid.uuid4().hex[:6]
            master = account(f"gm{g}_{tag}")
            r = c.post(
                "/api/games",
                json={"name": f"bench {g}", "assignment": "choice", "deadlines": {"M": 86400}},
                headers=master,
            )
            r.raise_for_status()
            gid = r.json()["id"]
            seats = {}
            for p in POWERS:
                seats[p] = account(f"{p[:3].lower()}{g}_{tag}")
                c.post(
                    f"/api/games/{gid}/join", json={"role": "player", "power": p}, headers=seats[p]
                ).raise_for_status()
            for p, h in seats.items():  # the game has started: every power has legal orders
                legal = c.get(f"/api/games/{gid}/orders", headers=h).json()["legal"]
                clients.append({"game": gid, "power": p, "headers": h, "legal": legal})
    return clients


async def client_loop(url: str, me: dict[str, Any], until: float, stats: Stats, rng: random.Random) -> None:
    """Alternate order submissions and page loads until ``until`` (monotonic time)."""
    async with httpx.AsyncClient(base_url=url, headers=me["headers"], timeout=60) as c:
        n = 0
        while time.monotonic() < until:
            n += 1
            if n % 2:
                kind = "submit orders"
                orders = [rng.choice(opts) for opts in me["legal"].values()]
                call = c.put(f"/api/games/{me['game']}/orders", json={"orders": orders, "ready": False})
            else:
                kind = "load game page"
                call = c.get(f"/games/{me['game']}")
            t0 = time.perf_counter()
            try:
                r = await call
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            dt = time.perf_counter() - t0
            if ok:
                stats.add(kind, dt)
            else:
                stats.errors += 1


async def run_load(url: str, clients: list[dict[str, Any]], count: int, seconds: float, seed: int) -> Stats:
    """``count`` concurrent clients for ``seconds``."""
    stats = Stats()
    until = time.monotonic() + seconds
    rng = random.Random(seed)
    await asyncio.gather(
        *(client_loop(url, clients[i % len(clients)], until, stats, random.Random(rng.random())) for i in range(count))
    )
    return stats


async def open_loop(url: str, clients: list[dict[str, Any]], rate: float, seconds: float, seed: int) -> Stats:
    """Requests arriving at ``rate`` per second for ``seconds``; latency counted from each planned arrival."""
    stats = Stats()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=1000, max_keepalive_connections=1000)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as c:

        async def one(n: int, planned: float) -> None:
            me = clients[(n // 3) % len(clients)]
            if n % 3 == 2:
                kind = "api game read"
                call = c.get(f"/api/games/{me['game']}", headers=me["headers"])
            elif n % 3 == 1:
                kind = "submit orders"
                orders = [rng.choice(opts) for opts in me["legal"].values()]
                call = c.put(
                    f"/api/games/{me['game']}/orders",
                    json={"orders": orders, "ready": False},
                    headers=me["headers"],
                )
            else:
                kind = "load game page"
                call = c.get(f"/games/{me['game']}", headers=me["headers"])
            try:
                ok = (await call).status_code == 200
            except httpx.HTTPError:
                ok = False
            if ok:
                stats.add(kind, time.perf_counter() - planned)
            else:
                stats.errors += 1

        start = time.perf_counter()
        tasks = []
        for n in range(int(rate * seconds)):
            planned = start + n / rate
            delay = planned - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(n, planned)))
        await asyncio.gather(*tasks)
    return stats


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` and its children (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        pids.extend(int(c) for c in task.read_text().split())
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return total


PAGE_P99_MS, SUBMIT_P99_MS = 100.0, 250.0
"""The site's targets at a given rate: page loads and order submissions, p99."""


def run_open_loop(backend: str, db_url: str, args: argparse.Namespace, workdir: Path) -> list[dict[str, Any]]:
    """Serve ``db_url`` and run each rate of ``--rates`` open loop; print the highest rate meeting the targets."""
    workers = 1 if backend == "sqlite" else args.server_workers
    proc, url = start_server(db_url, workers, workdir / f"{backend}.log")
    results = []
    try:
        clients = setup_games(url, max(1, -(-args.clients // len(POWERS))))
        asyncio.run(open_loop(url, clients, 20, 2.0, args.seed))  # warm-up
        for rate in args.rates:
            cpu0 = server_cpu(proc.pid)
            stats = asyncio.run(open_loop(url, clients, rate, args.seconds, args.seed))
            cpu = server_cpu(proc.pid) - cpu0
            result = report(f"{backend}, open loop at {rate:g} requests/s", stats, args.seconds)
            done = sum(len(v) for v in stats.latencies.values())
            result["rate"] = rate
            result["server_cpu_ms_per_request"] = cpu / max(1, done) * 1000
            kinds = result["kinds"]
            result["met"] = (
                stats.errors == 0
                and kinds.get("load game page", {}).get("p99_ms", 1e9) < PAGE_P99_MS
                and kinds.get("submit orders", {}).get("p99_ms", 1e9) < SUBMIT_P99_MS
            )
            print(
                f"  server CPU {result['server_cpu_ms_per_request']:.1f} ms per request; targets met: {result['met']}"
            )
            results.append(result)
    finally:
        proc.terminate()
        proc.wait(30)
    held = [r["rate"] for r in results if r["met"]]
    print(
        f"{backend}: highest rate holding page p99 < {PAGE_P99_MS:.0f} ms and submission p99 < "
        f"{SUBMIT_P99_MS:.0f} ms: {max(held):g}/s"
        if held
        else f"{backend}: no rate tried holds the targets"
    )
    return results


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(backend: str, stats: Stats, seconds: float) -> dict[str, Any]:
    """Print and return the figures of one run."""
    out: dict[str, Any] = {"backend": backend, "seconds": seconds, "errors": stats.errors, "kinds": {}}
    total = sum(len(v) for v in stats.latencies.values())
    print(f"\n{backend}: {total} requests in {seconds:.0f} s = {total / seconds:.0f} req/s, {stats.errors} errors")
    print(f"  {'request':<16} {'count':>7} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for kind, lat in sorted(stats.latencies.items()):
        row = {
            "count": len(lat),
            "per_second": len(lat) / seconds,
            "p50_ms": pct(lat, 0.5) * 1000,
            "p99_ms": pct(lat, 0.99) * 1000,
            "mean_ms": statistics.fmean(lat) * 1000,
        }
        out["kinds"][kind] = row
        print(
            f"  {kind:<16} {row['count']:>7} {row['per_second']:>7.0f} {row['p50_ms']:>8.1f} {row['p99_ms']:>8.1f} "
            f"{row['mean_ms']:>8.1f}"
        )
    out["total_per_second"] = total / seconds
    return out


def run_backend(backend: str, db_url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Serve ``db_url``, set up the games, run the load, stop the server."""
    workers = 1 if backend == "sqlite" else args.server_workers
    proc, url = start_server(db_url, workers, workdir / f"{backend}.log")
    try:
        clients = setup_games(url, max(1, -(-args.clients // len(POWERS))))
        asyncio.run(run_load(url, clients, args.clients, 2.0, args.seed))  # warm-up (caches, connections)
        stats = asyncio.run(run_load(url, clients, args.clients, args.seconds, args.seed))
    finally:
        proc.terminate()
        proc.wait(30)
    result = report(
        f"{backend} ({workers} server process{'es' if workers > 1 else ''}, {args.clients} clients)",
        stats,
        args.seconds,
    )
    return result


def main() -> None:
    """Parse arguments, run each backend, print the figures (and write them as JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=28, help="concurrent clients (default 28: four full games)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured time per backend (default 20)")
    ap.add_argument("--server-workers", type=int, default=1, help="server processes on PostgreSQL (default 1)")
    ap.add_argument(
        "--postgres-url",
        default=os.environ.get("ARBITRE_TEST_POSTGRES_URL"),
        help="PostgreSQL URL of a database the script may create databases from",
    )
    ap.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--rate", type=float, help="open loop: requests arriving per second (instead of --clients looping)")
    ap.add_argument("--rates", help="open loop at each of these rates, e.g. 50,100,200")
    args = ap.parse_args()
    args.rates = [float(r) for r in args.rates.split(",")] if args.rates else ([args.rate] if args.rate else [])
    run = run_open_loop if args.rates else run_backend
    results = each_backend(args, run)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
