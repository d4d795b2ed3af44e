"""Accounts: password change and reset by e-mail (a real SMTP sink), sessions and tokens through the API."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from arbitre.server.clock import ManualClock
from tests.server.conftest import Api
from tests.server.smtp_sink import Sink


def browser(client: TestClient, name: str, password: str = "password123") -> tuple[TestClient, str]:
    """A separate browser logged in as ``name`` (a cookie session), and its CSRF token."""
    b = TestClient(client.app)
    csrf = re.search(r'name="csrf" value="([^"]+)"', b.get("/login").text)
    assert csrf
    r = b.post("/login", data={"name": name, "password": password, "csrf": csrf.group(1)}, follow_redirects=False)
    assert r.status_code == 303, r.text
    token = re.search(r'name="csrf" value="([^"]+)"', b.get("/account").text)
    assert token
    return b, token.group(1)


def logged_in(b: TestClient) -> bool:
    """Is this browser's session still alive?"""
    return b.get("/api/me").status_code == 200


def test_a_password_change_ends_the_other_sessions(app_client: TestClient) -> None:
    alice = Api(app_client, "alice")
    one, csrf_one = browser(app_client, "alice")
    two, _ = browser(app_client, "alice")
    listed = one.get("/api/me/sessions").json()
    assert len(listed) == 2 and [s["current"] for s in listed] == [False, True]
    headers = {"X-CSRF-Token": csrf_one}
    r = one.post(
        "/api/me/password", json={"current_password": "wrong-one", "new_password": "n3w-secret"}, headers=headers
    )
    assert r.status_code == 403 and r.json()["error"]["where"] == "body.current_password"
    r = one.post("/api/me/password", json={"current_password": "password123", "new_password": "short"}, headers=headers)
    assert r.status_code == 400 and r.json()["error"]["where"] == "body.new_password"
    r = one.post("/api/me/password", json={"current_password": "password123", "new_password": "n3w-secret"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_csrf"  # a cookie request needs its token
    r = one.post(
        "/api/me/password", json={"current_password": "password123", "new_password": "n3w-secret"}, headers=headers
    )
    assert r.status_code == 200 and r.json() == {"changed": True, "sessions_ended": 1}
    assert logged_in(one) and not logged_in(two)
    assert app_client.post("/api/tokens", json={"name": "alice", "password": "password123"}).status_code == 401
    assert app_client.post("/api/tokens", json={"name": "alice", "password": "n3w-secret"}).status_code == 201
    assert alice.get("/api/me").status_code == 200  # API tokens stay; they are listed and deleted on their own


def test_sessions_and_tokens_are_listed_and_revoked(app_client: TestClient) -> None:
    bob = Api(app_client, "bobby")
    other = Api(app_client, "carol")
    one, _ = browser(app_client, "bobby")
    two, _ = browser(app_client, "bobby")
    sessions = bob.get("/api/me/sessions").json()
    assert len(sessions) == 2 and not any(s["current"] for s in sessions)
    assert other.client.delete(f"/api/me/sessions/{sessions[0]['id']}", headers=other.headers).status_code == 404
    assert bob.client.delete(f"/api/me/sessions/{sessions[0]['id']}", headers=bob.headers).json() == {"ended": 1}
    assert logged_in(one) and not logged_in(two)  # the newest was ended
    assert bob.client.delete(f"/api/me/sessions/{sessions[0]['id']}", headers=bob.headers).status_code == 404
    assert bob.post("/api/me/logout-everywhere", {}).json() == {"ended": 1}
    assert not logged_in(one)
    tokens = bob.get("/api/me/tokens").json()
    assert [t["label"] for t in tokens] == ["test"] or len(tokens) == 1
    spare = app_client.post("/api/tokens", json={"name": "bobby", "password": "password123", "label": "spare"}).json()
    listed = bob.get("/api/me/tokens").json()
    assert sorted(t["label"] for t in listed) == sorted([tokens[0]["label"], "spare"])
    spare_id = next(t["id"] for t in listed if t["label"] == "spare")
    assert other.client.delete(f"/api/me/tokens/{spare_id}", headers=other.headers).status_code == 404
    assert bob.client.delete(f"/api/me/tokens/{spare_id}", headers=bob.headers).json() == {"deleted": 1}
    assert app_client.get("/api/me", headers={"Authorization": f"Bearer {spare['token']}"}).status_code == 401
    assert bob.client.delete("/api/me/tokens/99999999999", headers=bob.headers).status_code in (404, 422)


def sent(client: TestClient) -> None:
    """Wait until the site handed every reset e-mail asked for so far to the sink (they go after the answer)."""
    client.app.state.site.chores.wait()  # type: ignore[attr-defined]


def reset_link(received: Sink, to: str) -> str:
    """The path of the reset link in the last e-mail to ``to``."""
    text = received.messages(to)[-1].text()
    found = re.search(r"https://arbitre\.example(/reset/[A-Za-z0-9_.-]+)", text)
    assert found, text
    return found.group(1)


def test_a_reset_link_works_once_within_an_hour(
    mail_client: TestClient, sink: tuple[str, Sink], clock: ManualClock
) -> None:
    _, received = sink
    dora = Api(mail_client, "dora")
    assert (
        dora.put("/api/me/notifications", {"email": "dora@example.org", "time_zone": "Europe/Paris"}).status_code == 200
    )
    assert dora.put("/api/me", {"lang": "fr"}).status_code == 200
    one, _ = browser(mail_client, "dora")
    anonymous = TestClient(mail_client.app)
    same = {"sent": "if this account has an e-mail address, a link was sent to it"}
    for who in ("nobody-here", "nobody@example.org"):  # unknown accounts: the same answer, no e-mail
        r = anonymous.post("/api/password-reset", json={"who": who})
        assert r.status_code == 202 and r.json() == same
    sent(mail_client)
    assert received.messages() == []
    r = anonymous.post("/api/password-reset", json={"who": "DORA@example.org"})
    assert r.status_code == 202 and r.json() == same
    sent(mail_client)
    (mail,) = received.messages("dora@example.org")
    assert mail.subject == "Votre mot de passe arbitre"
    assert "List-Unsubscribe" not in mail.message
    assert "(Europe/Paris)" in mail.text() and "dora" in mail.text()
    link = reset_link(received, "dora@example.org")
    token = link.rsplit("/", 1)[1]
    page = anonymous.get(link)
    assert page.status_code == 200 and 'id="new-password"' in page.text
    r = anonymous.post("/api/password-reset/confirm", json={"token": token, "new_password": "x"})
    assert r.status_code == 400 and r.json()["error"]["where"] == "body.new_password"
    r = anonymous.post("/api/password-reset/confirm", json={"token": token + "x", "new_password": "brand-new-pw"})
    assert r.status_code == 400 and r.json()["error"]["where"] == "body.token"
    r = anonymous.post("/api/password-reset/confirm", json={"token": token, "new_password": "brand-new-pw"})
    assert r.status_code == 200 and r.json() == {"changed": True, "sessions_ended": 1}
    assert not logged_in(one)
    assert mail_client.post("/api/tokens", json={"name": "dora", "password": "brand-new-pw"}).status_code == 201
    r = anonymous.post("/api/password-reset/confirm", json={"token": token, "new_password": "again-new-pw"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_token"  # once only
    # a link older than an hour is refused
    anonymous.post("/api/password-reset", json={"who": "dora"})
    sent(mail_client)
    late = reset_link(received, "dora@example.org").rsplit("/", 1)[1]
    clock.advance(3601)
    r = anonymous.post("/api/password-reset/confirm", json={"token": late, "new_password": "late-new-pw"})
    assert r.status_code == 400 and r.json()["error"]["where"] == "body.token"
    # at most three e-mails an hour per account; the answer does not change
    for _ in range(3):
        assert anonymous.post("/api/password-reset", json={"who": "dora"}).status_code == 202
    sent(mail_client)
    assert len(received.messages("dora@example.org")) == 2 + 1


def test_the_reset_pages_set_a_new_password(mail_client: TestClient, sink: tuple[str, Sink]) -> None:
    _, received = sink
    erin = Api(mail_client, "erin")
    assert erin.put("/api/me/notifications", {"email": "erin@example.org"}).status_code == 200
    visitor = TestClient(mail_client.app)
    form = visitor.get("/password-reset").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form)
    assert csrf and 'id="who"' in form
    r = visitor.post("/password-reset", data={"who": "erin", "csrf": csrf.group(1)})
    assert r.status_code == 200 and 'id="sent"' in r.text
    sent(mail_client)
    link = reset_link(received, "erin@example.org")
    page = visitor.get(link).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf
    r = visitor.post(link, data={"new_password": "from-the-page", "csrf": csrf.group(1)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert visitor.get(link).status_code == 400  # used
    body: dict[str, Any] = {"name": "erin", "password": "from-the-page"}
    assert mail_client.post("/api/tokens", json=body).status_code == 201


def test_a_site_without_e_mail_says_so(app_client: TestClient) -> None:
    Api(app_client, "frank")
    r = app_client.post("/api/password-reset", json={"who": "frank"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_mail"
