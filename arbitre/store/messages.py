"""Press: who may write to whom under the game's press settings, and who may read what."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, TypeVar, cast

from sqlalchemy import Select, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arbitre.store.games import GameRuleError
from arbitre.store.models import Message, MessageRead

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


MAX_RECIPIENTS = 40
"""Most recipients of one message (more than any map's powers and the master)."""


def parties_key(sender: str, recipients: list[str]) -> str:
    """The ``parties`` column of a message: ``*`` when public, else every party sorted, each between commas."""
    if recipients == [PUBLIC]:
        return PUBLIC
    return "," + ",".join(sorted({sender, *recipients})) + ","


def conversation_parties(key: str) -> list[str]:
    """The parties of a conversation key (``ENGLAND,FRANCE`` → both; ``*`` → ``["*"]``)."""
    return [p for p in key.split(",") if p]


def check_recipients(press: str, sender: str, powers: list[str], to: list[str]) -> list[str]:
    """The recipients of a message in their canonical order (the game's powers, then ``MASTER``), or a
    :class:`GameRuleError` saying what is wrong: none, too many, twice the same, unknown, not allowed."""
    if not to:
        raise GameRuleError("a message needs at least one recipient", "to")
    if len(to) > MAX_RECIPIENTS:
        raise GameRuleError(f"a message has at most {MAX_RECIPIENTS} recipients", "to")
    seen: set[str] = set()
    for i, who in enumerate(to):
        if who in seen:
            raise GameRuleError(f"{who} is named twice", f"to[{i}]")
        seen.add(who)
        if who not in (PUBLIC, TO_MASTER, *powers):
            raise GameRuleError(f"{who} is not a power of this game", f"to[{i}]")
        if who == sender:
            raise GameRuleError("you cannot write to yourself", f"to[{i}]")
        if who not in allowed_recipients(press, sender, powers):
            raise GameRuleError(f"this game's press settings do not let {sender} write to {who}", f"to[{i}]")
    if PUBLIC in seen and len(seen) > 1:
        raise GameRuleError("a public message goes to everyone: name no other recipient", "to")
    order = [*powers, TO_MASTER, PUBLIC]
    return sorted(seen, key=order.index)


def post_message(
    session: Session,
    game_id: int,
    phase: str,
    sender_id: int,
    sender: str,
    recipient: str | list[str],
    body: str,
    press: str,
    powers: list[str],
    now: datetime,
) -> Message:
    """Store a message to one recipient or several after checking the press settings."""
    body = body.strip()
    if not body:
        raise GameRuleError("a message cannot be empty", "body")
    if len(body) > 5000:
        raise GameRuleError("a message is at most 5000 characters", "body")
    to = check_recipients(press, sender, powers, [recipient] if isinstance(recipient, str) else list(recipient))
    msg = Message(
        game_id=game_id,
        phase=phase,
        sender_id=sender_id,
        sender=sender,
        recipient=",".join(to),
        parties=parties_key(sender, to),
        body=body,
        created_at=now,
    )
    session.add(msg)
    session.flush()
    return msg


def _readable(stmt: S, game_id: int, reader: str) -> S:
    stmt = stmt.where(Message.game_id == game_id)
    if reader != TO_MASTER:
        stmt = stmt.where(or_(Message.parties == PUBLIC, Message.parties.contains(f",{reader},", autoescape=True)))
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


def messages_in(session: Session, game_id: int, reader: str, phases: Collection[str]) -> list[Message]:
    """The messages ``reader`` may read that were written in one of ``phases`` (``S1901M``), oldest first."""
    if not phases:
        return []
    stmt = _readable(select(Message), game_id, reader).where(Message.phase.in_(sorted(set(phases))))
    return list(session.scalars(stmt.order_by(Message.id)))


def conversations(session: Session, game_id: int, reader: str) -> list[tuple[str, int, int, int]]:
    """The conversations ``reader`` may read: ``(parties column, how many messages, number of the newest among
    the reader's messages, how many were written by others)``, the most recently active first.  Built from the
    reader's messages only."""
    stmt = cast(Select[Any], select(Message.parties, Message.sender))
    rows = session.execute(_readable(stmt, game_id, reader).order_by(Message.id)).all()
    out: dict[str, list[int]] = {}
    for number, (parties, sender) in enumerate(rows, start=1):
        entry = out.setdefault(parties, [0, 0, 0])
        entry[0] += 1
        entry[1] = number
        entry[2] += sender != reader
    return sorted(((k, n, last, others) for k, (n, last, others) in out.items()), key=lambda c: -c[2])


def read_marks(session: Session, game_id: int, user_id: int) -> dict[str, int]:
    """How many messages of others in each conversation (by its ``parties`` column) the user has read."""
    rows = session.scalars(select(MessageRead).where(MessageRead.game_id == game_id, MessageRead.user_id == user_id))
    return {r.conversation: r.seen for r in rows}


def mark_read(session: Session, game_id: int, user_id: int, seen: dict[str, int]) -> None:
    """Remember that the user has read ``seen[parties]`` messages of each conversation named (never fewer
    than before)."""
    marks = {
        r.conversation: r
        for r in session.scalars(
            select(MessageRead).where(MessageRead.game_id == game_id, MessageRead.user_id == user_id)
        )
    }
    for parties, count in seen.items():
        row = marks.get(parties)
        if row is None:
            try:
                with session.begin_nested():  # a second tab may have marked it at the same time: keep theirs
                    session.add(MessageRead(game_id=game_id, user_id=user_id, conversation=parties, seen=count))
            except IntegrityError:
                continue
        elif count > row.seen:
            row.seen = count
    session.flush()
