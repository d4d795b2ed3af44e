"""A whole game: the current position, pending orders, phase advance, history, the end.

``Game`` is pure: it reads no clock and does no I/O.  Deadlines and storage
belong to the server; the CLI keeps a game in a JSON file through
:meth:`Game.to_data` / :meth:`Game.from_data`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitre.adjudicator import OrderResult, PhaseOutcome, adjudicate, adjustment_counts
from arbitre.adjudicator.intake import read_orders
from arbitre.adjudicator.phases import retreat_options_of
from arbitre.judge.codec import position_from_data, position_to_data
from arbitre.rules import RuleSet, legal_orders
from arbitre.state import ADJUSTMENTS, MOVEMENT, Phase, Position, Unit
from arbitre.variants import make_rules

ACTIVE = "active"
WON = "won"
DRAWN = "drawn"
ENDED = "ended"


@dataclass(frozen=True)
class PhaseRecord:
    """One played phase: the position before, the orders given, their results, the outcome."""

    position: Position
    orders: dict[str, list[str]]
    results: tuple[OrderResult, ...]
    outcome: PhaseOutcome


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

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, map_name: str = "standard", rules: Sequence[str] = (),
            options: Mapping[str, Any] | None = None) -> Game:
        """A new game at the map's first phase with its starting units and home centres."""
        ruleset = make_rules(map_name, rules, options)
        position = start_position(ruleset)
        extras: dict[str, object] = {}
        for v in ruleset.variants:
            extras.update(v.initial_extras(ruleset, dict(options or {})))
        if extras:
            position = position.with_changes(extras=extras)
        return cls(ruleset, position, map_name, tuple(rules), dict(options or {}))

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
        return sorted({d.unit.power for d in pos.dislodged.values()})

    def legal_orders(self, power: str) -> dict[str, list[str]]:
        """Every legal order of ``power`` now."""
        return legal_orders(self.rules, self.position, power)

    def centers(self, power: str) -> int:
        """Supply centres ``power`` owns that count for victory."""
        return self.rules.victory_centers(power, self.position)

    # ------------------------------------------------------------------ orders
    def check_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Validate orders without storing them: the rejected ones, with their errors."""
        options = retreat_options_of(self.rules, self.position) if self.position.phase.kind == "R" else None
        return read_orders(self.rules, self.position, {power: list(orders)}, options).rejected

    def set_orders(self, power: str, orders: Sequence[str]) -> list[OrderResult]:
        """Replace ``power``'s pending orders; returns the rejected ones (they are kept, and fail)."""
        if power not in self.rules.game_map.powers:
            raise ValueError(f"{power!r} is not a power of this game")
        self.pending[power] = [o for o in orders if o.strip()]
        return self.check_orders(power, self.pending[power])

    # ------------------------------------------------------------------ advance
    def advance(self) -> PhaseOutcome:
        """Adjudicate the current phase with the pending orders (missing orders hold) and move on."""
        if self.is_over:
            raise RuntimeError(f"the game is over ({self.status})")
        orders = {p: list(o) for p, o in self.pending.items()}
        outcome = adjudicate(self.rules, self.position, orders)
        self.history.append(PhaseRecord(self.position, orders, outcome.results, outcome))
        self.position = outcome.after
        self.pending = {}
        self._check_victory()
        return outcome

    def _check_victory(self) -> None:
        if self.position.phase.kind == "R":
            return
        target = self.rules.game_map.victory_centers
        leaders = [p for p in self.powers() if self.centers(p) >= target]
        if leaders:
            self.status = WON
            self.winners = (max(leaders, key=self.centers),)

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
            "position": position_to_data(self.position, gmap),
            "pending": self.pending,
            "history": [
                {
                    "position": position_to_data(rec.position, gmap),
                    "orders": rec.orders,
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
            game.advance()
        saved = _read_position(game.rules, data["position"], game.position.extras)
        game.position = saved
        game.pending = {p: list(o) for p, o in data.get("pending", {}).items()}
        game.status = data.get("status", ACTIVE)
        game.winners = tuple(data.get("winners", ()))
        return game


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
