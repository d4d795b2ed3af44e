"""The rest of the JSON API's answers, byte for byte: bot seats and sandboxes, lateness (boards for a master, a
player, an outsider and a visitor; calls and a take-over), tournaments, notifications and their settings, account
security (sessions, tokens, password change and reset), the scoring systems: a scripted session reads exactly the
bytes recorded in ``tests/data/answers/api_more.txt`` before these answers were typed values (key order, key
names, null vs missing, number formats).

As in :mod:`tests.server.test_answer_bytes`: names are fixed, the test clock starts at a fixed time, every
database is fresh (ids start at 1), and the random values an answer carries (take-over links, share links, a
bearer token) are set aside.  To record again (only when an answer is meant to change):
``ARBITRE_RECORD_ANSWERS=1 pytest tests/server/test_answer_bytes_more.py``.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import POWERS
from tests.server.test_answer_bytes import DATA, Recorder

pytestmark = pytest.mark.usefixtures("quick_hashes")


class Visitor:
    """A caller without an account (no token)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.headers: dict[str, str] = {}

    def get(self, path: str) -> Any:
        """GET and return the response."""
        return self.client.get(path)


class Browser(Visitor):
    """A separate browser logged in as ``name`` (a cookie session), sending its CSRF token as the header."""

    def __init__(self, client: TestClient, name: str, password: str = "password123") -> None:
        super().__init__(TestClient(client.app))
        csrf = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/login").text)
        assert csrf
        data = {"name": name, "password": password, "csrf": csrf.group(1)}
        assert self.client.post("/login", data=data, follow_redirects=False).status_code == 303
        token = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/account").text)
        assert token
        self.headers = {"X-CSRF-Token": token.group(1)}

    def get(self, path: str) -> Any:
        """GET and return the response."""
        return self.client.get(path, headers=self.headers)


LINKS = re.compile(r"/(s|shared|takeover)/[A-Za-z0-9_-]{20,64}")
"""A share or take-over link's random token (``secrets.token_urlsafe``): set aside as ``SECRET``."""


class Normalised(Recorder):
    """A recorder that sets aside every random link token of its lines."""

    def call(self, who: str, method: str, path: str, body: Any = None) -> Any:
        """One call as ``who``, recorded with its link tokens set aside; its JSON."""
        got = super().call(who, method, path, body)
        self.lines[-1] = LINKS.sub(r"/\1/SECRET", self.lines[-1])
        return got


def users(rec: Recorder) -> None:
    """The accounts of the session (their registration is not recorded: it is the first test's)."""
    rec.user("master")
    for p in POWERS:
        rec.user(p.lower())
    rec.user("outsider")
    rec.user("substitute")
    rec.users["visitor"] = Visitor(rec.client)  # type: ignore[assignment]


def scoring(rec: Recorder) -> None:
    """The scoring systems."""
    rec.call("visitor", "GET", "/api/scoring")


def bots_and_lateness(rec: Recorder, clock: ManualClock, site: Site) -> int:
    """A game with a bot seat, its lateness board after a missed deadline, a call for a replacement and its
    take-over, sandboxes of a player; returns the game's id."""
    body = {"name": "More", "assignment": "choice", "deadlines": {"M": 600, "R": 600, "A": 600}}
    gid = rec.call("master", "POST", "/api/games", body)["id"]
    g = f"/api/games/{gid}"
    rec.call("master", "GET", f"{g}/bots")
    rec.call("visitor", "GET", "/api/lateness/presets")
    rec.call("master", "PUT", f"{g}/lateness", {"preset": "casual", "grace_minutes": 0, "rest_days": ["sun"]})
    rec.call("master", "PUT", f"{g}/lateness", {"preset": "none", "disorder_after": 1, "excuses": 0})
    rec.call("master", "PUT", f"{g}/lateness", {"preset": "none", "timezone": "Mars/Olympus"})
    for p in POWERS:
        if p != "RUSSIA":
            rec.call(p.lower(), "POST", f"{g}/join", {"role": "player", "power": p})
    rec.call("master", "POST", f"{g}/bots", {"power": "FRANCE", "kind": "hold"})
    rec.call("master", "POST", f"{g}/bots", {"power": "RUSSIA", "kind": "hold"})
    rec.call("master", "PUT", f"{g}/bots/settings", {"votes": "exclude", "after_missed": 3})
    rec.call("france", "GET", f"{g}/bots")
    rec.call("outsider", "GET", f"{g}/bots")
    # Spring 1901: everyone but Italy is ready; the deadline passes
    for p in POWERS:
        if p not in ("ITALY", "RUSSIA"):
            rec.call(p.lower(), "PUT", f"{g}/orders", {"ready": True})
    clock.advance(601)
    worker.tick(site)
    for who in ("master", "italy", "france", "outsider", "visitor"):
        rec.call(who, "GET", f"{g}/lateness")
        rec.call(who, "GET", "/api/lateness")
    call = rec.call("master", "POST", f"{g}/replacements", {"power": "ITALY"})
    italy = call.get("link", "/x").rsplit("/", 1)[1]
    rec.secrets.append(italy)
    rec.lines[-1] = rec.lines[-1].replace(italy, "SECRET")
    rec.call("master", "POST", f"{g}/replacements", {"power": "ITALY"})
    england = rec.call("master", "POST", f"{g}/replacements", {"power": "ENGLAND"})["link"].rsplit("/", 1)[1]
    rec.secrets.append(england)
    rec.lines[-1] = rec.lines[-1].replace(england, "SECRET")
    rec.call("master", "DELETE", f"{g}/replacements/ENGLAND")
    rec.call("master", "DELETE", f"{g}/replacements/ENGLAND")
    for who in ("outsider", "visitor", "italy"):
        rec.call(who, "GET", f"{g}/lateness")
        rec.call(who, "GET", "/api/lateness")
    rec.call("visitor", "GET", f"/api/takeover/{italy}")
    rec.call("substitute", "GET", f"/api/takeover/{italy}")
    rec.call("substitute", "POST", f"/api/takeover/{italy}")
    rec.call("outsider", "POST", f"/api/takeover/{italy}")
    rec.call("outsider", "GET", f"/api/takeover/{italy}")
    rec.call("master", "GET", f"{g}/lateness")
    rec.call("master", "DELETE", f"{g}/bots/FRANCE")
    rec.call("master", "DELETE", f"{g}/bots/RUSSIA")
    rec.call("master", "GET", f"{g}/bots")
    rec.call("master", "POST", f"{g}/bots", {"power": "RUSSIA", "kind": "random"})
    return gid


