"""Login flood benchmark: do players' pages stay fast, and do honest logins get served, while someone floods
the login endpoints?

The script starts the server on a fresh SQLite database (``bench_server.start_server``),
makes one running game, then runs twice for ``--seconds`` seconds each:

1. unloaded: ``--players`` concurrent page loaders (``GET /games/{id}`` with a
   player's bearer token, the HTML page with the player's own view) and
   ``--honest`` people logging in (``POST /api/tokens`` with their right password,
   one login a second each, each from its own loopback address 127.0.0.2, .3, …);
2. flooded: the same, plus ``--flooders`` concurrent clients posting logins
   without pause (``POST /login`` forms and ``POST /api/tokens``), half with wrong
   passwords for the players' accounts, half with the right password of a
   throw-away account, all from ``--flood-addresses`` addresses (127.0.1.1, …).

It prints page p50/p99 for both runs and their ratio, the honest logins (served,
refused, p50/p99 time to the answer) and how the flood was answered (by status).
The server's defences (``arbitre/server/throttle.py``): limits per address and per
account-and-address counted in the database, a fair queue of password checks
(address by address, at most 8 per address, the others refused with 429), and a
hashing gate (one hash at a time, at the lowest CPU priority).

Run from the repository root::

    .venv/bin/python bench/bench_login_flood.py [--players 4] [--honest 4] [--flooders 16] [--seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import POWERS, start_server


async def setup(url: str, honest: int) -> tuple[int, list[str], list[str]]:
    """One running game: its id, the players' tokens and names (and the honest people's accounts)."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:

        async def account(name: str) -> str:
            r = await c.post("/api/register", json={"name": name, "password": "password123"})
            assert r.status_code == 201, r.text
            r = await c.post("/api/tokens", json={"name": name, "password": "password123"})
            return str(r.json()["token"])

        master = await account("floodgm")
        r = await c.post(
            "/api/games", json={"name": "flood", "assignment": "choice"}, headers={"Authorization": f"Bearer {master}"}
        )
        gid = int(r.json()["id"])
        tokens, names = [], []
        for p in POWERS:
            name = f"p{p.lower()}"
            tok = await account(name)
            r = await c.post(
                f"/api/games/{gid}/join",
                json={"role": "player", "power": p},
                headers={"Authorization": f"Bearer {tok}"},
            )
            assert r.status_code == 200, r.text
            tokens.append(tok)
            names.append(name)
        await account("throwaway")
        for i in range(honest):
            r = await c.post("/api/register", json={"name": f"honest{i}", "password": "password123"})
            assert r.status_code == 201, r.text
        return gid, tokens, names


def from_address(address: str) -> httpx.AsyncHTTPTransport:
    """A transport whose connections come from ``address`` (any 127.x.y.z on loopback)."""
    return httpx.AsyncHTTPTransport(local_address=address)


async def honest_logins(url: str, i: int, until: float, out: list[tuple[int, float]]) -> None:
    """One person logging in with the right password once a second, from their own address; record
    (status, seconds to the answer)."""
    async with httpx.AsyncClient(base_url=url, timeout=120, transport=from_address(f"127.0.0.{2 + i}")) as c:
        while time.perf_counter() < until:
            t0 = time.perf_counter()
            r = await c.post("/api/tokens", json={"name": f"honest{i}", "password": "password123"})
            spent = time.perf_counter() - t0
            out.append((r.status_code, spent))
            await asyncio.sleep(max(0.0, 1.0 - spent))


async def pages(url: str, gid: int, token: str, until: float, out: list[float]) -> None:
    """Load the game page in a loop until ``until``; record latencies."""
    async with httpx.AsyncClient(base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"}) as c:
        while time.perf_counter() < until:
            t0 = time.perf_counter()
            r = await c.get(f"/games/{gid}")
            if r.status_code == 200:
                out.append(time.perf_counter() - t0)


async def flood(url: str, names: list[str], until: float, seen: Counter[int], n: int, addresses: int) -> None:
    """Post logins without pause until ``until`` (flooder ``n`` from the ``n % addresses``-th flood address)."""
    address = f"127.0.1.{1 + n % addresses}"
    async with httpx.AsyncClient(base_url=url, timeout=120, transport=from_address(address)) as c:
        page = (await c.get("/login")).text  # a real form: the visitor cookie and its CSRF token
        match = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
        csrf = match.group(1) if match else ""
        i = n
        while time.perf_counter() < until:
            i += 1
            wrong = i % 2 == 0
            name = names[i % len(names)] if wrong else "throwaway"
            password = "not-the-password" if wrong else "password123"
            if i % 4 < 2:
                r = await c.post("/api/tokens", json={"name": name, "password": password})
            else:
                r = await c.post("/login", data={"name": name, "password": password, "csrf": csrf})
            seen[r.status_code] += 1


def summary(latencies: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    xs = sorted(latencies)
    return statistics.median(xs) * 1000, xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1000


def logins_line(logins: list[tuple[int, float]]) -> str:
    """How the honest logins were answered: served, refused, time to the answer."""
    served = [t for status, t in logins if status == 201]
    refused = Counter(status for status, _ in logins if status != 201)
    line = f"{len(served)} of {len(logins)} served"
    if served:
        p50, p99 = summary(served)
        line += f", p50 {p50:.0f} ms, p99 {p99:.0f} ms"
    if refused:
        line += "; refused: " + ", ".join(f"{code}: {n}" for code, n in sorted(refused.items()))
    return line


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(f"sqlite:///{Path(tmp) / 'flood.sqlite3'}", 1, Path(tmp) / "server.log")
        try:
            gid, tokens, names = await setup(url, args.honest)
            quiet: list[float] = []
            quiet_logins: list[tuple[int, float]] = []
            until = time.perf_counter() + args.seconds
            await asyncio.gather(
                *(pages(url, gid, tokens[i % 7], until, quiet) for i in range(args.players)),
                *(honest_logins(url, i, until, quiet_logins) for i in range(args.honest)),
            )
            loaded: list[float] = []
            loaded_logins: list[tuple[int, float]] = []
            seen: Counter[int] = Counter()
            until = time.perf_counter() + args.seconds
            await asyncio.gather(
                *(pages(url, gid, tokens[i % 7], until, loaded) for i in range(args.players)),
                *(honest_logins(url, i, until, loaded_logins) for i in range(args.honest)),
                *(flood(url, names, until, seen, n, args.flood_addresses) for n in range(args.flooders)),
            )
        finally:
            proc.terminate()
            proc.wait(10)
    q50, q99 = summary(quiet)
    l50, l99 = summary(loaded)
    print(
        f"players: {args.players} page loaders; honest: {args.honest} people logging in once a second; "
        f"flood: {args.flooders} clients from {args.flood_addresses} address(es); {args.seconds:.0f} s per run"
    )
    print(f"unloaded: {len(quiet)} pages, p50 {q50:.0f} ms, p99 {q99:.0f} ms")
    print(
        f"flooded:  {len(loaded)} pages, p50 {l50:.0f} ms, p99 {l99:.0f} ms  "
        f"(p50 x{l50 / q50:.2f}, p99 x{l99 / q99:.2f})"
    )
    print(f"honest logins, unloaded: {logins_line(quiet_logins)}")
    print(f"honest logins, flooded:  {logins_line(loaded_logins)}")
    print("login flood answers: " + ", ".join(f"{code}: {n}" for code, n in sorted(seen.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--honest", type=int, default=4)
    parser.add_argument("--flooders", type=int, default=16)
    parser.add_argument("--flood-addresses", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=15)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
