"""Helpers for the browser tests: a live server in a thread, and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from playwright import sync_api

from arbitre.server.app import create_app
from arbitre.server.site import Site

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's chromium (``ARBITRE_CHROMIUM`` overrides)."""
    return os.environ.get("ARBITRE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def live_server(site: Site) -> Iterator[str]:
    """Serve the app of ``site`` on a free loopback port in a thread; yields the base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(site=site), host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
        )
    )  # open event streams never end
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


@contextmanager
def chromium(path: str) -> Iterator[Any]:
    """Debian's chromium at ``path``, headless, driven by Playwright (the tests' and ``tools/screenshots.py``'s)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def browser() -> Iterator[Any]:
    """A headless chromium (skips the test when chromium is not installed: a service, not a module)."""
    path = chromium_path()
    if not path:
        pytest.skip("chromium is not installed (scripts/ci-services.sh installs it)")
    with chromium(path) as b:
        yield b


def show_now(page: Any) -> None:
    """Switch the game page to its "now" pane (it opens on the last phase once one was played)."""
    button = page.query_selector("#show-now")
    if button is not None and button.get_attribute("aria-pressed") != "true":
        button.click()
