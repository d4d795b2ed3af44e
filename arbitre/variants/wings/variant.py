"""The wings rule module: a unit kind with its movement table, its words and its drawing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.maps import GameMap
from arbitre.orders import OrderSyntax
from arbitre.rules import Variant
from arbitre.rules.drawing import N_, UnitShape
from arbitre.rules.facets import MapTransform
from arbitre.rules.kinds import UnitKind
from arbitre.variants.wings.table import WING, add_wings

WING_KIND = UnitKind(
    WING,
    N_("wing"),
    UnitShape("M0 -10 L12 7 L0 2 L-12 7 Z", letter_y=5.5),
)
"""The wing: a delta, its letter under the nose."""

UNIT_WORDS = {"W": WING, "WING": WING, "AILE": WING}
"""How orders may name a wing (English and French)."""


class Wings(Variant, MapTransform):
    """Adds the wing: its table (``transform_map``), its words (``extend_syntax``) and its kind (``unit_kinds``)."""

    name = "wings"

    def transform_map(self, game_map: GameMap) -> GameMap:
        """The map with the wing's movement table."""
        return add_wings(game_map)

    def extend_syntax(self, syntax: OrderSyntax) -> OrderSyntax:
        """The words ``W``, ``WING`` and ``AILE`` name a wing."""
        return syntax.extended(unit_words=UNIT_WORDS)

    def unit_kinds(self) -> Sequence[UnitKind]:
        """The wing."""
        return (WING_KIND,)


def make_wings(options: Mapping[str, object]) -> Wings:
    """Registry factory: the module reads no option."""
    return Wings()
