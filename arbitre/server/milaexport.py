"""A site game as MILA's saved-game JSON (``GET /api/games/{id}/export?format=mila``), built from what the reader may see.

Who gets it: the game's master at any time; once the game is finished, its
other members (players and observers; someone not in the game gets 403 as for
the game's other member routes).  Players and observers are refused (403) while
the game is forming, running or paused: MILA's
format has no way to leave out what they may not see yet, and a finished game
hides nothing of its board.  Press is the messages the reader may read
(:func:`arbitre.store.messages.messages_after`), never more, at most the first
:data:`MAX_EXPORT_MESSAGES`: public messages are ``GLOBAL``, the master's are
from ``SYSTEM``, and messages to the master (which MILA cannot address) are left
out.  MILA keys a game's messages by ``time_sent``: two messages of the same
microsecond are a microsecond apart in the export.  A game without press is
marked ``NO_PRESS``.  The game is read through the public
:class:`arbitre.judge.Game` API only.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from arbitre.interface.mila import ExportError, PressMessage, export_game, exportable
from arbitre.judge import Game
from arbitre.server.errors import conflict, forbidden
from arbitre.server.services import Seat
from arbitre.server.site import Site
from arbitre.store.messages import PUBLIC, TO_MASTER, messages_after
from arbitre.store.models import FINISHED, MASTER

MAX_EXPORT_MESSAGES = 5_000
"""Most messages in one export (the first ones): bounds the memory an export takes."""


def may_export(role: str | None, status: str) -> bool:
    """May a member with ``role`` export a game in ``status``? (The master always; the others once it is
    finished, not while it is paused.)"""
    return role == MASTER or status == FINISHED


def mila_export(
    session: Session, game: Game, game_id: int, status: str, role: str | None, reader: str, press_level: str = "full"
) -> dict[str, Any]:
    """The saved game for a reader (``reader``: the name press is read under; ``press_level``: the game's press
    setting, ``none`` marks it ``NO_PRESS``), or a 403/409 problem."""
    if not may_export(role, status):
        raise forbidden("a game in progress is exported for its master only; players may export it once it is over")
    press: list[PressMessage] = []
    last = -1
    for m in messages_after(session, game_id, reader, 0, limit=MAX_EXPORT_MESSAGES):
        for recipient in m.recipients:  # MILA has one recipient a message: a copy for each
            if recipient == TO_MASTER:
                continue  # MILA has no address for the master
            press.append(
                PressMessage(
                    phase=m.phase,
                    sender="SYSTEM" if m.sender == TO_MASTER else m.sender,
                    recipient="GLOBAL" if recipient == PUBLIC else recipient,
                    time_sent=(last := max(int(m.created_at.timestamp() * 1_000_000), last + 1)),
                    message=m.body,
                )
            )
    try:
        return export_game(game, str(game_id), press, press=press_level != "none")
    except ExportError as err:
        raise conflict(str(err)) from None


def exportable_game(site: Site, session: Session, seat: Seat) -> bool:
    """Can MILA's format hold the game of ``seat`` (the standard map, no rule module)? For the history page's link."""
    try:
        exportable(site.referee.game(session, seat.row))
    except ExportError:
        return False
    return True
