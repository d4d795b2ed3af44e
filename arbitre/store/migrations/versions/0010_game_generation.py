"""Game generation: a counter every change to a game or its rows adds to, keying the page-facts cache

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("generation", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("generation")
