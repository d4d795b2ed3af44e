"""Orders checked before the write transaction: the slow part of a submission does not hold the writer.

SQLite has one writer at a time (and PostgreSQL holds the game's row lock until commit): a submission
first checks its lines in a read transaction (:func:`checked_orders`), then opens the write, which
only stores them, using that check if the game has not changed in between (else it checks again).
"""

from __future__ import annotations

from fastapi import Request

from arbitre.life.referee import CheckedOrders
from arbitre.server import actions
from arbitre.server.errors import Problem
from arbitre.server.visit import reading
from arbitre.store.models import PLAYER


def checked_orders(request: Request, game_id: int, lines: list[str] | None, csrf: str | bool) -> CheckedOrders | None:
    """The check of ``lines`` made in a read transaction (``None`` when there is nothing to check ahead, or when
    the request is refused: the write transaction then gives the answer, exactly as without this step)."""
    if lines is None:
        return None
    try:
        with reading(request, csrf) as v:
            seat = v.game(game_id, roles=(PLAYER,))
            return actions.precheck_orders(v.site, v.session, seat, lines)
    except Problem:
        return None
