"""Lobby and votes: private games with an invitation link and join code, anonymous games, vote settings,
seat counts, players' ranked preferences, and the votes and ballots tables

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("invite_token", sa.String(64), nullable=True))
        batch.add_column(sa.Column("join_code", sa.String(40), nullable=False, server_default=""))
        batch.add_column(sa.Column("anonymous", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("vote_settings", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("seats", sa.Integer(), nullable=True))
        batch.create_unique_constraint("uq_games_invite_token", ["invite_token"])
    with op.batch_alter_table("memberships") as batch:
        batch.add_column(sa.Column("preferences", sa.JSON(), nullable=True))
    op.create_table(
        "votes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("powers", sa.JSON(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("proposer", sa.String(24), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("step_key", sa.String(48), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("decided_by", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_votes_game_id", "votes", ["game_id"])
    op.create_table(
        "ballots",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("vote_id", sa.Integer(), sa.ForeignKey("votes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("power", sa.String(24), nullable=False),
        sa.Column("choice", sa.String(8), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("vote_id", "power", name="uq_ballot_power"),
    )
    op.create_index("ix_ballots_vote_id", "ballots", ["vote_id"])


def downgrade() -> None:
    """Undo this migration."""
    op.drop_index("ix_ballots_vote_id", "ballots")
    op.drop_table("ballots")
    op.drop_index("ix_votes_game_id", "votes")
    op.drop_table("votes")
    with op.batch_alter_table("memberships") as batch:
        batch.drop_column("preferences")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_invite_token", type_="unique")
        for name in ("seats", "vote_settings", "anonymous", "join_code", "invite_token", "private"):
            batch.drop_column(name)
