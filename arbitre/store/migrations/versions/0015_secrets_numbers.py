"""Secrets: random secret bot seeds; votes numbered per game and notifications per recipient

A bot seat's seed was the game id × 100 + the power's index: anyone could compute
the bot's orders.  Every seat gets a random 63-bit seed (never shown).  Votes and
notifications were shown by their row ids, which count every game's votes and
every user's notifications: a vote is now shown by its number in its game, a
notification by its number among its recipient's notifications.  The vote
notifications' data named the vote's row id: it names its number in the game now.

Revision ID: 0012_secrets
Revises: 0014_records
Create Date: 2026-11-27
"""

from __future__ import annotations

import secrets
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0012_secrets"
down_revision = "0014_records"
branch_labels = None
depends_on = None

SEED_BITS = 63
"""A seed fits a signed 64-bit column."""


def _number(table: str, owner: str) -> dict[int, int]:
    """Row id → its number among the rows of the same ``owner`` (1 for the oldest), written into ``number``."""
    bind = op.get_bind()
    rows = bind.execute(sa.text(f"SELECT id, {owner} FROM {table} ORDER BY {owner}, id")).all()
    counts: dict[Any, int] = {}
    numbers: dict[int, int] = {}
    for row_id, key in rows:
        counts[key] = counts.get(key, 0) + 1
        numbers[int(row_id)] = counts[key]
    for row_id, n in numbers.items():
        bind.execute(sa.text(f"UPDATE {table} SET number = :n WHERE id = :id"), {"n": n, "id": row_id})
    return numbers


def upgrade() -> None:
    """Apply this migration."""
    bind = op.get_bind()
    with op.batch_alter_table("bot_seats") as batch:
        batch.alter_column("seed", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)
    for (seat_id,) in bind.execute(sa.text("SELECT id FROM bot_seats")).all():
        bind.execute(
            sa.text("UPDATE bot_seats SET seed = :s WHERE id = :id"), {"s": secrets.randbits(SEED_BITS), "id": seat_id}
        )

    with op.batch_alter_table("votes") as batch:
        batch.add_column(sa.Column("number", sa.Integer(), nullable=False, server_default="0"))
    vote_numbers = _number("votes", "game_id")
    with op.batch_alter_table("votes") as batch:
        batch.create_unique_constraint("uq_vote_number", ["game_id", "number"])

    with op.batch_alter_table("notifications") as batch:
        batch.add_column(sa.Column("number", sa.Integer(), nullable=False, server_default="0"))
    _number("notifications", "user_id")
    with op.batch_alter_table("notifications") as batch:
        batch.create_unique_constraint("uq_notification_number", ["user_id", "number"])

    notes = sa.table("notifications", sa.column("id", sa.Integer()), sa.column("kind"), sa.column("data", sa.JSON()))
    for note_id, data in bind.execute(
        sa.select(notes.c.id, notes.c.data).where(notes.c.kind.in_(["vote_opened", "vote_decided"]))
    ).all():
        if isinstance(data, dict) and isinstance(data.get("id"), int) and data["id"] in vote_numbers:
            bind.execute(
                notes.update().where(notes.c.id == note_id).values(data={**data, "id": vote_numbers[data["id"]]})
            )


def downgrade() -> None:
    """Revert this migration (the vote notifications keep the numbers; the seeds stay random, on 31 bits)."""
    with op.batch_alter_table("notifications") as batch:
        batch.drop_constraint("uq_notification_number", type_="unique")
        batch.drop_column("number")
    with op.batch_alter_table("votes") as batch:
        batch.drop_constraint("uq_vote_number", type_="unique")
        batch.drop_column("number")
    bind = op.get_bind()
    for (seat_id,) in bind.execute(sa.text("SELECT id FROM bot_seats")).all():
        bind.execute(
            sa.text("UPDATE bot_seats SET seed = :s WHERE id = :id"), {"s": secrets.randbits(31), "id": seat_id}
        )
    with op.batch_alter_table("bot_seats") as batch:
        batch.alter_column("seed", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)
