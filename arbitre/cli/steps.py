"""The steps of a phase at the terminal, as the rule modules declare them: confirm, lock, report, change.

Used by ``arbitre play`` for games whose phases have more than the ``orders``
step (:attr:`arbitre.judge.Game.steps`).  What a lock told a power is read
through :mod:`arbitre.views.reveal`: a power sees only what the lock told it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.markup import escape

from arbitre.judge import Accepts, Game, StepError
from arbitre.judge.steps import is_lock_order
from arbitre.orders import OrderError
from arbitre.views import MASTER
from arbitre.views.reveal import reveal_by_power
from arbitre.words.events import report_line_text


def split_power_item(item: str, option: str) -> tuple[str, str]:
    """Read ``'POWER: TEXT'`` given to ``option``; raises ValueError with a readable message."""
    if ":" not in item:
        raise ValueError(f"{option} {item!r} must be written 'POWER: ORDER'")
    power, text = item.split(":", 1)
    return power.strip().upper(), text.strip()


def report_text(game: Game, viewer: str) -> str:
    """What the lock of the current phase told ``viewer`` (a power, or ``master`` for every report)."""
    if not game.lock_events and game.next_step is not None:
        return f"{viewer}: nothing revealed yet (the orders of {game.phase} are not locked)"
    who = viewer.lower() if viewer.lower() == MASTER else viewer.upper()
    by_power = reveal_by_power(game.lock_events, who)
    if not by_power:
        return f"{who}: no report"
    return "\n".join(
        f"{power}: {report_line_text(game.rules, line, 'en')}" for power, lines in by_power.items() for line in lines
    )


def _locked(game: Game, out: Console) -> None:
    out.print(f"the orders of {game.phase} are locked ({game.step} step)")


@dataclass
class StepOptions:
    """The step options of ``arbitre play``, carried out in this order."""

    confirm: list[str] = field(default_factory=list)
    """Powers done with the current step (``--confirm``)."""
    lock: bool = False
    """End the current step with its lock now, as at its deadline (``--lock``)."""
    step: str | None = None
    """Close the steps that end with a lock until this step is open (``--step NAME``)."""
    change: list[str] = field(default_factory=list)
    """``'POWER: ORDER'``: each power's one change (``--change``, or its alias ``--react``)."""
    report: list[str] = field(default_factory=list)
    """Viewers whose lock report to show (``--report``)."""

    def given(self) -> bool:
        """Was any step option given?"""
        return bool(self.confirm or self.lock or self.step or self.change or self.report)


def go_to_step(game: Game, name: str, out: Console) -> None:
    """Close the steps that end with a lock until step ``name`` is open; ValueError if it never opens."""
    names = [s.name for s in game.steps]
    if name not in names:
        raise ValueError(f"{game.phase} has no step {name!r} (its steps: {', '.join(names)})")
    if names.index(name) < names.index(game.step):
        raise ValueError(f"the {name} step of {game.phase} is over (the game is in the {game.step} step)")
    while game.step != name:
        game.lock()
        _locked(game, out)


def apply_step_options(game: Game, out: Console, options: StepOptions) -> None:
    """Carry out ``--confirm``, ``--lock``, ``--step``, ``--change`` and ``--report`` in that order.

    Raises ValueError (or :class:`StepError`, :class:`OrderError`) with a
    message for the user when one cannot be done.
    """
    for power in options.confirm:
        before = game.step
        outcome = game.confirm(power.strip().upper())
        if outcome is not None:
            out.print(f"everyone confirmed: {outcome.before.phase} adjudicated")
        elif game.step != before:
            out.print(f"everyone confirmed: the orders of {game.phase} are locked ({game.step} step)")
    if options.lock:
        game.lock()
        _locked(game, out)
    if options.step:
        go_to_step(game, options.step, out)
    for item in options.change:
        power, text = split_power_item(item, "--change")
        change = game.set_change(power, text)
        out.print(f"{power} changes one order: {escape(change.format())}")
    for viewer in options.report:
        out.print(escape(report_text(game, viewer)))


def prompt_changes(game: Game, out: Console, read: Callable[[str], str] = input, skip: set[str] | None = None) -> bool:
    """Hot-seat step of changes: show each power what the lock told it and take at most one change.

    Powers in ``skip`` (bot seats) are not asked.  Returns ``False`` when the
    input ended (the game is left in the step).
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
                change = game.set_change(power, line)
            except (OrderError, StepError) as err:
                message = err.describe() if isinstance(err, OrderError) else str(err)
                out.print(f"[yellow]  {escape(message)}[/yellow]")
                continue
            out.print(f"  change: {escape(change.format())}")
            break
    return True


def random_changes(game: Game, rng: random.Random) -> None:
    """For ``--random`` play: each power changes one order of one of its units at random half of the time."""
    for power in game.powers_to_order():
        options = [
            o
            for opts in game.legal_orders(power).values()
            for o in opts
            if not is_lock_order(game.rules, o) and _names_a_unit(game, o)
        ]
        if options and rng.random() < 0.5:
            game.set_change(power, rng.choice(options))


def _names_a_unit(game: Game, text: str) -> bool:
    try:
        return game.rules.parse(text).unit is not None
    except OrderError:
        return False


def takes_changes(game: Game) -> bool:
    """Does the current step take one change per power?"""
    return game.current_step.accepts == Accepts.ONE_CHANGE
