"""Login flood benchmark: do players' pages stay fast while someone floods the login endpoints?

The script starts the server on a fresh SQLite database (``bench_server.start_server``),
makes one running game, then measures the game page (``GET /games/{id}`` with a
player's bearer token, the HTML page with the player's own view) twice for
``--seconds`` seconds each, with ``--players`` concurrent page loaders:

1. unloaded: only the players;
2. flooded: the players, plus ``--flooders`` concurrent clients posting logins
   without pause (``POST /login`` forms and ``POST /api/tokens``), half with wrong
   passwords for the players' accounts, half with the right password of a
   throw-away account.

It prints page p50/p99 for both runs, their ratio, and how the flood was
answered (by status).  The server's defences: per-address and per-account
throttles (429 before any hashing) and a hashing gate (one hash at a time,
two waiting, others 429 at once), see ``arbitre/server/throttle.py``.

Run from the repository root::

    .venv/bin/python bench/bench_login_flood.py [--players 4] [--flooders 16] [--seconds 15]
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


async def setup(url: str) -> tuple[int, list[str], list[str]]:
    """One running game: its id, the players' tokens and names."""
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
        return gid, tokens, names


async def pages(url: str, gid: int, token: str, until: float, out: list[float]) -> None:
    """Load the game page in a loop until ``until``; record latencies."""
    async with httpx.AsyncClient(base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"}) as c:
        while time.perf_counter() < until:
            t0 = time.perf_counter()
            r = await c.get(f"/games/{gid}")
            if r.status_code == 200:
                out.append(time.perf_counter() - t0)


async def flood(url: str, names: list[str], until: float, seen: Counter[int], n: int) -> None:
    """Post logins without pause until ``until``."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:
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


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(f"sqlite:///{Path(tmp) / 'flood.sqlite3'}", 1, Path(tmp) / "server.log")
        try:
            gid, tokens, names = await setup(url)
            quiet: list[float] = []
            until = time.perf_counter() + args.seconds
            await asyncio.gather(*(pages(url, gid, tokens[i % 7], until, quiet) for i in range(args.players)))
            loaded: list[float] = []
            seen: Counter[int] = Counter()
            until = time.perf_counter() + args.seconds
            await asyncio.gather(
                *(pages(url, gid, tokens[i % 7], until, loaded) for i in range(args.players)),
                *(flood(url, names, until, seen, n) for n in range(args.flooders)),
            )
        finally:
            proc.terminate()
            proc.wait(10)
    q50, q99 = summary(quiet)
    l50, l99 = summary(loaded)
    print(f"players: {args.players} page loaders; flood: {args.flooders} clients; {args.seconds:.0f} s per run")
    print(f"unloaded: {len(quiet)} pages, p50 {q50:.0f} ms, p99 {q99:.0f} ms")
    print(
        f"flooded:  {len(loaded)} pages, p50 {l50:.0f} ms, p99 {l99:.0f} ms  "
        f"(p50 x{l50 / q50:.2f}, p99 x{l99 / q99:.2f})"
    )
    print("login flood answers: " + ", ".join(f"{code}: {n}" for code, n in sorted(seen.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--flooders", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=15)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
