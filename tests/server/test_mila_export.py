"""``GET /api/games/{id}/export?format=mila``: MILA's saved game of a site game, built from what the reader may see.

The master gets it at any time; a player or observer once the game is over (mid-game: 403, the same
answer whatever the hidden state).  A pair of finished games that differ only in private press between
England and Germany gives France byte-for-byte the same export (and the master different ones).  The
export of a finished game passes MILA's own checker and imports back; the history page links to it.
"""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from arbitre.interface.mila import import_game
from tests.server.conftest import Api, start_game

OPENING = {
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
}


def _game(client: TestClient, secret: str, finish: bool) -> tuple[int, Api, dict[str, Api]]:
    gid, master, players = start_game(client, press="full")
    assert players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "*", "body": "Bonjour"}).status_code == 201
    r = players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": secret})
    assert r.status_code == 201, r.text
    for power, lines in OPENING.items():
        assert players[power].put(f"/api/games/{gid}/orders", {"orders": lines}).status_code == 200
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    if finish:
        assert master.post(f"/api/games/{gid}/master", {"action": "draw"}).status_code == 200
    return gid, master, players


def _scrub(text: str, gid: int) -> str:
    """An export with the game id and the clock's times set aside."""
    text = re.sub(rf'"{gid}"', '"ID"', text)
    return re.sub(r'"(time_sent|timestamp)": ?\d+', r'"\1": 0', text)


def test_finished_game_pair_gives_france_the_same_export(app_client: TestClient) -> None:
    answers: dict[str, list[str]] = {"FRANCE": [], "master": []}
    for secret in ("Attack Holland", "Take Belgium instead"):
        gid, master, players = _game(app_client, secret, finish=True)
        for who, api in (("FRANCE", players["FRANCE"]), ("master", master)):
            r = api.get(f"/api/games/{gid}/export?format=mila")
            assert r.status_code == 200, r.text
            answers[who].append(_scrub(r.text, gid))
    assert answers["FRANCE"][0] == answers["FRANCE"][1]
    assert "Attack Holland" not in answers["FRANCE"][0] and "Bonjour" in answers["FRANCE"][0]
    assert answers["master"][0] != answers["master"][1]  # the pair does differ in hidden state
    saved = json.loads(answers["master"][0])
    assert [p["name"] for p in saved["phases"]] == ["S1901M", "F1901M"]
    assert sorted(saved["phases"][0]["orders"]["FRANCE"]) == ["A MAR - SPA", "A PAR - BUR", "F BRE - MAO"]
    assert import_game(saved).phase.year == 1901


def test_players_wait_for_the_end_and_the_master_does_not(app_client: TestClient) -> None:
    statuses = []
    for secret in ("one", "another"):
        gid, master, players = _game(app_client, secret, finish=False)
        statuses.append(
            (
                players["FRANCE"].get(f"/api/games/{gid}/export?format=mila").status_code,
                master.get(f"/api/games/{gid}/export?format=mila").status_code,
            )
        )
        page = players["FRANCE"].get(f"/games/{gid}/history").text
        assert "export?format=mila" not in page
        assert "export?format=mila" in master.get(f"/games/{gid}/history").text
    assert statuses == [(403, 200), (403, 200)]


def test_export_is_valid_for_mila_and_refuses_other_formats(app_client: TestClient) -> None:
    export = pytest.importorskip("diplomacy.utils.export")
    gid, master, _players = _game(app_client, "x", finish=True)
    saved = master.get(f"/api/games/{gid}/export?format=mila").json()
    assert export.is_valid_saved_game(saved)
    assert master.get(f"/api/games/{gid}/export?format=pgn").status_code in (400, 422)


def test_variant_game_export_is_a_clear_conflict(app_client: TestClient) -> None:
    gid, master, _players = start_game(app_client, rules=["no_convoys"])
    r = master.get(f"/api/games/{gid}/export?format=mila")
    assert r.status_code == 409 and "rule modules" in r.text
    assert "export?format=mila" not in master.get(f"/games/{gid}/history").text
