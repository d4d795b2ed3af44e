"""Notifications of calls for a replacement in any game: the opt-in kinds each user turned on

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("notify_on", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this migration."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notify_on")
