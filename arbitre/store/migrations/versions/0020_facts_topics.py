"""Game topics: for each topic of a game's rows, the generation that last wrote it, keying each page fact by
what it reads (a change the reader may not see moves none of the reader's facts)

Revision ID: 0020_facts
Revises: 0019_milastore
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0020_facts"
down_revision = "0019_milastore"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("topics", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("topics")
