"""lateness: settings per game, missed deadlines, civil disorder, calls for a replacement; game length and scoring

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "lateness_settings",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("step_state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "missed_deadlines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("step", sa.String(length=24), nullable=False),
        sa.Column("power", sa.String(length=24), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("excused", sa.Boolean(), nullable=False),
        sa.Column("carded", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "phase", "step", "power", name="uq_missed_step_power"),
    )
    op.create_index(op.f("ix_missed_deadlines_game_id"), "missed_deadlines", ["game_id"], unique=False)
    op.create_index(op.f("ix_missed_deadlines_user_id"), "missed_deadlines", ["user_id"], unique=False)
    op.create_table(
        "civil_disorder",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=24), nullable=False),
        sa.Column("since", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "power"),
    )
    op.create_table(
        "replacement_calls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=24), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("taken_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["taken_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token"),
    )
    op.create_index(op.f("ix_replacement_calls_game_id"), "replacement_calls", ["game_id"], unique=False)
    op.create_table(
        "game_endings",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("scoring", sa.String(length=32), nullable=False),
        sa.Column("last_year", sa.Integer(), nullable=True),
        sa.Column("target_centers", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    """Undo this migration."""
    op.drop_table("game_endings")
    op.drop_table("replacement_calls")
    op.drop_table("civil_disorder")
    op.drop_table("missed_deadlines")
    op.drop_table("lateness_settings")
