"""Tournaments by consent: a tournament player's status (invited, joined, left).

The places made before this migration were enrolments nobody accepted: they become invitations
(``invited``), which their players accept or decline; a round seats only those who joined.

Revision ID: 0013_members
Revises: 0012_logins
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_members"
down_revision = "0012_logins"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("tournament_players") as batch:
        batch.add_column(sa.Column("status", sa.String(length=16), nullable=False, server_default="invited"))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("tournament_players") as batch:
        batch.drop_column("status")
