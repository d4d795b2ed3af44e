"""Who may know that a game exists: one rule for every route and every list of the site.

A public game is known to everyone, visitors included.  A private game is known to its members only
(its master, players and observers): to anyone else it does not exist.  A route that takes a game id
answers an outsider as it answers an id no game ever had (:func:`arbitre.server.services.open_game`),
and no list of the site (the lobby, the lateness boards, the yellow cards, the open calls for a
replacement, the notifications, the tournaments) names it, counts it or lets it shift what it shows.

The one way into a private game from outside is its invitation link (and its join code, when it has
one), which its master hands out.  A take-over link of a private game works only for someone who may
know the game, that is a member (an observer the master invited); to anyone else it does not exist.

The rule is written once for one row (:func:`may_know`) and once as the SQL filter that lists use
(:func:`known_games`, :func:`known_game_ids`); ``tests/server/test_membership.py`` checks that the two
agree on every combination of private/public game and member/outsider/visitor.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Select, or_, select

from arbitre.store.models import GameRow, Membership


def may_know(row: GameRow, member: Membership | None) -> bool:
    """May a reader whose membership in ``row`` is ``member`` (``None``: none, or a visitor) know the game exists?"""
    return not row.private or member is not None


def known_games(user_id: int | None) -> ColumnElement[bool]:
    """The SQL condition on ``games`` rows of :func:`may_know` for the reader ``user_id`` (``None``: a visitor)."""
    public = GameRow.private.is_(False)
    if user_id is None:
        return public
    mine = select(Membership.game_id).where(Membership.user_id == user_id)
    return or_(public, GameRow.id.in_(mine))


def known_game_ids(user_id: int | None) -> Select[int]:
    """The ids of the games the reader ``user_id`` may know exist, as a subquery for rows that name a game."""
    return select(GameRow.id).where(known_games(user_id))
