"""A whole game: the current position, pending orders, phase advance, history, the end.

``Game`` is pure: it reads no clock and does no I/O.  Deadlines and storage
belong to the server; the CLI keeps a game in a JSON file through
:meth:`Game.to_data` / :meth:`Game.from_data`.

A phase goes through steps (:mod:`arbitre.judge.steps`).  Every phase has
the ``orders`` step: :meth:`Game.set_orders`, then :meth:`Game.confirm` by
each power (or :meth:`Game.close_step` when the deadline passes).  A phase
whose rules ask for it (Espionnite's movement phases) then locks and opens a
``reaction`` step: :attr:`Game.lock_events` holds what the lock revealed (each
event names its audience), :meth:`Game.set_reaction` takes each power's one
change, and :meth:`Game.confirm` / :meth:`Game.close_step` end it.  Either
way :meth:`Game.advance` adjudicates; the step sequence of a game without
such rules is unchanged (``orders``, then ``advance``).
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
    REACTION,
    StepError,
    apply_reactions,
    check_reaction,
    has_reaction_step,
    lock_orders,
    without_lock_orders,
)
from arbitre.orders import Order
from arbitre.rules import RuleSet, legal_orders
from arbitre.rules.facets import OrderRules
from arbitre.state import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Position, Unit
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
    included); ``reactions`` the one change each power made in the reaction
    step; ``lock_events`` what the lock revealed, each event naming its
    audience.  None of these is public as such: views decide who sees what.
    """

    position: Position
    orders: dict[str, list[str]]
    results: tuple[OrderResult, ...]
    outcome: PhaseOutcome
    reactions: dict[str, str] = field(default_factory=dict)
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
    step: str = ORDERS
    """``orders`` or ``reaction`` (see :mod:`arbitre.judge.steps`)."""
    confirmed: set[str] = field(default_factory=set)
    """Powers that confirmed they are done with the current step."""
    reactions: dict[str, str] = field(default_factory=dict)
    """In the reaction step: each power's one change, in normal form."""
    lock_events: tuple[object, ...] = ()
    """In the reaction step: what the lock revealed, each event naming its audience."""

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, map_name: str = "standard", rules: Sequence[str] = (),
            options: Mapping[str, Any] | None = None, last_year: int | None = None) -> Game:
        """A new game at the map's first phase with its starting units and home centres.

        ``last_year`` is the game's end setting (see :attr:`last_year`).
        """
        ruleset = make_rules(map_name, rules, options)
        position = start_position(ruleset)
        return cls(ruleset, position, map_name, tuple(rules), dict(options or {}), last_year=last_year)

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
        return [p for p in self.powers() if any(u.power == p for u in pos.units.values())
                or p in pos.owners.values()]

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
        master) and, in the reaction step, what the lock told the viewer and
        the orders with each power's change applied (a power sees its own).
        """
        if self.step != REACTION:
            return build_view(self.rules, self.position, viewer, pending=self.pending)
        pending = apply_reactions(self.rules, self.position, self.pending, self.reactions) if self.reactions else {
            p: list(o) for p, o in self.pending.items()}
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

        Raises :class:`StepError` once the orders are locked (use :meth:`set_reaction`).
        """
        self._check_power(power)
        if self.step != ORDERS:
            raise StepError("the orders are locked; in the reaction step a power changes one order "
                            "with set_reaction")
        self.pending[power] = [o for o in orders if o.strip()]
        return self.check_orders(power, self.pending[power])

    def _check_power(self, power: str) -> None:
        if power not in self.rules.game_map.powers:
            raise ValueError(f"{power!r} is not a power of this game")

    # ------------------------------------------------------------------ steps
    @property
    def has_reaction_step(self) -> bool:
        """Does the current phase pause for a reaction step after its orders lock (Espionnite)?"""
        return has_reaction_step(self.rules, self.position)

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

        In the ``orders`` step of a phase with a reaction step, lock the orders
        and open the reaction step (returns ``None``); otherwise adjudicate the
        phase and return the outcome.
        """
        if self.step == ORDERS and self.has_reaction_step:
            self.lock()
            return None
        return self.advance()

    def lock(self) -> tuple[object, ...]:
        """Lock the orders and open the reaction step; return what the lock revealed.

        Each returned event (also kept in :attr:`lock_events`) names its
        audience; players reach them only through their views.  Raises
        :class:`StepError` when the orders are already locked or the phase
        has no reaction step.
        """
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        if self.step != ORDERS:
            raise StepError("the orders are already locked")
        if not self.has_reaction_step:
            raise StepError(f"{self.phase} has no reaction step; advance() adjudicates it")
        self.lock_events = lock_orders(self.rules, self.position, self.pending).events
        self.step = REACTION
        self.confirmed = set()
        self.reactions = {}
        return self.lock_events

    def check_reaction(self, power: str, order: str) -> Order:
        """Validate a reaction change of ``power`` without storing it; return it in normal form.

        Raises :class:`StepError` outside the reaction step and
        :class:`~arbitre.orders.OrderError` for a change that cannot be read or is not legal.
        """
        self._check_power(power)
        if self.step != REACTION:
            raise StepError("a reaction is given in the reaction step, once the orders are locked")
        return check_reaction(self.rules, self.position, power, order)

    def set_reaction(self, power: str, order: str) -> Order:
        """In the reaction step, replace the order of one of ``power``'s units; return it in normal form.

        A power makes one change: a second call replaces the first (it never
        changes two units).  An order that cannot be read or is not legal
        raises :class:`~arbitre.orders.OrderError` and changes nothing.
        """
        change = self.check_reaction(power, order)
        self.reactions[power] = change.format()
        return change

    def clear_reaction(self, power: str) -> None:
        """Withdraw ``power``'s change: its locked orders stand."""
        self.reactions.pop(power, None)

    def final_orders(self) -> dict[str, list[str]]:
        """The orders the adjudication will use: as locked, lock-step orders out, each change applied."""
        orders = without_lock_orders(self.rules, self.pending)
        final = apply_reactions(self.rules, self.position, orders, self.reactions)
        return {p: [o if isinstance(o, str) else o.format() for o in os_] for p, os_ in final.items()}

    # ------------------------------------------------------------------ advance
    def advance(self) -> PhaseOutcome:
        """Adjudicate the current phase with the pending orders (missing orders hold) and move on.

        In the ``orders`` step of a phase with a reaction step, the orders lock
        first (the lock's events are recorded) and nobody changes anything.
        """
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        if self.step == ORDERS and self.has_reaction_step:
            self.lock()
        orders = {p: list(o) for p, o in self.pending.items()}
        outcome = adjudicate(self.rules, self.position, self.final_orders())
        self.history.append(PhaseRecord(self.position, orders, outcome.results, outcome, dict(self.reactions),
                                        self.lock_events))
        self.position = outcome.after
        self.pending = {}
        self.step = ORDERS
        self.confirmed = set()
        self.reactions = {}
        self.lock_events = ()
        self._check_victory()
        return outcome

    def _check_victory(self) -> None:
        if self.position.phase.kind == RETREATS:
            return
        target = self.rules.game_map.victory_centers
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
            "position": position_to_data(self.position, gmap),
            "pending": self.pending,
            "step": self.step,
            "confirmed": sorted(self.confirmed),
            "reactions": self.reactions,
            "history": [
                {
                    "position": position_to_data(rec.position, gmap),
                    "orders": rec.orders,
                    **({"reactions": rec.reactions} if rec.reactions else {}),
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
            if game.has_reaction_step:
                game.lock()
                game.reactions = dict(rec.get("reactions", {}))
            game.advance()
        saved = _read_position(game.rules, data["position"], game.position.extras)
        game.position = saved
        game.pending = {p: list(o) for p, o in data.get("pending", {}).items()}
        if data.get("step", ORDERS) == REACTION:
            game.lock()  # the lock's events are derived again from the locked orders
            game.reactions = dict(data.get("reactions", {}))
        game.confirmed = set(data.get("confirmed", ()))
        game.status = data.get("status", ACTIVE)
        game.winners = tuple(data.get("winners", ()))
        game.last_year = data.get("last_year")
        return game


def check_orders(rules: RuleSet, position: Position, power: str, orders: Sequence[str]) -> list[OrderResult]:
    """Validate ``power``'s orders in ``position`` without storing them: the rejected ones, with their errors.

    Each order is checked alone, then the rule modules check the list as a
    whole (Espionnite: one spy and one counter-spy per power).
    """
    options = retreat_options_of(rules, position) if position.phase.kind == RETREATS else None
    intake = read_orders(rules, position, {power: list(orders)}, options)
    rejected = intake.rejected
    if rules.variants:
        checked: list[Order] = [o for _, _, o in intake.sequence]
        texts = {id(o): t for _, t, o in intake.sequence}
        for v in rules.implementing(OrderRules):
            for order, err in v.check_order_list(rules, position, power, checked):
                rejected.append(OrderResult(power, texts.get(id(order), order.format()), order, ILLEGAL,
                                            err.reason, err.message))
    return rejected


def _read_position(rules: RuleSet, data: Mapping[str, Any], extras: Mapping[str, object]) -> Position:
    return position_from_data(rules, data["phase"], data.get("units", {}), data.get("supply_centers"),
                              data.get("dislodged"), extras)


def start_position(rules: RuleSet) -> Position:
    """The map's starting position: its start units, home centres owned."""
    gmap = rules.game_map
    units: dict[str, Unit] = {}
    for power, info in gmap.powers.items():
        for text in info.start_units:
            kind, place = text.split()
            units[gmap.province_of[place]] = Unit(power, kind, place)
    owners = {h: p for p, info in gmap.powers.items() for h in info.homes}
    return Position(gmap.name, Phase.parse(gmap.first_phase), units, owners)
