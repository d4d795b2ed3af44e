"""Calls for a replacement are told (real SMTP sink on loopback, SQLite and PostgreSQL).

A call published by the master, or by the civil-disorder rule, writes its notifications in the same
transaction: the game's master and other players (kind ``replacement``; never the late player),
and the site's users who turned the ``calls`` kind on (off by default).  The letter names the game,
the power, the take-over link and the deadline in the reader's own time zone and language.

The e-mails are saved under ``test-artifacts/emails/<test>/``.
"""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Site
from tests.server.conftest import POWERS, Api
from tests.server.smtp_sink import Sink

SHORT = {"M": 600, "R": 600, "A": 600}


def seated_game(client: TestClient, **settings: object) -> tuple[int, Api, dict[str, Api], str]:
    """A running game whose master and seven players gave an e-mail address (France reads French in
    Paris, the others English in New York); returns the id, the master, the players and the address tag."""
    tag = uuid.uuid4().hex[:5]
    master = Api(client, f"cgm{tag}")
    assert master.put("/api/me/notifications", {"email": f"gm{tag}@example.org"}).status_code == 200
    body = {"name": "Relief", "assignment": "choice", "deadlines": SHORT, **settings}
    r = master.post("/api/games", body)
    assert r.status_code == 201, r.text
    gid = int(r.json()["id"])
    players = {}
    for p in POWERS:
        api = Api(client, f"c{p.lower()[:3]}{tag}")
        notify = {"email": f"{p.lower()}{tag}@example.org", "time_zone": "America/New_York"}
        if p == "FRANCE":
            assert api.put("/api/me", {"lang": "fr"}).status_code == 200
            notify["time_zone"] = "Europe/Paris"
        assert api.put("/api/me/notifications", notify).status_code == 200
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        players[p] = api
    return gid, master, players, tag


def outsider(client: TestClient, name: str, *, on: list[str], lang: str = "en", zone: str = "Asia/Tokyo") -> Api:
    """A user with no seat in the game, with an e-mail address and the opt-in kinds ``on``."""
    api = Api(client, name)
    if lang != "en":
        assert api.put("/api/me", {"lang": lang}).status_code == 200
    r = api.put("/api/me/notifications", {"email": f"{name}@example.org", "time_zone": zone, "on": on})
    assert r.status_code == 200, r.text
    return api


def test_a_master_call_tells_the_master_the_other_players_and_those_who_asked(
    mail_client: TestClient, mail_site: Site, sink: tuple[str, Sink]
) -> None:
    _, received = sink
    keen = outsider(mail_client, f"keen{uuid.uuid4().hex[:4]}", on=["email:calls", "site:calls"], lang="fr")
    quiet = outsider(mail_client, f"quiet{uuid.uuid4().hex[:4]}", on=[])
    assert quiet.get("/api/me/notifications").json()["on"] == []  # the calls kind is off by default
    gid, master, players, tag = seated_game(mail_client)
    sender.tick(mail_site)  # the start
    before = len(received.messages())
    r = master.post(f"/api/games/{gid}/replacements", {"power": "ENGLAND"})
    assert r.status_code == 201, r.text
    link = f"https://arbitre.example/takeover/{r.json()['link'].rsplit('/', 1)[1]}"
    assert sender.tick(mail_site) == 8  # the master, six other players, the one who asked
    got = received.messages()[before:]
    told = sorted(m.to for m in got)
    assert f"england{tag}@example.org" not in told and "quiet" not in " ".join(told)
    assert f"{keen.name}@example.org" in told and f"gm{tag}@example.org" in told
    (en,) = received.messages(f"germany{tag}@example.org")[-1:]
    assert en.subject == "Relief: a player is wanted for England"
    text = en.text()
    assert "The game Relief needs a new player for England." in text
    assert "The game master called for a replacement." in text
    # the deadline: 2030-01-01 00:10 UTC (the test clock's start plus ten minutes), in New York
    assert "Deadline: Monday 31 December 2029, 19:10 (America/New_York)." in text
    assert link in text and players["ENGLAND"].name not in text
    assert "Stop e-mails of this kind (A replacement is wanted)" in text
    (fr,) = received.messages(f"{keen.name}@example.org")
    assert fr.subject == "Relief : un joueur est demandé pour la puissance Angleterre"
    assert "mardi 1 janvier 2030, 09:10 (Asia/Tokyo)" in fr.text() and link in fr.text()
    # the site's list has it too, for the outsider who asked and for the players
    listed = keen.get("/api/notifications").json()["items"]
    assert [(i["kind"], i["link"]) for i in listed] == [("calls", link.removeprefix("https://arbitre.example"))]
    assert [i["kind"] for i in players["ENGLAND"].get("/api/notifications").json()["items"]] == ["started"]
    # the same call again is the same call: nobody is told twice
    assert master.post(f"/api/games/{gid}/replacements", {"power": "ENGLAND"}).status_code == 201
    assert sender.tick(mail_site) == 0
    # the one-click unsubscribe of the calls kind turns it off again
    unsubscribe = fr.message["List-Unsubscribe"][1:-1].replace("https://arbitre.example", "")
    assert TestClient(mail_client.app).post(unsubscribe).status_code == 200
    assert keen.get("/api/me/notifications").json()["on"] == ["site:calls"]


