"""Votes on the live event stream (real server, both databases): ``vote_opened``, ``vote_cast`` and
``vote_decided``, each built from its reader's view.

In a secret vote a player hears its own ballot only (the master every ballot, an observer none); a pair of
games that differ only in another power's secret ballot gives a third power and an observer the same
streams, byte for byte (the game ids set aside: two games of one site differ in them by construction; the
vote ids are numbers in their game, and are compared).
"""

from __future__ import annotations

import re

import httpx
import pytest

from tests.server.conftest import Api, start_game
from tests.server.sse import StreamReader

pytestmark = pytest.mark.usefixtures("quick_hashes")  # many accounts; what is tested is the stream


def listen(client: httpx.Client, readers: list[StreamReader], gid: int, api: Api) -> StreamReader:
    """Open ``api``'s stream of game ``gid`` and wait for its first event."""
    reader = StreamReader(f"{client.base_url}/api/games/{gid}/events", api.headers)
    readers.append(reader)
    reader.wait(lambda events: len(events) >= 1)
    return reader


def ok(response: httpx.Response) -> None:
    assert response.status_code in (200, 201), response.text


def mark(master: Api, gid: int, streams: list[StreamReader], text: str) -> None:
    """A public message every stream hears: what came before it on a stream came before it."""
    ok(master.post(f"/api/games/{gid}/messages", {"to": "*", "body": text}))
    for r in streams:
        r.wait_for("message", body=text)


def test_each_reader_hears_the_votes_it_may_see(client: httpx.Client, readers: list[StreamReader]) -> None:
    gid, master, players = start_game(client)  # type: ignore[arg-type]
    observer = Api(client, "vote_watcher")  # type: ignore[arg-type]
    ok(observer.post(f"/api/games/{gid}/join", {"role": "observer"}))
    who = {"france": players["FRANCE"], "germany": players["GERMANY"], "observer": observer, "master": master}
    streams = {name: listen(client, readers, gid, api) for name, api in who.items()}
    everyone = list(streams.values())
    r = players["FRANCE"].post(f"/api/games/{gid}/votes", {"kind": "draw"})  # secret by default
    ok(r)
    vote = r.json()["id"]
    for s in everyone:
        s.wait_for("vote_opened")
    opened = {name: s.events[-1].data for name, s in streams.items()}
    assert opened["germany"]["proposer"] is None and opened["germany"]["you_vote"] is True
    assert opened["france"]["your_ballot"] == "yes" and opened["france"]["proposer"] == "FRANCE"
    assert opened["master"]["ballots"] == {"FRANCE": "yes"} and opened["observer"]["ballots"] == {}

    ok(players["GERMANY"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}))
    mark(master, gid, everyone, "after Germany's ballot")
    cast = {name: [e.data for e in s.events if e.kind == "vote_cast"] for name, s in streams.items()}
    assert [c["your_ballot"] for c in cast["germany"]] == ["yes"]
    assert [c["ballots"] for c in cast["master"]] == [{"FRANCE": "yes", "GERMANY": "yes"}]
    assert cast["france"] == [] and cast["observer"] == []  # a secret ballot of another power: nothing

    r = players["GERMANY"].client.delete(f"/api/games/{gid}/votes/{vote}/ballot", headers=players["GERMANY"].headers)
    ok(r)
    mark(master, gid, everyone, "after Germany took it back")
    assert streams["germany"].events[-2].kind == "vote_cast"
    assert streams["germany"].events[-2].data["your_ballot"] is None
    assert [e.kind for e in streams["france"].events].count("vote_cast") == 0

    r = players["FRANCE"].client.delete(f"/api/games/{gid}/votes/{vote}", headers=players["FRANCE"].headers)
    ok(r)
    for s in everyone:
        s.wait_for("vote_decided", status="withdrawn")
    assert streams["observer"].events[-1].data["voters"] == []  # a closed secret vote: who voted stays hidden
    kinds = [e.kind for e in streams["observer"].events]
    assert kinds == ["hello", "vote_opened", "message", "message", "vote_decided"]


def test_another_powers_secret_ballot_sends_nothing(client: httpx.Client, readers: list[StreamReader]) -> None:
    """Two games differ only in Germany's secret ballot: Italy and an observer hear the same bytes."""
    observer = Api(client, "pair_vote_watcher")  # type: ignore[arg-type]
    games = []
    for _ in range(2):
        gid, master, players = start_game(client)  # type: ignore[arg-type]
        ok(observer.post(f"/api/games/{gid}/join", {"role": "observer"}))
        games.append(
            (
                gid,
                master,
                players,
                [listen(client, readers, gid, players["ITALY"]), listen(client, readers, gid, observer)],
            )
        )
    for n, (gid, master, players, streams) in enumerate(games):
        r = players["FRANCE"].post(f"/api/games/{gid}/votes", {"kind": "draw"})
        ok(r)
        vote = r.json()["id"]
        for s in streams:
            s.wait_for("vote_opened")
        if n == 0:  # hidden from Italy and the observer
            ok(players["GERMANY"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}))
            ok(
                players["GERMANY"].client.delete(
                    f"/api/games/{gid}/votes/{vote}/ballot", headers=players["GERMANY"].headers
                )
            )
            ok(players["GERMANY"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}))
        mark(master, gid, streams, "between")
        ok(players["ENGLAND"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "no"}))
        for s in streams:
            s.wait_for("vote_decided", status="failed")
    (gid_a, _, _, a), (gid_b, _, _, b) = games
    for reader_a, reader_b in zip(a, b, strict=True):
        text_a, text_b = (
            re.sub(rf'"game":{gid}\b', '"game":ID', r.text()) for gid, r in ((gid_a, reader_a), (gid_b, reader_b))
        )
        assert text_a == text_b
        assert 'GERMANY":"yes' not in text_a
    assert [e.kind for e in a[0].events] == ["hello", "vote_opened", "message", "vote_decided"]
