"""Votes through the API (SQLite and PostgreSQL): draw, concession, pause, resume, extension.

- a vote passes when every power that must agree said yes, fails at the first no; the master may
  approve or reject alone; a passed draw or concession ends the game;
- DIAS or a chosen set of powers, as a game setting;
- secret votes: a player sees only its own ballot and the outcome; pair test: two games that differ
  only in another power's ballot give a third power byte-identical answers;
- bot seats are left out of votes unless the game's bot setting says they count.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from arbitre.server.clock import ManualClock
from tests.server.conftest import POWERS, Api, start_game


def _vote(api: Api, gid: int, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    r = api.post(f"/api/games/{gid}/votes", body)
    assert r.status_code == status, r.text
    return dict(r.json())


def _ballot(api: Api, gid: int, vote: int, choice: str, status: int = 200) -> Any:
    r = api.post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": choice})
    assert r.status_code == status, r.text
    return r.json()


def test_a_draw_passes_when_everyone_agrees_and_ends_the_game(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    opened = _vote(players["FRANCE"], gid, {"kind": "draw"})
    vote = opened["id"]
    assert opened["votes"][0]["status"] == "open" and opened["votes"][0]["powers"] == POWERS
    for p in POWERS[:-1]:
        if p != "FRANCE":
            _ballot(players[p], gid, vote, "yes")
    assert players["TURKEY"].get(f"/api/games/{gid}").json()["game"]["status"] == "active"
    after = _ballot(players["TURKEY"], gid, vote, "yes")
    assert after["votes"][0]["status"] == "passed"
    state = master.get(f"/api/games/{gid}").json()
    assert state["game"]["status"] == "finished" and state["game"]["result"] == "drawn"
    assert sorted(state["winners"]) == POWERS
    # the game is over: no more votes
    _vote(players["FRANCE"], gid, {"kind": "draw"}, status=409)


def test_one_no_fails_a_vote_and_the_master_may_approve_or_reject(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    vote = _vote(players["ENGLAND"], gid, {"kind": "draw"})["id"]
    _ballot(players["FRANCE"], gid, vote, "no")
    listing = master.get(f"/api/games/{gid}/votes").json()["votes"]
    assert listing[0]["status"] == "failed" and listing[0]["decided_by"] == "ballots"
    _ballot(players["GERMANY"], gid, vote, "yes", status=409)  # closed
    # a second draw vote; the master approves it alone
    vote2 = _vote(players["ITALY"], gid, {"kind": "draw"})["id"]
    assert players["ITALY"].post(f"/api/games/{gid}/votes/{vote2}/decision", {"decision": "approve"}).status_code == 403
    r = master.post(f"/api/games/{gid}/votes/{vote2}/decision", {"decision": "approve"})
    assert r.status_code == 200, r.text
    assert master.get(f"/api/games/{gid}").json()["game"]["result"] == "drawn"
    assert master.post(f"/api/games/{gid}/votes/99999/decision", {"decision": "reject"}).status_code == 404


def test_draw_among_a_chosen_set_when_the_game_is_not_dias(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client, votes={"dias": False, "secret": []})
    r = players["FRANCE"].post(f"/api/games/{gid}/votes", {"kind": "draw", "powers": ["FRANCE", "atlantis"]})
    assert r.status_code == 409 and r.json()["error"]["where"] == "powers"
    vote = _vote(players["FRANCE"], gid, {"kind": "draw", "powers": ["FRANCE", "GERMANY", "ENGLAND"]})["id"]
    for p in POWERS:
        if p != "FRANCE":
            _ballot(players[p], gid, vote, "yes")
    state = players["ITALY"].get(f"/api/games/{gid}").json()
    assert state["game"]["result"] == "drawn" and sorted(state["winners"]) == ["ENGLAND", "FRANCE", "GERMANY"]


def test_dias_refuses_a_partial_draw(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client)
    r = players["FRANCE"].post(f"/api/games/{gid}/votes", {"kind": "draw", "powers": ["FRANCE"]})
    assert r.status_code == 409 and r.json()["error"]["where"] == "powers"


def test_concession_ends_the_game_won_by_that_power(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client)
    vote = _vote(players["ENGLAND"], gid, {"kind": "concede", "powers": ["RUSSIA"]})["id"]
    # Russia is not asked
    _ballot(players["RUSSIA"], gid, vote, "yes", status=409)
    for p in POWERS:
        if p not in ("ENGLAND", "RUSSIA"):
            _ballot(players[p], gid, vote, "yes")
    state = players["RUSSIA"].get(f"/api/games/{gid}").json()
    assert state["game"]["result"] == "won" and state["winners"] == ["RUSSIA"]


def test_pause_resume_and_extension_votes_act_on_the_clock(app_client: TestClient, clock: ManualClock) -> None:
    gid, _, players = start_game(app_client)
    before = players["FRANCE"].get(f"/api/games/{gid}").json()["game"]["deadline"]
    vote = _vote(players["FRANCE"], gid, {"kind": "extend", "minutes": 90})["id"]
    _vote(players["GERMANY"], gid, {"kind": "extend", "minutes": 30}, status=409)  # one open vote of a kind
    for p in POWERS:
        if p != "FRANCE":
            _ballot(players[p], gid, vote, "yes")
    after = players["FRANCE"].get(f"/api/games/{gid}").json()["game"]["deadline"]
    assert after > before
    r = players["FRANCE"].post(f"/api/games/{gid}/votes", {"kind": "extend", "minutes": 0})
    assert r.status_code == 409 and r.json()["error"]["where"] == "minutes"
    _vote(players["FRANCE"], gid, {"kind": "resume"}, status=409)  # not paused
    pause = _vote(players["FRANCE"], gid, {"kind": "pause"})["id"]
    for p in POWERS:
        if p != "FRANCE":
            _ballot(players[p], gid, pause, "yes")
    assert players["FRANCE"].get(f"/api/games/{gid}").json()["game"]["status"] == "paused"
    resume = _vote(players["ITALY"], gid, {"kind": "resume"})["id"]
    for p in POWERS:
        if p != "ITALY":
            _ballot(players[p], gid, resume, "yes")
    assert players["FRANCE"].get(f"/api/games/{gid}").json()["game"]["status"] == "active"


def test_a_clock_vote_expires_with_its_phase(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    vote = _vote(players["FRANCE"], gid, {"kind": "pause"})["id"]
    draw = _vote(players["FRANCE"], gid, {"kind": "draw"})["id"]
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    listing = {v["id"]: v for v in players["FRANCE"].get(f"/api/games/{gid}/votes").json()["votes"]}
    assert listing[vote]["status"] == "expired" and listing[draw]["status"] == "open"
    _ballot(players["GERMANY"], gid, vote, "yes", status=409)


def _answers(api: Api, gid: int, vote: int) -> dict[str, str]:
    """What ``api``'s user can read about the game's votes (and the game page), the game's id set aside (two games
    of one site differ in it by construction); the vote's id, its number in the game, is compared."""
    assert vote == 1  # the game's first vote, whatever other games voted
    out = {}
    for path in (f"/api/games/{gid}/votes", f"/api/games/{gid}", f"/games/{gid}/votes", f"/games/{gid}"):
        text = api.get(path).text
        text = re.sub(r'name="csrf" value="[0-9a-f]+"', "", text)
        text = re.sub(rf"/games/{gid}(?=\D)", "/games/ID", text).replace(f'data-game="{gid}"', 'data-game="ID"')
        text = re.sub(rf'"id":{gid},"(map|name)"', r'"id":ID,"\1"', text)  # the game's summary (sorted keys)
        out[re.sub(rf"/games/{gid}(?=/|$)", "/games/ID", path)] = text
    return out


