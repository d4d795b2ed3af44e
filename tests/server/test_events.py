"""The live event stream ``GET /api/games/{id}/events`` on a real server (both databases).

Each reader hears what it may see and nothing else; a reconnection with
``Last-Event-ID`` gets what changed in between; two games that differ only in
what a reader may not see give that reader the same stream, byte for byte.
"""

from __future__ import annotations

import re

import httpx
import pytest

from tests.server.conftest import Api, start_game
from tests.server.sse import StreamReader

pytestmark = pytest.mark.usefixtures("quick_hashes")  # many accounts; what is tested is the stream


def listen(client: httpx.Client, readers: list[StreamReader], gid: int, api: Api, **headers: str) -> StreamReader:
    """Open ``api``'s stream of game ``gid`` and wait for its first event."""
    reader = StreamReader(f"{client.base_url}/api/games/{gid}/events", {**api.headers, **headers})
    readers.append(reader)
    reader.wait(lambda events: len(events) >= 1)
    return reader


def ok(response: httpx.Response) -> None:
    assert response.status_code in (200, 201), response.text


def test_each_reader_hears_what_it_may_see(client: httpx.Client, readers: list[StreamReader]) -> None:
    gid, master, players = start_game(client)  # type: ignore[arg-type]
    observer = Api(client, "stream_watcher")  # type: ignore[arg-type]
    ok(observer.post(f"/api/games/{gid}/join", {"role": "observer"}))
    fr, gm, obs = (listen(client, readers, gid, a) for a in (players["FRANCE"], master, observer))
    for r in (fr, gm, obs):
        hello = r.events[0]
        assert hello.kind == "hello" and hello.id
        assert hello.data == {
            "game": gid,
            "status": "active",
            "phase": "S1901M",
            "step": "orders",
            "result": "",
            "deadline": hello.data["deadline"],
            "remaining_seconds": None,
            "played": 0,
            "ready": [],
        }

    # ready switches: a player hears its own, the master everyone's, an observer none
    ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"], "ready": True}))
    assert fr.wait_for("ready", power="FRANCE").data["ready"] is True
    gm.wait_for("ready", power="FRANCE", ready=True)
    # the orders state, as the players table shows it (the game shows progress): everyone hears it, no orders
    for r in (fr, gm, obs):
        given = r.wait_for("given", power="FRANCE").data
        assert given == {"game": gid, "phase": "S1901M", "step": "orders", "power": "FRANCE", "orders": "partly"}
    ok(players["ENGLAND"].put(f"/api/games/{gid}/orders", {"ready": True}))
    gm.wait_for("ready", power="ENGLAND", ready=True)
    ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"ready": False}))
    fr.wait_for("ready", power="FRANCE", ready=False)
    gm.wait_for("ready", power="FRANCE", ready=False)

    # press: a private message reaches its two ends and the master; a public one everyone
    ok(players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "Channel?"}))
    msg = fr.wait_for("message").data
    assert (msg["from"], msg["to"], msg["body"], msg["phase"]) == ("ENGLAND", ["FRANCE"], "Channel?", "S1901M")
    gm.wait_for("message", body="Channel?")
    ok(players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": "secret"}))
    gm.wait_for("message", body="secret")
    ok(master.post(f"/api/games/{gid}/messages", {"to": "*", "body": "Hello all"}))
    for r in (fr, gm, obs):
        r.wait_for("message", body="Hello all", to=["*"])

    # the clock: extension, pause, resume
    ok(master.post(f"/api/games/{gid}/master", {"action": "extend", "minutes": 30}))
    for r in (fr, gm, obs):
        assert r.wait_for("deadline").data["deadline"] > hello.data["deadline"]
    ok(master.post(f"/api/games/{gid}/master", {"action": "pause"}))
    for r in (fr, gm, obs):
        paused = r.wait_for("paused").data
        assert paused["deadline"] is None and paused["remaining_seconds"] > 0
    ok(master.post(f"/api/games/{gid}/master", {"action": "resume"}))
    for r in (fr, gm, obs):
        r.wait_for("resumed")

    # a processed phase, then the end of the game
    ok(master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}))
    for r in (fr, gm, obs):
        phase = r.wait_for("phase").data
        assert (phase["from"], phase["phase"], phase["played"], phase["ready"]) == ("S1901M", "F1901M", 1, [])
    ok(master.post(f"/api/games/{gid}/master", {"action": "draw"}))
    for r in (fr, gm, obs):
        assert r.wait_for("finished").data["result"] == "drawn"

    # the game shows progress (the default): every member hears every ready switch, as its players table shows them
    assert fr.kinds() == [
        "hello",
        "ready",
        "given",
        "ready",
        "ready",
        "message",
        "message",
        "deadline",
        "paused",
        "resumed",
        "phase",
        "finished",
    ]
    assert obs.kinds() == [
        "hello",
        "ready",
        "given",
        "ready",
        "ready",
        "message",
        "deadline",
        "paused",
        "resumed",
        "phase",
        "finished",
    ]
    assert gm.kinds() == [
        "hello",
        "ready",
        "given",
        "ready",
        "ready",
        "message",
        "message",
        "message",
        "deadline",
        "paused",
        "resumed",
        "phase",
        "finished",
    ]
    assert "secret" not in fr.text() + obs.text()
    assert "BUR" not in fr.text() + obs.text() + gm.text()  # a state, never the orders


