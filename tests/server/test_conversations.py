"""Messages as conversations: several recipients, conversations by parties, public press, unread counts.

A group message reaches its parties (and the master) and no one else; the old one-recipient form still
works; hostile recipient lists get a clear error and store nothing; and a pair test shows that what a
reader gets (messages, conversations, unread counts, ids, order, page, event stream) does not change when
only other players' private press changes.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app
from arbitre.server.site import Site
from tests.server.browser import live_server
from tests.server.conftest import POWERS, Api, start_game
from tests.server.sse import StreamReader
from tests.server.twins import twin_site

pytestmark = pytest.mark.usefixtures("quick_hashes")


def _send(api: Api, gid: int, to: Any, body: str) -> Any:
    return api.post(f"/api/games/{gid}/messages", {"to": to, "body": body})


def _conversations(api: Api, gid: int) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in api.get(f"/api/games/{gid}/messages").json()["conversations"]}


def test_a_group_message_is_one_conversation_of_its_three_parties_and_nobody_elses(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client, press="full")
    r = _send(players["FRANCE"], gid, ["ENGLAND", "GERMANY"], "A triple alliance?")
    assert r.status_code == 201, r.text
    key = "ENGLAND,FRANCE,GERMANY"
    for p in ("FRANCE", "ENGLAND", "GERMANY"):
        answer = players[p].get(f"/api/games/{gid}/messages").json()
        [msg] = answer["messages"]
        assert (msg["from"], msg["to"], msg["conversation"]) == ("FRANCE", ["ENGLAND", "GERMANY"], key)
        [conv] = [c for c in answer["conversations"] if c["id"] == key]
        assert conv["parties"] == ["ENGLAND", "FRANCE", "GERMANY"] and conv["count"] == 1
        assert conv["with"] == [x for x in ("ENGLAND", "FRANCE", "GERMANY") if x != p]
        assert conv["unread"] == (0 if p == "FRANCE" else 1)  # the writer has read their own words
        # the conversation alone
        only = players[p].get(f"/api/games/{gid}/messages?conversation={key}").json()["messages"]
        assert [m["body"] for m in only] == ["A triple alliance?"]
    # a fourth power: nothing, not even the conversation
    italy = players["ITALY"].get(f"/api/games/{gid}/messages").json()
    assert italy["messages"] == [] and key not in {c["id"] for c in italy["conversations"]}
    assert "triple" not in players["ITALY"].get(f"/games/{gid}/messages").text
    # the master reads every message
    assert key in _conversations(master, gid)
    # a reply to the same two is the same conversation; the page groups it there
    assert _send(players["GERMANY"], gid, ["FRANCE", "ENGLAND"], "Agreed").status_code == 201
    conv = _conversations(players["ENGLAND"], gid)[key]
    assert conv["count"] == 2 and conv["unread"] == 2
    page = players["ENGLAND"].get(f"/games/{gid}/messages?c={key}").text
    assert "A triple alliance?" in page and "Agreed" in page and "France, Germany" in page
    assert _conversations(players["ENGLAND"], gid)[key]["unread"] == 0  # the page marked it read
    # the names of powers, never their codes, in the page's list of recipients
    assert "FRANCE, GERMANY" not in page and "→ GERMANY" not in page


def test_public_press_is_its_own_thread_and_the_master_is_not_ticked(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client, press="full")
    assert _send(players["FRANCE"], gid, "*", "Hello all").status_code == 201  # the old one-name form
    assert _send(players["FRANCE"], gid, "ENGLAND", "psst").status_code == 201
    for p in POWERS:
        convs = players[p].get(f"/api/games/{gid}/messages").json()["conversations"]
        assert convs[0]["id"] == "*" and convs[0]["count"] == 1  # public press first, for everyone
    public = players["ITALY"].get(f"/api/games/{gid}/messages?conversation=*").json()["messages"]
    assert [(m["body"], m["to"]) for m in public] == [("Hello all", ["*"])]
    page = players["ITALY"].get(f"/games/{gid}/messages").text
    assert 'id="conversations"' in page and "Public press" in page
    assert not re.search(r'<input type="checkbox" name="to" value="MASTER"[^>]*checked', page)
    assert not re.search(r"<input[^>]*checked", page)  # nothing ticked by default


def header_unread(api: Api, path: str = "/") -> int:
    """The total of unread messages in the header of ``api``'s page at ``path``."""
    m = re.search(r'id="messages-unread" data-unread="(\d+)"', api.get(path).text)
    assert m, path
    return int(m.group(1))


