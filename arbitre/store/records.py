"""A game's closed steps as rows: appended once when a step closes, read by every history reader."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.store.models import GameRecord


def add_record(session: Session, game_id: int, phase: str, step: str, played: int | None, data: Any) -> None:
    """Append the record of one closed step (``played``: the index of the phase it adjudicated, if it did)."""
    session.add(GameRecord(game_id=game_id, phase=phase, step=step, played=played, data=data))


def played_phases(session: Session, game_id: int) -> list[tuple[int, str]]:
    """The played phases of a game, oldest first: (index, phase name) (no record is read)."""
    rows = session.execute(
        select(GameRecord.played, GameRecord.phase)
        .where(GameRecord.game_id == game_id, GameRecord.played.is_not(None))
        .order_by(GameRecord.played)
    )
    return [(int(i or 0), str(p)) for i, p in rows]


def played_record(session: Session, game_id: int, index: int) -> dict[str, Any] | None:
    """The record of played phase ``index`` (``None`` when there is none)."""
    found: dict[str, Any] | None = session.scalar(
        select(GameRecord.data).where(GameRecord.game_id == game_id, GameRecord.played == index)
    )
    return found


def played_records(session: Session, game_id: int, start: int = 0, end: int | None = None) -> list[dict[str, Any]]:
    """The records of played phases ``start`` to ``end`` (excluded; ``None``: the last included), oldest first."""
    query = select(GameRecord.data).where(GameRecord.game_id == game_id, GameRecord.played >= start)
    if end is not None:
        query = query.where(GameRecord.played < end)
    return list(session.scalars(query.order_by(GameRecord.played)))


def played_index(session: Session, game_id: int, phase: str) -> int | None:
    """The index of played phase ``phase`` (``S1901M``), if it was played."""
    found = session.scalar(
        select(GameRecord.played).where(
            GameRecord.game_id == game_id, GameRecord.phase == phase, GameRecord.played.is_not(None)
        )
    )
    return None if found is None else int(found)


def lock_record(session: Session, game_id: int, phase: str) -> dict[str, Any] | None:
    """The record of the lock that closed a step of ``phase`` without adjudicating it (the orders as locked and
    what the lock revealed to whom), the latest if several; ``None`` when no step of the phase locked."""
    found = session.scalar(
        select(GameRecord.data)
        .where(GameRecord.game_id == game_id, GameRecord.phase == phase, GameRecord.played.is_(None))
        .order_by(GameRecord.id.desc())
        .limit(1)
    )
    return None if found is None else dict(found)
