"""The site's background threads: the chores queue is bounded, and shutdown stops every thread it started."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from arbitre.server.app import create_app
from arbitre.server.chores import Chores
from arbitre.server.site import Site


def test_the_chores_queue_drops_beyond_its_bound() -> None:
    release = threading.Event()
    done: list[int] = []
    chores = Chores(max_pending=3)
    chores.hand_over(release.wait)  # keeps the thread busy: the next ones wait
    for n in range(5):
        chores.hand_over(lambda n=n: done.append(n))
    assert chores.dropped == 3  # 1 running + 2 waiting = 3 pending; the other 3 are dropped
    release.set()
    chores.wait()
    assert done == [0, 1]
    chores.close()


def test_chores_start_again_after_a_shutdown() -> None:
    chores = Chores()
    chores.close()
    done: list[str] = []
    chores.hand_over(lambda: done.append("after"))
    chores.wait()
    assert done == ["after"]
    chores.close()


def _site_threads() -> set[str]:
    return {t.name for t in threading.enumerate() if t.name.startswith(("chores", "hash"))}


def test_a_site_shutdown_stops_its_chores_and_hashing_threads(site: Site) -> None:
    before = _site_threads()
    with TestClient(create_app(site=site)) as client:
        assert client.post("/api/register", json={"name": "ann", "password": "password123"}).status_code == 201
        assert client.post("/api/tokens", json={"name": "ann", "password": "wrong one"}).status_code == 401
        site.chores.hand_over(lambda: None)
        assert _site_threads() - before  # the site did start threads
    assert _site_threads() - before == set()
