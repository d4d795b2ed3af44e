"""Talk: messages as conversations, with several recipients and read marks

A message had one recipient (a power, ``MASTER`` or ``*``).  Its ``recipient``
column now holds every recipient joined by commas, and the new ``parties``
column its conversation (``*`` for public press, else the sender and the
recipients sorted, each between commas).  Old messages are converted: their
conversation is their sender and their one recipient.  ``message_reads`` keeps,
per user and conversation, how many messages they have read.

Revision ID: 0016_talk
Revises: 0012_secrets
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_talk"
down_revision = "0012_secrets"
branch_labels = None
depends_on = None


def parties_of(sender: str, recipient: str) -> str:
    """The conversation column of an old message (one recipient)."""
    if recipient == "*":
        return "*"
    return "," + ",".join(sorted({sender, recipient})) + ","


def upgrade() -> None:
    """Widen ``recipient``, add and fill ``parties``, create ``message_reads``."""
    with op.batch_alter_table("messages") as batch:
        batch.alter_column("recipient", type_=sa.String(400), existing_type=sa.String(24), existing_nullable=False)
        batch.add_column(sa.Column("parties", sa.String(420), nullable=False, server_default=""))
    bind = op.get_bind()
    messages = sa.table(
        "messages",
        sa.column("id", sa.Integer),
        sa.column("sender", sa.String),
        sa.column("recipient", sa.String),
        sa.column("parties", sa.String),
    )
    rows = bind.execute(sa.select(messages.c.id, messages.c.sender, messages.c.recipient)).all()
    for mid, sender, recipient in rows:
        bind.execute(messages.update().where(messages.c.id == mid).values(parties=parties_of(sender, recipient)))
    op.create_table(
        "message_reads",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("conversation", sa.String(420), nullable=False),
        sa.Column("seen", sa.Integer(), nullable=False),
        sa.UniqueConstraint("game_id", "user_id", "conversation", name="uq_message_read"),
    )


def downgrade() -> None:
    """Drop the read marks and the conversations (group messages keep only their first recipient)."""
    op.drop_table("message_reads")
    bind = op.get_bind()
    messages = sa.table("messages", sa.column("id", sa.Integer), sa.column("recipient", sa.String))
    for mid, recipient in bind.execute(sa.select(messages.c.id, messages.c.recipient)).all():
        if "," in recipient:
            bind.execute(messages.update().where(messages.c.id == mid).values(recipient=recipient.split(",")[0]))
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("parties")
        batch.alter_column("recipient", type_=sa.String(24), existing_type=sa.String(400), existing_nullable=False)
