"""Anonymous games: no notification names the player behind a power (e-mails as the SMTP sink received
them, the site's list, webhook bodies).

Proved as ``test_anonymous.py`` proves it for pages, API and event stream: the same script is played in
two anonymous games that differ only in the accounts behind France and Germany (``anon_alpha`` and
``anon_bravo`` exchange seats).  England, a fixed third player, must receive byte-identical e-mails
(the header block as the raw bytes the sink received, and the decoded text of the body), site
notifications and webhook bodies (the bytes its webhook server received) in both games, for every kind: game start, phase processed, press messages, a vote opened and decided, a call for a
replacement of France, and the game's end.

What is set aside before comparing, and why:

- the game id in links and in the webhook body, and the notification's row id inside ``Message-ID`` and
  the webhook's ``delivery`` id (row ids count across the site's games: the second game's rows are newer);
- the take-over token of the call (random by design);
- the timestamp and signature of the unsubscribe token: itsdangerous stamps it with the wall clock at
  sending time; its payload (the account and the kind) is kept and compared.

``Date`` is not set aside: it is the notification's time on the test's manual clock, the same in both games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Settings, Site
from tests.server.conftest import POWERS, Api
from tests.server.smtp_sink import Received, Sink
from tests.server.test_notify_webhook import Hook

SETTINGS = {
    "name": "Masks",
    "assignment": "choice",
    "anonymous": True,
    "press": "full",
    "votes": {"secret": []},
    "deadlines": {"M": 86400, "R": 86400, "A": 86400},
}
SWAPPED = ("anon_alpha", "anon_bravo")


def normalise(text: str, gid: int) -> str:
    """``text`` with what differs by construction set aside (see the module's docstring)."""
    text = re.sub(rf"/games/{gid}(?=\D|$)", "/games/ID", text)
    text = re.sub(rf'"game": ?{gid}\b', '"game":ID', text)
    text = re.sub(r"<n\d+\.", "<nID.", text)  # Message-ID and the webhook's delivery id: the row id
    text = re.sub(r"/takeover/[A-Za-z0-9_-]+", "/takeover/TOKEN", text)
    return re.sub(r"(/unsubscribe/[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", r"\1.STAMP.SIGNATURE", text)


def mail_bytes(mail: Received, gid: int) -> bytes:
    """An e-mail as received: its header block as the raw bytes the sink got, then its decoded text (the body
    may be base64 or quoted-printable on the wire, so the tokens inside it are set aside once decoded)."""
    head = mail.raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    return normalise(head, gid).encode() + b"\r\n\r\n" + normalise(mail.text(), gid).encode()


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


@pytest.fixture
def both_site(db_url: str, clock: ManualClock, sink: tuple[str, Sink]) -> Iterator[Site]:
    """A site that sends e-mail to the sink and allows webhooks to loopback."""
    s = make_site(
        Settings(
            database_url=db_url,
            run_worker=False,
            smtp_url=sink[0],
            site_url="https://arbitre.example",
            webhook_http_loopback=True,
        ),
        clock,
    )
    yield s
    s.db.dispose()


def test_a_third_players_notifications_do_not_depend_on_who_plays_what(both_site: Site, sink: tuple[str, Sink]) -> None:
    _, received = sink
    hook = Hook()
    try:
        with TestClient(create_app(site=both_site)) as client:
            run(client, both_site, received, hook)
    finally:
        hook.close()


def run(mail_client: TestClient, mail_site: Site, received: Sink, hook: Hook) -> None:
    """The script in both games, then the comparisons."""
    master = Api(mail_client, "anon_gm")
    alpha, bravo = (Api(mail_client, name) for name in SWAPPED)
    others = {p: Api(mail_client, f"anon_{p.lower()}") for p in POWERS if p not in ("FRANCE", "GERMANY")}
    england = others["ENGLAND"]
    for n, api in enumerate((master, alpha, bravo, *others.values())):
        r = api.put("/api/me/notifications", {"email": f"{api.name}@masks.example", "time_zone": "Europe/Paris"})
        assert r.status_code == 200
        if n % 2:
            assert api.put("/api/me", {"lang": "fr"}).status_code == 200
    assert england.put("/api/me/webhook", {"url": hook.url}).status_code == 200
    mails: list[list[bytes]] = []
    hooks: list[list[bytes]] = []
    lists: list[list[str]] = []
    for alpha_power, bravo_power in (("FRANCE", "GERMANY"), ("GERMANY", "FRANCE")):
        before = len(received.messages(f"{england.name}@masks.example"))
        r = master.post("/api/games", SETTINGS)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        seats = {alpha_power: alpha, bravo_power: bravo, **others}
        for power, api in ((alpha_power, alpha), (bravo_power, bravo), *others.items()):
            assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": power}).status_code == 200
        play(master, seats, gid)
        sender.tick(mail_site)
        got = received.messages(f"{england.name}@masks.example")[before:]
        mails.append([mail_bytes(m, gid) for m in got])
        hooks.append([normalise(body.decode(), gid).encode() for _, body in hook.received[len(hooks) * 8 :]])
        items = [i for i in england.get("/api/notifications?limit=200").json()["items"] if i["game"] == gid]
        lists.append(
            [normalise(repr(sorted((k, v) for k, v in i.items() if k not in ("id", "game"))), gid) for i in items]
        )
    subjects = [m.subject for m in received.messages(f"{england.name}@masks.example")]
    kinds = [i["kind"] for i in england.get("/api/notifications?limit=200").json()["items"]]
    # every kind was told (twice: once per game), so the comparison below covers each of them
    for kind in ("started", "phase", "message", "vote_opened", "vote_decided", "replacement", "finished"):
        assert kinds.count(kind) == (4 if kind == "message" else 2), (kind, kinds)
    assert len(subjects) == len(kinds) == 2 * 8
    assert len(mails[0]) == len(mails[1]) == 8 and len(lists[0]) == len(lists[1]) == 8
    for first, second in zip(mails[0], mails[1], strict=True):
        assert first == second
        assert not any(name.encode() in first for name in SWAPPED)
    assert lists[0] == lists[1]
    assert len(hooks[0]) == len(hooks[1]) == 8 and hooks[0] == hooks[1]  # the webhook bodies, byte for byte
    assert not any(name.encode() in body for body in hooks[0] for name in SWAPPED)
    assert not any(name in item for item in lists[0] for name in SWAPPED)
