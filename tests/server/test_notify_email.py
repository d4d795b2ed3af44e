"""E-mail notifications through a real SMTP server on loopback (aiosmtpd): what each recipient receives.

The e-mails are saved under ``test-artifacts/emails/<test>/`` for people to read.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Settings, Site
from arbitre.store import deliveries
from tests.server.conftest import POWERS, Api
from tests.server.smtp_sink import Sink


def setup_game(client: TestClient, *, french: str = "FRANCE") -> tuple[int, Api, dict[str, Api]]:
    """A master and seven players who give an e-mail address before joining (``french`` reads French in Paris)."""
    tag = uuid.uuid4().hex[:5]
    master = Api(client, f"gm{tag}")
    assert master.put("/api/me/notifications", {"email": f"gm{tag}@example.org"}).status_code == 200
    r = master.post("/api/games", {"name": "Spring Tour", "assignment": "choice", "deadlines": {"M": 86400}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    players = {}
    for p in POWERS:
        api = Api(client, f"{p.lower()[:3]}{tag}")
        settings = {"email": f"{p.lower()}{tag}@example.org", "time_zone": "America/New_York"}
        if p == french:
            assert api.put("/api/me", {"lang": "fr"}).status_code == 200
            settings["time_zone"] = "Europe/Paris"
        r = api.put("/api/me/notifications", settings)
        assert r.status_code == 200, r.text
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        players[p] = api
    return gid, master, players


def address(api: Api) -> str:
    """The e-mail address :func:`setup_game` gave ``api``'s user."""
    r = api.get("/api/me/notifications")
    email: str = r.json()["email"]
    return email


def test_each_member_gets_each_event_once_in_their_language_and_time_zone(
    mail_client: TestClient, mail_site: Site, sink: tuple[str, Sink], clock: ManualClock
) -> None:
    _, received = sink
    gid, master, players = setup_game(mail_client)
    assert sender.tick(mail_site) == 8  # the game started: the master and seven players
    assert sender.tick(mail_site) == 0  # nothing twice
    fr, en = address(players["FRANCE"]), address(players["ENGLAND"])
    (started_fr,) = received.messages(fr)
    assert started_fr.subject == "Spring Tour a commencé"
    assert "Votre puissance : France." in started_fr.text()
    # the first deadline is an absolute time in each reader's own time zone (2030-01-02 00:00 UTC)
    assert "mercredi 2 janvier 2030, 01:00 (Europe/Paris)" in started_fr.text()
    (started_en,) = received.messages(en)
    assert "Your power: England." in started_en.text()
    assert "Tuesday 1 January 2030, 19:00 (America/New_York)" in started_en.text()
    # one-click unsubscribe headers, a stable message id, a link in the body
    assert started_en.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert started_en.message["List-Unsubscribe"].startswith("<https://arbitre.example/unsubscribe/")
    assert started_en.message["Message-ID"].endswith("@arbitre.example>")
    assert started_en.message["List-Unsubscribe"][1:-1] in started_en.text()

    # a phase is processed: each player reads its own orders' results
    assert (
        players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "A MAR - BUR"]}).status_code == 200
    )
    assert players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - BUR"]}).status_code == 200
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    assert sender.tick(mail_site) == 8
    phase_fr = received.messages(fr)[-1]
    assert phase_fr.subject == "Spring Tour : la phase Printemps 1901, mouvements a été arbitrée"
    assert "A PAR - BUR" in phase_fr.text() and "A MUN - BUR" not in phase_fr.text()
    phase_ge = received.messages(address(players["GERMANY"]))[-1]
    assert "A MUN - BUR" in phase_ge.text() and "A PAR - BUR" not in phase_ge.text()
    assert "Fall 1901, movement" in phase_ge.text()

    # a private message: only its reader is told
    assert (
        players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "Channel?\nDeal."}).status_code
        == 201
    )
    assert sender.tick(mail_site) == 1
    msg = received.messages(fr)[-1]
    assert msg.subject == "Spring Tour : nouveau message (Angleterre)"
    assert "> Channel?\n> Deal." in msg.text()
    assert len(received.messages()) == 8 + 8 + 1


def test_the_unsubscribe_link_works_without_login_and_stops_that_kind(
    mail_client: TestClient, mail_site: Site, sink: tuple[str, Sink]
) -> None:
    _, received = sink
    gid, _master, players = setup_game(mail_client)
    sender.tick(mail_site)
    en = address(players["ENGLAND"])
    assert players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "ENGLAND", "body": "one"}).status_code == 201
    sender.tick(mail_site)
    first = received.messages(en)[-1]
    link = first.message["List-Unsubscribe"][1:-1].replace("https://arbitre.example", "")
    anonymous = TestClient(mail_client.app)
    page = anonymous.get(link)
    assert page.status_code == 200 and 'id="unsubscribe"' in page.text  # a GET changes nothing
    assert "email:message" not in players["ENGLAND"].get("/api/me/notifications").json()["off"]
    # what a mail program sends for a one-click unsubscribe (RFC 8058)
    r = anonymous.post(
        link, content="List-Unsubscribe=One-Click", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 200 and 'id="unsubscribed"' in r.text
    assert players["ENGLAND"].get("/api/me/notifications").json()["off"] == ["email:message"]
    before = len(received.messages(en))
    assert players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "ENGLAND", "body": "two"}).status_code == 201
    sender.tick(mail_site)
    assert len(received.messages(en)) == before  # no e-mail …
    listed = players["ENGLAND"].get("/api/notifications").json()
    assert [i["kind"] for i in listed["items"]][:2] == ["message", "message"]  # … but the site's list has it
    # a forged or altered token is refused
    # (the payload is altered: the signature's last base64 character carries unused bits, so changing the end of
    # the signature may, very rarely, leave it valid)
    forged = link.replace("/unsubscribe/eyJ", "/unsubscribe/fyJ")
    assert forged != link and anonymous.post(forged).status_code == 404
    with mail_site.db.reading() as s:
        assert deliveries.counts(s).get("pending", 0) == 0


def test_a_crash_between_claim_and_send_is_sent_again_with_the_same_message_id(
    mail_client: TestClient, mail_site: Site, sink: tuple[str, Sink], clock: ManualClock
) -> None:
    _, received = sink
    setup_game(mail_client)
    with mail_site.db.writing() as s:  # a sender claims everything, then dies before sending
        claimed = deliveries.claim(s, "dead-sender", clock.now(), sender.lease(mail_site), 100)
    assert len(claimed) == 8
    assert sender.tick(mail_site) == 0  # the lease holds: nobody else sends them
    clock.advance(sender.lease(mail_site).total_seconds() + 1)
    assert sender.tick(mail_site) == 8
    ids = [m.message["Message-ID"] for m in received.messages()]
    assert sorted(ids) == sorted(sender.message_id(mail_site, c.notification, "email") for c in claimed)
    with mail_site.db.writing() as s:  # the dead sender comes back: it owns nothing any more
        assert not deliveries.finish(s, claimed[0].delivery_id, "dead-sender", clock.now())


def test_an_unreachable_smtp_server_is_retried(db_url: str, clock: ManualClock, tmp_path: Path) -> None:
    site = make_site(Settings(database_url=db_url, run_worker=False, smtp_url="smtp://127.0.0.1:9"), clock)
    try:
        with TestClient(create_app(site=site)) as c:
            setup_game(c)
            assert sender.tick(site) == 0
            with site.db.reading() as s:
                assert deliveries.counts(s) == {"pending": 8}
    finally:
        site.db.dispose()
    assert httpx  # the sink is not needed here
