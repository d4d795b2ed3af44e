"""games.show_progress: does everyone see who has given orders and who is ready

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("show_progress", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    """Undo this migration."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("show_progress")