def sandboxes(rec: Recorder, gid: int) -> None:
    """A player's sandboxes: opened from the game, adjudicated, stepped, branched, shared."""
    g = f"/api/games/{gid}"
    box = rec.call("france", "POST", f"{g}/sandboxes", {})
    share = box["share"].rsplit("/", 1)[1]
    rec.secrets.append(share)
    rec.lines[-1] = rec.lines[-1].replace(share, "SECRET")
    b = f"/api/sandboxes/{box['id']}"
    rec.call("france", "POST", f"{g}/sandboxes", {"index": 0})
    rec.call("france", "POST", f"{g}/sandboxes", {"index": 7})
    rec.call("outsider", "POST", f"{g}/sandboxes", {})
    orders = ["FRANCE: A PAR - BUR", "FRANCE: F BRE - MAO", "GERMANY: A MUN - BUR", "ITALY: A VEN - TRI", "nonsense"]
    rec.call("france", "POST", f"{b}/adjudicate", {"orders": orders})
    orders = ["FRANCE: A PAR - BUR", "FRANCE: F BRE - MAO", "GERMANY: A MUN - BUR", "ITALY: A VEN - XYZ"]
    rec.call("france", "POST", f"{b}/adjudicate", {"orders": orders})
    rec.call("france", "POST", f"{b}/step", {"delta": -1})
    rec.call("france", "POST", f"{b}/adjudicate", {"orders": []})
    rec.call("france", "POST", f"{b}/step", {"delta": 1})
    rec.call("france", "POST", f"{b}/step", {"delta": -1})
    branched = rec.call("france", "POST", f"{b}/branch")
    token = branched["share"].rsplit("/", 1)[1]
    rec.secrets.append(token)
    rec.lines[-1] = rec.lines[-1].replace(token, "SECRET")
    rec.call("france", "GET", "/api/sandboxes")
    rec.call("germany", "GET", "/api/sandboxes")
    rec.call("france", "GET", b)
    rec.call("germany", "GET", b)
    rec.call("visitor", "GET", f"/api/shared/{share}")
    rec.call("visitor", "GET", "/api/shared/nothing")


def tournaments(rec: Recorder) -> None:
    """A tournament: invitations, joining, leaving, a round, what each reader may know."""
    body = {"name": "Coupe", "scoring": "c-diplo", "lateness": "none", "card_penalty": 2, "last_year": 1910}
    tid = rec.call("master", "POST", "/api/tournaments", body)["id"]
    t = f"/api/tournaments/{tid}"
    rec.call("master", "POST", "/api/tournaments", {"name": "Autre", "scoring": "sum-of-squares"})
    rec.call("master", "POST", "/api/tournaments", {"name": "  "})
    for p in POWERS:
        rec.call("master", "POST", f"{t}/players", {"user": p.lower()})
    rec.call("master", "POST", f"{t}/players", {"user": "outsider"})
    rec.call("master", "POST", f"{t}/players", {"user": "nobody"})
    rec.call("outsider", "GET", "/api/tournaments")
    rec.call("visitor", "GET", t)
    for p in POWERS[:-1]:
        rec.call(p.lower(), "POST", f"{t}/join")
    rec.call("master", "POST", f"{t}/rounds", {})
    rec.call("turkey", "GET", t)
    rec.call("turkey", "POST", f"{t}/join")
    rec.call("substitute", "POST", f"{t}/join")
    rec.call("outsider", "POST", f"{t}/leave")
    rec.call("outsider", "POST", f"{t}/leave")
    rec.call("master", "DELETE", f"{t}/players/substitute")
    rec.call("master", "POST", f"{t}/rounds", {"deadlines": {"M": 900, "R": 900, "A": 900}})
    for who in ("master", "france", "outsider", "visitor"):
        rec.call(who, "GET", t)
        rec.call(who, "GET", "/api/tournaments")


