"""Throttle counters shared by every server process (login, join-code and take-over limits)

Revision ID: 0012_logins
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_logins"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "throttle_counts",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("bucket", sa.BigInteger(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("prev", sa.Integer(), nullable=False),
        sa.Column("until", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_throttle_counts_until", "throttle_counts", ["until"])


def downgrade() -> None:
    """Revert this migration."""
    op.drop_index("ix_throttle_counts_until", table_name="throttle_counts")
    op.drop_table("throttle_counts")
