"""Each audience's MILA timeline stored with each played phase: the ``mila_steps`` table, filled for every game.

A MILA read (synchronize, phase history) needs where the reader's timeline stands — its count of MILA phases
and MILA's influence — after some record; that is a fold over the game's records as that reader sees them,
which each new process used to do once per game and reader.  The referee now stores it with each record, per
audience (master, observer, each power of the map), from that audience's own view of the record
(:mod:`arbitre.life.milasteps`).  This migration folds every existing game's records once, each audience through
its own allow-list view, as the referee would have written them.

Revision ID: 0019_milastore
Revises: 0018_records
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_milastore"
down_revision = "0018_records"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "mila_steps",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("viewer", sa.String(24), primary_key=True),
        sa.Column("played", sa.Integer(), primary_key=True),
        sa.Column("visible", sa.Integer(), nullable=False),
        sa.Column("influence", sa.JSON(), nullable=False),
    )
    op.create_index("ix_mila_steps_visible", "mila_steps", ["game_id", "viewer", "visible"])
    fill(op.get_bind())


def fill(conn: sa.Connection) -> None:
    """Store every audience's step after every played phase of every game."""
    # the engine is imported here only: the store imports none of it otherwise (an import-linter contract)
    from arbitre.interface.mila.influence import advance_all, audiences, influence_data, start
    from arbitre.judge import Game
    from arbitre.judge.game import record_from_data

    games = sa.table("games", sa.column("id", sa.Integer), sa.column("data", sa.JSON))
    records = sa.table(
        "game_records", sa.column("game_id", sa.Integer), sa.column("played", sa.Integer), sa.column("data", sa.JSON)
    )
    steps = sa.table(
        "mila_steps",
        sa.column("game_id", sa.Integer),
        sa.column("viewer", sa.String),
        sa.column("played", sa.Integer),
        sa.column("visible", sa.Integer),
        sa.column("influence", sa.JSON),
    )
    played_games = sa.select(records.c.game_id).where(records.c.played.is_not(None)).distinct()
    for gid, data in conn.execute(
        sa.select(games.c.id, games.c.data).where(games.c.id.in_(played_games)).order_by(games.c.id)
    ).all():
        rules = Game.from_data(data).rules
        known = {v: start(rules.game_map) for v in audiences(rules.game_map)}
        rows = conn.execute(
            sa.select(records.c.played, records.c.data)
            .where(records.c.game_id == gid, records.c.played.is_not(None))
            .order_by(records.c.played)
        ).all()
        out: list[dict[str, object]] = []
        for index, record in rows:
            known = advance_all(rules, known, record_from_data(rules, record))
            out.extend(
                {
                    "game_id": gid,
                    "viewer": v,
                    "played": index,
                    "visible": k.visible,
                    "influence": influence_data(k.influence),
                }
                for v, k in known.items()
            )
        if out:
            conn.execute(steps.insert(), out)


def downgrade() -> None:
    """Revert this migration."""
    op.drop_index("ix_mila_steps_visible", "mila_steps")
    op.drop_table("mila_steps")
