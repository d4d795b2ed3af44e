"""The reaction step at the terminal: confirm, lock, show each power its reveal, take its one change.

Used by ``arbitre play`` for games whose phases have a reaction step
(Espionnite).  Reports are read through :mod:`arbitre.views.reveal`: a power
sees only what the lock told it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from arbitre.judge import REACTION, Game, StepError
from arbitre.orders import OrderError
from arbitre.views import MASTER
from arbitre.views.reveal import reveal_by_power

LOCK_STEP_KEYS = frozenset({"SPY", "COUNTERSPY", "WAIVE"})
"""Keys of :meth:`Game.legal_orders` that are not orders of one unit."""


def split_power_item(item: str, option: str) -> tuple[str, str]:
    """Read ``'POWER: TEXT'`` given to ``option``; raises ValueError with a readable message."""
    if ":" not in item:
        raise ValueError(f"{option} {item!r} must be written 'POWER: ORDER'")
    power, text = item.split(":", 1)
    return power.strip().upper(), text.strip()


def report_text(game: Game, viewer: str) -> str:
    """What the lock of the current phase told ``viewer`` (a power, or ``master`` for every report)."""
    if game.step != REACTION:
        return f"{viewer}: nothing revealed yet (the orders of {game.phase} are not locked)"
    who = viewer.lower() if viewer.lower() == MASTER else viewer.upper()
    by_power = reveal_by_power(game.lock_events, who)
    if not by_power:
        return f"{who}: no report"
    return "\n".join(f"{power}: {line.en}" for power, lines in by_power.items() for line in lines)


def apply_step_options(game: Game, out: Console, confirm: list[str], lock: bool, react: list[str],
                       report: list[str]) -> None:
    """Carry out ``--confirm``, ``--lock``, ``--react`` and ``--report`` in that order.

    Raises ValueError (or :class:`StepError`, :class:`OrderError`) with a
    message for the user when one cannot be done.
    """
    for power in confirm:
        before = game.step
        outcome = game.confirm(power.strip().upper())
        if outcome is not None:
            out.print(f"everyone confirmed: {outcome.before.phase} adjudicated")
        elif game.step != before:
            out.print(f"everyone confirmed: the orders of {game.phase} are locked (reaction step)")
    if lock:
        game.lock()
        out.print(f"the orders of {game.phase} are locked (reaction step)")
    for item in react:
        power, text = split_power_item(item, "--react")
        change = game.set_reaction(power, text)
        out.print(f"{power} changes one order: {escape(change.format())}")
    for viewer in report:
        out.print(escape(report_text(game, viewer)))


def prompt_reactions(game: Game, out: Console, read: Callable[[str], str] = input,
                     skip: set[str] | None = None) -> bool:
    """Hot-seat reaction step: show each power its reveal and take at most one change.

    Powers in ``skip`` (bot seats) are not asked.  Returns ``False`` when the
    input ended (the game is left in the reaction step).
    """
    for power in game.powers_to_order():
        if skip and power in skip:
            continue
        out.print(f"[bold]{power}[/bold] — {escape(report_text(game, power))}")
        out.print("  one change: an order for one of your units (empty line: keep your orders)")
        while True:
            try:
                line = read("> ").strip()
            except EOFError:
                return False
            if not line:
                break
            try:
                change = game.set_reaction(power, line)
            except (OrderError, StepError) as err:
                message = err.describe() if isinstance(err, OrderError) else str(err)
                out.print(f"[yellow]  {escape(message)}[/yellow]")
                continue
            out.print(f"  change: {escape(change.format())}")
            break
    return True


def random_reactions(game: Game, rng: random.Random) -> None:
    """For ``--random`` play: each power changes one order at random half of the time."""
    for power in game.powers_to_order():
        options = [o for key, opts in game.legal_orders(power).items() if key not in LOCK_STEP_KEYS for o in opts]
        if options and rng.random() < 0.5:
            game.set_reaction(power, rng.choice(options))
