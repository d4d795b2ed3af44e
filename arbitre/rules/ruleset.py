"""The rule set a game carries: its map, its options and its rule modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from arbitre.maps import GameMap
from arbitre.orders import STANDARD_SYNTAX, Order, OrderSyntax, parse_order
from arbitre.rules.legality import check_adjustment_order, check_movement_order, check_retreat_order
from arbitre.rules.options import RuleOptions
from arbitre.rules.variant import Variant
from arbitre.state import ADJUSTMENTS, MOVEMENT, Position


@dataclass(frozen=True, eq=False)
class RuleSet:
    """Map + options + variants.  Build one with :func:`arbitre.rules.make_rules`.

    ``game_map`` is the map after every variant's ``transform_map``;
    ``syntax`` is the order grammar after every variant's ``extend_syntax``.
    """

    game_map: GameMap
    options: RuleOptions = RuleOptions()
    variants: tuple[Variant, ...] = ()
    syntax: OrderSyntax = STANDARD_SYNTAX
    settings: Mapping[str, object] = field(default_factory=dict)

    @property
    def variant_names(self) -> tuple[str, ...]:
        """Names of the rule modules in play."""
        return tuple(v.name for v in self.variants)

    def variant(self, name: str) -> Variant | None:
        """The rule module called ``name``, if it is in play."""
        for v in self.variants:
            if v.name == name:
                return v
        return None

    def parse(self, text: str) -> Order:
        """Parse an order with this game's grammar (raises InvalidOrder/AmbiguousOrder)."""
        return parse_order(text, self.game_map, self.syntax)

    def check(self, position: Position, power: str, order: Order,
              retreat_options: dict[str, tuple[str, ...]] | None = None) -> Order:
        """Validate an order of ``power`` in ``position``; return its normal form or raise IllegalOrder."""
        for v in self.variants:
            checked = v.check_order(self, position, power, order)
            if checked is not None:
                return checked
        kind = position.phase.kind
        if kind == MOVEMENT:
            return check_movement_order(self.game_map, position, power, order, self.options)
        if kind == ADJUSTMENTS:
            return check_adjustment_order(self.game_map, position, power, order,
                                          self.game_map.home_centers(power))
        return check_retreat_order(self.game_map, position, power, order, retreat_options or {})

    def movement_adjudicators(self) -> dict[type, Callable[..., bool]]:
        """Extra order-type adjudicators from all variants."""
        out: dict[type, Callable[..., bool]] = {}
        for v in self.variants:
            out.update(v.movement_adjudicators())
        return out

    def build_centers(self, power: str, position: Position) -> int:
        """How many centres count towards ``power``'s builds."""
        return sum(
            1
            for c, p in position.owners.items()
            if p == power and all(v.counts_for_builds(power, c, position) for v in self.variants)
        )

    def victory_centers(self, power: str, position: Position) -> int:
        """How many centres count towards ``power``'s victory."""
        return sum(
            1
            for c, p in position.owners.items()
            if p == power and all(v.counts_for_victory(power, c, position) for v in self.variants)
        )