def test_a_reconnection_gets_what_changed_in_between(client: httpx.Client, readers: list[StreamReader]) -> None:
    gid, master, players = start_game(client)  # type: ignore[arg-type]
    france = players["FRANCE"]
    first = listen(client, readers, gid, france)
    cursor = first.events[0].id
    assert cursor
    first.close()
    ok(players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "while you were away"}))
    ok(master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}))

    again = listen(client, readers, gid, france, **{"Last-Event-ID": cursor})
    events = again.wait(lambda evs: len(evs) >= 2)
    assert [e.kind for e in events] == ["phase", "message"]
    assert events[0].data["from"] == "S1901M" and events[1].data["body"] == "while you were away"
    assert events[0].id is None and events[1].id  # one id per batch, on its last event

    # the same through ?since= (a page's first connection), and nothing at all from an up-to-date id
    by_query = StreamReader(f"{client.base_url}/api/games/{gid}/events?since={cursor}", france.headers)
    readers.append(by_query)
    assert [e.raw for e in by_query.wait(lambda evs: len(evs) >= 2)] == [e.raw for e in events]
    current = events[1].id
    ok(france.put(f"/api/games/{gid}/orders", {"ready": True}))
    up_to_date = listen(client, readers, gid, france, **{"Last-Event-ID": current})
    assert up_to_date.kinds() == ["ready"]

    # an id that is not one of ours starts afresh
    stranger = listen(client, readers, gid, france, **{"Last-Event-ID": "1.active.S1901M.orders.-.9.-.x.0.0"})
    assert stranger.kinds() == ["hello"]


def test_only_members_may_listen(client: httpx.Client) -> None:
    gid, _master, _players = start_game(client)  # type: ignore[arg-type]
    outsider = Api(client, "stream_outsider")  # type: ignore[arg-type]
    r = outsider.get(f"/api/games/{gid}/events")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = client.get(f"/api/games/{gid}/events")
    assert r.status_code == 401 and r.json()["error"]["code"] == "login_required"
    r = client.get(f"/api/games/{gid}/events", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = outsider.get("/api/games/999999/events")
    assert r.status_code == 404
    r = client.get(f"/api/games/{gid}/events", headers={**outsider.headers, "Last-Event-ID": "x" * 701})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


def normalized(reader: StreamReader, gid: int) -> str:
    """The stream's text with the game id set aside."""
    return re.sub(rf'"game":{gid}\b', '"game":ID', reader.text())


def test_a_hidden_change_sends_nothing(client: httpx.Client, readers: list[StreamReader]) -> None:
    """Two games differ only in what Germany and an observer may not see: they get the same streams."""
    games = []
    observer = Api(client, "pair_watcher")  # type: ignore[arg-type]
    for _ in range(2):  # without show_progress, another power's ready switch is hidden too
        gid, master, players = start_game(client, show_progress=False)  # type: ignore[arg-type]
        ok(observer.post(f"/api/games/{gid}/join", {"role": "observer"}))
        games.append((gid, master, players))
    streams = {
        gid: [listen(client, readers, gid, players["GERMANY"]), listen(client, readers, gid, observer)]
        for gid, _m, players in games
    }
    for n, (gid, master, players) in enumerate(games):
        if n == 0:  # hidden from Germany and the observer: France's orders, ready switch and private press
            ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - PIC"], "ready": True}))
            ok(players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "ENGLAND", "body": "psst"}))
            ok(players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "ok"}))
            ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"], "ready": False}))
        else:
            ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}))
        ok(players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - RUH"], "ready": True}))
        streams[gid][0].wait_for("ready", power="GERMANY")
        ok(master.post(f"/api/games/{gid}/messages", {"to": "*", "body": "Adjudicating"}))
        for r in streams[gid]:
            r.wait_for("message", body="Adjudicating")
        ok(master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}))
        for r in streams[gid]:
            r.wait_for("phase", phase="F1901M")
    (a, b) = (streams[gid] for gid, _m, _p in games)
    for reader_a, reader_b in zip(a, b, strict=True):
        assert normalized(reader_a, games[0][0]) == normalized(reader_b, games[1][0])
        assert "psst" not in reader_a.text() and "PIC" not in reader_a.text()
    assert [e.kind for e in a[0].events] == ["hello", "ready", "message", "phase"]  # Germany's own switch


