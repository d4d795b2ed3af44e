"""The progress of one phase, its only owner: pending orders in normal form, readiness, the steps.

:class:`Progress` is what the command line's :class:`arbitre.judge.Game` and the server both hold
of the phase being played; there is no second state machine.  It does no I/O and reads no clock.

* A power's orders are read and checked **once**, when they are given
  (:meth:`Progress.set_orders`): what is kept is each line's normal form (``A PAR - BUR`` for
  ``a par-bur``), or the line as given when it cannot be read at all (it is reported as invalid).
* Readiness is :attr:`Progress.confirmed`; :meth:`Progress.waiting_for` says who is still awaited.
* The steps are the ones the rule modules declare (:mod:`arbitre.judge.steps`); a step that accepts
  orders takes whole lists, a step that accepts one change takes one order per power.
* :meth:`Progress.close_step` ends the current step and returns a :class:`Transition`, the value a
  caller stores as one record and publishes: the phase and step closed, the position before and
  after, the orders in normal form, the changes, the outcome (results and events, each event naming
  its audience) and what a lock revealed.  The progress then stands at the next step or phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from arbitre.adjudicator import ILLEGAL, OrderResult, PhaseOutcome, adjudicate, adjustment_counts, holds_retreat_phase
from arbitre.adjudicator.intake import read_orders
from arbitre.adjudicator.phases import retreat_options_of
from arbitre.judge.steps import (
    ORDERS,
    Accepts,
    AtEnd,
    Step,
    StepError,
    apply_changes,
    check_change,
    has_lock,
    lock_orders,
    phase_steps,
    without_lock_orders,
)
from arbitre.orders import Order, OrderError
from arbitre.rules import RuleSet
from arbitre.rules.facets import OrderRules
from arbitre.state import ADJUSTMENTS, MOVEMENT, RETREATS, Position
from arbitre.views import View, build_view

__all__ = ["Progress", "Transition", "check_orders", "normal_form"]


@dataclass(frozen=True)
class Transition:
    """What closing one step did, as a value to store once and publish.

    ``step`` is the step that closed (``orders``, or a rule module's); ``outcome`` is ``None`` when
    the step ended with a lock (``after`` is then ``before``) and the adjudication otherwise.
    ``orders`` are every power's orders in normal form as locked (lock-step orders included),
    ``changes`` each power's one change, ``lock_events`` what the phase's lock revealed, each
    event naming its audience.
    """

    phase: str
    step: str
    before: Position
    after: Position
    orders: dict[str, list[str]]
    changes: dict[str, str] = field(default_factory=dict)
    outcome: PhaseOutcome | None = None
    lock_events: tuple[object, ...] = ()

    @property
    def adjudicated(self) -> bool:
        """Did this step end with the phase's adjudication (rather than a lock)?"""
        return self.outcome is not None


def normal_form(rules: RuleSet, line: str) -> str:
    """The normal form of one order line (``A PAR - BUR``), or the line stripped when it cannot be read."""
    text = line.strip()
    try:
        return rules.parse(text).format()
    except OrderError:
        return text


def check_orders(rules: RuleSet, position: Position, power: str, orders: Sequence[str]) -> list[OrderResult]:
    """Validate ``power``'s orders in ``position`` without storing them: the rejected ones, with their errors.

    Each order is checked alone, then the rule modules check the list as a
    whole (a rule module may allow one order of a kind per power).
    """
    options = retreat_options_of(rules, position) if position.phase.kind == RETREATS else None
    intake = read_orders(rules, position, {power: list(orders)}, options)
    rejected = intake.rejected
    if rules.variants:
        checked: list[Order] = [o for _, _, o in intake.sequence]
        texts = {id(o): t for _, t, o in intake.sequence}
        for v in rules.implementing(OrderRules):
            for order, err in v.check_order_list(rules, position, power, checked):
                rejected.append(
                    OrderResult(power, texts.get(id(order), order.format()), order, ILLEGAL, err.reason, err.message)
                )
    return rejected


class Progress:
    """One phase being played: its position, the step it is in, what each power gave, who is ready."""

    def __init__(
        self,
        rules: RuleSet,
        position: Position,
        step: str = ORDERS,
        pending: Mapping[str, Sequence[str]] | None = None,
        confirmed: Iterable[str] = (),
        changes: Mapping[str, str] | None = None,
        lock_events: tuple[object, ...] = (),
    ) -> None:
        self.rules = rules
        self.position = position
        self.step = step
        """The name of the current step (one of :attr:`steps`)."""
        self.pending: dict[str, list[str]] = {p: list(o) for p, o in (pending or {}).items()}
        """Each power's orders, in normal form (as locked, once a lock closed the orders step)."""
        self.confirmed: set[str] = set(confirmed)
        """Powers that confirmed they are done with the current step."""
        self.changes: dict[str, str] = dict(changes or {})
        """In a step that accepts one change: each power's change, in normal form."""
        self.lock_events = lock_events
        """Once the orders locked: what the lock revealed, each event naming its audience."""

    def copy(self) -> Progress:
        """An independent copy (the rules and positions, immutable, are shared)."""
        return Progress(
            self.rules, self.position, self.step, self.pending, self.confirmed, self.changes, self.lock_events
        )

    # ------------------------------------------------------------------ who acts
    def powers_to_order(self) -> list[str]:
        """Powers that have something to order in the current phase."""
        pos, rules = self.position, self.rules
        if pos.phase.kind == MOVEMENT:
            return sorted({u.power for u in pos.units.values()})
        if pos.phase.kind == ADJUSTMENTS:
            return sorted(p for p, n in adjustment_counts(rules, pos).items() if n != 0)
        if holds_retreat_phase(rules, pos):
            # Every retreat step is held by everyone, so nobody learns who has something to retreat.
            return sorted({u.power for u in pos.units.values()} | {d.unit.power for d in pos.dislodged.values()})
        # A dislodged unit with nowhere to go has no choice (a missing order disbands it): its power is not
        # waited for, so a retreat phase where no unit may retreat is processed at once (as MILA skips it).
        options = retreat_options_of(rules, pos)
        return sorted({d.unit.power for prov, d in pos.dislodged.items() if options.get(prov)})

    def waiting_for(self) -> list[str]:
        """Powers that must act in the current step and have not confirmed yet."""
        return [p for p in self.powers_to_order() if p not in self.confirmed]

    def _check_power(self, power: str) -> None:
        if power not in self.rules.game_map.powers:
            raise ValueError(f"{power!r} is not a power of this game")

    # ------------------------------------------------------------------ steps
    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps of the current phase, as its rule modules declare them (``orders`` first)."""
        return phase_steps(self.rules, self.position)

    @property
    def current_step(self) -> Step:
        """The declaration of the step the phase is in."""
        for step in self.steps:
            if step.name == self.step:
                return step
        raise StepError(f"{self.position.phase} has no step {self.step!r}")

    @property
    def next_step(self) -> Step | None:
        """The step that opens when the current one ends with a lock (``None``: the adjudication comes next)."""
        steps = self.steps
        i = [s.name for s in steps].index(self.step)
        return steps[i + 1] if i + 1 < len(steps) and steps[i].at_end == AtEnd.LOCK else None

    # ------------------------------------------------------------------ orders
    def check_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Validate orders without storing them: the rejected ones, with their errors."""
        return check_orders(self.rules, self.position, power, orders)

    def read_orders(self, power: str, lines: Sequence[str]) -> tuple[list[str], list[OrderResult]]:
        """Read ``power``'s lines once: their normal forms (empty lines out) and the rejected ones."""
        self._check_power(power)
        if self.current_step.accepts != Accepts.ORDERS:
            raise StepError(f"the orders are locked; in the {self.step} step a power changes one order with set_change")
        normal = [normal_form(self.rules, o) for o in lines if o.strip()]
        return normal, self.check_orders(power, normal)

    def set_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Replace ``power``'s pending orders; returns the rejected ones (they are kept, and fail).

        Each line is read and checked here, once, and kept in normal form.  Raises
        :class:`StepError` in a step that does not take orders (once they are locked).
        """
        normal, rejected = self.read_orders(power, orders)
        self.pending[power] = normal
        return rejected

    def check_change(self, power: str, order: str) -> Order:
        """Validate a change of ``power`` without storing it; return it in normal form.

        Raises :class:`StepError` in a step that takes no change and
        :class:`~arbitre.orders.OrderError` for a change that cannot be read or is not legal.
        """
        self._check_power(power)
        if self.current_step.accepts != Accepts.ONE_CHANGE:
            raise StepError(f"a change is given once the orders are locked, not in the {self.step} step")
        return check_change(self.rules, self.position, power, order)

    def set_change(self, power: str, order: str) -> Order:
        """Replace the order of one of ``power``'s units (in a step that accepts one change); return it.

        A second call replaces the first (a power never changes two units).  An order that cannot be
        read or is not legal raises :class:`~arbitre.orders.OrderError` and changes nothing.
        """
        change = self.check_change(power, order)
        self.changes[power] = change.format()
        return change

    def clear_change(self, power: str) -> None:
        """Withdraw ``power``'s change: its locked orders stand."""
        self.changes.pop(power, None)

    def final_orders(self) -> dict[str, list[str]]:
        """The orders the adjudication will use: as locked, lock-step orders out, each change applied."""
        orders = without_lock_orders(self.rules, self.pending)
        final = apply_changes(self.rules, self.position, orders, self.changes)
        return {p: [o if isinstance(o, str) else o.format() for o in os_] for p, os_ in final.items()}

    # ------------------------------------------------------------------ closing
    def confirm(self, power: str, ready: bool = True) -> bool:
        """Mark ``power`` done (or not done) with the current step; True when nobody is awaited any more."""
        self._check_power(power)
        if not ready:
            self.confirmed.discard(power)
            return False
        self.confirmed.add(power)
        return not self.waiting_for()

    def lock(self) -> Transition:
        """End the current step with its lock and open the next step.

        Raises :class:`StepError` when the current step does not end with a lock.
        """
        following = self.next_step
        if following is None:
            if has_lock(self.rules, self.position):
                raise StepError("the orders are already locked")
            raise StepError(f"{self.position.phase} has no lock step; advance() adjudicates it")
        closed = self.step
        self.lock_events = lock_orders(self.rules, self.position, self.pending).events
        self.step = following.name
        self.confirmed = set()
        self.changes = {}
        return Transition(
            str(self.position.phase),
            closed,
            self.position,
            self.position,
            {p: list(o) for p, o in self.pending.items()},
            lock_events=self.lock_events,
        )

    def adjudicate(self) -> Transition:
        """Adjudicate the phase with the orders as they stand (missing orders hold) and open the next one.

        Call it from the step that ends with the adjudication (:meth:`close_step` locks first).
        """
        closed = self.step
        outcome = adjudicate(self.rules, self.position, self.final_orders())
        done = Transition(
            str(self.position.phase),
            closed,
            self.position,
            outcome.after,
            {p: list(o) for p, o in self.pending.items()},
            dict(self.changes),
            outcome,
            self.lock_events,
        )
        self.position = outcome.after
        self.pending = {}
        self.step = ORDERS
        self.confirmed = set()
        self.changes = {}
        self.lock_events = ()
        return done

    def close_step(self) -> Transition:
        """End the current step, as its deadline or everyone's readiness does: lock or adjudicate."""
        if self.current_step.at_end == AtEnd.LOCK:
            return self.lock()
        return self.adjudicate()

    # ------------------------------------------------------------------ views
    def view(self, viewer: str) -> View:
        """The current phase as ``viewer`` may see it (its own pending orders, what the lock told it)."""
        if not self.changes:
            return build_view(self.rules, self.position, viewer, pending=self.pending, events=self.lock_events)
        pending = apply_changes(self.rules, self.position, self.pending, self.changes)
        texts = {p: [o if isinstance(o, str) else o.format() for o in os_] for p, os_ in pending.items()}
        return build_view(self.rules, self.position, viewer, pending=texts, events=self.lock_events)
