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

from arbitre.adjudicator import OrderResult, PhaseOutcome
from arbitre.judge.codec import position_from_data
from arbitre.judge.progress import Progress, Transition, check_orders, normal_form
from arbitre.judge.records import (
    events_from_data,
    events_to_data,
    outcome_from_data,
    outcome_to_data,
    position_from_record,
    position_to_record,
)
from arbitre.judge.steps import ORDERS, Step, StepError
from arbitre.orders import Order
from arbitre.rules import RuleSet, legal_orders
from arbitre.state import RETREATS, Phase, Position
from arbitre.variants import make_rules
from arbitre.views import View, build_view

__all__ = [
    "ACTIVE",
    "DRAWN",
    "ENDED",
    "FORMAT",
    "WON",
    "Game",
    "PhaseRecord",
    "StepError",
    "check_orders",
    "record_from_data",
    "record_of",
    "record_to_data",
    "record_view",
    "replay",
    "start_position",
    "transition_to_data",
]

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


class Game:
    """A game in progress: the phase being played (:attr:`progress`), the played phases, the end.

    Create one with :meth:`Game.new`.
    """

    def __init__(
        self,
        rules: RuleSet,
        position: Position,
        map_name: str = "standard",
        rule_names: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        pending: Mapping[str, Sequence[str]] | None = None,
        history: list[PhaseRecord] | None = None,
        status: str = ACTIVE,
        winners: Sequence[str] = (),
        last_year: int | None = None,
        target_centers: int | None = None,
        step: str = ORDERS,
        confirmed: Sequence[str] = (),
        changes: Mapping[str, str] | None = None,
        lock_events: tuple[object, ...] = (),
    ) -> None:
        self.progress = Progress(rules, position, step, pending, confirmed, changes, lock_events)
        """The phase being played: its position, step, pending orders (normal form), readiness."""
        self.map_name = map_name
        self.rule_names = tuple(rule_names)
        self.options: dict[str, Any] = dict(options or {})
        self.history: list[PhaseRecord] = list(history or [])
        """The played phases, oldest first (a game loaded from a record of its current phase has none)."""
        self.played = len(self.history)
        """How many phases have been played (``len(history)`` unless the history was left out when loading)."""
        self.status = status
        self.winners = tuple(winners)
        self.last_year = last_year
        """The game's end setting: once every phase of this year is played, the game ends in a draw
        among the powers still in it (``None``: it ends only by victory, draw or the master)."""
        self.target_centers = target_centers
        """The game's victory setting: the centres a power needs to win (``None``: the map's number)."""

    # ------------------------------------------------------------------ the progress's state
    @property
    def rules(self) -> RuleSet:
        """The game's rule set."""
        return self.progress.rules

    @property
    def position(self) -> Position:
        """The current position."""
        return self.progress.position

    @position.setter
    def position(self, value: Position) -> None:
        self.progress.position = value

    @property
    def pending(self) -> dict[str, list[str]]:
        """Each power's pending orders, in normal form."""
        return self.progress.pending

    @pending.setter
    def pending(self, value: dict[str, list[str]]) -> None:
        self.progress.pending = value

    @property
    def step(self) -> str:
        """The name of the current step of the phase (one of :attr:`steps`)."""
        return self.progress.step

    @step.setter
    def step(self, value: str) -> None:
        self.progress.step = value

    @property
    def confirmed(self) -> set[str]:
        """Powers that confirmed they are done with the current step."""
        return self.progress.confirmed

    @confirmed.setter
    def confirmed(self, value: set[str]) -> None:
        self.progress.confirmed = value

    @property
    def changes(self) -> dict[str, str]:
        """In a step that accepts one change: each power's change, in normal form."""
        return self.progress.changes

    @changes.setter
    def changes(self, value: dict[str, str]) -> None:
        self.progress.changes = value

    @property
    def lock_events(self) -> tuple[object, ...]:
        """Once the orders locked: what the lock revealed, each event naming its audience."""
        return self.progress.lock_events

    @lock_events.setter
    def lock_events(self, value: tuple[object, ...]) -> None:
        self.progress.lock_events = value

    def copy(self) -> Game:
        """An independent copy (history list and progress copied; positions and records are immutable)."""
        out = Game.__new__(Game)
        out.__dict__.update(self.__dict__)
        out.progress = self.progress.copy()
        out.history = list(self.history)
        out.options = dict(self.options)
        return out

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
        return self.progress.powers_to_order()

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
        return self.progress.view(viewer)

    def phase_view(self, index: int, viewer: str) -> View:
        """Played phase ``index`` of :attr:`history` as ``viewer`` may see it: orders, results, report."""
        return record_view(self.rules, self.history[index], viewer)

    def history_views(self, viewer: str) -> list[View]:
        """Every played phase as ``viewer`` may see it, oldest first."""
        return [self.phase_view(i, viewer) for i in range(len(self.history))]

    def centers(self, power: str) -> int:
        """Supply centres ``power`` owns that count for victory."""
        return self.rules.victory_centers(power, self.position)

    # ------------------------------------------------------------------ orders
    def check_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Validate orders without storing them: the rejected ones, with their errors."""
        return self.progress.check_orders(power, orders)

    def set_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Replace ``power``'s pending orders, kept in normal form; returns the rejected ones (they are kept,
        and fail).

        Raises :class:`StepError` in a step that does not take orders (once they are locked).
        """
        return self.progress.set_orders(power, orders)

    # ------------------------------------------------------------------ steps
    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps of the current phase, as its rule modules declare them (``orders`` first)."""
        return self.progress.steps

    @property
    def current_step(self) -> Step:
        """The declaration of the step the phase is in."""
        return self.progress.current_step

    @property
    def next_step(self) -> Step | None:
        """The step that opens when the current one ends with a lock (``None``: the adjudication comes next)."""
        return self.progress.next_step

    def waiting_for(self) -> list[str]:
        """Powers that must act in the current step and have not confirmed yet."""
        return self.progress.waiting_for()

    def confirm(self, power: str, ready: bool = True) -> PhaseOutcome | None:
        """Mark ``power`` done (or, with ``ready=False``, not done) with the current step.

        When every power that must act has confirmed, the step closes as by
        :meth:`close_step`; the outcome is returned when that adjudicated the
        phase, ``None`` otherwise (still waiting, or the orders locked: see
        :attr:`step`).
        """
        self.progress._check_power(power)
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        if not self.progress.confirm(power, ready):
            return None
        return self.close_step()

    def close_step(self) -> PhaseOutcome | None:
        """End the current step, as its deadline does (the caller knows the time; the game does not).

        A step that ends with a lock locks the orders and opens the next step
        (returns ``None``); a step that ends with the adjudication adjudicates
        the phase and returns the outcome.
        """
        return self.close_transition().outcome

    def close_transition(self) -> Transition:
        """End the current step (as :meth:`close_step`) and return what it did, to store as one record."""
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        return self.apply(self.progress.close_step())

    def apply(self, transition: Transition) -> Transition:
        """Take a closed step into the game: an adjudication adds a played phase and may end the game."""
        if transition.outcome is not None:
            self.history.append(record_of(transition))
            self.played += 1
            self._check_victory()
        return transition

    def lock(self) -> tuple[object, ...]:
        """End the current step with its lock and open the next step; return what the lock revealed.

        Each returned event (also kept in :attr:`lock_events`) names its
        audience; players reach them only through their views.  Raises
        :class:`StepError` when the current step does not end with a lock
        (the orders are already locked, or the phase has no lock).
        """
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        return self.progress.lock().lock_events

    def check_change(self, power: str, order: str) -> Order:
        """Validate a change of ``power`` without storing it; return it in normal form.

        Raises :class:`StepError` in a step that takes no change and
        :class:`~arbitre.orders.OrderError` for a change that cannot be read or is not legal.
        """
        return self.progress.check_change(power, order)

    def set_change(self, power: str, order: str) -> Order:
        """Replace the order of one of ``power``'s units (in a step that accepts one change); return it.

        A power makes one change: a second call replaces the first (it never
        changes two units).  An order that cannot be read or is not legal
        raises :class:`~arbitre.orders.OrderError` and changes nothing.
        """
        return self.progress.set_change(power, order)

    def clear_change(self, power: str) -> None:
        """Withdraw ``power``'s change: its locked orders stand."""
        self.progress.clear_change(power)

    def final_orders(self) -> dict[str, list[str]]:
        """The orders the adjudication will use: as locked, lock-step orders out, each change applied."""
        return self.progress.final_orders()

    # ------------------------------------------------------------------ advance
    def advance(self) -> PhaseOutcome:
        """Adjudicate the current phase with the pending orders (missing orders hold) and move on.

        From a step that ends with a lock, the orders lock first (the lock's
        events are recorded) and nobody changes anything.
        """
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        while self.next_step is not None:
            self.progress.lock()
        outcome = self.apply(self.progress.adjudicate()).outcome
        assert outcome is not None
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
        self.progress._check_power(power)
        self.status = WON
        self.winners = (power,)

    def end(self) -> None:
        """End the game without a result."""
        self.status = ENDED

    # ------------------------------------------------------------------ storage
    def state_data(self) -> dict[str, Any]:
        """The game without its played phases, as JSON-ready data: settings, the current position (its
        rule modules' extras included), the phase's progress and the end.  :meth:`from_data` reads it
        back without adjudicating anything; the played phases are kept apart (:func:`record_to_data`)."""
        return {
            "format": FORMAT,
            "map": self.map_name,
            "rules": list(self.rule_names),
            "options": self.options,
            "status": self.status,
            "winners": list(self.winners),
            "last_year": self.last_year,
            **({"target_centers": self.target_centers} if self.target_centers else {}),
            "played": self.played,
            "position": position_to_record(self.position),
            "pending": self.pending,
            "step": self.step,
            "confirmed": sorted(self.confirmed),
            "changes": self.changes,
            **({"lock_events": events_to_data(self.lock_events)} if self.lock_events else {}),
        }

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready dict of the whole game: :meth:`state_data` and every played phase as its record."""
        return {**self.state_data(), "history": [record_to_data(rec) for rec in self.history]}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Game:
        """Read a game saved by :meth:`to_data` or :meth:`state_data`: no phase is adjudicated again.

        Files of the first format (``arbitre-game/1``: positions without extras and the orders as typed)
        are replayed once, phase by phase, to rebuild their outcomes (:func:`replay`).
        """
        if data.get("format") != FORMAT:
            return replay(data)
        game = cls.new(data.get("map", "standard"), data.get("rules", ()), data.get("options") or {})
        rules = game.rules
        game.history = [record_from_data(rules, rec) for rec in data.get("history", [])]
        game.played = int(data.get("played", len(game.history)))
        game.progress = Progress(
            rules,
            position_from_record(rules, data["position"]),
            data.get("step", ORDERS),
            data.get("pending", {}),
            data.get("confirmed", ()),
            data.get("changes", {}),
            events_from_data(data.get("lock_events", [])),
        )
        game.status = data.get("status", ACTIVE)
        game.winners = tuple(data.get("winners", ()))
        game.last_year = data.get("last_year")
        game.target_centers = data.get("target_centers")
        return game


FORMAT = "arbitre-game/2"
"""The format of saved games: played phases as records (read back as they were), positions with extras."""


def record_of(transition: Transition) -> PhaseRecord:
    """The played phase an adjudicating :class:`Transition` closed."""
    assert transition.outcome is not None
    return PhaseRecord(
        transition.before,
        transition.orders,
        transition.outcome.results,
        transition.outcome,
        dict(transition.changes),
        transition.lock_events,
    )


def record_view(rules: RuleSet, record: PhaseRecord, viewer: str) -> View:
    """A played phase as ``viewer`` may see it: orders, results, report (the views' allow-list builder)."""
    return build_view(rules, record.position, viewer, record.outcome, events=record.lock_events)


def record_to_data(record: PhaseRecord) -> dict[str, Any]:
    """A played phase as JSON-ready data: the position before and after (with extras), every power's
    orders in normal form, the changes, the results, the events with their audiences, what the lock revealed."""
    return {
        "phase": str(record.position.phase),
        "position": position_to_record(record.position),
        "orders": record.orders,
        **({"changes": record.changes} if record.changes else {}),
        **outcome_to_data(record.outcome),
        **({"lock_events": events_to_data(record.lock_events)} if record.lock_events else {}),
    }


def transition_to_data(transition: Transition) -> dict[str, Any]:
    """A closed step as one record: a played phase (:func:`record_to_data`) or a lock (the orders as
    locked, in normal form, and what the lock revealed to whom)."""
    if transition.outcome is not None:
        return record_to_data(record_of(transition))
    return {
        "phase": transition.phase,
        "step": transition.step,
        "orders": transition.orders,
        "lock_events": events_to_data(transition.lock_events),
    }


def record_from_data(rules: RuleSet, data: Mapping[str, Any]) -> PhaseRecord:
    """A played phase stored by :func:`record_to_data`, as it was (nothing is adjudicated)."""
    before = position_from_record(rules, data["position"])
    outcome = outcome_from_data(rules, before, data)
    return PhaseRecord(
        before,
        {p: list(o) for p, o in data.get("orders", {}).items()},
        outcome.results,
        outcome,
        dict(data.get("changes", {})),
        events_from_data(data.get("lock_events", [])),
    )


def replay(data: Mapping[str, Any]) -> Game:
    """A game of the first saved format (``arbitre-game/1``), rebuilt by adjudicating each played phase
    again from its saved orders, once (command-line files and the upgrade of older sites)."""
    game = Game.new(data.get("map", "standard"), data.get("rules", ()), data.get("options") or {})
    for rec in data.get("history", []):
        pos = _read_position(game.rules, rec["position"], game.position.extras)
        game.position = pos
        game.pending = {p: _normal(game.rules, o) for p, o in rec.get("orders", {}).items()}
        if game.next_step is not None:
            game.lock()
            game.changes = dict(_changes(rec))
        game.advance()
    saved = _read_position(game.rules, data["position"], game.position.extras)
    game.position = saved
    game.pending = {p: _normal(game.rules, o) for p, o in data.get("pending", {}).items()}
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


def _normal(rules: RuleSet, lines: Sequence[str]) -> list[str]:
    """Orders saved as typed, in normal form (a line that cannot be read stays as given)."""
    return [normal_form(rules, o) for o in lines if o.strip()]


def _changes(data: Mapping[str, Any]) -> Mapping[str, str]:
    """The changes of a saved phase (``reactions`` in files written before steps were declared)."""
    found: Mapping[str, str] = data.get("changes", data.get("reactions", {}))
    return found


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
