"""Phases as records: one row per closed step, the game row keeps only the phase being played

Every game stored as one JSON document (``arbitre-game/1``: each played phase's position and orders as
typed, read back by adjudicating every phase again) is replayed once here: each played phase becomes one
``game_records`` row (the position before and after with every rule module's extras, the orders in normal
form, the results, the events with their audiences, what the lock revealed), checked against what the
document stored (each phase's results, and the position it led to); the game row keeps the current phase
(``arbitre-game/2`` without history) and how many phases were played.  The open step's orders are put in
normal form.

Revision ID: 0014_records
Revises: 0013_members
Create Date: 2026-11-27
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0014_records"
down_revision = "0013_members"
branch_labels = None
depends_on = None


class ReplayMismatch(RuntimeError):
    """A stored game that does not replay to what it stored: the upgrade stops rather than rewrite it."""


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "game_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("step", sa.String(length=24), nullable=False),
        sa.Column("played", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "phase", "step", name="uq_record_step"),
        sa.UniqueConstraint("game_id", "played", name="uq_record_played"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("played", sa.Integer(), nullable=False, server_default="0"))
    convert(op.get_bind())
    convert_sandboxes(op.get_bind())


def convert_sandboxes(conn: sa.Connection) -> None:
    """Sandboxes keep whole games (history included): each of the first format is written in the second, its
    phases as records (one that does not replay stays as it is: it is still read by replaying it)."""
    from arbitre.judge.game import FORMAT, replay

    boxes = sa.table("sandboxes", sa.column("id", sa.Integer), sa.column("data", sa.JSON))
    for bid, data in conn.execute(sa.select(boxes.c.id, boxes.c.data).order_by(boxes.c.id)).all():
        if not isinstance(data, dict) or data.get("format") == FORMAT:
            continue
        try:
            game = replay(data)
        except Exception:  # a scratch board that no longer reads is left as it was
            continue
        conn.execute(boxes.update().where(boxes.c.id == bid).values(data=game.to_data()))


def downgrade() -> None:
    """Revert this migration: each game is one document again (``arbitre-game/1``, orders in normal form)."""
    from arbitre.judge import Game
    from arbitre.judge.codec import position_to_data
    from arbitre.judge.game import record_from_data

    conn = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("data", sa.JSON))
    records = sa.table(
        "game_records", sa.column("game_id", sa.Integer), sa.column("played", sa.Integer), sa.column("data", sa.JSON)
    )
    for gid, data in conn.execute(sa.select(games.c.id, games.c.data)).all():
        game = Game.from_data(data)
        rows = conn.execute(
            sa.select(records.c.data)
            .where(records.c.game_id == gid, records.c.played.is_not(None))
            .order_by(records.c.played)
        )
        history = [record_from_data(game.rules, r[0]) for r in rows]
        gmap = game.rules.game_map
        old: dict[str, Any] = {
            **{k: v for k, v in data.items() if k not in ("played", "lock_events")},
            "format": "arbitre-game/1",
            "position": position_to_data(game.position, gmap),
            "history": [
                {
                    "position": position_to_data(rec.position, gmap),
                    "orders": rec.orders,
                    **({"changes": rec.changes} if rec.changes else {}),
                    "results": [
                        {"power": r.power, "order": r.order_text, "outcome": r.outcome, "reason": r.reason}
                        for r in rec.results
                    ],
                }
                for rec in history
            ],
        }
        conn.execute(games.update().where(games.c.id == gid).values(data=old))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("played")
    op.drop_table("game_records")


def convert(conn: sa.Connection) -> None:
    """Turn every game document of the first format into records and the current phase."""
    from arbitre.judge.game import FORMAT, record_to_data, replay
    from arbitre.judge.progress import normal_form
    from arbitre.judge.steps import Accepts

    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("data", sa.JSON),
        sa.column("played", sa.Integer),
        sa.column("phase", sa.String),
        sa.column("step", sa.String),
    )
    records = sa.table(
        "game_records",
        sa.column("game_id", sa.Integer),
        sa.column("phase", sa.String),
        sa.column("step", sa.String),
        sa.column("played", sa.Integer),
        sa.column("data", sa.JSON),
    )
    orders = sa.table(
        "orders",
        sa.column("id", sa.Integer),
        sa.column("game_id", sa.Integer),
        sa.column("phase", sa.String),
        sa.column("step", sa.String),
        sa.column("lines", sa.JSON),
    )
    for gid, data, phase, step in conn.execute(
        sa.select(games.c.id, games.c.data, games.c.phase, games.c.step).order_by(games.c.id)
    ).all():
        if not isinstance(data, dict) or data.get("format") == FORMAT:
            continue
        game = replay(data)
        check(gid, data, game)
        for i, rec in enumerate(game.history):
            record = record_to_data(rec)
            closed = _last_step(game, rec)
            conn.execute(
                records.insert().values(game_id=gid, phase=record["phase"], step=closed, played=i, data=record)
            )
        conn.execute(games.update().where(games.c.id == gid).values(data=game.state_data(), played=len(game.history)))
        accepts = game.current_step.accepts
        for oid, lines in conn.execute(
            sa.select(orders.c.id, orders.c.lines).where(
                orders.c.game_id == gid, orders.c.phase == phase, orders.c.step == step
            )
        ).all():
            normal = [normal_form(game.rules, line) for line in lines or [] if line.strip()]
            if accepts == Accepts.ONE_CHANGE:
                normal = normal[:1] + [line.strip() for line in (lines or [])[1:] if line.strip()]
            conn.execute(orders.update().where(orders.c.id == oid).values(lines=normal))


def _last_step(game: Any, record: Any) -> str:
    """The name of the step that adjudicated a played phase (the last step its rule modules declare)."""
    from arbitre.judge.steps import phase_steps

    return str(phase_steps(game.rules, record.position)[-1].name)


def check(gid: int, data: dict[str, Any], game: Any) -> None:
    """The replayed game is the stored one: each phase's results, and the position each phase led to."""
    from arbitre.judge.codec import position_to_data

    gmap = game.rules.game_map
    stored = data.get("history", [])
    if len(stored) != len(game.history):
        raise ReplayMismatch(f"game {gid}: {len(stored)} phases stored, {len(game.history)} replayed")
    nexts = [rec.get("position") for rec in stored[1:]] + [data.get("position")]
    for i, (saved, rec) in enumerate(zip(stored, game.history, strict=True)):
        want = [(r["power"], r["order"], r["outcome"], r.get("reason")) for r in saved.get("results", [])]
        got = [(r.power, r.order_text, r.outcome, r.reason) for r in rec.results]
        if want and sorted(want, key=repr) != sorted(got, key=repr):
            raise ReplayMismatch(f"game {gid}, phase {i} ({rec.position.phase}): the results replay differently")
        after = position_to_data(rec.outcome.after, gmap)
        following = nexts[i]
        if following is not None and _board(after) != _board(following):
            raise ReplayMismatch(f"game {gid}, phase {i} ({rec.position.phase}): it led to another position")


def _board(position: dict[str, Any]) -> tuple[Any, ...]:
    """What a phase leads to, as stored: the phase, the units and the owners (before any adjustment)."""
    return (position.get("phase"), position.get("units"), position.get("supply_centers"))
