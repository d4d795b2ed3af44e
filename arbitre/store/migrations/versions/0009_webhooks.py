"""The webhook channel of notifications: each user's webhook URL and signing secret

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("webhook_url", sa.String(500), nullable=True))
        batch.add_column(sa.Column("webhook_secret", sa.String(64), nullable=True))


def downgrade() -> None:
    """Undo this migration."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("webhook_secret")
        batch.drop_column("webhook_url")
