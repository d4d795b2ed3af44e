"""Sandboxes: a private copy of a position where one person gives orders for every power.

A sandbox is a game of the engine kept as JSON (``data``, from
:meth:`arbitre.judge.Game.to_data`) with a cursor on the phase being looked at
(``cursor`` = index in its history; the length of the history is the newest
position).  It is built from what its owner may see (see
:mod:`arbitre.server.sandbox`), so it never holds more than that.  Anyone with
its ``share_token`` may read it, never change it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.models import Base, UTCDateTime


class Sandbox(Base):
    """One sandbox (see the module)."""

    __tablename__ = "sandboxes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    share_token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(120), default="")
    source_game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    parent_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, object]] = mapped_column(JSON)
    cursor: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


def add_sandbox(
    session: Session,
    owner_id: int,
    token: str,
    name: str,
    data: dict[str, object],
    cursor: int,
    now: datetime,
    source_game_id: int | None = None,
    parent_id: int | None = None,
) -> Sandbox:
    """Store a new sandbox."""
    box = Sandbox(
        owner_id=owner_id,
        share_token=token,
        name=name[:120],
        source_game_id=source_game_id,
        parent_id=parent_id,
        data=data,
        cursor=cursor,
        created_at=now,
    )
    session.add(box)
    session.flush()
    return box


def get_sandbox(session: Session, sandbox_id: int) -> Sandbox | None:
    """A sandbox by id."""
    return session.get(Sandbox, sandbox_id)


def sandbox_by_token(session: Session, token: str) -> Sandbox | None:
    """A sandbox by its share token."""
    return session.scalars(select(Sandbox).where(Sandbox.share_token == token)).first()


def sandboxes_of(session: Session, owner_id: int) -> list[Sandbox]:
    """A person's sandboxes, newest first."""
    return list(session.scalars(select(Sandbox).where(Sandbox.owner_id == owner_id).order_by(Sandbox.id.desc())))
