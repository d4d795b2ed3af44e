"""Press: who may write to whom under the game's press settings, and who may read what."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, func, or_, select
from sqlalchemy.orm import Session

from arbitre.store.games import GameRuleError
from arbitre.store.models import Message

PUBLIC = "*"
"""Recipient of a public message."""
TO_MASTER = "MASTER"
"""Recipient (and sender name) of the game master."""
S = TypeVar("S", bound=Select[Any])


def allowed_recipients(press: str, sender: str, powers: list[str]) -> list[str]:
    """Where ``sender`` (a power, ``MASTER``, or ``OBSERVER``) may write under ``press``."""
    if sender == TO_MASTER:
        return [PUBLIC, *powers]
    if sender not in powers:
        return []
    out = [TO_MASTER]
    if press in ("public", "full"):
        out.append(PUBLIC)
    if press == "full":
        out.extend(p for p in powers if p != sender)
    return out


def post_message(
    session: Session,
    game_id: int,
    phase: str,
    sender_id: int,
    sender: str,
    recipient: str,
    body: str,
    press: str,
    powers: list[str],
    now: datetime,
) -> Message:
    """Store a message after checking the press settings."""
    body = body.strip()
    if not body:
        raise GameRuleError("a message cannot be empty")
    if len(body) > 5000:
        raise GameRuleError("a message is at most 5000 characters")
    if recipient not in allowed_recipients(press, sender, powers):
        raise GameRuleError(f"this game's press settings do not let {sender} write to {recipient}")
    msg = Message(
        game_id=game_id, phase=phase, sender_id=sender_id, sender=sender, recipient=recipient, body=body, created_at=now
    )
    session.add(msg)
    session.flush()
    return msg


def _readable(stmt: S, game_id: int, reader: str) -> S:
    stmt = stmt.where(Message.game_id == game_id)
    if reader != TO_MASTER:
        stmt = stmt.where(or_(Message.recipient == PUBLIC, Message.recipient == reader, Message.sender == reader))
    return stmt


def messages_for(session: Session, game_id: int, reader: str, limit: int = 500) -> list[Message]:
    """The messages ``reader`` (a power, ``MASTER`` or ``OBSERVER``) may read, oldest first."""
    rows = list(session.scalars(_readable(select(Message), game_id, reader).order_by(Message.id.desc()).limit(limit)))
    rows.reverse()
    return rows


def count_for(session: Session, game_id: int, reader: str) -> int:
    """How many messages ``reader`` may read in the game."""
    return int(session.scalar(_readable(select(func.count(Message.id)), game_id, reader)) or 0)


def messages_after(session: Session, game_id: int, reader: str, start: int, limit: int = 100) -> list[Message]:
    """The messages ``reader`` may read from the ``start``-th on (counting from 0, oldest first), at most ``limit``."""
    stmt = _readable(select(Message), game_id, reader).order_by(Message.id).offset(max(0, start)).limit(limit)
    return list(session.scalars(stmt))
