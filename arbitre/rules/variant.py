"""The variant protocol: named hooks a rule module may override.

A variant is a value, not a subclass of the board.  The :class:`RuleSet` of a
game carries the map, the options and an ordered list of variants; each hook
is asked in turn.  The default implementations here are the standard rules,
so a variant overrides only what it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arbitre.maps import GameMap
from arbitre.orders import IllegalOrder, Order, OrderSyntax

if TYPE_CHECKING:
    from arbitre.rules.ruleset import RuleSet
    from arbitre.state import Position


class Variant:
    """Base class of rule modules (Colonial rules, Submarines, Espionnite…)."""

    name: str = "standard"

    def transform_map(self, game_map: GameMap) -> GameMap:
        """Change the map (add places, unit kinds, passages).  Default: unchanged."""
        return game_map

    def extend_syntax(self, syntax: OrderSyntax) -> OrderSyntax:
        """Add unit words or order parsers.  Default: unchanged."""
        return syntax

    def check_order(self, rules: RuleSet, position: Position, power: str, order: Order) -> Order | None:
        """Validate an order this variant owns, or return ``None`` to let others decide."""
        return None

    def movement_adjudicators(self) -> Mapping[type, Callable[..., bool]]:
        """Adjudicators for the variant's own order types in the movement resolver."""
        return {}

    def counts_for_builds(self, power: str, center: str, position: Position) -> bool:
        """Does owning ``center`` count towards ``power``'s builds?  Default: yes."""
        return True

    def counts_for_victory(self, power: str, center: str, position: Position) -> bool:
        """Does owning ``center`` count towards ``power``'s victory?  Default: yes."""
        return True

    def extra_legal_orders(self, rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
        """More legal orders of ``power`` for the order picker (train moves…).  Default: none."""
        return {}

    def initial_extras(self, rules: RuleSet, settings: Mapping[str, Any]) -> Mapping[str, object]:
        """Variant state to put in a new game's first position.  Default: none."""
        return {}

    # --- hidden information and the steps between the orders and the adjudication (Espionnite)
    def hides_province(self, rules: RuleSet, position: Position, province: str, viewer: str) -> bool:
        """May ``province`` hold a unit that ``viewer`` cannot see (a submerged submarine)?  Default: no.

        Order validation judges an order naming such a place from what the viewer sees.
        """
        return False

    def check_order_list(self, rules: RuleSet, position: Position, power: str,
                         orders: Sequence[Order]) -> Sequence[tuple[Order, IllegalOrder]]:
        """Problems of ``power``'s legal orders taken together (two spy orders).  Default: none."""
        return ()

    def is_lock_order(self, rules: RuleSet, text: str) -> bool:
        """Is ``text`` an order read only when the orders lock, never adjudicated nor published?

        Espionnite's spy orders are; the judge takes them out before adjudicating.  Default: no.
        """
        return False

    def reaction_step(self, rules: RuleSet, position: Position) -> bool:
        """Does this phase pause between the lock of its orders and their adjudication?  Default: no."""
        return False

    def on_lock(self, rules: RuleSet, position: Position,
                orders: Mapping[str, Sequence[str | Order]]) -> Sequence[object]:
        """Events produced when the orders of a phase lock (each names its audience).  Default: none."""
        return ()
