"""The preamble every route shares: open a transaction, find who is asking, check CSRF on changes.

A handler writes::

    with reading(request) as v:              # a read-only snapshot; v.actor is who asks
        seat = v.game(game_id)               # the game and their seat (404/401/403)
        ...
    with writing(request, csrf) as v:        # a write transaction, CSRF checked first
        seat = v.game(game_id, lock=True, roles=(PLAYER,))

so that the order of the checks (who asks, then CSRF, then the game and the seat) and their answers
are the same on every route.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from fastapi import Request
from sqlalchemy.orm import Session

from arbitre.server import services
from arbitre.server.auth import Actor, check_csrf, identify, site_of
from arbitre.server.site import Site
from arbitre.store.models import User


@dataclass
class Visit:
    """One request inside its transaction: the site, the open session and the requester."""

    site: Site
    session: Session
    actor: Actor

    def user(self) -> User:
        """The logged-in user, or 401."""
        return self.actor.require()

    def game(
        self, game_id: int, *, member: bool = True, lock: bool = False, roles: tuple[str, ...] = ()
    ) -> services.Seat:
        """The game ``game_id`` and the requester's seat in it (see :func:`services.open_game`)."""
        return services.open_game(self.session, game_id, self.actor, member=member, lock=lock, roles=roles)

    def invitation(self, token: str, *, lock: bool = False) -> services.Seat:
        """The game of an invitation link and the requester's seat in it (see :func:`services.open_invitation`)."""
        return services.open_invitation(self.session, token, self.actor, lock=lock)


CSRF_HEADER = True
"""``csrf=CSRF_HEADER``: check the ``X-CSRF-Token`` header (script requests made with the session cookie)."""
NO_CSRF = False
"""``csrf=NO_CSRF``: check nothing (a read, or a change whose token was checked in an earlier transaction)."""


def _check(request: Request, actor: Actor, csrf: str | bool) -> None:
    if csrf is True:
        check_csrf(request, actor)
    elif isinstance(csrf, str):
        check_csrf(request, actor, csrf)


@contextmanager
def reading(request: Request, csrf: str | bool = NO_CSRF) -> Iterator[Visit]:
    """A read-only snapshot with the requester identified.

    ``csrf``: a form's token field to check, :data:`CSRF_HEADER` to check the header, or nothing (a read).
    A form that changes nothing in this transaction (a login's password check) still checks it.
    """
    site = site_of(request)
    with site.db.reading() as session:
        actor = identify(request, session)
        _check(request, actor, csrf)
        # A page rendered inside the block reads its header's counts in this snapshot (no second transaction).
        request.state.read_session = session
        try:
            yield Visit(site, session, actor)
        finally:
            request.state.read_session = None


@contextmanager
def writing(request: Request, csrf: str | bool = CSRF_HEADER) -> Iterator[Visit]:
    """A write transaction (committed when the block ends, rolled back on an error) with the requester
    identified and the CSRF token checked: a form's token field when given, else the ``X-CSRF-Token`` header
    (bearer tokens need none); :data:`NO_CSRF` only where an earlier transaction of the request checked it."""
    site = site_of(request)
    with site.db.writing() as session:
        actor = identify(request, session)
        _check(request, actor, csrf)
        yield Visit(site, session, actor)
