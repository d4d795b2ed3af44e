"""Withdrawing a ballot, or a vote one opened, while it is undecided (API and page form; both databases)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Api, start_game


def delete(api: Api, path: str) -> Any:
    """DELETE with ``api``'s login (and CSRF header)."""
    return api.client.delete(path, headers=api.headers)


def test_a_ballot_is_taken_back_and_a_vote_withdrawn_by_its_proposer(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    vote = players["FRANCE"].post(f"/api/games/{gid}/votes", {"kind": "draw"}).json()["id"]
    assert players["GERMANY"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}).status_code == 200
    r = delete(players["GERMANY"], f"/api/games/{gid}/votes/{vote}/ballot")
    assert r.status_code == 200, r.text
    mine = r.json()["votes"][0]
    assert mine["your_ballot"] is None and mine["you_vote"] is True and mine["status"] == "open"
    r = delete(players["GERMANY"], f"/api/games/{gid}/votes/{vote}/ballot")  # nothing left to take back
    assert r.status_code == 409 and r.json()["error"]["where"] == "vote"
    assert master.get(f"/api/games/{gid}/votes").json()["votes"][0]["ballots"] == {"FRANCE": "yes"}
    # only the proposer withdraws the vote; the master and observers are not players
    r = delete(players["GERMANY"], f"/api/games/{gid}/votes/{vote}")
    assert r.status_code == 409 and "opened" in r.json()["error"]["message"]
    assert delete(master, f"/api/games/{gid}/votes/{vote}").status_code == 403
    r = delete(players["FRANCE"], f"/api/games/{gid}/votes/{vote}")
    assert r.status_code == 200 and r.json()["votes"][0]["status"] == "withdrawn"
    # a withdrawn vote is closed: no ballot, no second withdrawal; a new vote of the kind may be opened
    assert players["ITALY"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}).status_code == 409
    assert delete(players["FRANCE"], f"/api/games/{gid}/votes/{vote}").status_code == 409
    assert delete(players["FRANCE"], f"/api/games/{gid}/votes/99999").status_code == 404
    assert players["ITALY"].post(f"/api/games/{gid}/votes", {"kind": "draw"}).status_code == 201
    # a cookie login without the CSRF header changes nothing
    browser = cookie_login(app_client, players["ITALY"].name)
    r = browser.delete(f"/api/games/{gid}/votes/{vote + 1}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_csrf"
    assert players["ITALY"].get(f"/api/games/{gid}/votes").json()["votes"][0]["status"] == "open"


def cookie_login(app_client: TestClient, name: str) -> TestClient:
    """A browser-like client logged in with the session cookie (forms need their CSRF token)."""
    browser = TestClient(app_client.app)
    page = browser.get("/login").text
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    r = browser.post("/login", data={"name": name, "password": "password123", "csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return browser


def test_the_votes_page_forms_withdraw(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client)
    france = players["FRANCE"]
    vote = france.post(f"/api/games/{gid}/votes", {"kind": "extend", "minutes": 30}).json()["id"]
    browser = cookie_login(app_client, france.name)
    page = browser.get(f"/games/{gid}/votes").text
    assert f'id="vote-{vote}-withdraw-ballot"' in page and f'id="vote-{vote}-withdraw"' in page
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    germany_page = players["GERMANY"].get(f"/games/{gid}/votes").text
    assert f'id="vote-{vote}-withdraw"' not in germany_page  # not Germany's vote
    assert f'id="vote-{vote}-withdraw-ballot"' not in germany_page  # no ballot yet
    path = f"/games/{gid}/votes/{vote}/withdraw"
    r = browser.post(path, data={"csrf": csrf, "what": "everything"}, follow_redirects=False)
    # post/redirect/get: back to the votes page, which shows the problem; nothing was withdrawn
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}/votes"
    assert "what is ballot or vote" in browser.get(r.headers["location"]).text
    assert france.get(f"/api/games/{gid}/votes").json()["votes"][0]["status"] == "open"
    r = browser.post(path, data={"csrf": "nope", "what": "vote"})
    assert r.status_code == 403
    r = browser.post(path, data={"csrf": csrf, "what": "vote"}, follow_redirects=False)
    assert r.status_code in (302, 303), r.text
    assert france.get(f"/api/games/{gid}/votes").json()["votes"][0]["status"] == "withdrawn"
