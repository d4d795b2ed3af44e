"""The per-game facts cache keyed by what the reader sees (:mod:`arbitre.store.facts`): no timing channel.

Pairs: France reads her page and the API after (a) nothing happened and (b) something she may not see happened
(another power's orders in a game that does not show progress, private press between two others and their
reading it, a submerged submarine's orders in Submarines).  Both cost the same SQL statements, the same fact
loads (none: everything is kept) and give the same bytes: her answers' work does not depend on hidden changes.
On old main every hidden write moved the game's ``generation`` and so every cached fact: France's next page
loaded them all again.

Correctness: after a change France *may* see (a message to her, a vote, a seat taken, progress shown to her),
her next read shows it (no stale fact), when the change is written through one database handle and read
through another (a second process: the stamps are in the database).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server.site import Site
from arbitre.store.facts import FactCache
from tests.server.conftest import POWERS, Api, start_game
from tests.server.test_query_counts import _login, counting

READS = ["/games/{gid}", "/api/games/{gid}", "/api/games/{gid}/orders", "/api/games/{gid}/messages", "/api/me"]


def _reads(site: Site, browser: TestClient, api: Api, gid: int) -> tuple[int, int, list[str]]:
    """France's page and API reads: (SQL statements, fact loads, the answers with the CSRF token set aside)."""
    loads = getattr(site.db.facts, "loads", 0)  # old main had no counter: its statements still tell
    answers = []
    with counting(site) as seen:
        for path in READS:
            r = browser.get(path.format(gid=gid)) if path.startswith("/games") else api.get(path.format(gid=gid))
            assert r.status_code == 200, r.text
            answers.append(re.sub(r'name="csrf" value="[0-9a-f]+"', "", r.text))
    return len(seen), getattr(site.db.facts, "loads", 0) - loads, answers


def _germany_orders(gid: int, players: dict[str, Api], _site: Site) -> None:
    r = players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A BER - KIE"], "ready": True})
    assert r.status_code == 200, r.text


def _private_press(gid: int, players: dict[str, Api], _site: Site) -> None:
    r = players["GERMANY"].post(f"/api/games/{gid}/messages", {"to": ["RUSSIA"], "body": "east is yours"})
    assert r.status_code in (200, 201), r.text
    r = players["RUSSIA"].post(f"/api/games/{gid}/messages", {"to": ["GERMANY"], "body": "deal"})
    assert r.status_code in (200, 201), r.text
    assert players["RUSSIA"].get(f"/api/games/{gid}/messages").status_code == 200  # and reads them


HIDDEN = {"germany_orders": _germany_orders, "private_press": _private_press}


@pytest.mark.parametrize("change", sorted(HIDDEN))
def test_a_hidden_change_costs_france_nothing(app_client: TestClient, site: Site, change: str) -> None:
    gid, _master, players = start_game(app_client, show_progress=False, press="full")
    france = players["FRANCE"]
    assert france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).status_code == 200
    browser = _login(app_client, france)
    _reads(site, browser, france, gid)  # fills the caches
    quiet = _reads(site, browser, france, gid)  # (a) nothing happened
    HIDDEN[change](gid, players, site)
    hidden = _reads(site, browser, france, gid)  # (b) something France may not see happened
    assert quiet[1] == 0, "an unchanged game loaded facts again"
    assert hidden[1] == quiet[1], f"{change}: France's reads loaded {hidden[1]} facts again"
    assert hidden[0] == quiet[0], f"{change}: France's reads cost {hidden[0]} statements, not {quiet[0]}"
    assert hidden[2] == quiet[2], f"{change}: France's answers changed"


def test_a_submerged_submarine_costs_others_nothing(app_client: TestClient, site: Site) -> None:
    """France re-orders her submerged submarine (a game without shown progress): Germany's reads cost the same."""
    from tests.server.test_submarines import DIVE, SETTINGS, play

    master = Api(app_client, "gmdeep")
    r = master.post("/api/games", {**SETTINGS, "show_progress": False})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    players = {p: Api(app_client, f"{p.lower()[:3]}deep") for p in POWERS}
    for p, api in players.items():
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
    for orders in DIVE:
        play(master, players, gid, orders)
    france, germany = players["FRANCE"], players["GERMANY"]
    assert france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR H", "SM MAO-1 H"]}).status_code == 200
    browser = _login(app_client, germany)
    _reads(site, browser, germany, gid)
    quiet = _reads(site, browser, germany, gid)
    r = france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR H", "SM MAO-1 - IRI-1"]})
    assert r.status_code == 200 and r.json()["rejected"] == [], r.text
    hidden = _reads(site, browser, germany, gid)
    assert hidden[:2] == quiet[:2] and hidden[2] == quiet[2]


def test_a_change_france_may_see_is_shown_at_once(app_client: TestClient, site: Site) -> None:
    """France reads through one fact cache (her process); each change is written while the site holds another
    (the writer's process): her next read shows it, found through the stamps the write left in the database."""
    gid, _master, players = start_game(app_client, show_progress=True, press="full")
    france = players["FRANCE"]
    hers, writers = site.db.facts, FactCache()

    def elsewhere(call: Any) -> Any:
        site.db.facts = writers
        try:
            return call()
        finally:
            site.db.facts = hers

    def state() -> dict[str, Any]:
        r = france.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def messages() -> int:
        return len(france.get(f"/api/games/{gid}/messages").json()["messages"])

    before, count = state(), messages()
    state(), messages()  # kept now
    r = elsewhere(lambda: players["GERMANY"].post(f"/api/games/{gid}/messages", {"to": ["FRANCE"], "body": "hi"}))
    assert r.status_code in (200, 201), r.text
    assert messages() == count + 1
    r = elsewhere(lambda: players["ENGLAND"].put(f"/api/games/{gid}/orders", {"orders": ["F LON - NTH"]}))
    assert r.status_code == 200, r.text
    assert state()["progress"]["ENGLAND"]["given"] and not before["progress"]["ENGLAND"]["given"]
    r = elsewhere(lambda: players["GERMANY"].post(f"/api/games/{gid}/votes", {"kind": "draw"}))
    assert r.status_code in (200, 201), r.text
    assert len(state()["votes"]) == len(before["votes"]) + 1
    r = elsewhere(lambda: Api(app_client, "watcher").post(f"/api/games/{gid}/join", {"role": "observer"}))
    assert r.status_code == 200, r.text
    assert "watcher" in str(state()["roster"]["observers"]) and "watcher" not in str(before["roster"])