def test_secret_ballots_are_seen_only_by_their_voter_and_the_master(app_client: TestClient) -> None:
    worlds = []
    master = Api(app_client, "secret_gm")
    players = {p: Api(app_client, f"secret_{p.lower()}") for p in POWERS}
    for germany_votes in (True, False):
        r = master.post("/api/games", {"name": "Secret", "assignment": "choice", "votes": {"secret": ["draw"]}})
        gid = r.json()["id"]
        for p in POWERS:
            assert players[p].post(f"/api/games/{gid}/join", {"power": p}).status_code == 200
        vote = _vote(players["FRANCE"], gid, {"kind": "draw"})["id"]
        if germany_votes:  # the hidden difference: Germany's ballot
            _ballot(players["GERMANY"], gid, vote, "yes")
        worlds.append((gid, master, players, vote))
    # Italy and Russia read the same bytes in both games: nothing tells them who voted, or who proposed
    for reader in ("ITALY", "RUSSIA"):
        a, b = (_answers(players[reader], gid, vote) for gid, _, players, vote in worlds)
        assert a == b, reader
    gid, master, players, vote = worlds[0]
    theirs = players["ITALY"].get(f"/api/games/{gid}/votes").json()["votes"][0]
    assert theirs["ballots"] == {} and theirs["proposer"] is None and theirs["your_ballot"] is None
    assert theirs["you_vote"] is True and theirs["status"] == "open"
    mine = players["GERMANY"].get(f"/api/games/{gid}/votes").json()["votes"][0]
    assert mine["your_ballot"] == "yes" and mine["ballots"] == {"GERMANY": "yes"} and mine["proposer"] is None
    assert players["FRANCE"].get(f"/api/games/{gid}/votes").json()["votes"][0]["proposer"] == "FRANCE"
    gm = master.get(f"/api/games/{gid}/votes").json()["votes"][0]
    assert gm["ballots"] == {"FRANCE": "yes", "GERMANY": "yes"} and gm["proposer"] == "FRANCE"


def test_public_ballots_are_seen_by_everyone(app_client: TestClient) -> None:
    gid, _, players = start_game(app_client, votes={"secret": []})
    vote = _vote(players["FRANCE"], gid, {"kind": "draw"})["id"]
    _ballot(players["GERMANY"], gid, vote, "yes")
    seen = players["ITALY"].get(f"/api/games/{gid}/votes").json()["votes"][0]
    assert seen["ballots"] == {"FRANCE": "yes", "GERMANY": "yes"} and seen["proposer"] == "FRANCE"
    assert seen["secret"] is False
    page = players["ITALY"].get(f"/games/{gid}/votes").text
    assert "GERMANY" in page and f'id="vote-{vote}-yes"' in page


def test_bot_seats_are_left_out_of_votes_unless_they_count(app_client: TestClient) -> None:
    master = Api(app_client, "botvotes_gm")
    gid = master.post("/api/games", {"name": "Bots", "assignment": "choice"}).json()["id"]
    assert master.post(f"/api/games/{gid}/bots", {"power": "TURKEY", "kind": "house"}).status_code in (200, 201)
    players = {}
    for p in POWERS[:-1]:
        players[p] = Api(app_client, f"bv_{p.lower()}")
        assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
    vote = _vote(players["FRANCE"], gid, {"kind": "draw"})
    assert "TURKEY" not in vote["votes"][0]["voters"]
    for p in POWERS[:-1]:
        if p != "FRANCE":
            _ballot(players[p], gid, vote["id"], "yes")
    assert master.get(f"/api/games/{gid}").json()["game"]["result"] == "drawn"