def _page(api: Api, gid: int, master: Api, players: dict[str, Api]) -> str:
    """``api``'s game page with what differs between two such games set aside: the game id, the per-visit
    CSRF tokens, and the accounts' names (random in :func:`start_game`)."""
    r = api.get(f"/games/{gid}")
    assert r.status_code == 200, r.text
    text = re.sub(r'(name="csrf" value|data-csrf)="[0-9a-f]+"', r"\1", r.text)
    text = re.sub(rf'(/games/|"game":|data-game="){gid}\b', r"\1ID", text)
    for name, who in [(master.name, "GM"), *((p.name, power) for power, p in players.items())]:
        text = text.replace(name, who)
    return text


def test_another_power_s_order_text_changes_no_byte_of_the_orders_state(
    client: httpx.Client, readers: list[StreamReader]
) -> None:
    """The game shows progress: Germany and an observer see France's orders state (none, partly, all) live, and
    nothing else of them.  Two games whose France writes different orders (the same number of them), one of
    them rewriting its complete orders once more, give Germany and the observer the same streams and the
    same game pages, byte for byte."""
    games = []
    observer = Api(client, "given_watcher")  # type: ignore[arg-type]
    for _ in range(2):
        gid, master, players = start_game(client)  # type: ignore[arg-type]
        ok(observer.post(f"/api/games/{gid}/join", {"role": "observer"}))
        games.append((gid, master, players))
    streams = {
        gid: [listen(client, readers, gid, players["GERMANY"]), listen(client, readers, gid, observer)]
        for gid, _m, players in games
    }
    writes = [
        (["A PAR - PIC"], ["A PAR - BUR"]),  # one unit of three: partly
        (["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"], ["A PAR - PIC", "F BRE - ENG", "A MAR H"]),  # all
    ]
    pages: list[list[str]] = [[], []]
    for lines_a, lines_b in writes:
        for n, ((gid, master, players), lines) in enumerate(zip(games, (lines_a, lines_b), strict=True)):
            ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": lines}))
            if n == 0 and len(lines) == 3:  # hidden: France rewrites its complete orders
                ok(players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - GAS", *lines[1:]]}))
            for r in streams[gid]:
                r.wait_for("given", power="FRANCE", orders="partly" if len(lines) == 1 else "all")
            pages[n].append(_page(players["GERMANY"], gid, master, players) + _page(observer, gid, master, players))
    for gid, master, players in games:  # a visible change closes both streams alike
        ok(players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - RUH"], "ready": True}))
        for r in streams[gid]:
            r.wait_for("ready", power="GERMANY")
        pages[0 if gid == games[0][0] else 1].append(_page(players["GERMANY"], gid, master, players))
    (gid_a, *_), (gid_b, *_) = games
    for reader_a, reader_b in zip(streams[gid_a], streams[gid_b], strict=True):
        assert normalized(reader_a, gid_a) == normalized(reader_b, gid_b)
        assert [e.kind for e in reader_a.events] == ["hello", "given", "given", "ready", "given"]
        assert not re.search(r"PIC|BUR|GAS|MAO|ENG|SPA", reader_a.text())
    assert [e.data["orders"] for e in streams[gid_a][0].events if e.kind == "given"] == ["partly", "all", "partly"]
    assert pages[0] == pages[1]
    # (Germany's own choices name France's units: "A MUN S A PAR - BUR", never France's orders)
    assert "partly" in pages[0][0] and not re.search(r"A PAR - (PIC|GAS)|F BRE - (MAO|ENG)", "".join(pages[0]))


def _pair_streams(
    client: httpx.Client,
    readers: list[StreamReader],
    rules: list[str],
    options: dict[str, object],
    listeners: list[str],
    turns: list[tuple[dict[str, list[str]], dict[str, list[str]]]],
    hidden_ready: str,
) -> list[tuple[int, list[StreamReader]]]:
    """Two games of ``rules``; each turn gives game A and game B their orders, then the master adjudicates.

    In game A, ``hidden_ready`` (not a listener) also switches to ready at each turn: the listeners
    may not see it.  The listeners' streams are opened before the first turn; after each turn every
    stream has heard the game move on (a new phase or step), so that both games' streams are cut alike.
    """
    games = []
    for _ in range(2):
        # without show_progress: another power's ready switch is hidden
        gid, master, players = start_game(client, rules=rules, options=options, show_progress=False)  # type: ignore[arg-type]
        streams = [listen(client, readers, gid, players[p]) for p in listeners]
        games.append((gid, master, players, streams))
    for turn in turns:
        for n, ((gid, master, players, streams), orders) in enumerate(zip(games, turn, strict=True)):
            for power, lines in orders.items():
                r = players[power].put(f"/api/games/{gid}/orders", {"orders": lines})
                assert r.status_code == 200 and not r.json()["rejected"], r.text
            if n == 0:
                ok(players[hidden_ready].put(f"/api/games/{gid}/orders", {"ready": True}))
            while True:
                seen = [len(r.events) for r in streams]
                ok(master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}))
                for r, n in zip(streams, seen, strict=True):
                    r.wait(lambda evs, n=n: any(e.kind in ("phase", "step") for e in evs[n:]))
                if streams[0].events[-1].data.get("phase", "M").endswith("M"):
                    break  # Submarines: a retreat step follows every movement phase (empty here)
    return [(gid, streams) for gid, _m, _p, streams in games]