def notifications(rec: Recorder) -> None:
    """The notification list and settings."""
    rec.call("germany", "GET", "/api/notifications")
    rec.call("germany", "GET", "/api/notifications?limit=2")
    rec.call("germany", "GET", "/api/notifications?before=3&limit=2")
    rec.call("germany", "POST", "/api/notifications/read", {"ids": [1, 2, 99]})
    rec.call("germany", "POST", "/api/notifications/read", {})
    rec.call("germany", "GET", "/api/notifications?limit=1")
    rec.call("germany", "GET", "/api/me/notifications")
    settings = {"email": "g@example.org", "time_zone": "Europe/Paris", "remind_minutes": 90, "off": ["site:message"]}
    rec.call("germany", "PUT", "/api/me/notifications", settings)
    rec.call("germany", "PUT", "/api/me/notifications", {"on": ["email:calls"], "remind_minutes": None})
    rec.call("germany", "PUT", "/api/me/notifications", {"time_zone": "Mars/Olympus"})
    rec.call("germany", "PUT", "/api/me/webhook", {"url": "http://127.0.0.1:9/hook"})
    rec.call("germany", "DELETE", "/api/me/webhook")
    rec.call("germany", "GET", "/api/me/notifications")
    rec.call("visitor", "GET", "/api/notifications")


def security(rec: Recorder) -> None:
    """Sessions, tokens, a password change and reset."""
    rec.users["england-browser"] = Browser(rec.client, "england")  # type: ignore[assignment]
    rec.users["england-phone"] = Browser(rec.client, "england")  # type: ignore[assignment]
    rec.call("england", "GET", "/api/me/sessions")
    rec.call("england-browser", "GET", "/api/me/sessions")
    rec.call("england", "GET", "/api/me/tokens")
    made = rec.client.post("/api/tokens", json={"name": "england", "password": "password123"}).json()["token"]
    rec.secrets.append(made)
    tokens = rec.call("england", "GET", "/api/me/tokens")
    rec.call("england", "DELETE", f"/api/me/tokens/{tokens[-1]['id']}")
    rec.call("england", "DELETE", f"/api/me/tokens/{tokens[-1]['id']}")
    rec.call("england", "GET", "/api/me/tokens")
    sessions = rec.call("england-browser", "GET", "/api/me/sessions")
    rec.call("england", "DELETE", f"/api/me/sessions/{sessions[0]['id']}")  # the phone's
    rec.call("england-browser", "DELETE", f"/api/me/sessions/{sessions[0]['id']}")
    rec.call("england-browser", "GET", "/api/me/sessions")
    rec.users["england-phone"] = Browser(rec.client, "england")  # type: ignore[assignment]
    body = {"current_password": "password123", "new_password": "another password"}
    rec.call("england-browser", "POST", "/api/me/password", body)
    rec.call("england", "POST", "/api/me/password", {"current_password": "wrong", "new_password": "third one!"})
    rec.call("england", "GET", "/api/me/sessions")
    rec.users["england-phone"] = Browser(rec.client, "england", "another password")  # type: ignore[assignment]
    rec.call("england", "POST", "/api/me/logout-everywhere")
    rec.call("england", "POST", "/api/me/logout-everywhere")
    rec.call("visitor", "POST", "/api/password-reset", {"who": "england"})
    rec.call("visitor", "POST", "/api/password-reset", {"who": "nobody"})
    rec.call("visitor", "POST", "/api/password-reset/confirm", {"token": "forged", "new_password": "whatever1"})
    rec.call("visitor", "GET", "/api/me/sessions")


def test_more_json_answers_are_the_recorded_bytes(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    rec = Normalised(app_client)
    users(rec)
    scoring(rec)
    gid = bots_and_lateness(rec, clock, site)
    sandboxes(rec, gid)
    tournaments(rec)
    notifications(rec)
    security(rec)
    got = "".join(rec.lines)
    path = DATA / "api_more.txt"  # the same bytes on every database
    if os.environ.get("ARBITRE_RECORD_ANSWERS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    want = path.read_text(encoding="utf-8")
    assert got.splitlines() == want.splitlines()
    assert got == want
