"""Limits on guessing a game's secrets: join codes and take-over links, per address and per game.

Each attempt is counted in the database (:mod:`arbitre.server.limits`, shared by
every server process) *before* the transaction that checks it, so concurrent
guesses cannot pass the limit, and given back when it was not a wrong guess.
Use the context managers around the route's write transaction (never inside
one: SQLite has one writer).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import Request

from arbitre.server.auth import client_address, site_of
from arbitre.server.errors import Problem
from arbitre.server.limits import Limit, throttle_address
from arbitre.store.games import game_by_invitation
from arbitre.store.replacements import call_by_token

JOIN_CODE_ADDRESS = Limit("join-code-address", 10, 900.0, "wrong join codes from your address", "code")
"""Wrong join codes per address: 10 in 15 minutes."""
JOIN_CODE_GAME = Limit("join-code-game", 30, 3600.0, "wrong join codes for this game", "code")
"""Wrong join codes per game, from anywhere: 30 an hour (a 4-digit code then takes months)."""
TAKEOVER_ADDRESS = Limit("takeover-address", 10, 900.0, "failed take-overs from your address", "path")
"""Failed take-overs (unknown or closed links, refusals) per address: 10 in 15 minutes."""
TAKEOVER_GAME = Limit("takeover-game", 30, 3600.0, "failed take-overs in this game", "path")
"""Failed take-overs per game, from anywhere: 30 an hour."""


@contextmanager
def join_code_guess(
    request: Request, code: str | None, *, game_id: int | None = None, invitation: str | None = None
) -> Iterator[None]:
    """Count a join with a code as a guess (against the address and the game, named by ``game_id`` or by its
    ``invitation`` token) before the block; given back unless the block refuses the code (``bad_code``)."""
    if not (code or "").strip():
        yield  # no code given: nothing is guessed (a game that asks for one refuses it)
        return
    site = site_of(request)
    if game_id is None and invitation is not None:
        with site.db.reading() as s:
            row = game_by_invitation(s, invitation)
            game_id = row.id if row is not None else None
    attempts = [(JOIN_CODE_ADDRESS, JOIN_CODE_ADDRESS.key(throttle_address(client_address(request))))]
    if game_id is not None:
        attempts.append((JOIN_CODE_GAME, JOIN_CODE_GAME.key(game_id)))
    ticket = site.limits.take(*attempts)
    try:
        yield
    except Problem as err:
        if err.code != "bad_code":
            site.limits.give_back(ticket, JOIN_CODE_ADDRESS, JOIN_CODE_GAME)
        raise
    site.limits.give_back(ticket, JOIN_CODE_ADDRESS, JOIN_CODE_GAME)


@contextmanager
def takeover_attempt(request: Request, token: str) -> Iterator[None]:
    """Count a take-over through link ``token`` (against the address and the link's game) before the block;
    given back when the block takes the seat."""
    site = site_of(request)
    with site.db.reading() as s:
        call = call_by_token(s, token)
        game_id = call.game_id if call is not None else None
    attempts = [(TAKEOVER_ADDRESS, TAKEOVER_ADDRESS.key(throttle_address(client_address(request))))]
    if game_id is not None:
        attempts.append((TAKEOVER_GAME, TAKEOVER_GAME.key(game_id)))
    ticket = site.limits.take(*attempts)
    yield
    site.limits.give_back(ticket, TAKEOVER_ADDRESS, TAKEOVER_GAME)
