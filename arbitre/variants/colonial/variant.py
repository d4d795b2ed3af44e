"""The Colonial rule module: the hooks it overrides, and nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.adjudicator import MovementExtension, MovementRules
from arbitre.maps import GameMap, load_map
from arbitre.orders import IllegalOrder, Move, Order, Support
from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import MapTransform, OrderRules, Victory
from arbitre.rules.kinds import OrderKind
from arbitre.state import Position
from arbitre.variants.colonial.board import ColonialBoard, colonial_board
from arbitre.variants.colonial.hong_kong import counts_for
from arbitre.variants.colonial.kinds import KINDS
from arbitre.variants.colonial.rulesets import LINE_CENTERS_OPTION, RULESET_OPTION, ColonialRules, rules_from_options
from arbitre.variants.colonial.suez import (
    canal_extensions,
    check_canal_move,
    check_canal_support,
    one_permission_per_turn,
)
from arbitre.variants.colonial.tsr import (
    check_train_support,
    one_train_per_turn,
    train_extensions,
)


class Colonial(Variant, MapTransform, OrderRules, MovementRules, Victory):
    """Colonial Diplomacy's special rules: the Trans-Siberian Railroad, the Suez Canal and Hong Kong.

    ``ruleset`` is the chosen rule set (:data:`~arbitre.variants.colonial.rulesets.VDIPLOMACY`
    or :data:`~arbitre.variants.colonial.rulesets.AVALON_HILL`).
    """

    option_names = frozenset({RULESET_OPTION, LINE_CENTERS_OPTION})
    bot_advice = "arbitre.variants.colonial.advice:ADVICE"

    name = "colonial"

    def __init__(self, ruleset: ColonialRules) -> None:
        self.ruleset = ruleset
        self.board: ColonialBoard | None = None

    def transform_map(self, game_map: GameMap) -> GameMap:
        """The map is unchanged (the canal is a conditional passage, not a border); its facts are read here."""
        self.board = colonial_board(game_map)
        return game_map

    def _board(self, rules: RuleSet) -> ColonialBoard:
        return colonial_board(rules.game_map)

    def order_kinds(self) -> Sequence[OrderKind]:
        """Train moves (``A MOS - TSR - VLA``) and Suez permissions (``SC F MED - RED``, ``SUEZ F MED``)."""
        return KINDS

    def check_order(self, rules: RuleSet, position: Position, power: str, order: Order) -> Order | None:
        """Canal moves and the supports of trains and canal moves (the kinds check themselves)."""
        board = self._board(rules)
        gmap = rules.game_map
        if isinstance(order, Move):
            return check_canal_move(gmap, board, position, power, order)
        if isinstance(order, Support):
            return check_train_support(gmap, board, position, power, order) or check_canal_support(
                gmap, board, position, power, order
            )
        return None

    def check_order_list(
        self, rules: RuleSet, position: Position, power: str, orders: Sequence[Order]
    ) -> Sequence[tuple[Order, IllegalOrder]]:
        """One train move and one Suez permission per power and turn (several: all are refused)."""
        return one_train_per_turn(orders) + one_permission_per_turn(orders)

    def movement_extensions(
        self,
        rules: RuleSet,
        position: Position,
        orders: Mapping[str, Order],
        whole_orders: Sequence[tuple[str, str, Order]],
    ) -> Sequence[MovementExtension]:
        """The railroad's and the canal's part in this movement phase."""
        board = self._board(rules)
        gmap = rules.game_map
        return train_extensions(gmap, board, self.ruleset, position, orders) + canal_extensions(
            gmap, board, self.ruleset, position, orders, whole_orders
        )

    def counts_for_builds(self, power: str, center: str, position: Position) -> bool:
        """Hong Kong gives China no build."""
        return counts_for(self._board_of(position), power, center)

    def counts_for_victory(self, power: str, center: str, position: Position) -> bool:
        """Hong Kong gives China no victory credit."""
        return counts_for(self._board_of(position), power, center)

    def _board_of(self, position: Position) -> ColonialBoard:
        if self.board is None:
            self.board = colonial_board(load_map(position.map_name))
        return self.board


def make_colonial(options: Mapping[str, object]) -> Colonial:
    """Registry factory: the Colonial rules with the rule set the options choose (``vdiplomacy`` by default)."""
    return Colonial(rules_from_options(options))
