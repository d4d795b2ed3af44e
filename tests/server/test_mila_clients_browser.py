"""Seven MILA clients (PyPI ``diplomacy``'s own client library, seven connections) play a site game to its
end with random legal orders (``wait=False``), while an observer watches the same game live in chromium.

The game is made on the site (its last year 1901: it ends in a draw after the winter); the clients sign in
with new names (MILA's ``sign_in`` registers them: the site's registration is open), join their powers,
and pick each phase a random order per orderable place from MILA's own engine fed with the states this
server sends.  The observer's page must follow every phase and the end without a reload.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import httpx
import pytest

from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.conftest import POWERS, Api
from tests.server.test_browser_live import PASSWORD, log_in, mark, not_reloaded, shot

pytest.importorskip("diplomacy.client.connection")
pytestmark = pytest.mark.usefixtures("quick_hashes")


async def play(port: int, gid: str, power: str, seed: int, phases: list[str]) -> str:
    """One MILA client: sign in, join ``power``, give random legal orders each phase until the game ends."""
    from diplomacy.client.connection import connect

    rng = random.Random(seed)
    connection = await connect("127.0.0.1", port)
    channel = await connection.authenticate(f"mila_{power.lower()}", f"pass_{power.lower()}")
    game = await channel.join_game(game_id=gid, power_name=power)
    done = ""
    for _ in range(6000):
        if game.status == "completed":
            return str(game.status)
        phase = game.get_current_phase()
        if game.status == "active" and phase not in (done, "COMPLETED"):
            possible = game.get_all_possible_orders()
            places = game.get_orderable_locations(power)
            orders = [rng.choice(sorted(possible[p])) for p in places if possible.get(p)]
            await game.set_orders(orders=orders, wait=False)
            phases.append(f"{power}:{phase}")
            done = phase
        await asyncio.sleep(0.05)
    return str(game.status)


def run_clients(port: int, gid: str, results: dict[str, Any], phases: list[str]) -> None:
    """The seven clients on one event loop of their own (a thread beside the browser)."""

    async def main() -> None:
        outcomes = await asyncio.gather(
            *(play(port, gid, p, i, phases) for i, p in enumerate(POWERS)), return_exceptions=True
        )
        results.update(zip(POWERS, outcomes, strict=True))

    asyncio.run(main())


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_seven_mila_clients_play_to_the_end_while_a_browser_watches(site: Site) -> None:
    with live_server(site) as base, browser() as b, httpx.Client(base_url=base, timeout=30) as client:
        port = int(base.rsplit(":", 1)[1])
        master = Api(client, "mila_master", PASSWORD)  # type: ignore[arg-type]
        watcher = Api(client, "mila_watcher", PASSWORD)  # type: ignore[arg-type]
        made = master.post("/api/games", {"name": "Bots", "assignment": "choice", "last_year": 1901})
        assert made.status_code == 201, made.text
        gid = made.json()["id"]
        assert watcher.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200

        page = log_in(b, base, "mila_watcher")
        page.goto(f"{base}/games/{gid}")
        page.wait_for_function(
            "document.getElementById('live') && document.getElementById('live').dataset.state === 'open'"
        )
        mark(page)

        results: dict[str, Any] = {}
        phases: list[str] = []
        thread = threading.Thread(target=run_clients, args=(port, str(gid), results, phases), daemon=True)
        thread.start()
        page.wait_for_function("document.getElementById('phase').dataset.phase === 'F1901M'", timeout=120_000)
        assert not_reloaded(page)
        shot(page, "mila-1-fall")
        page.wait_for_function("document.getElementById('status').textContent.trim() === 'finished'", timeout=240_000)
        assert not_reloaded(page)
        shot(page, "mila-2-finished")
        thread.join(120)
        assert results == dict.fromkeys(POWERS, "completed"), results
        state = watcher.get(f"/api/games/{gid}").json()
        assert state["game"]["status"] == "finished" and state["game"]["result"] == "drawn"
        for p in POWERS:
            assert f"{p}:S1901M" in phases and f"{p}:F1901M" in phases
        assert master.get(f"/api/games/{gid}/history").json()  # the site holds every phase they played