def test_a_call_of_the_civil_disorder_rule_is_told_too(
    mail_client: TestClient, mail_site: Site, sink: tuple[str, Sink], clock: ManualClock
) -> None:
    _, received = sink
    keen = outsider(mail_client, f"eager{uuid.uuid4().hex[:4]}", on=["email:calls"])
    gid, _master, players, tag = seated_game(mail_client, lateness={"disorder_after": 1, "replace_on_disorder": True})
    sender.tick(mail_site)
    for p in POWERS:
        if p != "ITALY":
            assert players[p].put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200
    clock.advance(601)
    worker.tick(mail_site)  # Italy missed the deadline: civil disorder, and a call
    sender.tick(mail_site)
    assert not [m for m in received.messages(f"italy{tag}@example.org") if "wanted" in m.subject]
    (call,) = received.messages(f"{keen.name}@example.org")
    assert call.subject == "Relief: a player is wanted for Italy"
    assert "The power fell into civil disorder after missing its deadlines." in call.text()
    assert "/takeover/" in call.text() and "(Asia/Tokyo)" in call.text()
    (fr,) = [m for m in received.messages(f"france{tag}@example.org") if "Italie" in m.subject]
    assert "La partie Relief cherche un nouveau joueur pour la puissance Italie." in fr.text()
    assert "(Europe/Paris)" in fr.text()


def test_the_opt_in_kind_is_set_by_on_and_refused_in_off(mail_client: TestClient) -> None:
    api = Api(mail_client, f"sw{uuid.uuid4().hex[:5]}")
    r = api.put("/api/me/notifications", {"off": ["email:calls"]})
    assert r.status_code == 422 and "on" in r.text
    r = api.put("/api/me/notifications", {"on": ["email:message"]})
    assert r.status_code == 422
    r = api.put("/api/me/notifications", {"on": ["site:calls"], "off": ["email:phase"]})
    assert r.status_code == 200 and r.json()["on"] == ["site:calls"] and r.json()["off"] == ["email:phase"]
    # the account page's form: the calls boxes are unticked until ticked, the others ticked until unticked
    page = api.get("/account").text
    assert 'value="site:calls" aria-label' in page and 'value="email:calls"' in page
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    form = {"csrf": csrf, "email": "", "time_zone": "UTC", "remind_minutes": "", "on": ["email:calls", "site:phase"]}
    r = mail_client.post("/account/notifications", data=form, headers=api.headers, follow_redirects=False)
    assert r.status_code in (302, 303), r.text
    settings = api.get("/api/me/notifications").json()
    assert settings["on"] == ["email:calls"]
    assert "site:phase" not in settings["off"] and "email:phase" in settings["off"]
