"""``arbitre serve --workers N`` spreads the connections over its processes.

A keep-alive connection belongs to the process that accepted it.  When every process accepted from one shared
socket, a burst of connections could go mostly to the process that woke first (under the load bench two
workers held 26 and 2 of 28 players' connections).  Each process now listens on its own ``SO_REUSEPORT``
socket and the kernel deals the connections among them (:mod:`arbitre.server.processes`).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from arbitre.server.processes import can_reuse_port, reuse_port_socket

pytestmark = pytest.mark.skipif(
    not can_reuse_port() or not Path("/proc/net/tcp").exists(), reason="needs SO_REUSEPORT and Linux's /proc"
)

CONNECTIONS = 40
AT_LEAST = 8
"""Each of two listeners gets at least this many of :data:`CONNECTIONS` connections (dealt by a hash: fewer
than 8 of 40 on one side happens with a chance of about 1 in 25,000 per side)."""
LISTEN, ESTABLISHED = "0A", "01"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _sockets(port: int, state: str) -> set[str]:
    """The inodes of the TCP sockets on local ``port`` in ``state`` (Linux ``/proc/net/tcp``)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
                inodes.add(fields[9])
    return inodes


def _held_by_process(pids: list[int], inodes: set[str]) -> Counter[int]:
    """How many of the sockets ``inodes`` each process holds open."""
    held = Counter[int]()
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                held[pid] += 1
    return held


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        out += [int(c) for c in task.read_text().split()]
    return out


def test_sockets_bound_with_reuse_port_share_the_port_and_its_connections() -> None:
    one = reuse_port_socket("127.0.0.1", 0)
    port = one.getsockname()[1]
    two = reuse_port_socket("127.0.0.1", port)
    clients: list[socket.socket] = []
    try:
        for s in (one, two):
            s.listen(CONNECTIONS)
            s.setblocking(False)
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS)]
        accepted = Counter[int]()
        deadline = time.monotonic() + 10
        while sum(accepted.values()) < CONNECTIONS and time.monotonic() < deadline:
            for i, s in enumerate((one, two)):
                try:
                    conn, _ = s.accept()
                except BlockingIOError:
                    continue
                conn.close()
                accepted[i] += 1
        assert sum(accepted.values()) == CONNECTIONS
        assert accepted[0] >= AT_LEAST and accepted[1] >= AT_LEAST, accepted
    finally:
        for c in clients:
            c.close()
        one.close()
        two.close()


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``arbitre serve --workers 2`` on a fresh SQLite file, both processes up; the server and its port."""
    port = _free_port()
    env = {**os.environ, "ARBITRE_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}", "ARBITRE_WORKER": "0"}
    log = (tmp_path / "serve.log").open("wb")
    arbitre = str(Path(sys.executable).with_name("arbitre"))
    serve = subprocess.Popen(
        [arbitre, "serve", "--port", str(port), "--workers", "2", "--no-demo"], env=env, stdout=log, stderr=log
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                up = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200
            except httpx.HTTPError:
                up = False
            if up and len(_held_by_process(_children(serve.pid), _sockets(port, LISTEN))) == 2:
                break
            time.sleep(0.2)
        yield serve, port
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            serve.wait(40)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()
        log.close()
    assert serve.returncode == 0, (tmp_path / "serve.log").read_text()


def test_each_worker_listens_on_its_own_socket(two_workers: tuple[subprocess.Popen[bytes], int]) -> None:
    serve, port = two_workers
    workers = _children(serve.pid)
    listening = _held_by_process(workers, _sockets(port, LISTEN))
    # uvicorn's workers hold one shared socket, so there was one listening socket, held by both
    assert len(_sockets(port, LISTEN)) == 2
    assert sorted(listening.values()) == [1, 1]


def test_two_workers_each_hold_a_share_of_a_burst_of_keep_alive_connections(
    two_workers: tuple[subprocess.Popen[bytes], int],
) -> None:
    serve, port = two_workers
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS)]
    try:
        for s in socks:
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        for s in socks:
            assert s.recv(12).startswith(b"HTTP/1.1 200")
        held = _held_by_process(_children(serve.pid), _sockets(port, ESTABLISHED))
        assert sum(held.values()) == CONNECTIONS, held
        assert len(held) == 2 and min(held.values()) >= AT_LEAST, held
    finally:
        for s in socks:
            s.close()
