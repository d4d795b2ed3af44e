"""What a lock revealed lives in the lock's record only: games in a step after a lock get that record.

Migration ``0014_records`` kept a game that stood in a step after a lock (Espionnite's reaction step) with
what the lock revealed inside the game row's state (``lock_events``) and no record of the lock.  Readers now
take what a lock revealed to whom from the lock's record (``game_records`` with no ``played`` index): each
such game gets the record of its lock (the step that locked is the phase's first, ``orders``; its orders as
locked are the state's pending orders) and the row's state loses its copy.

Revision ID: 0018_records
Revises: 0016_drafts
Create Date: 2026-11-27
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0018_records"
down_revision = "0016_drafts"
branch_labels = None
depends_on = None

LOCKED_STEP = "orders"
"""The step a lock closes: the phase's first (the one that takes the orders)."""

_games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("phase", sa.String),
    sa.column("step", sa.String),
    sa.column("data", sa.JSON),
)
_records = sa.table(
    "game_records",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("phase", sa.String),
    sa.column("step", sa.String),
    sa.column("played", sa.Integer),
    sa.column("data", sa.JSON),
)


def _lock_of(conn: sa.Connection, gid: int, phase: str) -> Any:
    return conn.execute(
        sa.select(_records.c.data)
        .where(_records.c.game_id == gid, _records.c.phase == phase, _records.c.played.is_(None))
        .order_by(_records.c.id.desc())
        .limit(1)
    ).scalar()


def upgrade() -> None:
    """Apply this migration."""
    conn = op.get_bind()
    for gid, phase, data in conn.execute(sa.select(_games.c.id, _games.c.phase, _games.c.data)).all():
        if not isinstance(data, dict) or "lock_events" not in data:
            continue
        if _lock_of(conn, gid, phase) is None:
            lock = {
                "phase": phase,
                "step": LOCKED_STEP,
                "orders": data.get("pending", {}),
                "lock_events": data["lock_events"],
            }
            conn.execute(_records.insert().values(game_id=gid, phase=phase, step=LOCKED_STEP, played=None, data=lock))
        kept = {k: v for k, v in data.items() if k != "lock_events"}
        conn.execute(_games.update().where(_games.c.id == gid).values(data=kept))


def downgrade() -> None:
    """Revert this migration: a game in a step after a lock keeps what the lock revealed in its state again."""
    conn = op.get_bind()
    for gid, phase, step, data in conn.execute(
        sa.select(_games.c.id, _games.c.phase, _games.c.step, _games.c.data)
    ).all():
        if not isinstance(data, dict) or step == LOCKED_STEP:
            continue
        lock = _lock_of(conn, gid, phase)
        if lock and lock.get("lock_events"):
            conn.execute(
                _games.update().where(_games.c.id == gid).values(data={**data, "lock_events": lock["lock_events"]})
            )
