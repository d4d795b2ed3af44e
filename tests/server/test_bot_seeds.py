"""Bot seats get random secret seeds: nobody can compute a bot's orders before the deadline.

The house bot is deterministic for its seed (so that a game can be replayed); the seed used to be the
game id × 100 + the power's index, so an opponent ran ``arbitre bot --seed 402`` on its own view and
knew the bot's orders.  Two servers alike in everything (:mod:`tests.server.twins`) seat bots in the same
game: their seeds differ, none is the old formula, the worker plays with the stored seed, and no answer
to the human opponent shows it.  The migration gives the seats that already exist random seeds too
(and numbers the votes per game and the notifications per recipient, see ``test_id_pairs``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from arbitre.life.botworker import bot_orders
from arbitre.server import worker
from arbitre.server.app import create_app
from arbitre.store import migrate, open_database
from arbitre.store.botseats import bot_seats
from arbitre.store.migrate import alembic_config
from arbitre.store.models import BotSeat, GameRow
from tests.server.conftest import POWERS
from tests.server.test_bots_server import BOTS, bot_game
from tests.server.twins import twin_site

pytestmark = pytest.mark.usefixtures("quick_hashes")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_alike_servers_give_their_bot_seats_different_secret_seeds(backend: str, tmp_path: Path) -> None:
    seeds: list[dict[str, int]] = []
    for n in (0, 1):
        with twin_site(backend, tmp_path, f"bots{n}") as site, TestClient(create_app(site=site)) as client:
            gid, master, france = bot_game(client, BOTS)
            assert france is not None
            with site.db.reading() as s:
                row = s.get(GameRow, gid)
                assert row is not None
                game = site.referee.game(s, row)
                seats = bot_seats(s, gid)
                seeds.append({p: seat.seed for p, seat in seats.items()})
                expected = {p: bot_orders(game, seat) for p, seat in seats.items()}
            assert worker.tick(site) == len(BOTS)
            given = master.get(f"/api/games/{gid}").json()["all_orders"]
            assert {p: given[p]["lines"] for p in BOTS} == expected  # the worker plays with the stored seed
            shown = "".join(
                france.get(path).text
                for path in (f"/api/games/{gid}", f"/api/games/{gid}/bots", f"/games/{gid}", f"/api/games/{gid}/orders")
            )
            for power, seed in seeds[-1].items():
                assert seed != gid * 100 + POWERS.index(power)  # the old, public formula
                assert 0 <= seed < 2**63
            for seed in seeds[-1].values():
                assert str(seed) not in shown
    a, b = seeds
    assert a.keys() == b.keys() == set(BOTS)
    assert all(a[p] != b[p] for p in BOTS), (a, b)
    assert len(set(a.values())) == len(BOTS)


def test_the_migration_gives_existing_seats_random_seeds_and_numbers_votes_and_notifications(db_url: str) -> None:
    db = open_database(db_url)
    try:
        script = ScriptDirectory.from_config(alembic_config(db))
        before = script.get_revision("0012_secrets").down_revision  # the schema just before this migration
        assert isinstance(before, str)
        migrate(db, before)
        now = datetime(2030, 1, 1, tzinfo=UTC).replace(tzinfo=None)
        with db.engine.begin() as conn:
            for uid in (1, 2):
                conn.execute(
                    text(
                        "INSERT INTO users (id, name, password_hash, lang, created_at, notify_off, revision) "
                        "VALUES (:id, :name, 'x', 'en', :at, '[]', 0)"
                    ),
                    {"id": uid, "name": f"u{uid}", "at": now},
                )
            for gid in (1, 2):
                conn.execute(
                    text(
                        "INSERT INTO games (id, name, map_name, rules, options, press, assignment, deadlines, status, "
                        "phase, step, data, result, version, created_at) VALUES (:id, 'g', 'standard', '[]', '{}', "
                        "'full', 'random', '{}', 'active', 'S1901M', 'orders', '{}', '', 0, :at)"
                    ),
                    {"id": gid, "at": now},
                )
                conn.execute(
                    text(
                        "INSERT INTO bot_seats (game_id, power, kind, seed, reason, since, acted) "
                        "VALUES (:g, 'FRANCE', 'house', :seed, 'master', 'S1901M', '')"
                    ),
                    {"g": gid, "seed": gid * 100 + 2},
                )
            for vid, gid in ((1, 1), (2, 2), (3, 1)):
                conn.execute(
                    text(
                        "INSERT INTO votes (id, game_id, kind, powers, proposer, phase, step_key, status, "
                        "decided_by, created_at) VALUES (:id, :g, 'draw', '[]', 'FRANCE', 'S1901M', 'S1901M/orders', "
                        "'open', '', :at)"
                    ),
                    {"id": vid, "g": gid, "at": now},
                )
            for nid, uid, kind, data in (
                (1, 1, "phase", {}),
                (2, 2, "vote_opened", {"id": 2, "vote": "draw"}),
                (3, 1, "vote_opened", {"id": 3, "vote": "draw"}),
            ):
                conn.execute(
                    text(
                        "INSERT INTO notifications (id, user_id, kind, game_id, data, dedupe, created_at, in_site) "
                        "VALUES (:id, :u, :k, 1, :d, :dd, :at, :site)"
                    ),
                    {"id": nid, "u": uid, "k": kind, "d": json.dumps(data), "dd": f"k{nid}", "at": now, "site": True},
                )
        migrate(db)
        with db.reading() as s:
            seeds = {seat.game_id: seat.seed for seat in s.scalars(select(BotSeat))}
            votes = dict(s.execute(text("SELECT id, number FROM votes")).all())
            notes = {i: (n, d) for i, n, d in s.execute(text("SELECT id, number, data FROM notifications")).all()}
    finally:
        db.dispose()
    assert seeds[1] != 102 and seeds[2] != 202 and seeds[1] != seeds[2]
    assert all(0 <= seed < 2**63 for seed in seeds.values())
    assert votes == {1: 1, 2: 1, 3: 2}  # numbered in their games
    assert {i: n for i, (n, _) in notes.items()} == {1: 1, 2: 1, 3: 2}  # numbered per recipient
    data = {i: d if isinstance(d, dict) else json.loads(d) for i, (_, d) in notes.items()}
    assert data[2]["id"] == 1 and data[3]["id"] == 2  # vote notifications name the vote's number in its game
