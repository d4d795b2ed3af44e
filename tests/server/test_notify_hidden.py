"""Notifications disclose nothing hidden: pairs of games that differ only in what a reader may not see.

Two Submarines games, on two servers alike in everything else (:mod:`tests.server.twins`), are
played identically except for France's submerged submarine (it moves in one, holds in the other)
and a private message from France to Italy (sent in one only).  Every other reader's e-mails (raw:
every header, ``Message-ID`` and the unsubscribe link included) and site notifications (with their
ids) must then be byte-identical, nothing set aside; none names the submarine's place.  No
notification of any game names an account: powers only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app
from arbitre.server.notify import sender
from tests.server.conftest import POWERS, Api
from tests.server.smtp_sink import Sink
from tests.server.test_submarines import SETTINGS, play
from tests.server.twins import twin_site


def normal(text: str, gid: int) -> str:
    """``text`` with the game id and the signed tokens set aside."""
    text = re.sub(rf"/games/{gid}(?=\D|$)", "/games/ID", text)
    return re.sub(r"/unsubscribe/[A-Za-z0-9_.-]+", "/unsubscribe/TOKEN", text)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_notifications_do_not_depend_on_hidden_state(
    backend: str, tmp_path: Path, sink: tuple[str, Sink], quick_hashes: None
) -> None:
    """Two servers alike but for the hidden state (:mod:`tests.server.twins`): every other reader's e-mails, raw
    (every header: ``Message-ID``, ``Date``, the unsubscribe link), and site notifications (their ids too) are
    the same bytes; nothing is set aside."""
    url, received = sink
    mails: list[dict[str, list[str]]] = []
    sites: list[dict[str, list[str]]] = []
    readers: list[str] = []
    for hidden_move in (True, False):
        settings = {"smtp_url": url, "site_url": "https://arbitre.example"}
        with (
            twin_site(backend, tmp_path, f"deep{int(hidden_move)}", **settings) as mail_site,
            TestClient(create_app(site=mail_site)) as client,
        ):
            master = Api(client, "deepgm")
            players = {p: Api(client, f"deep_{p.lower()}") for p in POWERS}
            observer = Api(client, "deepobs")
            everyone = {"gm": master, **players, "obs": observer}
            for n, (who, api) in enumerate(everyone.items()):
                settings = {"email": f"{who.lower()}@deep.example", "time_zone": "Asia/Tokyo" if n % 2 else "UTC"}
                assert api.put("/api/me/notifications", settings).status_code == 200
                if n % 2:
                    assert api.put("/api/me", {"lang": "fr"}).status_code == 200
            seen = {p.lower(): players[p] for p in POWERS if p not in ("FRANCE", "ITALY")} | {"obs": observer}
            readers = list(seen)
            before = len(received.messages())
            r = master.post("/api/games", SETTINGS)
            gid = r.json()["id"]
            assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
            for p in POWERS:
                assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
            play(master, players, gid, {"FRANCE": ["SM BRE - MAO"]})  # S1901M
            play(master, players, gid, {})  # S1901R
            play(master, players, gid, {"FRANCE": ["SM MAO - MAO-1"]})  # F1901M: dives
            play(master, players, gid, {})  # F1901R
            if hidden_move:
                r = players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "ITALY", "body": "I am under IRI"})
                assert r.status_code == 201
            france = ["SM MAO-1 - IRI-1"] if hidden_move else ["SM MAO-1 H"]
            play(master, players, gid, {"FRANCE": france, "ENGLAND": ["F LON - ENG"]})  # S1902M
            r = players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "*", "body": "hello all"})
            assert r.status_code == 201
            assert master.post(f"/api/games/{gid}/master", {"action": "draw"}).status_code == 200
            sender.tick(mail_site)
            got = received.messages()[before:]
            mails.append({who: [m.raw.decode() for m in got if m.to == f"{who}@deep.example"] for who in seen})
            sites.append(
                {
                    who: [json.dumps(i, sort_keys=True) for i in api.get("/api/notifications").json()["items"]]
                    for who, api in seen.items()
                }
            )
            names = [api.name for api in everyone.values()]
    moved, stayed = mails
    for who in readers:
        assert moved[who] == stayed[who], who
        assert len(moved[who]) == 1 + 5 + (who != "england") + 1, (who, len(moved[who]))
        assert not any("IRI" in m for m in moved[who]), who
        assert sites[0][who] == sites[1][who], who
        assert len(sites[0][who]) == len(moved[who]), who
        assert all(re.search(r"^Message-ID: <n\d+\.email\.", m, re.M) for m in moved[who]), who
    # Italy was told of France's message in the first game only; France's own e-mails name its submarine's move
    italy = [m for m in received.messages() if m.to == "italy@deep.example"]
    assert sum("I am under IRI" in m.text() for m in italy) == 1
    assert any("SM MAO-1 - IRI-1" in m.text() for m in received.messages() if m.to == "france@deep.example")
    # no notification names an account
    for m in received.messages():
        text = m.subject + m.text()
        assert not any(name in text for name in names), (m.to, m.subject)


def test_espionnite_spies_change_no_other_readers_notifications(
    mail_client: TestClient, sink: tuple[str, Sink]
) -> None:
    """France's spy watches Munich in one game and Venice in the other (and gets a private reveal):
    every other reader's notifications, through the lock, the reaction step and the adjudication, are the same."""
    _, received = sink
    mail_site = mail_client.app.state.site  # type: ignore[attr-defined]
    master = Api(mail_client, "spygm")
    players = {p: Api(mail_client, f"spy_{p.lower()}") for p in POWERS}
    for p, api in players.items():
        assert api.put("/api/me/notifications", {"email": f"{p.lower()}@spy.example"}).status_code == 200
    readers = [p for p in POWERS if p != "FRANCE"]
    seen: list[dict[str, list[str]]] = []
    for target in ("MUN", "VEN"):
        before = len(received.messages())
        gid = master.post("/api/games", {"name": "Spies", "rules": ["espionnite"], "assignment": "choice"}).json()["id"]
        for p in POWERS:
            assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", f"SPY {target}"]})
        assert r.json()["rejected"] == []
        assert players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - TYR"]}).status_code == 200
        for p in POWERS:
            assert players[p].put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200
        assert players["FRANCE"].get(f"/api/games/{gid}").json()["game"]["step"] == "reaction"
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
        sender.tick(mail_site)
        got = received.messages()[before:]
        seen.append(
            {
                p: [normal(f"{m.subject}\n{m.text()}", gid) for m in got if m.to == f"{p.lower()}@spy.example"]
                + [
                    normal(f"{i['subject']}\n{i['text']}", gid)
                    for i in players[p].get("/api/notifications").json()["items"]
                    if i["game"] == gid
                ]
                for p in readers
            }
        )
    for p in readers:
        assert seen[0][p] == seen[1][p], p
        subjects = [m.splitlines()[0] for m in seen[0][p]]
        assert "Spies: the orders of Spring 1901, movement are locked" in subjects, subjects
        assert not any("SPY" in m or "A PAR - BUR" in m for m in seen[0][p]), p  # France's orders stay France's
