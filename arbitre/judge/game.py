"""A whole game: the current position, pending orders, phase advance, history, the end.

``Game`` is pure: it reads no clock and does no I/O.  Deadlines and storage
belong to the server; the CLI keeps a game in a JSON file through
:meth:`Game.to_data` / :meth:`Game.from_data`.

A phase goes through the steps its rule modules declare (:attr:`Game.steps`,
:mod:`arbitre.judge.steps`).  Every phase starts with the ``orders`` step:
:meth:`Game.set_orders`, then :meth:`Game.confirm` by each power (or
:meth:`Game.close_step` when the deadline passes).  A step that ends with a
lock freezes the orders and opens the next step: :attr:`Game.lock_events`
holds what the lock revealed (each event names its audience); in a step that
accepts one change :meth:`Game.set_change` takes each power's change, and
:meth:`Game.confirm` / :meth:`Game.close_step` end it.  :meth:`Game.advance`
adjudicates from any step; a game whose rules declare no steps has one
(``orders``, then ``advance``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitre.adjudicator import ILLEGAL, OrderResult, PhaseOutcome, adjudicate, adjustment_counts, holds_retreat_phase
from arbitre.adjudicator.intake import read_orders
from arbitre.adjudicator.phases import retreat_options_of
from arbitre.judge.codec import position_from_data, position_to_data
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
from arbitre.orders import Order
from arbitre.rules import RuleSet, legal_orders
from arbitre.rules.facets import OrderRules
from arbitre.state import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Position
from arbitre.variants import make_rules
from arbitre.views import View, build_view

ACTIVE = "active"
WON = "won"
DRAWN = "drawn"
ENDED = "ended"


@dataclass(frozen=True)
class PhaseRecord:
    """One played phase: the position before, the orders given, their results, the outcome.

    ``orders`` are the orders as locked (lock-step orders such as spies
    included); ``changes`` the one change each power made in a step that
    accepts one; ``lock_events`` what the lock revealed, each event naming its
    audience.  None of these is public as such: views decide who sees what.
    """

    position: Position
    orders: dict[str, list[str]]
    results: tuple[OrderResult, ...]
    outcome: PhaseOutcome
    changes: dict[str, str] = field(default_factory=dict)
    lock_events: tuple[object, ...] = ()


@dataclass
class Game:
    """A game in progress.  Create one with :meth:`Game.new`."""

    rules: RuleSet
    position: Position
    map_name: str = "standard"
    rule_names: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    pending: dict[str, list[str]] = field(default_factory=dict)
    history: list[PhaseRecord] = field(default_factory=list)
    status: str = ACTIVE
    winners: tuple[str, ...] = ()
    last_year: int | None = None
    """The game's end setting: once every phase of this year is played, the game ends in a draw
    among the powers still in it (``None``: it ends only by victory, draw or the master)."""
    target_centers: int | None = None
    """The game's victory setting: the centres a power needs to win (``None``: the map's number)."""
    step: str = ORDERS
    """The name of the current step of the phase (one of :attr:`steps`)."""
    confirmed: set[str] = field(default_factory=set)
    """Powers that confirmed they are done with the current step."""
    changes: dict[str, str] = field(default_factory=dict)
    """In a step that accepts one change: each power's change, in normal form."""
    lock_events: tuple[object, ...] = ()
    """Once the orders locked: what the lock revealed, each event naming its audience."""

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        map_name: str = "standard",
        rules: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        last_year: int | None = None,
        target_centers: int | None = None,
    ) -> Game:
        """A new game at the map's first phase with its starting units and home centres.

        ``last_year`` and ``target_centers`` are the game's end settings (see :attr:`last_year`,
        :attr:`target_centers`).
        """
        ruleset = make_rules(map_name, rules, options)
        position = start_position(ruleset)
        return cls(
            ruleset,
            position,
            map_name,
            tuple(rules),
            dict(options or {}),
            last_year=last_year,
            target_centers=target_centers,
        )

    # ------------------------------------------------------------------ queries
    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self.position.phase

    @property
    def is_over(self) -> bool:
        """True once the game is won, drawn or ended."""
        return self.status != ACTIVE

    def powers(self) -> list[str]:
        """All powers of the map."""
        return list(self.rules.game_map.powers)

    def active_powers(self) -> list[str]:
        """Powers that still have units or centres."""
        pos = self.position
        return [p for p in self.powers() if any(u.power == p for u in pos.units.values()) or p in pos.owners.values()]

    def powers_to_order(self) -> list[str]:
        """Powers that have something to order in the current phase."""
        pos = self.position
        if pos.phase.kind == MOVEMENT:
            return sorted({u.power for u in pos.units.values()})
        if pos.phase.kind == ADJUSTMENTS:
            return sorted(p for p, n in adjustment_counts(self.rules, pos).items() if n != 0)
        if holds_retreat_phase(self.rules, pos):
            # Every retreat step is held by everyone, so nobody learns who has something to retreat.
            return sorted({u.power for u in pos.units.values()} | {d.unit.power for d in pos.dislodged.values()})
        return sorted({d.unit.power for d in pos.dislodged.values()})

    def legal_orders(self, power: str) -> dict[str, list[str]]:
        """Every legal order of ``power`` now."""
        return legal_orders(self.rules, self.position, power)

    # ------------------------------------------------------------------ views
    def view(self, viewer: str) -> View:
        """The current phase as ``viewer`` (a power, ``observer`` or ``master``) may see it.

        It holds the viewer's own pending orders (every power's for the
        master) and, once the orders locked, what the lock told the viewer and
        the orders with each power's change applied (a power sees its own).
        """
        if not self.changes:
            return build_view(self.rules, self.position, viewer, pending=self.pending, events=self.lock_events)
        pending = apply_changes(self.rules, self.position, self.pending, self.changes)
        texts = {p: [o if isinstance(o, str) else o.format() for o in os_] for p, os_ in pending.items()}
        return build_view(self.rules, self.position, viewer, pending=texts, events=self.lock_events)

    def phase_view(self, index: int, viewer: str) -> View:
        """Played phase ``index`` of :attr:`history` as ``viewer`` may see it: orders, results, report."""
        record = self.history[index]
        return build_view(self.rules, record.position, viewer, record.outcome, events=record.lock_events)

    def history_views(self, viewer: str) -> list[View]:
        """Every played phase as ``viewer`` may see it, oldest first."""
        return [self.phase_view(i, viewer) for i in range(len(self.history))]

    def centers(self, power: str) -> int:
        """Supply centres ``power`` owns that count for victory."""
        return self.rules.victory_centers(power, self.position)

    # ------------------------------------------------------------------ orders
    def check_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Validate orders without storing them: the rejected ones, with their errors."""
        return check_orders(self.rules, self.position, power, orders)

    def set_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Replace ``power``'s pending orders; returns the rejected ones (they are kept, and fail).

        Raises :class:`StepError` in a step that does not take orders (once they are locked).
        """
        self._check_power(power)
        if self.current_step.accepts != Accepts.ORDERS:
            raise StepError(f"the orders are locked; in the {self.step} step a power changes one order with set_change")
        self.pending[power] = [o for o in orders if o.strip()]
        return self.check_orders(power, self.pending[power])

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
        raise StepError(f"{self.phase} has no step {self.step!r}")

    @property
    def next_step(self) -> Step | None:
        """The step that opens when the current one ends with a lock (``None``: the adjudication comes next)."""
        steps = self.steps
        i = [s.name for s in steps].index(self.step)
        return steps[i + 1] if i + 1 < len(steps) and steps[i].at_end == AtEnd.LOCK else None

    def waiting_for(self) -> list[str]:
        """Powers that must act in the current step and have not confirmed yet."""
        return [p for p in self.powers_to_order() if p not in self.confirmed]

    def confirm(self, power: str, ready: bool = True) -> PhaseOutcome | None:
        """Mark ``power`` done (or, with ``ready=False``, not done) with the current step.

        When every power that must act has confirmed, the step closes as by
        :meth:`close_step`; the outcome is returned when that adjudicated the
        phase, ``None`` otherwise (still waiting, or the orders locked: see
        :attr:`step`).
        """
        self._check_power(power)
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        if not ready:
            self.confirmed.discard(power)
            return None
        self.confirmed.add(power)
        return None if self.waiting_for() else self.close_step()

    def close_step(self) -> PhaseOutcome | None:
        """End the current step, as its deadline does (the caller knows the time; the game does not).

        A step that ends with a lock locks the orders and opens the next step
        (returns ``None``); a step that ends with the adjudication adjudicates
        the phase and returns the outcome.
        """
        if self.current_step.at_end == AtEnd.LOCK:
            self.lock()
            return None
        return self.advance()

    def lock(self) -> tuple[object, ...]:
        """End the current step with its lock and open the next step; return what the lock revealed.

        Each returned event (also kept in :attr:`lock_events`) names its
        audience; players reach them only through their views.  Raises
        :class:`StepError` when the current step does not end with a lock
        (the orders are already locked, or the phase has no lock).
        """
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        following = self.next_step
        if following is None:
            if has_lock(self.rules, self.position):
                raise StepError("the orders are already locked")
            raise StepError(f"{self.phase} has no lock step; advance() adjudicates it")
        self.lock_events = lock_orders(self.rules, self.position, self.pending).events
        self.step = following.name
        self.confirmed = set()
        self.changes = {}
        return self.lock_events

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

        A power makes one change: a second call replaces the first (it never
        changes two units).  An order that cannot be read or is not legal
        raises :class:`~arbitre.orders.OrderError` and changes nothing.
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

    # ------------------------------------------------------------------ advance
    def advance(self) -> PhaseOutcome:
        """Adjudicate the current phase with the pending orders (missing orders hold) and move on.

        From a step that ends with a lock, the orders lock first (the lock's
        events are recorded) and nobody changes anything.
        """
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        while self.next_step is not None:
            self.lock()
        orders = {p: list(o) for p, o in self.pending.items()}
        outcome = adjudicate(self.rules, self.position, self.final_orders())
        self.history.append(
            PhaseRecord(self.position, orders, outcome.results, outcome, dict(self.changes), self.lock_events)
        )
        self.position = outcome.after
        self.pending = {}
        self.step = ORDERS
        self.confirmed = set()
        self.changes = {}
        self.lock_events = ()
        self._check_victory()
        return outcome

    def _check_victory(self) -> None:
        if self.position.phase.kind == RETREATS:
            return
        target = self.target_centers or self.rules.victory_target()
        leaders = [p for p in self.powers() if self.centers(p) >= target]
        if leaders:
            self.status = WON
            self.winners = (max(leaders, key=self.centers),)
        elif self.last_year is not None and self.position.phase.year > self.last_year:
            self.declare_draw()  # the end setting: the last year is played out

    def declare_draw(self, powers: Sequence[str] | None = None) -> None:
        """End the game in a draw agreed by ``powers`` (default: every power still in the game)."""
        self.status = DRAWN
        self.winners = tuple(powers or self.active_powers())

    def concede(self, power: str) -> None:
        """End the game won by ``power``: every other power conceded it (a passed concession vote)."""
        self._check_power(power)
        self.status = WON
        self.winners = (power,)

    def end(self) -> None:
        """End the game without a result."""
        self.status = ENDED

    # ------------------------------------------------------------------ storage
    def to_data(self) -> dict[str, Any]:
        """A JSON-ready dict of the game (rules, position, pending orders, history)."""
        gmap = self.rules.game_map
        return {
            "format": "arbitre-game/1",
            "map": self.map_name,
            "rules": list(self.rule_names),
            "options": self.options,
            "status": self.status,
            "winners": list(self.winners),
            "last_year": self.last_year,
            **({"target_centers": self.target_centers} if self.target_centers else {}),
            "position": position_to_data(self.position, gmap),
            "pending": self.pending,
            "step": self.step,
            "confirmed": sorted(self.confirmed),
            "changes": self.changes,
            "history": [
                {
                    "position": position_to_data(rec.position, gmap),
                    "orders": rec.orders,
                    **({"changes": rec.changes} if rec.changes else {}),
                    "results": [
                        {"power": r.power, "order": r.order_text, "outcome": r.outcome, "reason": r.reason}
                        for r in rec.results
                    ],
                }
                for rec in self.history
            ],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game saved by :meth:`to_data` (history is replayed to restore outcomes)."""
        game = cls.new(data.get("map", "standard"), data.get("rules", ()), data.get("options") or {})
        for rec in data.get("history", []):
            pos = _read_position(game.rules, rec["position"], game.position.extras)
            game.position = pos
            game.pending = {p: list(o) for p, o in rec.get("orders", {}).items()}
            if game.next_step is not None:
                game.lock()
                game.changes = dict(_changes(rec))
            game.advance()
        saved = _read_position(game.rules, data["position"], game.position.extras)
        game.position = saved
        game.pending = {p: list(o) for p, o in data.get("pending", {}).items()}
        step = data.get("step", ORDERS)
        while game.step != step and game.next_step is not None:
            game.lock()  # the lock's events are derived again from the locked orders
        if game.step != step:
            raise ValueError(f"saved step {step!r} is not a step of {game.phase}")
        game.changes = dict(_changes(data))
        game.confirmed = set(data.get("confirmed", ()))
        game.status = data.get("status", ACTIVE)
        game.winners = tuple(data.get("winners", ()))
        game.last_year = data.get("last_year")
        game.target_centers = data.get("target_centers")
        return game


def _changes(data: Mapping[str, Any]) -> Mapping[str, str]:
    """The changes of a saved phase (``reactions`` in files written before steps were declared)."""
    found: Mapping[str, str] = data.get("changes", data.get("reactions", {}))
    return found


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


def _read_position(rules: RuleSet, data: Mapping[str, Any], extras: Mapping[str, object]) -> Position:
    return position_from_data(
        rules, data["phase"], data.get("units", {}), data.get("supply_centers"), _dislodged(data), extras
    )


def _dislodged(data: Mapping[str, Any]) -> Any:
    """The saved dislodged units; in files written before ``by_convoy`` was saved, a retreat list the engine
    computed names the attacker's origin only when the attack came by convoy, so the flag is read from it."""
    dislodged = data.get("dislodged")
    if not isinstance(dislodged, dict):
        return dislodged
    out: dict[str, Any] = {}
    for power, entries in dislodged.items():
        out[power] = entries
        if not isinstance(entries, list):
            continue
        out[power] = [_with_convoy_flag(e) for e in entries]
    return out


def _with_convoy_flag(entry: Any) -> Any:
    if not isinstance(entry, dict) or "by_convoy" in entry:
        return entry
    origin, retreats = entry.get("attacker_from"), entry.get("retreats")
    if not isinstance(origin, str) or not isinstance(retreats, list):
        return entry
    named = any(isinstance(r, str) and r.split("/")[0].upper() == origin.upper() for r in retreats)
    return {**entry, "by_convoy": True} if named else entry


def start_position(rules: RuleSet) -> Position:
    """The starting position of a game under ``rules`` (:meth:`~arbitre.rules.RuleSet.starting_position`)."""
    return rules.starting_position()
