"""Limits on guessing a game's secrets: join codes and take-over links.

Each attempt is counted in the database (:mod:`arbitre.server.limits`, shared by
every server process) *before* the transaction that checks it, so concurrent
guesses cannot pass the limit, and given back unless it was a wrong guess (any
other answer, or an unexpected error, gives it back).  Use the context managers
around the route's write transaction (never inside one: SQLite has one writer).

Join codes: a guesser is bounded per address (:data:`JOIN_CODE_ADDRESS`) and per
account (:data:`JOIN_CODE_ACCOUNT`).  The game's own count
(:data:`JOIN_CODE_GAME`) never refuses the honest invitee: once a game had that
many wrong codes, only the addresses and accounts that already gave it a wrong
code are refused on it (:data:`JOIN_CODE_GAME_FAILED`); a fresh address or
account with the right code joins.  So a leaked invitation link cannot be used
to lock the invitees out.

Take-over links: only an unknown link is a guess (:data:`TAKEOVER_ADDRESS`).  A
refusal on a real link (not logged in, seat taken, already in the game) is not
counted, so nobody can use a link to keep the seat empty.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import Request

from arbitre.server.auth import client_address, identify, site_of
from arbitre.server.errors import Problem
from arbitre.server.limits import Limit, Limiter, Ticket, throttle_address
from arbitre.store.games import game_by_invitation

JOIN_CODE_ADDRESS = Limit("join-code-address", 10, 900.0, "wrong join codes from your address", "code")
"""Wrong join codes per address: 10 in 15 minutes."""
JOIN_CODE_ACCOUNT = Limit("join-code-account", 10, 900.0, "wrong join codes from your account", "code")
"""Wrong join codes per account (from any address): 10 in 15 minutes."""
JOIN_CODE_GAME = Limit("join-code-game", 30, 3600.0, "wrong join codes for this game", "code")
"""Wrong join codes per game, from anywhere: beyond 30 an hour, the game is watched (never a refusal itself)."""
JOIN_CODE_GAME_FAILED = Limit(
    "join-code-game-failed", 1, 3600.0, "wrong join codes for this game from your address or account", "code"
)
"""On a watched game, an address or account that already gave it a wrong code this hour is refused."""
_JOIN_CODE_GAME_SEEN = Limit(
    "join-code-game-failed", 1_000_000, 3600.0, "wrong join codes for this game from your address or account", "code"
)
# The same counters as JOIN_CODE_GAME_FAILED, counted but not refused while the game is not watched.
_JOIN_CODE_GAME_TALLY = Limit("join-code-game", 1_000_000, 3600.0, "wrong join codes for this game", "code")
# The game's count of wrong codes, counted without refusing (JOIN_CODE_GAME says when the game is watched).
TAKEOVER_ADDRESS = Limit("takeover-address", 10, 900.0, "failed take-overs from your address", "path")
"""Unknown take-over links tried per address: 10 in 15 minutes."""

_JOIN_LIMITS = (
    JOIN_CODE_ADDRESS,
    JOIN_CODE_ACCOUNT,
    JOIN_CODE_GAME_FAILED,
    _JOIN_CODE_GAME_SEEN,
    _JOIN_CODE_GAME_TALLY,
)


def _account_of(request: Request) -> int | None:
    """The id of the logged-in requester, if any (a bad token: none; the route refuses it)."""
    with site_of(request).db.reading() as s:
        try:
            user = identify(request, s).user
        except Problem:
            return None
    return user.id if user is not None else None


@contextmanager
def join_code_guess(request: Request, code: str | None, *, invitation: str | None = None) -> Iterator[None]:
    """Count a join with a code as a guess (against the address, the account and, for an ``invitation`` token,
    its game) before the block; given back unless the block refuses the code (``bad_code``).

    A join by game id counts no game: its answer for a private game must be the same as for no game at all."""
    if not (code or "").strip():
        yield  # no code given: nothing is guessed (a game that asks for one refuses it)
        return
    site = site_of(request)
    game_id: int | None = None
    if invitation is not None:
        with site.db.reading() as s:
            row = game_by_invitation(s, invitation)
            game_id = row.id if row is not None else None
    address = throttle_address(client_address(request))
    account = _account_of(request)
    attempts = [(JOIN_CODE_ADDRESS, JOIN_CODE_ADDRESS.key(address))]
    if account is not None:
        attempts.append((JOIN_CODE_ACCOUNT, JOIN_CODE_ACCOUNT.key(account)))
    if game_id is not None:
        watched = site.limits.over(JOIN_CODE_GAME, JOIN_CODE_GAME.key(game_id))
        failed = JOIN_CODE_GAME_FAILED if watched else _JOIN_CODE_GAME_SEEN
        attempts.append((_JOIN_CODE_GAME_TALLY, JOIN_CODE_GAME.key(game_id)))
        attempts.append((failed, failed.key(game_id, "address", address)))
        if account is not None:
            attempts.append((failed, failed.key(game_id, "account", account)))
    ticket = site.limits.take(*attempts)
    with _given_back_unless(site.limits, ticket, _JOIN_LIMITS, "bad_code"):
        yield


@contextmanager
def takeover_attempt(request: Request, token: str) -> Iterator[None]:
    """Count a take-over through link ``token`` against the address before the block; given back unless the
    link is unknown (``not_found``): a refusal on a real link is no guess."""
    del token  # the answer says whether the link is known; nothing is counted per game
    site = site_of(request)
    ticket = site.limits.take((TAKEOVER_ADDRESS, TAKEOVER_ADDRESS.key(throttle_address(client_address(request)))))
    with _given_back_unless(site.limits, ticket, (TAKEOVER_ADDRESS,), "not_found"):
        yield


@contextmanager
def _given_back_unless(limits: Limiter, ticket: Ticket, counted: tuple[Limit, ...], wrong: str) -> Iterator[None]:
    """Give the attempts of ``ticket`` back unless the block raised the :class:`Problem` ``wrong`` (a real wrong
    guess); any other end, an unexpected error included, gives them back."""
    guessed_wrong = False
    try:
        yield
    except Problem as err:
        guessed_wrong = err.code == wrong
        raise
    finally:
        if not guessed_wrong:
            limits.give_back(ticket, *counted)
