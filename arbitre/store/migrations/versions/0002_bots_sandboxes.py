"""bot seats, bot settings, missed steps, sandboxes

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "bot_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=24), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("since", sa.String(length=16), nullable=False),
        sa.Column("acted", sa.String(length=48), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "power", name="uq_bot_seat_power"),
    )
    op.create_index(op.f("ix_bot_seats_game_id"), "bot_seats", ["game_id"], unique=False)
    op.create_table(
        "bot_settings",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("votes", sa.String(length=16), nullable=False),
        sa.Column("after_missed", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "missed_steps",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=24), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "power"),
    )
    op.create_table(
        "sandboxes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("share_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("source_game_id", sa.Integer(), nullable=True),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("cursor", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("share_token"),
    )
    op.create_index(op.f("ix_sandboxes_owner_id"), "sandboxes", ["owner_id"], unique=False)


def downgrade() -> None:
    """Revert this migration."""
    op.drop_index(op.f("ix_sandboxes_owner_id"), table_name="sandboxes")
    op.drop_table("sandboxes")
    op.drop_table("missed_steps")
    op.drop_table("bot_settings")
    op.drop_index(op.f("ix_bot_seats_game_id"), table_name="bot_seats")
    op.drop_table("bot_seats")
