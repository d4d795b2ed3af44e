"""Open-loop load generator for the site that is not its own bottleneck: several client processes, one connection per player.

The parent starts ``arbitre serve`` (``--workers N``) on a fresh database
(SQLite file, or a new PostgreSQL database from ``--postgres-url`` /
``ARBITRE_TEST_POSTGRES_URL``), creates ``--games`` full games through the API
(seven players each, with bearer tokens) and starts ``--procs`` client
processes.  Each client process owns a share of the simulated players, keeps
**one HTTP/1.1 keep-alive connection per player** (plain asyncio streams: no
client library in the hot path), and sends its share of the requests at
evenly spaced planned times (``--rate`` in total, open loop: a request is sent
when it is due whether or not earlier ones were answered; a player's requests
queue on that player's connection, as a browser's would).  A request's
latency counts from its planned time, so a server that falls behind shows it.

Requests cycle over ``--kinds`` (``page``: the player's game page
``GET /games/{id}``; ``map``: its map ``GET /games/{id}/map.svg``; ``api``:
``GET /api/games/{id}``).  Printed per kind: count, p50 / p95 / p99 latency;
overall: the achieved rate, errors, the server's CPU (its process and
children, from ``/proc``) and each client process's CPU (``getrusage``), as a
share of one core, and how late the clients sent (p99 of send time − planned
time): a client whose sends are late, or whose CPU nears a core, is the
bottleneck, and then the figures do not judge the server.

    .venv/bin/python bench/bench_load.py --backend sqlite --rate 200 --seconds 20 --kinds page
    .venv/bin/python bench/bench_load.py --backend postgresql --workers 2 --rate 200 --kinds page,map
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from backends import each_backend

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PAGE_P99_MS = 100.0
PATHS = {"page": "/games/{game}", "map": "/games/{game}/map.svg", "api": "/api/games/{game}"}


# --------------------------------------------------------------------------- client process
class Connection:
    """One player's keep-alive HTTP/1.1 connection; requests on it run one at a time."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port, self.token = host, port, token
        self.lock = asyncio.Lock()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> int:
        """GET ``path``; the status code (the body is read whole and dropped)."""
        async with self.lock:
            if self.writer is None or self.reader is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            head = f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAuthorization: Bearer {self.token}\r\n\r\n"
            self.writer.write(head.encode())
            reader = self.reader
            status_line = await reader.readline()
            status = int(status_line.split()[1])
            length, chunked, close = 0, False, False
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "transfer-encoding" and "chunked" in value.lower():
                    chunked = True
                elif name == "connection" and "close" in value.lower():
                    close = True
            if chunked:
                while True:
                    size = int((await reader.readline()).split(b";")[0], 16)
                    await reader.readexactly(size + 2)
                    if size == 0:
                        break
            else:
                await reader.readexactly(length)
            if close:
                self.writer.close()
                self.reader = self.writer = None
            return status


async def client_run(spec: dict[str, Any]) -> dict[str, Any]:
    """Send this process's share of the requests at their planned times; latencies, errors, lateness."""
    players = [Connection(spec["host"], spec["port"], p["token"]) for p in spec["players"]]
    games = [p["game"] for p in spec["players"]]
    kinds: list[str] = spec["kinds"]
    latencies: dict[str, list[float]] = {k: [] for k in kinds}
    late: list[float] = []
    errors = 0

    async def one(n: int, planned: float) -> None:
        nonlocal errors
        kind = kinds[n % len(kinds)]
        i = n % len(players)
        late.append(time.time() - planned)
        try:
            status = await players[i].get(PATHS[kind].format(game=games[i]))
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            status = 0
        if status == 200:
            latencies[kind].append(time.time() - planned)
        else:
            errors += 1

    # Warm every connection (and the server's caches), say so, and wait for the common start time.
    await asyncio.gather(*(c.get(PATHS[kinds[0]].format(game=g)) for c, g in zip(players, games, strict=True)))
    print("ready", flush=True)
    start = float(await asyncio.to_thread(sys.stdin.readline))
    rate, count = spec["rate"], spec["count"]
    offset = spec["offset"]
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    tasks = []
    for n in range(count):
        planned = start + (n + offset) / rate
        delay = planned - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(n, planned)))
    await asyncio.gather(*tasks)
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return {"latencies": latencies, "errors": errors, "late": late, "cpu": cpu, "ended": time.time()}


