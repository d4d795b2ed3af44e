"""The steps of a phase, as data a rule module declares (the *steps* facet).

A phase goes through its steps in order.  Each :class:`Step` says who acts in
it, what it accepts and what happens at its end; the judge
(:mod:`arbitre.judge.steps`, :class:`arbitre.judge.Game`), the JSON interface,
the store, the server, the command line and the pages only iterate over the
steps declared here, so a new kind of step is a change in one rule module.

With no rule module a phase has one step, :data:`ORDERS_STEP`: the powers give
their orders, then the phase is adjudicated.  A rule module may declare other
steps (``phase_steps`` of its steps facet; the judge asks it through
:func:`arbitre.judge.steps.phase_steps`), for instance::

    (Step("orders", Accepts.ORDERS, AtEnd.LOCK),
     Step("reaction", Accepts.ONE_CHANGE, AtEnd.ADJUDICATE))

What the ends do:

* :attr:`AtEnd.LOCK` — the orders are frozen, every rule module reports what
  the lock reveals (``on_lock``, events naming their audience)
  and the next step opens;
* :attr:`AtEnd.ADJUDICATE` — the phase is adjudicated with the locked orders,
  each power's change applied and the lock-step orders
  (``is_lock_order``) taken out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Accepts(StrEnum):
    """What the powers give in a step."""

    ORDERS = "orders"
    """Their whole list of orders (lock-step orders included), replaced at each submission."""
    ONE_CHANGE = "one_change"
    """One new legal order for one of their units, replacing its locked order (a second change replaces the first)."""


class AtEnd(StrEnum):
    """What happens when a step ends (every power confirmed, or its deadline passed)."""

    LOCK = "lock"
    """The orders lock, the rule modules report what the lock reveals, the next step opens."""
    ADJUDICATE = "adjudicate"
    """The phase is adjudicated."""


class Actors(StrEnum):
    """Who acts in a step."""

    POWERS_TO_ORDER = "powers_to_order"
    """The powers that have something to order in the phase (``Game.powers_to_order``)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a phase.

    ``name`` is stable (saved games, deadlines, the JSON interface and the
    pages use it; its words come from the catalogs); ``default_deadline`` is
    the server's default length of the step, in seconds, for steps after the
    first (the first step's deadline is the phase kind's).
    """

    name: str
    accepts: Accepts
    at_end: AtEnd
    actors: Actors = Actors.POWERS_TO_ORDER
    default_deadline: int = 6 * 3600


ORDERS_STEP = Step("orders", Accepts.ORDERS, AtEnd.ADJUDICATE)
"""The one step of a phase when no rule module declares others."""
ORDERS = ORDERS_STEP.name
"""The name of the first step of every phase."""


class DeclaresSteps(Protocol):
    """What :func:`declared_steps` reads of a rule module (its steps facet declares more hooks)."""

    declared_steps: tuple[Step, ...]
    """Every step (after the first) this rule module may add to a phase: deadlines are set per step name."""


def step_named(steps: Sequence[Step], name: str) -> Step:
    """The step called ``name`` among ``steps``; ValueError when there is none."""
    for step in steps:
        if step.name == name:
            return step
    raise ValueError(f"this phase has no step {name!r} (its steps: {', '.join(s.name for s in steps)})")


def declared_steps(variants: Iterable[DeclaresSteps]) -> tuple[Step, ...]:
    """Every step after the first that ``variants`` may add, each name once, in the order declared."""
    out: dict[str, Step] = {}
    for v in variants:
        for step in v.declared_steps:
            out.setdefault(step.name, step)
    return tuple(out.values())
