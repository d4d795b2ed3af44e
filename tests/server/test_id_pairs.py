"""Ids and counts tell a reader nothing hidden: two servers, England's outputs byte for byte, ids included.

Two fresh servers (:mod:`tests.server.twins`: the same signing key, the same manual clock) get the
same accounts and the same visible moves in one game: a public message, England's own message,
orders, a secret draw vote that England turns down, an adjudication.  The second server also gets
what England may not see: a private France–Germany exchange, France's orders written twice, France's
secret ballot, and a private game among other accounts with its own press, vote and notifications.

Every number England sees must then be the same on both servers, nothing set aside but the
per-visit CSRF tokens (random by construction): the JSON API (game, messages, votes, history,
notifications, lobby), the pages (game, messages, votes, notifications: anchors, data attributes,
the event id a page starts its stream from), the event stream (events and their ``id:`` lines,
and a stream resumed with ``Last-Event-ID``), the e-mails (every header, ``Message-ID`` and the
unsubscribe link included) and the webhook POSTs (body, ``X-Arbitre-Delivery`` and signature).
Message, vote and notification ids used to be row ids counted across the site, so the hidden
exchange moved them.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app
from arbitre.server.notify import sender, webhook
from arbitre.server.site import Site
from tests.server.browser import live_server
from tests.server.conftest import POWERS, Api
from tests.server.smtp_sink import SmtpSink
from tests.server.sse import StreamReader
from tests.server.test_notify_webhook import Hook
from tests.server.twins import twin_site

pytestmark = pytest.mark.usefixtures("quick_hashes")

BACKENDS = ["sqlite", "postgresql"]
SETTINGS = {"name": "Pairs", "assignment": "choice", "press": "full", "votes": {"secret": ["draw"]}}
OUTSIDE = {"name": "Elsewhere", "assignment": "choice", "press": "full", "private": True, "votes": {"secret": []}}


def _accounts(client: TestClient) -> tuple[Api, dict[str, Api], Api, dict[str, Api]]:
    """The same accounts on both servers, made in the same order: the game's master and players, and others."""
    master = Api(client, "pair_gm")
    players = {p: Api(client, f"pair_{p.lower()}") for p in POWERS}
    other_master = Api(client, "out_gm")
    outsiders = {p: Api(client, f"out_{p.lower()}") for p in POWERS}
    return master, players, other_master, outsiders


def _hidden_game(master: Api, players: dict[str, Api]) -> None:
    """A private game England is not in, with press, a vote and its notifications."""
    r = master.post("/api/games", OUTSIDE)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = master.get(f"/api/games/{gid}").json()["invitation"]["path"].rsplit("/", 1)[1]
    for p, api in players.items():
        assert api.post(f"/api/invitations/{token}/join", {"role": "player", "power": p}).status_code == 200
    for n in range(3):
        r = players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "*" if n else "GERMANY", "body": f"x{n}"})
        assert r.status_code == 201, r.text
    assert players["ITALY"].post(f"/api/games/{gid}/votes", {"kind": "extend", "minutes": 30}).status_code == 201


def _say(api: Api, gid: int, to: str, body: str) -> None:
    r = api.post(f"/api/games/{gid}/messages", {"to": to, "body": body})
    assert r.status_code == 201, r.text


def _orders(api: Api, gid: int, lines: list[str]) -> None:
    r = api.put(f"/api/games/{gid}/orders", {"orders": lines})
    assert r.status_code == 200 and r.json()["rejected"] == [], r.text


def _scrub(text: str) -> str:
    """Only the per-visit CSRF tokens (random by construction) set aside: every id stays."""
    text = re.sub(r'name="csrf" value="[0-9a-f]+"', 'name="csrf"', text)
    return re.sub(r'data-csrf="[0-9a-f]+"', "data-csrf", text)


