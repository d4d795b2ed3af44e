"""lateness: settings per game, missed deadlines, civil disorder, calls for a replacement; game length and
scoring; tournaments

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
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
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("director_id", sa.Integer(), nullable=False),
        sa.Column("map_name", sa.String(length=40), nullable=False),
        sa.Column("scoring", sa.String(length=32), nullable=False),
        sa.Column("lateness", sa.String(length=16), nullable=False),
        sa.Column("last_year", sa.Integer(), nullable=True),
        sa.Column("card_penalty", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["director_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_tournaments_director_id"), "tournaments", ["director_id"], unique=False)
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", name="uq_tournament_game"),
    )
    op.create_index(op.f("ix_tournament_games_tournament_id"), "tournament_games", ["tournament_id"], unique=False)


def downgrade() -> None:
    """Undo this migration."""
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
    op.drop_table("game_endings")
    op.drop_table("replacement_calls")
    op.drop_table("civil_disorder")
    op.drop_table("missed_deadlines")
    op.drop_table("lateness_settings")
