"""Anonymous games: no notification names the player behind a power (e-mails as the SMTP sink received
them, the site's list, webhook bodies).

Proved as ``test_anonymous.py`` proves it for pages, API and event stream: the same script is played in
two anonymous games that differ only in the accounts behind France and Germany (``anon_alpha`` and
``anon_bravo`` exchange seats).  England, a fixed third player, must receive byte-identical e-mails
(the header block as the raw bytes the sink received, and the decoded text of the body), site
notifications and webhook bodies (the bytes its webhook server received) in both games, for every kind: game start, phase processed, press messages, a vote opened and decided, a call for a
replacement of France, and the game's end.

The two games are played on two servers alike in everything else (:mod:`tests.server.twins`), so nothing
is set aside but the take-over token of the call (random by design): the game ids, the ``Message-ID``
and the webhook's delivery id (England's own notification numbers), the unsubscribe links (signed, without
a time) and ``Date`` (the notification's time on the manual clock) are compared as they are.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app
from arbitre.server.notify import sender
from arbitre.server.site import Site
from tests.server.conftest import POWERS, Api
from tests.server.smtp_sink import Received, Sink
from tests.server.test_notify_webhook import Hook
from tests.server.twins import twin_site

SETTINGS = {
    "name": "Masks",
    "assignment": "choice",
    "anonymous": True,
    "press": "full",
    "votes": {"secret": []},
    "deadlines": {"M": 86400, "R": 86400, "A": 86400},
}
SWAPPED = ("anon_alpha", "anon_bravo")


def normalise(text: str) -> str:
    """``text`` with the call's take-over token (random by design) set aside: nothing else."""
    return re.sub(r"/takeover/[A-Za-z0-9_-]+", "/takeover/TOKEN", text)


def mail_bytes(mail: Received) -> bytes:
    """An e-mail as received: its header block as the raw bytes the sink got, then its decoded text (the body
    may be base64 or quoted-printable on the wire, so the token inside it is set aside once decoded)."""
    head = mail.raw.split(b"\r\n\r\n", 1)[0]
    return head + b"\r\n\r\n" + normalise(mail.text()).encode()


def play(master: Api, seats: dict[str, Api], gid: int) -> None:
    """The script: orders and a processed phase, press, a vote opened and decided, a call, the end."""
    for power, lines in (("FRANCE", ["A PAR - BUR"]), ("GERMANY", ["A MUN - RUH"])):
        r = seats[power].put(f"/api/games/{gid}/orders", {"orders": lines, "ready": True})
        assert r.status_code == 200 and r.json()["rejected"] == [], r.text
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    assert seats["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "*", "body": "hello all"}).status_code == 201
    assert seats["GERMANY"].post(f"/api/games/{gid}/messages", {"to": "ENGLAND", "body": "psst"}).status_code == 201
    vote = seats["GERMANY"].post(f"/api/games/{gid}/votes", {"kind": "extend", "minutes": 60})
    assert vote.status_code == 201, vote.text
    ballot = seats["FRANCE"].post(f"/api/games/{gid}/votes/{vote.json()['id']}/ballot", {"choice": "no"})
    assert ballot.status_code == 200 and ballot.json()["votes"][0]["status"] == "failed"
    assert master.post(f"/api/games/{gid}/replacements", {"power": "FRANCE"}).status_code == 201
    assert master.post(f"/api/games/{gid}/master", {"action": "end"}).status_code == 200


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_third_players_notifications_do_not_depend_on_who_plays_what(
    backend: str, tmp_path: Path, sink: tuple[str, Sink]
) -> None:
    url, received = sink
    hook = Hook()
    settings = {"smtp_url": url, "site_url": "https://arbitre.example", "webhook_http_loopback": True}
    got: list[tuple[list[bytes], list[bytes], list[str], list[str]]] = []
    try:
        for n, arrangement in enumerate((("FRANCE", "GERMANY"), ("GERMANY", "FRANCE"))):
            with (
                twin_site(backend, tmp_path, f"masks{n}", **settings) as site,
                TestClient(create_app(site=site)) as client,
            ):
                got.append(run(client, site, received, hook, arrangement))
    finally:
        hook.close()
    (mails_a, hooks_a, list_a, kinds), (mails_b, hooks_b, list_b, _) = got
    # every kind was told, so the comparison below covers each of them
    for kind in ("started", "phase", "message", "vote_opened", "vote_decided", "replacement", "finished"):
        assert kinds.count(kind) == (2 if kind == "message" else 1), (kind, kinds)
    assert len(mails_a) == len(mails_b) == 8 and len(list_a) == len(list_b) == 8
    for first, second in zip(mails_a, mails_b, strict=True):
        assert first == second
        assert not any(name.encode() in first for name in SWAPPED)
        assert re.search(rb"^Message-ID: <n[1-8]\.email\.", first, re.M)  # England's own numbers
    assert list_a == list_b
    assert len(hooks_a) == len(hooks_b) == 8 and hooks_a == hooks_b  # the webhook bodies, byte for byte
    assert not any(name.encode() in body for body in hooks_a for name in SWAPPED)
    assert not any(name in item for item in list_a for name in SWAPPED)


def run(
    client: TestClient, site: Site, received: Sink, hook: Hook, arrangement: tuple[str, str]
) -> tuple[list[bytes], list[bytes], list[str], list[str]]:
    """The script in one server's game, ``anon_alpha`` and ``anon_bravo`` holding ``arrangement``: England's
    e-mails, webhook POSTs (delivery header and body), site list, and the kinds told."""
    master = Api(client, "anon_gm")
    alpha, bravo = (Api(client, name) for name in SWAPPED)
    others = {p: Api(client, f"anon_{p.lower()}") for p in POWERS if p not in ("FRANCE", "GERMANY")}
    england = others["ENGLAND"]
    for n, api in enumerate((master, alpha, bravo, *others.values())):
        r = api.put("/api/me/notifications", {"email": f"{api.name}@masks.example", "time_zone": "Europe/Paris"})
        assert r.status_code == 200
        if n % 2:
            assert api.put("/api/me", {"lang": "fr"}).status_code == 200
    assert england.put("/api/me/webhook", {"url": hook.url}).status_code == 200
    before = len(received.messages(f"{england.name}@masks.example"))
    hooked = len(hook.received)
    r = master.post("/api/games", SETTINGS)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    alpha_power, bravo_power = arrangement
    seats = {alpha_power: alpha, bravo_power: bravo, **others}
    for power, api in ((alpha_power, alpha), (bravo_power, bravo), *others.items()):
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": power}).status_code == 200
    play(master, seats, gid)
    sender.tick(site)
    mails = [mail_bytes(m) for m in received.messages(f"{england.name}@masks.example")[before:]]
    hooks = [
        f"{headers.get('x-arbitre-delivery')} ".encode() + normalise(body.decode()).encode()
        for headers, body in hook.received[hooked:]
    ]
    items = england.get("/api/notifications?limit=200").json()["items"]
    return mails, hooks, [normalise(repr(sorted(i.items()))) for i in items], [i["kind"] for i in items]
