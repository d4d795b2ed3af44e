"""A player's draft: the orders in its box, saved as they change, read back on any device, never adjudicated.

A draft names the phase and step it was written for; once the game has moved on it is ignored (and
replaced by the next save).  Only the player who wrote it reads it: a seat taken over starts without the
former player's draft.  Saving a draft signals no change to anyone (no event, no count, no id that
another reader sees moves).  Submitting orders drops the draft: the box then shows the submitted orders.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from arbitre.server.errors import Problem, forbidden
from arbitre.server.fields import MAX_LINE, MAX_ORDERS
from arbitre.server.services import Seat
from arbitre.store.drafts import drop_draft, save_draft
from arbitre.store.models import ACTIVE, PAUSED, PLAYER

MAX_DRAFT_CHARS = 20_000
"""The most characters a draft keeps in all (its lines are also bounded one by one)."""


def check_draft(lines: list[str]) -> list[str]:
    """The draft's lines as kept (line ends out, trailing blank lines out); 400 when it is too big."""
    if len(lines) > MAX_ORDERS:
        raise Problem(400, "too_long", f"a draft has at most {MAX_ORDERS} lines", "orders")
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise Problem(400, "too_long", f"line {n} of the draft is longer than {MAX_LINE} characters", "orders")
        if "\n" in line or "\r" in line:
            raise Problem(400, "bad_orders", f"line {n} of the draft holds a line break", "orders")
    if sum(len(line) for line in lines) > MAX_DRAFT_CHARS:
        raise Problem(400, "too_long", f"a draft holds at most {MAX_DRAFT_CHARS} characters", "orders")
    kept = [line.rstrip() for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    return kept


def put_draft(
    session: Session, seat: Seat, user_id: int, lines: list[str], phase: str | None, step: str | None, now: Any
) -> list[str]:
    """Save the requester's draft for the current step (the lines kept); 409 when ``phase``/``step`` are not the current ones."""
    if seat.role != PLAYER or not seat.power:
        raise forbidden("only a player holding a power keeps a draft")
    row = seat.row
    if row.status not in (ACTIVE, PAUSED):
        raise Problem(409, "conflict", "the game is not being played: there is nothing to draft")
    if (phase is not None and phase != row.phase) or (step is not None and step != row.step):
        raise Problem(
            409,
            "stale_draft",
            f"this draft is for {phase or row.phase} {step or row.step}; the game is at {row.phase} {row.step}",
            "phase",
        )
    kept = check_draft(lines)
    save_draft(session, row.id, seat.power, user_id, row.phase, row.step, kept, now)
    return kept


def forget_draft(session: Session, seat: Seat) -> None:
    """Drop the seat's draft (its orders were just submitted)."""
    if seat.power:
        drop_draft(session, seat.row.id, seat.power)