def test_unread_counts_and_marking_a_conversation_read(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client, press="full")
    england = players["ENGLAND"]
    assert header_unread(england) == 0
    for n in range(3):
        assert _send(players["FRANCE"], gid, ["ENGLAND"], f"m{n}").status_code == 201
    assert _conversations(england, gid)["ENGLAND,FRANCE"]["unread"] == 3
    assert header_unread(england) == 3 and header_unread(england, f"/games/{gid}") == 3
    assert header_unread(players["FRANCE"]) == 0  # its own words
    r = england.post(f"/api/games/{gid}/messages/read", {"conversation": "ENGLAND,FRANCE"})
    assert r.status_code == 200, r.text
    assert _conversations(england, gid)["ENGLAND,FRANCE"]["unread"] == 0
    assert header_unread(england) == 0
    assert _send(players["FRANCE"], gid, ["ENGLAND"], "again").status_code == 201
    assert _conversations(england, gid)["ENGLAND,FRANCE"]["unread"] == 1
    # the header counts every game of the reader: public press of a second game adds one
    other, _m, others = start_game(app_client, press="full")
    assert england.post(f"/api/games/{other}/join", {"role": "observer"}).status_code == 200
    assert _send(others["ITALY"], other, "*", "hello all").status_code == 201
    assert _send(others["ITALY"], other, ["FRANCE"], "not for observers").status_code == 201
    assert header_unread(england) == 2
    # a conversation England is not in is "not found", whether or not it exists
    assert _send(players["FRANCE"], gid, ["GERMANY"], "secret").status_code == 201
    for key in ("FRANCE,GERMANY", "FRANCE,ITALY"):
        r = england.post(f"/api/games/{gid}/messages/read", {"conversation": key})
        assert r.status_code == 404 and r.json()["error"]["message"] == f"conversation {key} does not exist"


@pytest.mark.parametrize(
    ("to", "where", "words"),
    [
        ([], "to", "at least one recipient"),
        (["ENGLAND", "ENGLAND"], "to[1]", "named twice"),
        (["ENGLAND", "NARNIA"], "to[1]", "not a power of this game"),
        (["FRANCE"], "to[0]", "yourself"),
        (["*", "ENGLAND"], "to", "public message"),
        (["ENGLAND"] * 41, "to", "at most 40 recipients"),
        ("NARNIA", "to[0]", "not a power of this game"),
    ],
)
def test_hostile_recipient_lists_get_a_clear_error_and_store_nothing(
    app_client: TestClient, to: Any, where: str, words: str
) -> None:
    gid, _master, players = start_game(app_client, press="full")
    r = _send(players["FRANCE"], gid, to, "hello")
    assert r.status_code == 400, r.text
    problem = r.json()["error"]
    assert problem["where"] == where and words in problem["message"], problem
    assert players["FRANCE"].get(f"/api/games/{gid}/messages").json()["messages"] == []


def test_press_settings_still_hold_for_each_recipient(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client, press="public")
    r = _send(players["FRANCE"], gid, ["MASTER", "GERMANY"], "deal?")
    error = r.json()["error"]
    assert r.status_code == 400 and error["where"] == "to[1]" and "press settings" in error["message"], error
    assert _send(players["FRANCE"], gid, ["MASTER"], "to the master").status_code == 201


