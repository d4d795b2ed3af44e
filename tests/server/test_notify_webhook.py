"""The webhook channel against a real HTTP server on loopback (``http.server`` in a thread), both databases.

Each notification is POSTed once as JSON written from the recipient's view, signed with HMAC-SHA256 over
the exact body with the secret the user was shown once; a failed POST is tried again later (with a
growing wait); a sender that dies after claiming is replaced once its lease ends, with the same
``X-Arbitre-Delivery`` id; and a URL the server must not call (private, link-local, plain http) is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Settings, Site
from arbitre.store import deliveries
from arbitre.store.models import Delivery
from tests.server.conftest import POWERS, Api


class Hook:
    """A loopback HTTP server that keeps every POST (headers and raw body) and answers ``status``."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 204
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                hook.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(hook.status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hook() -> Iterator[Hook]:
    """The receiving server."""
    h = Hook()
    yield h
    h.close()


@pytest.fixture
def hook_site(db_url: str, clock: ManualClock) -> Iterator[Site]:
    """A site without e-mail that allows plain http webhooks to loopback (as a test must)."""
    s = make_site(
        Settings(database_url=db_url, run_worker=False, site_url="https://arbitre.example", webhook_http_loopback=True),
        clock,
    )
    yield s
    s.db.dispose()


@pytest.fixture
def hook_client(hook_site: Site) -> Iterator[TestClient]:
    """A test client of that site."""
    with TestClient(create_app(site=hook_site)) as c:
        yield c


def seven(client: TestClient) -> tuple[int, Api, dict[str, Api]]:
    """A master and seven players; the game starts when the last one joins."""
    tag = uuid.uuid4().hex[:5]
    master = Api(client, f"whgm{tag}")
    gid = master.post("/api/games", {"name": "Hooks", "assignment": "choice", "deadlines": {"M": 86400}}).json()["id"]
    players = {p: Api(client, f"wh{p.lower()[:3]}{tag}") for p in POWERS}
    return gid, master, players


def join_all(gid: int, players: dict[str, Api]) -> None:
    """Every player joins (the game starts)."""
    for p, api in players.items():
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200


def test_a_signed_post_per_notification_from_the_readers_view(
    hook_client: TestClient, hook_site: Site, hook: Hook
) -> None:
    gid, _master, players = seven(hook_client)
    fr = players["FRANCE"]
    assert fr.put("/api/me", {"lang": "fr"}).status_code == 200
    assert fr.put("/api/me/notifications", {"time_zone": "Europe/Paris"}).status_code == 200
    r = fr.put("/api/me/webhook", {"url": hook.url})
    assert r.status_code == 200, r.text
    secret = r.json()["secret"]
    assert len(secret) >= 32
    settings = fr.get("/api/me/notifications").json()
    assert settings["webhook"] == hook.url and secret not in json.dumps(settings)  # shown once
    join_all(gid, players)
    assert sender.tick(hook_site) == 1  # France's start, on its webhook (nobody else set one)
    assert sender.tick(hook_site) == 0
    ((headers, body),) = hook.received
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["x-arbitre-signature"], expected)
    assert headers["content-type"] == "application/json"
    data = json.loads(body)
    assert data["kind"] == "started" and data["game"] == gid
    assert data["subject"] == "Hooks a commencé"
    assert "Votre puissance : France." in data["text"] and "(Europe/Paris)" in data["text"]
    assert data["link"] == f"https://arbitre.example/games/{gid}"
    assert headers["x-arbitre-delivery"] == data["delivery"]
    # a private message reaches its reader's hook; its words are the reader's own
    assert players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "Deal?"}).status_code == 201
    assert sender.tick(hook_site) == 1
    assert json.loads(hook.received[-1][1])["text"].endswith("> Deal?")
    # a new URL gets a new secret; the kind can be turned off for the webhook alone
    again = fr.put("/api/me/webhook", {"url": hook.url}).json()["secret"]
    assert again != secret
    assert fr.put("/api/me/notifications", {"off": ["webhook:message"]}).status_code == 200
    assert players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "?"}).status_code == 201
    assert sender.tick(hook_site) == 0 and len(hook.received) == 2
    assert fr.client.delete("/api/me/webhook", headers=fr.headers).json()["webhook"] == ""


