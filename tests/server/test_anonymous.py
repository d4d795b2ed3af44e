"""Anonymous games: until the game ends, no answer names the player behind a power.

Proved as the Submarines views are: two games are played identically, except that the accounts
behind France and Germany are swapped (``anon_alpha`` holds France in one and Germany in the
other; they also join in the same order, so the join order differs by power).  Every read route of
the app (enumerated from the app, as the hostile-input suite does: pages, API, history, messages,
votes, maps, the join page), some refused requests (errors), and the event stream, fetched by
England and by an observer, are then byte-identical in both games once the game ids are set aside
(vote and message ids are numbered in the game and for the reader: they are compared); none names ``anon_alpha`` or ``anon_bravo``.  Once the game ends, the roster names them.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from fastapi.testclient import TestClient

from arbitre.server.site import Site
from arbitre.store.models import GameRow
from tests.server.browser import live_server
from tests.server.conftest import POWERS, Api
from tests.server.sse import StreamReader
from tests.server.test_hostile_api import app_routes

SETTINGS = {"name": "Masks", "assignment": "choice", "anonymous": True, "press": "full", "votes": {"secret": []}}
SWAPPED = ("anon_alpha", "anon_bravo")
PLACEHOLDERS = {"game_id", "index", "vote_id", "token"}


def read_routes(client: TestClient) -> list[str]:
    """Every GET route of the app about a game or the site (not accounts' own tokens and sessions)."""
    out = []
    for path, route in app_routes(client.app.routes):  # type: ignore[attr-defined]
        if "GET" not in route.methods or path.endswith("/events"):
            continue  # the event stream is read below, while the games are played
        if set(re.findall(r"\{(\w+)\}", path)) <= PLACEHOLDERS:
            out.append(path)
    return sorted(out)


def fetch_all(api: Api, client: TestClient, gid: int, token: str, vote: int, played: int, other: int) -> dict[str, str]:
    """Every answer ``api``'s user can read about game ``gid`` (and the site), ids set aside (``other``: the
    other game's id, which the site's own pages list too)."""
    out = {}
    for template in read_routes(client):
        indexes = range(played) if "{index}" in template else [0]
        for i in indexes:
            path = (
                template.replace("{game_id}", str(gid))
                .replace("{index}", str(i))
                .replace("{vote_id}", str(vote))
                .replace("{token}", token)
            )
            r = api.get(path)
            out[f"GET {template} {i}"] = f"{r.status_code} {normalise(r.text, (gid, other), token, vote)}"
    # refused requests: their errors name nobody either
    refusals: list[tuple[str, str, Any]] = [
        ("post", f"/api/games/{gid}/join", {"role": "player"}),
        ("post", f"/api/games/{gid}/messages", {"to": "MASTER", "body": "x" * 5001}),
        ("post", f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "maybe"}),
        ("post", f"/api/games/{gid}/master", {"action": "replace", "power": "FRANCE", "user": SWAPPED[0]}),
        ("put", f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"], "phase": "S1901M"}),
    ]
    for method, path, body in refusals:
        r = getattr(api, method)(path, body)
        out[f"{method} {re.sub(rf'/games/{gid}(?=/)', '/games/ID', path)}"] = (
            f"{r.status_code} {normalise(r.text, (gid, other), token, vote)}"
        )
    return out


def normalise(text: str, gids: tuple[int, int], token: str, vote: int) -> str:
    """The answer with the games' ids (two games of one site differ in them by construction) and this game's
    random invitation token set aside, and no CSRF token.  Vote and message ids are *not* set aside: they are
    numbered in the game and for the reader, and must be the same in both games."""
    text = text.replace(token, "TOKEN")
    for gid in gids:
        text = re.sub(rf"/games/{gid}(?=\D)", "/games/ID", text).replace(f'data-game="{gid}"', 'data-game="ID"')
        text = re.sub(rf'"game":{gid}\b', '"game":ID', text)
        text = re.sub(rf'"id":{gid},"(map|name)"', r'"id":ID,"\1"', text)  # a game's summary (sorted keys)
    text = re.sub(r'name="csrf" value="[0-9a-f]+"', "", text)
    return re.sub(r"<title>[^<]*</title>", "", text) if text.lstrip().startswith("<svg") else text


def test_no_answer_names_the_player_behind_a_power(app_client: TestClient, site: Site) -> None:
    master = Api(app_client, "anon_gm")
    alpha, bravo = (Api(app_client, name) for name in SWAPPED)
    others = {p: Api(app_client, f"anon_{p.lower()}") for p in POWERS if p not in ("FRANCE", "GERMANY")}
    observer = Api(app_client, "anon_watcher")
    games: list[tuple[int, dict[str, Api]]] = []
    for alpha_power, bravo_power in (("FRANCE", "GERMANY"), ("GERMANY", "FRANCE")):
        r = master.post("/api/games", SETTINGS)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        seats = {alpha_power: alpha, bravo_power: bravo, **others}
        for power, api in ((alpha_power, alpha), (bravo_power, bravo), *others.items()):
            assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": power}).status_code == 200
        assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
        games.append((gid, seats))
    readers = {"england": others["ENGLAND"], "observer": observer}
    votes = {}
    with live_server(site) as url, contextlib.ExitStack() as stack:
        heard = {
            gid: {who: StreamReader(f"{url}/api/games/{gid}/events", api.headers) for who, api in readers.items()}
            for gid, _ in games
        }
        for group in heard.values():
            for reader in group.values():
                stack.callback(reader.close)
                reader.wait_for("hello")
        for gid, seats in games:  # the same moves in both games; only the accounts behind two powers differ
            group = heard[gid]
            for power, lines in (("FRANCE", ["A PAR - BUR"]), ("GERMANY", ["A MUN - RUH"])):
                r = seats[power].put(f"/api/games/{gid}/orders", {"orders": lines, "ready": True})
                assert r.status_code == 200 and r.json()["rejected"] == [], r.text
            post = seats["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "*", "body": "hello all"})
            assert post.status_code == 201
            for reader in group.values():  # one visible change at a time: the streams never merge two
                reader.wait_for("message", body="hello all")
            post = seats["GERMANY"].post(f"/api/games/{gid}/messages", {"to": "ENGLAND", "body": "psst"})
            assert post.status_code == 201
            group["england"].wait_for("message", body="psst")
            post = seats["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": "deal?"})
            assert post.status_code == 201
            votes[gid] = (
                seats["GERMANY"].post(f"/api/games/{gid}/votes", {"kind": "extend", "minutes": 60}).json()["id"]
            )
            for reader in group.values():
                reader.wait_for("vote_opened")
            ballot = seats["FRANCE"].post(f"/api/games/{gid}/votes/{votes[gid]}/ballot", {"choice": "yes"})
            assert ballot.status_code == 200
            for reader in group.values():  # a public vote: everyone sees the ballot
                reader.wait_for("vote_cast")
            assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
            for reader in group.values():  # the new phase ends the extension vote: its end is the batch's last event
                reader.wait_for("phase")
                reader.wait_for("vote_decided", status="expired")
        for who in readers:  # the vote's id is its number in the game: not set aside (only the game's id is)
            a, b = (re.sub(rf'"game":{gid}\b', '"game":ID', heard[gid][who].text()) for gid, _ in games)
            assert "vote_opened" in a and "vote_cast" in a
            assert a == b, who
            assert not any(name in a for name in SWAPPED), who
    with site.db.reading() as s:
        tokens = {gid: str(s.get(GameRow, gid).invite_token) for gid, _ in games}  # type: ignore[union-attr]
    for who, api in readers.items():
        (g1, _), (g2, _) = games
        # reading a game's messages marks them read, and the header's unread total counts both games: one
        # round of reading first, so that both compared rounds start from the same read marks
        for gid, other in ((g1, g2), (g2, g1)):
            fetch_all(api, app_client, gid, tokens[gid], votes[gid], 1, other)
        answers = [
            fetch_all(api, app_client, gid, tokens[gid], votes[gid], 1, other) for gid, other in ((g1, g2), (g2, g1))
        ]
        assert answers[0].keys() == answers[1].keys()
        assert len(answers[0]) >= 25
        for key in answers[0]:
            assert answers[0][key] == answers[1][key], (who, key)
            assert not any(name in answers[0][key] for name in SWAPPED), (who, key)
    # the master sees who plays what; once the game is over, everyone does
    gid, seats = games[0]
    roster = master.get(f"/api/games/{gid}").json()["roster"]["players"]
    assert {"power": "FRANCE", "user": "anon_alpha"} in roster
    assert master.post(f"/api/games/{gid}/master", {"action": "end"}).status_code == 200
    roster = observer.get(f"/api/games/{gid}").json()["roster"]["players"]
    assert {"power": "FRANCE", "user": "anon_alpha"} in roster


def test_an_anonymous_games_join_page_names_nobody(app_client: TestClient) -> None:
    host = Api(app_client, "anon_host")
    gid = host.post("/api/games", {**SETTINGS, "private": True}).json()["id"]
    token = host.get(f"/api/games/{gid}").json()["invitation"]["path"].rsplit("/", 1)[1]
    joiner = Api(app_client, "anon_joiner")
    assert joiner.post(f"/api/invitations/{token}/join", {"role": "player", "power": "ITALY"}).status_code == 200
    visitor = Api(app_client, "anon_visitor")
    page = visitor.get(f"/invite/{token}").text
    api = visitor.get(f"/api/invitations/{token}").json()
    assert "anon_joiner" not in page and "anon_joiner" not in str(api)
    assert api["roster"]["players"] == [{"power": None, "user": None}] and api["chosen"] == ["ITALY"]