# --------------------------------------------------------------------------- pair test
def _scrub(text: str) -> str:
    text = re.sub(r'name="csrf" value="[0-9a-f]+"', 'name="csrf"', text)
    return re.sub(r'data-csrf="[0-9a-f]+"', "data-csrf", text)


def _play(site: Site, hidden: bool) -> dict[str, str]:
    """One game where England writes and reads; with ``hidden``, others' private and group press too."""
    with TestClient(create_app(site=site)) as client, live_server(site) as url, contextlib.ExitStack() as stack:
        master = Api(client, "conv_gm")
        players = {p: Api(client, f"conv_{p.lower()}") for p in POWERS}
        gid = master.post("/api/games", {"name": "Talk", "assignment": "choice", "press": "full"}).json()["id"]
        for p, api in players.items():
            assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        england = players["ENGLAND"]
        stream = StreamReader(f"{url}/api/games/{gid}/events", england.headers)
        stack.callback(stream.close)
        stream.wait_for("hello")
        say = [
            ("FRANCE", ["ENGLAND", "GERMANY"], "group one", True),
            ("GERMANY", ["FRANCE", "ITALY"], "not for England", False),
            ("ITALY", ["RUSSIA"], "also hidden", False),
            ("GERMANY", ["ENGLAND", "FRANCE"], "group two", True),
            ("FRANCE", ["ITALY", "GERMANY"], "hidden again", False),
            ("TURKEY", "*", "public", True),
            ("ENGLAND", ["FRANCE"], "pair", True),
        ]
        for who, to, body, seen in say:
            if seen or hidden:
                assert _send(players[who], gid, to, body).status_code == 201
            if seen:
                stream.wait_for("message", body=body)
        out = {"stream": stream.text()}
        home = england.get("/")  # the header's total of unread messages: group one, group two, public
        assert 'data-unread="3"' in home.text
        out["/"] = f"{home.status_code} {_scrub(home.text)}"
        assert england.post(f"/api/games/{gid}/messages/read", {"conversation": "*"}).status_code == 200
        for path in (
            f"/api/games/{gid}/messages",
            f"/api/games/{gid}/messages?conversation=ENGLAND,FRANCE,GERMANY",
            f"/games/{gid}/messages",
            f"/api/games/{gid}/messages",  # after the page marked everything read
            f"/games/{gid}/messages?c=ENGLAND,FRANCE",
            f"/api/games/{gid}",
        ):
            r = england.get(path)
            out[path + str(len(out))] = f"{r.status_code} {_scrub(r.text)}"
        return out


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_englands_conversations_do_not_depend_on_others_private_press(backend: str, tmp_path: Path) -> None:
    outputs = []
    for hidden in (False, True):
        with twin_site(backend, tmp_path, f"conv{int(hidden)}") as site:
            outputs.append(_play(site, hidden))
    plain, secret = outputs
    moved = [k for k in plain if plain[k] != secret[k]]
    assert not moved, moved
    everything = "".join(secret.values())
    assert "not for England" not in everything and "also hidden" not in everything and "hidden again" not in everything
    # England's conversations: public first, then the most recent
    first = next(v for k, v in plain.items() if k.startswith("/api/games/1/messages"))
    assert re.findall(r'"id":"([^"]+)"', first) == ["*", "ENGLAND,FRANCE", "ENGLAND,FRANCE,GERMANY"]


def test_a_sandbox_is_named_in_its_makers_language_with_names_not_codes(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client, press="full")
    assert players["FRANCE"].put("/api/me", {"lang": "fr"}).status_code == 200
    r = players["FRANCE"].post(f"/api/games/{gid}/sandboxes", {})
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Test — Printemps 1901, mouvements (vue de France)"
    r = players["ENGLAND"].post(f"/api/games/{gid}/sandboxes", {})
    assert r.json()["name"] == "Test — Spring 1901, movement (England's view)"
    page = players["ENGLAND"].get(f"/sandboxes/{r.json()['id']}").text
    assert "ENGLAND's view" not in page and "S1901M</span>" not in page
