"""Drafts: each player's orders as shown in its box, persisted as they change (one row per seat).

The store only persists: which step a draft is for, and who may read it, is decided by the caller
(:mod:`arbitre.server.drafts`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from arbitre.store.models import DraftRow

_KNOWN = "arbitre_drafts_read"
"""Where a session keeps the drafts read along with a game and its requester's membership."""


def remember_draft(session: Session, game_id: int, user_id: int, row: DraftRow | None) -> None:
    """Keep the requester's draft read by the game's own query (``None``: it has none)."""
    session.info.setdefault(_KNOWN, {})[(game_id, user_id)] = row


def users_draft(session: Session, game_id: int, power: str, user_id: int) -> DraftRow | None:
    """The seat's draft if ``user_id`` wrote it (from the game's own query when it was read with it)."""
    known: dict[tuple[int, int], DraftRow | None] = session.info.get(_KNOWN, {})
    row = known[(game_id, user_id)] if (game_id, user_id) in known else draft_of(session, game_id, power)
    return row if row is not None and row.user_id == user_id and row.power == power else None


def draft_of(session: Session, game_id: int, power: str) -> DraftRow | None:
    """The draft kept for one seat, whatever step it names (``None``: none)."""
    return session.scalars(select(DraftRow).where(DraftRow.game_id == game_id, DraftRow.power == power)).first()


def save_draft(
    session: Session, game_id: int, power: str, user_id: int, phase: str, step: str, lines: list[str], now: datetime
) -> DraftRow:
    """Replace the seat's draft with ``lines`` for ``phase``/``step``, written by ``user_id``."""
    row = draft_of(session, game_id, power)
    if row is None:
        row = DraftRow(game_id=game_id, power=power, user_id=user_id, phase=phase, step=step, lines=[], updated_at=now)
        session.add(row)
    row.user_id, row.phase, row.step, row.lines, row.updated_at = user_id, phase, step, list(lines), now
    session.flush()
    return row


def drop_draft(session: Session, game_id: int, power: str) -> None:
    """Forget the seat's draft (its orders were submitted)."""
    session.execute(delete(DraftRow).where(DraftRow.game_id == game_id, DraftRow.power == power))
