"""notifications: the outbox and its deliveries; e-mail, time zone and notification settings of accounts

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
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch.add_column(sa.Column("time_zone", sa.String(length=64), nullable=False, server_default="UTC"))
        batch.add_column(sa.Column("remind_minutes", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("notify_off", sa.JSON(), nullable=False, server_default="[]"))
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("dedupe", sa.String(length=160), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("in_site", sa.Boolean(), nullable=False),
        sa.Column("read_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "dedupe", name="uq_notification_dedupe"),
    )
    op.create_index("ix_notifications_user", "notifications", ["user_id", "id"])
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("notification_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["notification_id"], ["notifications.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("notification_id", "channel", name="uq_delivery_channel"),
    )
    op.create_index("ix_deliveries_notification_id", "deliveries", ["notification_id"])
    op.create_index("ix_deliveries_due", "deliveries", ["state", "lease_until"])


def downgrade() -> None:
    """Undo this migration."""
    op.drop_table("deliveries")
    op.drop_table("notifications")
    with op.batch_alter_table("users") as batch:
        for name in ("notify_off", "remind_minutes", "time_zone", "email"):
            batch.drop_column(name)
