"""``arbitre serve --workers N``: N server processes, each listening on its own socket of the same port.

uvicorn's own workers share one listening socket, and a connection belongs for its whole life to the process
that accepted it.  When a burst of connections arrives (browsers and bots opening their keep-alive connections
at once), the process that wakes first may accept every one waiting: measured with 28 keep-alive players, two
workers held 26 and 2 of the connections and used 80% and 9% of a core while the requests queued.  With
``SO_REUSEPORT`` (Linux, the BSDs) each process binds its own socket to the port and the kernel deals each new
connection to one of them by a hash of its addresses and ports, whatever the processes are doing, so the
connections spread evenly over the processes.  Where the option is missing, uvicorn's workers are used.

The parent here only supervises: it starts the processes, starts again one that dies (a process that fails
at start-up, e.g. a bad setting, stops the whole server instead), and stops them all on ``SIGINT`` or
``SIGTERM``.  Only processes of the same user can bind a port already bound with ``SO_REUSEPORT`` (Linux).
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import threading
from multiprocessing.process import BaseProcess
from typing import Any

STARTUP_FAILURE = 3
"""uvicorn's exit code for a server that failed before serving (the same failure would come back on a restart)."""
APP = "arbitre.server.asgi:app"
"""The ASGI application every process serves."""


def can_reuse_port() -> bool:
    """Does this system let several sockets bind one port and deal connections among them?"""
    return hasattr(socket, "SO_REUSEPORT") and sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` with ``SO_REUSEPORT`` (not yet listening)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _worker(host: str, port: int, options: dict[str, Any]) -> None:
    """One server process: its own socket on the shared port, uvicorn serving the app on it."""
    import uvicorn

    try:
        sock = reuse_port_socket(host, port)
    except OSError as err:
        print(f"arbitre: cannot listen on {host}:{port}: {err}", file=sys.stderr)
        sys.exit(STARTUP_FAILURE)
    config = uvicorn.Config(APP, host=host, port=port, **options)
    uvicorn.Server(config).run(sockets=[sock])


def serve_processes(host: str, port: int, workers: int, options: dict[str, Any]) -> int:
    """Run ``workers`` server processes on ``host``:``port`` until ``SIGINT``/``SIGTERM``; the exit code.

    ``options`` are :class:`uvicorn.Config` options (no host, port or workers)."""
    # Bound (never listening, so it is dealt no connection) for as long as the server runs: the port is
    # checked once here, and stays ours between a process's end and its replacement's start.
    keep = reuse_port_socket(host, port)
    port = keep.getsockname()[1]
    spawn = multiprocessing.get_context("spawn")
    stop = threading.Event()

    def start() -> BaseProcess:
        process = spawn.Process(target=_worker, args=(host, port, options))
        process.start()
        return process

    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    code = 0
    processes = [start() for _ in range(workers)]
    try:
        while not stop.wait(0.5):
            for i, process in enumerate(processes):
                if process.is_alive():
                    continue
                if process.exitcode == STARTUP_FAILURE:
                    print(f"arbitre: server process {process.pid} failed to start; stopping", file=sys.stderr)
                    code = STARTUP_FAILURE
                    stop.set()
                    break
                print(f"arbitre: server process {process.pid} ended ({process.exitcode}); starting another")
                processes[i] = start()
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn finishes the requests under way
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()
                process.join()
        keep.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code