# --------------------------------------------------------------------------- parent
def proc_cpus(pid: int) -> dict[int, float]:
    """CPU seconds so far of process ``pid`` and of each of its children, threads included (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            pids.extend(int(c) for c in task.read_text().split())
        except OSError:
            continue
    out: dict[int, float] = {}
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[p] = (int(fields[11]) + int(fields[12])) / tick
    return out


def proc_cpu(pid: int) -> float:
    """CPU seconds so far of process ``pid`` and its children, threads included (Linux ``/proc``)."""
    return sum(proc_cpus(pid).values())


def machine_cpu() -> float:
    """CPU seconds so far that the machine's cores were busy, every process together (Linux ``/proc/stat``)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


def postgres_cpu() -> dict[int, float]:
    """CPU seconds so far of each of the machine's ``postgres`` processes (the database server, when it runs
    here), by process id: a run counts only the processes alive at its start and end."""
    tick, out = os.sysconf("SC_CLK_TCK"), {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        if head.split("(", 1)[1] == "postgres":
            fields = rest.split()
            out[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


def connections_by_process(pid: int, port: int) -> list[int]:
    """How many established connections to ``port`` each process of the server holds (Linux ``/proc``)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":  # local port; ESTABLISHED
                inodes.add(fields[9])
    held = []
    for p in sorted(proc_cpus(pid)):
        try:
            fds = list(Path(f"/proc/{p}/fd").iterdir())
        except OSError:
            continue
        targets = []
        for fd in fds:
            try:
                targets.append(os.readlink(fd))
            except OSError:
                continue
        count = sum(1 for t in targets if t.startswith("socket:[") and t[8:-1] in inodes)
        if count:
            held.append(count)
    return held


def start_serve(db_url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str, int]:
    """``arbitre serve`` on a free port (migrations run by it); the process, its URL and port."""
    import httpx
    from bench_server import free_port

    port = free_port()
    env = {**os.environ, "ARBITRE_DATABASE_URL": db_url, "ARBITRE_WORKER_INTERVAL": "5"}
    cmd = [str(ROOT / ".venv" / "bin" / "arbitre"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--workers", str(workers), "--no-demo"]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/api/games", timeout=2).status_code == 200:
                return proc, url, port
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start:\n" + log.read_text())


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values`` (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(backend: str, db_url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Serve, set up the games, run the client processes, print and return the figures."""
    from bench_server import setup_games

    proc, url, port = start_serve(db_url, args.workers, workdir / f"{backend}.log")
    try:
        clients = setup_games(url, args.games)
        players = [{"game": c["game"], "token": c["headers"]["Authorization"].split()[1]} for c in clients]
        procs = max(1, min(args.procs, len(players)))
        total = int(args.rate * args.seconds)
        children = []
        for k in range(procs):
            spec = {
                "host": "127.0.0.1",
                "port": port,
                "players": players[k::procs],
                "kinds": args.kinds,
                "rate": args.rate / procs,
                "count": total // procs,
                "offset": k / procs,  # the processes' arrivals interleave evenly
            }
            child = subprocess.Popen(
                [sys.executable, __file__, "--client"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            assert child.stdin is not None
            child.stdin.write(json.dumps(spec) + "\n")
            child.stdin.flush()
            children.append(child)
        for child in children:  # every client process started, connected and warm
            assert child.stdout is not None
            if child.stdout.readline().strip() != "ready":
                raise RuntimeError("a client process failed to start")
        held = connections_by_process(proc.pid, port)
        start = time.time() + 0.5
        for child in children:
            assert child.stdin is not None
            child.stdin.write(f"{start}\n")
            child.stdin.close()
        while time.time() < start:
            time.sleep(0.01)
        s0 = proc_cpus(proc.pid)
        m0, pg0 = machine_cpu(), postgres_cpu()
        spy = None
        if args.profile:  # py-spy (pip install py-spy) samples the server and its workers while the load runs
            spy = subprocess.Popen(
                [
                    *("py-spy", "record", "-p", str(proc.pid), "--subprocesses", "--nonblocking", "-r", "200"),
                    *(("--gil",) if args.profile_gil else ()),
                    *("-d", str(int(args.seconds)), "-f", "raw", "-o", str(args.profile)),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        outs = []
        for child in children:
            assert child.stdout is not None
            outs.append(json.loads(child.stdout.read().strip().splitlines()[-1]))
            child.wait()
        ended = max(o["ended"] for o in outs)
        s1 = proc_cpus(proc.pid)
        m1, pg1 = machine_cpu(), postgres_cpu()
        each = {p: s1[p] - s0.get(p, 0.0) for p in s1}  # the supervisor (when workers > 1) and each worker
        server = sum(each.values())
        if spy is not None:
            spy.wait(60)
    finally:
        proc.terminate()
        proc.wait(30)
    wall = ended - start
    lat = {k: [x for o in outs for x in o["latencies"][k]] for k in args.kinds}
    done = sum(len(v) for v in lat.values())
    errors = sum(o["errors"] for o in outs)
    late = [x for o in outs for x in o["late"]]
    result: dict[str, Any] = {
        "backend": backend,
        "workers": args.workers,
        "rate": args.rate,
        "achieved": done / wall,
        "errors": errors,
        "load_avg": os.getloadavg()[0],
        "server_cpu_core": server / wall,
        "server_cpu_ms_per_request": server / max(1, done) * 1000,
        "server_processes_cpu_core": [each[p] / wall for p in sorted(each)],
        "connections_by_process": held,
        "machine_cpu_cores": (m1 - m0) / wall,
        "cores": os.cpu_count(),
        "postgres_cpu_core": sum(pg1[p] - pg0[p] for p in pg1.keys() & pg0.keys()) / wall,
        "client_cpu_core": [o["cpu"] / wall for o in outs],
        "send_late_p99_ms": pct(late, 0.99) * 1000,
        "kinds": {
            k: {"count": len(v), **{f"p{q}_ms": pct(v, q / 100) * 1000 for q in (50, 95, 99)}} for k, v in lat.items()
        },
    }
    print(
        f"\n{backend}, arbitre serve --workers {args.workers}, open loop {args.rate:g}/s for {args.seconds:g} s, "
        f"{len(players)} players on {procs} client processes (load average {result['load_avg']:.1f}):"
    )
    print(f"  achieved {result['achieved']:.1f} requests/s, {errors} errors")
    print(f"  {'request':<8}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for k, row in result["kinds"].items():
        print(f"  {k:<8}{row['count']:>8}{row['p50_ms']:>9.1f}{row['p95_ms']:>9.1f}{row['p99_ms']:>9.1f}")
    print(
        f"  server CPU {result['server_cpu_core'] * 100:.0f}% of a core ({result['server_cpu_ms_per_request']:.2f} ms "
        f"per request; by process {', '.join(f'{c * 100:.0f}%' for c in result['server_processes_cpu_core'])}); "
        f"players' connections by server process {'/'.join(map(str, result['connections_by_process']))}; "
        f"client processes {', '.join(f'{c * 100:.0f}%' for c in result['client_cpu_core'])} of a core "
        f"each; sends late by {result['send_late_p99_ms']:.1f} ms at p99"
    )
    print(
        f"  the machine's cores busy {result['machine_cpu_cores']:.2f} of {result['cores']} (every process on it); "
        f"postgres processes {result['postgres_cpu_core'] * 100:.0f}% of a core"
    )
    if "page" in result["kinds"]:
        p99 = result["kinds"]["page"]["p99_ms"]
        met = p99 < PAGE_P99_MS and errors == 0 and result["achieved"] >= 0.95 * args.rate
        print(f"  target: game page p99 < {PAGE_P99_MS:.0f} ms at {args.rate:g}/s: {'met' if met else 'NOT met'}")
        result["met"] = met
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments; a client process (``--client``, spec on stdin) or the parent."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="sqlite")
    ap.add_argument("--workers", type=int, default=1, help="arbitre serve --workers (PostgreSQL for more than 1)")
    ap.add_argument("--rate", type=float, default=200.0, help="requests per second, all client processes together")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--games", type=int, default=4, help="full games (seven players each) to spread the load over")
    ap.add_argument("--procs", type=int, default=4, help="client processes")
    ap.add_argument("--kinds", default="page", help="comma-separated kinds of request in turn: page, map, api")
    ap.add_argument("--postgres-url", default=os.environ.get("ARBITRE_TEST_POSTGRES_URL"))
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--profile", type=Path, help="py-spy the server during the run (collapsed stacks to this file)")
    ap.add_argument(
        "--profile-gil",
        action="store_true",
        help="with --profile: only samples of the thread holding the GIL (the server's Python CPU, no waits)",
    )
    ap.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.client:
        print(json.dumps(asyncio.run(client_run(json.loads(sys.stdin.readline())))))
        return 0
    args.kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(args.kinds) - set(PATHS)
    if unknown:
        ap.error(f"unknown kinds {sorted(unknown)}: choose from {sorted(PATHS)}")
    results = each_backend(args, run)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