def test_a_failed_post_is_retried_later_and_a_dead_senders_claim_runs_out(
    hook_client: TestClient, hook_site: Site, hook: Hook, clock: ManualClock
) -> None:
    gid, _master, players = seven(hook_client)
    secrets_ = {p: players[p].put("/api/me/webhook", {"url": hook.url}).json()["secret"] for p in ("ITALY", "TURKEY")}
    hook.status = 500
    join_all(gid, players)
    assert sender.tick(hook_site) == 0  # both answered 500
    assert len(hook.received) == 2
    with hook_site.db.reading() as s:
        waits = [d.lease_until for d in s.query(Delivery).all()]
    assert all(w is not None and w == clock.now() + sender.RETRY for w in waits)
    clock.advance(30)
    assert sender.tick(hook_site) == 0 and len(hook.received) == 2  # not before the wait
    clock.advance(31)
    assert sender.tick(hook_site) == 0 and len(hook.received) == 4  # second failure: the wait doubles
    with hook_site.db.reading() as s:
        assert {d.lease_until for d in s.query(Delivery).all()} == {clock.now() + 2 * sender.RETRY}
    hook.status = 200
    clock.advance(121)
    # a sender claims them, then dies before posting: nobody else posts them until its lease runs out
    with hook_site.db.writing() as s:
        claimed = deliveries.claim(s, "dead", clock.now(), sender.lease(hook_site), 10, ("webhook",))
    assert len(claimed) == 2
    assert sender.tick(hook_site) == 0 and len(hook.received) == 4
    clock.advance(sender.lease(hook_site).total_seconds() + 1)
    assert sender.tick(hook_site) == 2
    ids = [h["x-arbitre-delivery"] for h, _ in hook.received]
    assert sorted(ids[4:]) == sorted(ids[:2])  # the same delivery ids on every attempt
    for headers, body in hook.received[4:]:  # each signed with its own recipient's secret
        signs = {"sha256=" + hmac.new(k.encode(), body, hashlib.sha256).hexdigest() for k in secrets_.values()}
        assert headers["x-arbitre-signature"] in signs
    with hook_site.db.writing() as s:
        assert not deliveries.finish(s, claimed[0].delivery_id, "dead", clock.now())
        assert deliveries.counts(s) == {"sent": 2}


@pytest.mark.parametrize(
    "url",
    [
        "https://10.0.0.7/hook",
        "https://192.168.1.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fe80::1]/hook",
        "https://127.0.0.1/hook",
        "https://0.0.0.0/hook",
        "https://user:pw@example.org/hook",
        "ftp://example.org/hook",
        "not a url",
        "https://no-such-host.invalid/hook",
    ],
)
def test_urls_the_server_must_not_call_are_refused(hook_client: TestClient, url: str) -> None:
    api = Api(hook_client, f"ssrf{uuid.uuid4().hex[:6]}")
    r = api.put("/api/me/webhook", {"url": url})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["where"] == "body.url"
    assert api.get("/api/me/notifications").json()["webhook"] == ""


def test_plain_http_to_loopback_needs_the_setting(app_client: TestClient, hook: Hook) -> None:
    api = Api(app_client, "nohttp")
    r = api.put("/api/me/webhook", {"url": hook.url})
    assert r.status_code == 400 and "https" in r.json()["error"]["message"]


def test_the_account_page_sets_the_webhook_shows_its_secret_once_and_removes_it(
    hook_client: TestClient, hook_site: Site, hook: Hook
) -> None:
    gid, _master, players = seven(hook_client)
    fr = players["FRANCE"]
    page = fr.get("/account").text
    assert 'id="webhook-form"' in page and 'id="webhook-remove"' not in page
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    # a URL the server must not call is refused, saying where; nothing is stored
    # (post/redirect/get: the answer is a 303 to the account page, which shows the problem)
    r = hook_client.post("/account/webhook", data={"csrf": csrf, "url": "https://10.0.0.1/x"}, headers=fr.headers)
    assert r.history[0].status_code == 303 and r.url.path == "/account" and "private, local or reserved" in r.text
    assert fr.get("/api/me/notifications").json()["webhook"] == ""
    r = hook_client.post("/account/webhook", data={"csrf": csrf, "url": "h" * 600}, headers=fr.headers)
    assert r.history[0].status_code == 303 and "500" in r.text
    # set: the page shows the secret once, and the posts are signed with it
    r = hook_client.post("/account/webhook", data={"csrf": csrf, "url": hook.url}, headers=fr.headers)
    assert r.status_code == 200, r.text
    secret = r.text.split('id="webhook-secret">', 1)[1].split("<", 1)[0]
    assert len(secret) >= 32
    again = fr.get("/account").text
    assert secret not in again and hook.url in again and 'id="webhook-remove"' in again
    join_all(gid, players)
    assert sender.tick(hook_site) == 1
    ((headers, body),) = hook.received
    assert headers["x-arbitre-signature"] == "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    # remove: nothing more is posted
    r = hook_client.post("/account/webhook/delete", data={"csrf": csrf}, headers=fr.headers, follow_redirects=False)
    assert r.status_code == 303
    assert fr.get("/api/me/notifications").json()["webhook"] == ""
    assert players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "Hi"}).status_code == 201
    assert sender.tick(hook_site) == 0
