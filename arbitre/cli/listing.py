"""``arbitre orders``' listing without the command line's libraries: the game file, the viewer, the orders.

:mod:`arbitre.cli.main` (typer, rich) prints the listing; :mod:`arbitre.cli.entry`
calls :func:`listing_json` directly for ``arbitre orders FILE --json``, so that a
script asking for the legal orders does not wait for typer, rich and the
renderer to load.  Every refusal is a :class:`ListingError` whose message the
command line prints.
"""

from __future__ import annotations

import json
from pathlib import Path

from arbitre.judge import Game
from arbitre.views import MASTER, OBSERVER, check_viewer


class ListingError(ValueError):
    """A game file, viewer or power the listing cannot use; the message says why."""


def load_game(path: Path) -> Game:
    """The game kept in ``path`` (a file made by ``arbitre new``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ListingError(f"cannot read {path}: {err.strerror}") from err
    except json.JSONDecodeError as err:
        raise ListingError(f"{path} is not valid JSON (line {err.lineno}, column {err.colno}): {err.msg}") from err
    try:
        return Game.from_data(data)
    except (KeyError, ValueError, TypeError) as err:
        raise ListingError(f"{path} is not an arbitre game file: {err}") from err


def viewer_of(game: Game, viewer: str) -> str:
    """The viewer id of ``--viewer`` (a power of the game, ``master`` or ``observer``)."""
    try:
        return check_viewer(game.rules, viewer)
    except ValueError as err:
        raise ListingError(str(err)) from err


def legal_listing(game: Game, power: str | None, viewer: str) -> dict[str, dict[str, list[str]]]:
    """Every legal order of every unit of each power ``viewer`` may order (or of ``power`` only)."""
    who = viewer_of(game, viewer)
    powers = [power.upper()] if power else game.powers_to_order()
    if who == OBSERVER:
        raise ListingError("an observer gives no orders")
    if who != MASTER:
        if power and power.upper() != who:
            raise ListingError(f"{who} sees only its own orders, not {power.upper()}'s")
        powers = [who]
    for p in powers:
        if p not in game.powers():
            raise ListingError(f"{p!r} is not a power of this game ({', '.join(game.powers())})")
    return {p: game.legal_orders(p) for p in powers}


def listing_json(listing: dict[str, dict[str, list[str]]]) -> str:
    """The ``--json`` form of a listing, as printed."""
    return json.dumps(listing, indent=1) + "\n"


def parse_orders_args(args: list[str]) -> tuple[Path, str | None, str] | None:
    """``FILE --json [--power P] [--viewer V]`` read as (file, power, viewer); None for anything else.

    Only the plain JSON form is read here; help, a missing value, an unknown
    option or the printed (non-JSON) listing go to the full command line.
    """
    path: str | None = None
    power: str | None = None
    viewer = MASTER
    as_json = False
    rest = iter(args)
    for arg in rest:
        if arg == "--json":
            as_json = True
        elif arg in ("--power", "-p", "--viewer"):
            value = next(rest, None)
            if value is None or value.startswith("-"):
                return None
            if arg == "--viewer":
                viewer = value
            else:
                power = value
        elif arg.startswith("-") or path is not None:
            return None
        else:
            path = arg
    if path is None or not as_json:
        return None
    return Path(path), power, viewer
