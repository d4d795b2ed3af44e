"""Phases as records: loading a game adjudicates nothing, history is in normal form and reads the same
across a restart and across a change of a rule option's default."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import arbitre.judge.game
import arbitre.judge.progress
from arbitre.judge import Game
from arbitre.rules.options import MultipleOrders, RuleOptions
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings
from arbitre.store.models import GameRecord
from tests.server.conftest import Api, start_game

pytestmark = pytest.mark.usefixtures("quick_hashes")


def _play(master: Api, players: dict[str, Api], gid: int, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        assert players[power].put(f"/api/games/{gid}/orders", {"orders": lines}).status_code == 200
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200


def _readings(client: TestClient, tokens: dict[str, str], gid: int) -> dict[str, str]:
    """Every history reader (API, pages, maps) and the current board, as each of ``tokens`` reads them."""
    out: dict[str, str] = {}
    for who, token in tokens.items():
        headers = {"Authorization": f"Bearer {token}"}
        count = len(client.get(f"/api/games/{gid}/history", headers=headers).json())
        paths = [f"/api/games/{gid}/history", f"/games/{gid}/history", f"/api/games/{gid}"]
        for i in range(count):
            paths += [f"/api/games/{gid}/history/{i}", f"/games/{gid}/history/{i}", f"/games/{gid}/history/{i}/map.svg"]
        for path in paths:
            r = client.get(path, headers=headers)
            assert r.status_code == 200, (path, r.text)
            out[f"{who} {path}"] = re.sub(r'name="csrf" value="[0-9a-f]+"', "", r.text)
    return out


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every adjudication the engine makes from now on (the phase adjudicated)."""
    made: list[str] = []
    for module in (arbitre.judge.progress, arbitre.judge.game):
        real = getattr(module, "adjudicate", None)
        if real is None:
            continue

        def counting(rules: Any, position: Any, orders: Any, _real: Any = real) -> Any:
            made.append(str(position.phase))
            return _real(rules, position, orders)

        monkeypatch.setattr(module, "adjudicate", counting)
    return made


@pytest.fixture
def played(db_url: str) -> tuple[str, int, dict[str, str]]:
    """A standard game with five played phases (orders typed in odd spellings), on a site then closed."""
    site = make_site(Settings(database_url=db_url, run_worker=False), ManualClock())
    with TestClient(create_app(site=site)) as client:
        gid, master, players = start_game(client)
        _play(master, players, gid, {"FRANCE": ["a par-bur", "A PAR - PIC", "f  bre -mao"], "GERMANY": ["a mun - ruh"]})
        _play(master, players, gid, {"FRANCE": ["A BUR - BEL", "F MAO - POR"], "GERMANY": ["A RUH - HOL"]})
        _play(master, players, gid, {"FRANCE": ["F BRE B"]})  # winter: France builds
        _play(master, players, gid, {"ENGLAND": ["F LON - NTH"]})
        _play(master, players, gid, {"ENGLAND": ["F NTH - NWY"]})
        tokens = {"master": master.token, "FRANCE": players["FRANCE"].token, "GERMANY": players["GERMANY"].token}
        observer = Api(client, "watcher")
        assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
        tokens["observer"] = observer.token
    site.db.dispose()
    return db_url, gid, tokens


def _reopened(db_url: str) -> Any:
    return make_site(Settings(database_url=db_url, run_worker=False), ManualClock())


def test_loading_a_game_adjudicates_nothing(played: tuple[str, int, dict[str, str]], counted: list[str]) -> None:
    db_url, gid, tokens = played
    site = _reopened(db_url)  # a restart: nothing cached
    try:
        with TestClient(create_app(site=site)) as client:
            readings = _readings(client, tokens, gid)
            assert readings and counted == []  # pages, API, maps of five played phases: no adjudication
            with site.db.reading() as session:
                records = session.scalars(select(GameRecord).where(GameRecord.game_id == gid)).all()
            assert [r.played for r in records] == [0, 1, 2, 3, 4]
    finally:
        site.db.dispose()


def test_history_shows_orders_in_normal_form(played: tuple[str, int, dict[str, str]]) -> None:
    db_url, gid, tokens = played
    site = _reopened(db_url)
    try:
        with TestClient(create_app(site=site)) as client:
            headers = {"Authorization": f"Bearer {tokens['master']}"}
            view = client.get(f"/api/games/{gid}/history/0", headers=headers).json()["view"]
            texts = {o["text"] for o in view["orders"] if o["power"] in ("FRANCE", "GERMANY")}
            assert {"A PAR - BUR", "A PAR - PIC", "F BRE - MAO", "A MUN - RUH"} <= texts
            assert all(t == " ".join(t.upper().split()) for t in texts)
            page = client.get(f"/games/{gid}/history/0", headers=headers).text
            assert "A PAR - BUR" in page and "a par-bur" not in page
            with site.db.reading() as session:
                first = session.scalars(
                    select(GameRecord).where(GameRecord.game_id == gid, GameRecord.played == 0)
                ).one()
            assert first.data["orders"]["FRANCE"] == ["A PAR - BUR", "A PAR - PIC", "F BRE - MAO"]
    finally:
        site.db.dispose()


def test_the_open_step_keeps_orders_in_normal_form(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["a par-bur", " F brest - mid "]}).status_code
    mine = players["FRANCE"].get(f"/api/games/{gid}/orders").json()
    assert mine["lines"] == ["A PAR - BUR", "F BRE - MAO"]
    assert master.get(f"/api/games/{gid}").json()["all_orders"]["FRANCE"]["lines"] == ["A PAR - BUR", "F BRE - MAO"]


def test_history_reads_the_same_across_a_restart_and_a_new_default(
    played: tuple[str, int, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    db_url, gid, tokens = played
    site = _reopened(db_url)
    try:
        with TestClient(create_app(site=site)) as client:
            first = _readings(client, tokens, gid)
    finally:
        site.db.dispose()
    site = _reopened(db_url)
    try:
        with TestClient(create_app(site=site)) as client:
            assert _readings(client, tokens, gid) == first  # across a restart
    finally:
        site.db.dispose()

    # DATC 4.D.3's default changes: two orders to one unit now mean the last one counts.
    original = RuleOptions.from_mapping.__func__  # type: ignore[attr-defined]

    def last_counts(cls: type[RuleOptions], values: Any) -> RuleOptions:
        chosen = original(cls, values)
        return chosen if "multiple_orders" in values else replace(chosen, multiple_orders=MultipleOrders.LAST)

    monkeypatch.setattr(RuleOptions, "from_mapping", classmethod(last_counts))
    again = Game.new()  # the new default does change that phase: A PAR now goes to Picardy
    again.set_orders("FRANCE", ["A PAR - BUR", "A PAR - PIC"])
    again.advance()
    assert again.position.units["PIC"].power == "FRANCE"
    site = _reopened(db_url)
    try:
        with TestClient(create_app(site=site)) as client:
            assert _readings(client, tokens, gid) == first  # the played phases are what was played
    finally:
        site.db.dispose()