def _same_bytes(pair: list[tuple[int, list[StreamReader]]]) -> None:
    (gid_a, a), (gid_b, b) = pair
    for reader_a, reader_b in zip(a, b, strict=True):
        assert normalized(reader_a, gid_a) == normalized(reader_b, gid_b)


def test_a_submerged_submarine_s_moves_send_nothing(client: httpx.Client, readers: list[StreamReader]) -> None:
    """Germany's submarine dives in both games, then takes one of two routes in the depths: France's stream
    (a player with no submarine, so no sonar) is byte for byte the same."""
    same = {"GERMANY": ["SM KIE - HEL"], "FRANCE": ["A PAR - BUR"]}
    dive = {"GERMANY": ["SM HEL - HEL-1"], "FRANCE": ["A BUR H"]}
    turns = [
        (same, same),
        (dive, dive),
        ({"GERMANY": ["SM HEL-1 - NTH-1"]}, {"GERMANY": ["SM HEL-1 H"]}),
        ({"GERMANY": ["SM NTH-1 - NWG-1"]}, {"GERMANY": ["SM HEL-1 - NTH-1"]}),
    ]
    pair = _pair_streams(
        client, readers, ["submarines"], {"start_submarines": "GERMANY:KIE"}, ["FRANCE", "ITALY"], turns, "GERMANY"
    )
    _same_bytes(pair)
    (gid_a, (france_a, _)), _ = pair
    assert france_a.events[-1].data["played"] >= 4  # the four movement phases were played
    assert "NTH" not in france_a.text() and "NWG" not in france_a.text()
    # The master's stream is not compared: it may see everything.
    assert gid_a


def test_another_power_s_spy_orders_send_nothing(client: httpx.Client, readers: list[StreamReader]) -> None:
    """Espionnite: France spies on Germany's army in game A, on England's fleet in game B; Germany's and
    Italy's streams through the orders, reaction and next phase are byte for byte the same."""
    turns = [
        (
            {"FRANCE": ["A PAR - BUR", "SPY MUN"], "GERMANY": ["A MUN - RUH"]},
            {"FRANCE": ["A PAR - BUR", "SPY LON"], "GERMANY": ["A MUN - RUH"]},
        ),
        ({}, {}),  # the reaction step: nobody changes anything
    ]
    pair = _pair_streams(client, readers, ["espionnite"], {}, ["GERMANY", "ITALY"], turns, "FRANCE")
    _same_bytes(pair)
    (_, (germany_a, _)), _ = pair
    assert [e.kind for e in germany_a.events] == ["hello", "step", "phase"]
    assert "SPY" not in germany_a.text()