def _play(site: Site, hidden: bool, hooks: tuple[Hook, Hook], sink: Any) -> dict[str, str]:
    """Play the pair's game on ``site`` (with the hidden moves when ``hidden``); England's outputs.

    ``hooks``: England's webhook receiver, and Germany's (whose deliveries England must not notice)."""
    hook, other_hook = hooks
    hook.received.clear()
    mails_before = len(sink.messages())
    with TestClient(create_app(site=site)) as client, live_server(site) as url, contextlib.ExitStack() as stack:
        master, players, other_master, outsiders = _accounts(client)
        england = players["ENGLAND"]
        for api in [master, *players.values(), other_master, *outsiders.values()]:
            assert api.put("/api/me/notifications", {"email": f"{api.name}@pairs.example"}).status_code == 200
        assert england.put("/api/me/webhook", {"url": hook.url}).status_code == 200
        assert players["GERMANY"].put("/api/me/webhook", {"url": other_hook.url}).status_code == 200
        gid = master.post("/api/games", SETTINGS).json()["id"]
        for p, api in players.items():
            assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        if hidden:
            _hidden_game(other_master, outsiders)
        stream = StreamReader(f"{url}/api/games/{gid}/events", england.headers)
        stack.callback(stream.close)
        stream.wait_for("hello")
        france, germany = players["FRANCE"], players["GERMANY"]
        if hidden:
            _say(france, gid, "GERMANY", "an alliance?")
            _say(germany, gid, "FRANCE", "yes")
        _say(france, gid, "*", "hello all")
        stream.wait_for("message", body="hello all")
        if hidden:
            _say(france, gid, "GERMANY", "Burgundy is yours")
        _say(england, gid, "FRANCE", "psst")
        stream.wait_for("message", body="psst")
        if hidden:  # rewritten at once: only the last orders count (England sees France's orders state: partly)
            _orders(france, gid, ["A PAR - PIC"])
        _orders(france, gid, ["A PAR - BUR"])
        stream.wait_for("given", power="FRANCE")
        _orders(germany, gid, ["A MUN - RUH"])
        stream.wait_for("given", power="GERMANY")
        r = germany.post(f"/api/games/{gid}/votes", {"kind": "draw"})
        assert r.status_code == 201, r.text
        vote = r.json()["id"]
        stream.wait_for("vote_opened")
        if hidden:  # a secret ballot: England sees its own only
            assert france.post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}).status_code == 200
        assert england.post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "no"}).status_code == 200
        stream.wait_for("vote_decided", status="failed")
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
        stream.wait_for("phase")
        sender.tick(site)
        out = {"stream": stream.text()}
        since = stream.events[0].id  # the hello's: a reconnection gets everything since
        assert since is not None
        resumed = StreamReader(f"{url}/api/games/{gid}/events", {**england.headers, "Last-Event-ID": since})
        stack.callback(resumed.close)
        resumed.wait_for("message", body="psst")  # one batch: the state's events, the votes', the messages'
        assert resumed.kinds() == ["phase", "vote_opened", "vote_decided", "message", "message"], resumed.kinds()
        out["resumed"] = resumed.text()
        for path in (
            f"/api/games/{gid}",
            f"/api/games/{gid}/messages",
            f"/api/games/{gid}/votes",
            f"/api/games/{gid}/history",
            "/api/notifications",
            "/api/games",
            f"/games/{gid}",
            f"/games/{gid}/messages",
            f"/games/{gid}/votes",
            "/notifications",
        ):
            r = england.get(path)
            out[path] = f"{r.status_code} {_scrub(r.text)}"
        r = england.post("/api/notifications/read", {"ids": [1, 2]})
        out["read"] = f"{r.status_code} {r.text}"
        for n, m in enumerate(m for m in sink.messages()[mails_before:] if m.to == "pair_england@pairs.example"):
            out[f"mail {n}"] = m.raw.decode()
        for n, (headers, body) in enumerate(hook.received):
            shown = {k: v for k, v in headers.items() if k.startswith("x-arbitre") or k == "content-type"}
            out[f"webhook {n}"] = f"{sorted(shown.items())} {body.decode()}"
        return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_englands_outputs_with_their_ids_do_not_depend_on_hidden_state(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhook, "new_secret", lambda: "the-same-secret-on-both-servers")  # random by construction
    hooks = (Hook(), Hook())
    sink_server = SmtpSink(tmp_path / "mail")
    outputs: list[dict[str, str]] = []
    try:
        with sink_server as sink:
            settings = {"smtp_url": sink_server.url, "site_url": "https://pairs.example", "webhook_http_loopback": True}
            for hidden in (False, True):
                with twin_site(backend, tmp_path, f"twin{int(hidden)}", **settings) as site:
                    outputs.append(_play(site, hidden, hooks, sink))
    finally:
        for hook in hooks:
            hook.close()
    plain, secret = outputs
    assert plain.keys() == secret.keys()
    assert sum(k.startswith("mail ") for k in plain) >= 4 and sum(k.startswith("webhook ") for k in plain) >= 4
    # every output that moved, named (then the first difference in full)
    moved = [k for k in plain if plain[k] != secret[k]]
    assert not moved, moved
    # England's two messages are its first two; its notifications are numbered from 1
    assert re.findall(r'"id":(\d+)', plain["/api/games/1/messages"]) == ["1", "2"]
    numbers = sorted(int(n) for n in re.findall(r'"id":(\d+)', plain["/api/notifications"]))
    assert numbers == list(range(1, 6)), numbers  # started, message, vote opened, vote decided, phase
    for key in plain:
        assert plain[key] == secret[key], key
    # what England must not see
    everything = "".join(secret.values())
    assert "alliance" not in everything and "Burgundy is yours" not in everything and "A PAR - PIC" not in everything
