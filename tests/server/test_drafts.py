"""Drafts (the order box saved on the server as it changes, never adjudicated), what each player has still to
do (units without orders, builds and disbands), the players table's progress words, and the pair tests that a
draft, or how many orders another power gave, changes nothing another reader gets."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import Api, start_game


def _draft(api: Api, gid: int, lines: list[str], **extra: Any) -> Any:
    return api.put(f"/api/games/{gid}/draft", {"orders": lines, **extra})


def test_a_draft_is_kept_read_back_and_never_adjudicated(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    fr = players["FRANCE"]
    assert fr.get(f"/api/games/{gid}/draft").json()["lines"] is None
    r = _draft(fr, gid, ["A PAR - BUR", "F BRE - MAO"], phase="S1901M", step="orders")
    assert r.status_code == 200, r.text
    assert r.json()["to_do"]["missing"] == ["A MAR"]
    got = fr.get(f"/api/games/{gid}/draft").json()
    assert (got["phase"], got["step"], got["lines"]) == ("S1901M", "orders", ["A PAR - BUR", "F BRE - MAO"])
    # the game page shows the draft in the box, marked as not submitted; the submitted orders stay empty
    state = fr.get(f"/api/games/{gid}").json()["orders"]
    assert state["draft"] == ["A PAR - BUR", "F BRE - MAO"] and state["lines"] == [] and not state["submitted"]
    # another login of the same player (a second device) reads the same draft
    again = app_client.post("/api/tokens", json={"name": fr.name, "password": "password123"}).json()["token"]
    other = app_client.get(f"/api/games/{gid}/draft", headers={"Authorization": f"Bearer {again}"})
    assert other.json()["lines"] == ["A PAR - BUR", "F BRE - MAO"]
    # a draft is never adjudicated: the phase is played with France's (empty) submitted orders
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    last = master.get(f"/api/games/{gid}/history/0").json()["view"]["orders"]
    assert not [o for o in last if o["power"] == "FRANCE" and o["text"] != "A PAR H" and "BUR" in o["text"]]
    # and a draft of a past phase is neither returned nor accepted
    assert fr.get(f"/api/games/{gid}/draft").json()["lines"] is None
    assert fr.get(f"/api/games/{gid}").json()["orders"]["draft"] is None
    stale = _draft(fr, gid, ["A PAR - PIC"], phase="S1901M")
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_draft", stale.text


def test_submitting_drops_the_draft(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client)
    fr = players["FRANCE"]
    assert _draft(fr, gid, ["A PAR - BUR"]).status_code == 200
    r = fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - PIC"]})
    assert r.status_code == 200
    assert r.json()["to_do"]["missing"] == ["A MAR", "F BRE"]
    state = fr.get(f"/api/games/{gid}").json()["orders"]
    assert state["draft"] is None and state["lines"] == ["A PAR - PIC"] and state["submitted"]


@pytest.mark.parametrize(
    ("body", "status", "where"),
    [
        ({"orders": ["A PAR - BUR"] * 201}, 422, None),
        ({"orders": ["x" * 201]}, 422, None),
        ({"orders": ["A PAR\nA MAR"]}, 400, "orders"),
        ({"orders": ["y" * 199] * 150}, 400, "orders"),
        ({"orders": "A PAR - BUR"}, 422, None),
        ({"orders": [], "phase": "x" * 17}, 422, None),
        ({"orders": [], "extra": 1}, 422, None),
        ({"orders": [], "phase": "F1999M"}, 409, "phase"),
    ],
)
def test_hostile_drafts_get_clear_errors_and_store_nothing(
    app_client: TestClient, body: dict[str, Any], status: int, where: str | None
) -> None:
    gid, _, players = start_game(app_client)
    fr = players["FRANCE"]
    r = fr.put(f"/api/games/{gid}/draft", body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["message"]
    if where:
        assert r.json()["error"]["where"] == where
    assert fr.get(f"/api/games/{gid}/draft").json()["lines"] is None


def test_only_a_player_keeps_a_draft_and_needs_the_csrf_header(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    assert master.put(f"/api/games/{gid}/draft", {"orders": []}).status_code == 403
    assert master.get(f"/api/games/{gid}/draft").status_code == 403
    outsider = Api(app_client, "draft_outsider")
    assert outsider.put(f"/api/games/{gid}/draft", {"orders": []}).status_code == 403
    # with the session cookie, a change needs the X-CSRF-Token header
    c = app_client
    c.cookies.clear()
    r = c.post("/login", data={"name": players["FRANCE"].name, "password": "password123", "csrf": ""})
    no_header = c.put(f"/api/games/{gid}/draft", json={"orders": ["A PAR - BUR"]})
    assert no_header.status_code in (401, 403), (r.status_code, no_header.text)
    c.cookies.clear()


def test_the_check_names_units_without_orders(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client)
    fr = players["FRANCE"]
    r = fr.post(f"/api/games/{gid}/check", {"orders": ["A PAR - BUR"]})
    assert r.json()["errors"] == []
    assert r.json()["to_do"] == {
        "kind": "movement",
        "step": "orders",
        "one_change": False,
        "missing": ["A MAR", "F BRE"],
        "complete": False,
    }
    full = fr.post(f"/api/games/{gid}/check", {"orders": ["A PAR - BUR", "a mar h", "F BRE - MAO"]}).json()
    assert full["to_do"]["missing"] == [] and full["to_do"]["complete"]


def _play(master: Api, players: dict[str, Api], gid: int, orders: dict[str, list[str]]) -> None:
    for p, lines in orders.items():
        assert players[p].put(f"/api/games/{gid}/orders", {"orders": lines}).status_code == 200
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200


def test_retreats_and_winter_say_what_is_owed(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    _play(master, players, gid, {"GERMANY": ["A MUN - BUR"], "ITALY": ["A VEN - PIE"]})
    _play(master, players, gid, {"GERMANY": ["A BUR - MAR"], "ITALY": ["A PIE S A BUR - MAR"], "FRANCE": ["A MAR H"]})
    todo = players["FRANCE"].get(f"/api/games/{gid}").json()["orders"]["to_do"]
    assert (todo["kind"], todo["missing"], todo["complete"]) == ("retreats", ["A MAR"], False)
    _play(master, players, gid, {"FRANCE": ["A MAR - GAS"]})
    de = players["GERMANY"].get(f"/api/games/{gid}").json()["orders"]["to_do"]
    assert de["kind"] == "adjustments" and de["builds"] == {"allowed": 1, "given": 0} and not de["complete"]
    assert "disbands" not in de
    fr = players["FRANCE"].get(f"/api/games/{gid}").json()["orders"]["to_do"]
    assert fr["disbands"] == {"required": 1, "given": 0}
    r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A GAS D"]}).json()
    assert r["to_do"]["disbands"] == {"required": 1, "given": 1} and r["to_do"]["complete"]
    # another power's count is not in anyone else's answer
    assert "builds" not in str(players["ENGLAND"].get(f"/api/games/{gid}").json())


def test_orders_given_says_partly_for_some_orders(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client)
    players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]})
    players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN H", "A BER H", "F KIE H"]})
    progress = players["ENGLAND"].get(f"/api/games/{gid}").json()["progress"]
    assert progress["FRANCE"]["orders"] == "partly"
    assert progress["GERMANY"]["orders"] == "all"
    assert progress["ITALY"]["orders"] == "none"
    page = app_client.get(f"/games/{gid}", headers=players["ENGLAND"].headers).text
    roster = page[page.index('<table id="roster">') :]
    row = re.search(r'<tr data-power="FRANCE">.*?</tr>', roster, re.S)
    assert row is not None and '<td class="given">partly</td>' in row.group(0)


_CSRF = re.compile(r'(csrf"? value=|data-csrf=|"csrf": ?)"[^"]*"')


def _englands_outputs(client: TestClient, gid: int, england: Api) -> dict[str, str]:
    """Everything England reads of the game, CSRF tokens (random per visit) set aside."""
    paths = [
        f"/api/games/{gid}",
        f"/api/games/{gid}/orders",
        f"/api/games/{gid}/legal",
        f"/api/games/{gid}/draft",
        f"/api/games/{gid}/history",
        f"/api/games/{gid}/votes",
        f"/api/games/{gid}/messages",
        f"/games/{gid}",
        f"/games/{gid}/map.svg",
    ]
    out = {p: _CSRF.sub("csrf", client.get(p, headers=england.headers).text) for p in paths}
    out["check"] = client.post(f"/api/games/{gid}/check", json={"orders": ["F LON H"]}, headers=england.headers).text
    return out


def test_another_players_draft_changes_nothing_england_reads(app_client: TestClient) -> None:
    """Pair: only France's draft differs between the two readings; England's answers are the same bytes."""
    gid, _, players = start_game(app_client)
    players["ENGLAND"].put(f"/api/games/{gid}/orders", {"orders": ["F LON - NTH"]})
    before = _englands_outputs(app_client, gid, players["ENGLAND"])
    for lines in (["A PAR - BUR"], ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], ["x" * 199] * 40):
        assert _draft(players["FRANCE"], gid, lines).status_code == 200
    assert _draft(players["GERMANY"], gid, ["A MUN - BUR"]).status_code == 200
    after = _englands_outputs(app_client, gid, players["ENGLAND"])
    assert after == before


def test_how_many_orders_another_power_gave_is_not_told(app_client: TestClient) -> None:
    """Pair: France gives one order, then two of its three; England reads the same bytes (both "partly")."""
    gid, _, players = start_game(app_client)
    players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]})
    before = _englands_outputs(app_client, gid, players["ENGLAND"])
    players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "A MAR - SPA"]})
    after = _englands_outputs(app_client, gid, players["ENGLAND"])
    assert after == before


def test_a_seat_taken_over_starts_without_the_former_players_draft(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, master, players = start_game(app_client)
    assert _draft(players["FRANCE"], gid, ["A PAR - BUR"]).status_code == 200
    newcomer = Api(app_client, "draft_newcomer")
    r = master.post(f"/api/games/{gid}/master", {"action": "replace", "power": "FRANCE", "user": newcomer.name})
    assert r.status_code == 200, r.text
    assert newcomer.get(f"/api/games/{gid}/draft").json()["lines"] is None
