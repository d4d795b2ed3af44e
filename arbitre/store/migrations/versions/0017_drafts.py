"""Drafts: the orders a player has in its box, saved as they change and never adjudicated.

Revision ID: 0016_drafts
Revises: 0016_talk
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_drafts"
down_revision = "0016_talk"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "order_drafts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("power", sa.String(24), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("step", sa.String(24), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "power", name="uq_order_drafts_seat"),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("order_drafts")
