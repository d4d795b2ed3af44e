"""A site game as MILA's saved-game JSON (``GET /api/games/{id}/export?format=mila``), built from what the reader may see.

Who gets it: the game's master at any time; once the game is over, anyone who
may open the game.  A player or observer of a game in progress is refused
(403): MILA's format has no way to leave out what they may not see yet, and a
finished game hides nothing of its board.  Press is the messages the reader
may read (:func:`arbitre.store.messages.messages_for`), never more: public
messages are ``GLOBAL``, the master's are from ``SYSTEM``, and messages to the
master (which MILA cannot address) are left out.  The game is read through the
public :class:`arbitre.judge.Game` API only.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from arbitre.interface.mila import ExportError, PressMessage, export_game, exportable
from arbitre.judge import Game
from arbitre.server.errors import conflict, forbidden
from arbitre.server.services import Seat
from arbitre.server.site import Site
from arbitre.store.messages import PUBLIC, TO_MASTER, messages_for
from arbitre.store.models import ACTIVE, FORMING, MASTER


def may_export(role: str | None, status: str) -> bool:
    """May a member with ``role`` export a game in ``status``? (The master always; others once it is over.)"""
    return role == MASTER or status not in (FORMING, ACTIVE)


def mila_export(
    session: Session, game: Game, game_id: int, status: str, role: str | None, reader: str
) -> dict[str, Any]:
    """The saved game for a reader (``reader``: the name press is read under), or a 403/409 problem."""
    if not may_export(role, status):
        raise forbidden("a game in progress is exported for its master only; players may export it once it is over")
    press: list[PressMessage] = []
    for m in messages_for(session, game_id, reader, limit=100_000):
        if m.recipient == TO_MASTER:
            continue  # MILA has no address for the master
        press.append(
            PressMessage(
                phase=m.phase,
                sender="SYSTEM" if m.sender == TO_MASTER else m.sender,
                recipient="GLOBAL" if m.recipient == PUBLIC else m.recipient,
                time_sent=int(m.created_at.timestamp() * 1_000_000),
                message=m.body,
            )
        )
    press.sort(key=lambda m: m.time_sent)
    try:
        return export_game(game, str(game_id), press)
    except ExportError as err:
        raise conflict(str(err)) from None


def exportable_game(site: Site, session: Session, seat: Seat) -> bool:
    """Can MILA's format hold the game of ``seat`` (the standard map, no rule module)? For the history page's link."""
    try:
        exportable(site.referee.game(session, seat.row))
    except ExportError:
        return False
    return True
