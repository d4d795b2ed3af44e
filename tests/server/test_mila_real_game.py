"""MILA's own network test, unmodified, against ``arbitre serve``: ``python -m
diplomacy.tests.network.run_real_game --port P --cases 3`` replays recorded game 3 (52 phases, press
included) through seven player clients and an omniscient admin client, on an empty SQLite database.

Skipped only when PyPI ``diplomacy`` 1.1.2 is not installed (CI installs it with the ``bench`` extra).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("diplomacy.tests.network.run_real_game")


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_mila_real_game_3_passes_against_arbitre_serve(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ARBITRE_DATABASE_URL": f"sqlite:///{tmp_path / 'mila.sqlite3'}", "ARBITRE_SENDER": "0"}
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "arbitre.cli.entry", "serve", "--port", str(port), "--no-demo"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        run = subprocess.run(
            [sys.executable, "-m", "diplomacy.tests.network.run_real_game", "--port", str(port), "--cases", "3"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
        assert "Admin game terminated." in run.stdout
        assert run.stdout.count("Game fully terminated at phase WINTER 1913 ADJUSTMENTS") == 7
    finally:
        server.terminate()
        server.wait(30)
        log.close()
