"""What a bot knows: its power's view and legal orders, read into lookups it can use quickly.

A :class:`BotBoard` is built from a :class:`~arbitre.views.View` and the map
of the rule set (public), nothing else: foreign units are those the view shows
(a sonar contact has no power), centre owners are the view's.  Legal orders
are parsed once with the rule set's parser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arbitre.maps import GameMap
from arbitre.orders import Order, OrderError
from arbitre.rules import RuleSet
from arbitre.views import View

UNKNOWN = "?"
"""The power a bot gives to a unit it sees without a nationality (a sonar contact)."""


@dataclass
class BotBoard:
    """The board as one power sees it."""

    rules: RuleSet
    view: View
    me: str
    gmap: GameMap
    units: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Province → (power, kind, place) of every unit the view shows (contacts: power ``?``)."""
    mine: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Province → (kind, place) of this power's units."""
    centres: dict[str, int] = field(default_factory=dict)
    """Power → supply centres it owns (by the view)."""

    @classmethod
    def of(cls, rules: RuleSet, view: View) -> BotBoard:
        """Read ``view`` (the view of a power) with the rule set's map."""
        board = cls(rules, view, view.viewer, rules.game_map)
        prov = board.gmap.province_of
        for u in view.units:
            p = prov.get(u.place, u.place)
            board.units[p] = (u.power or UNKNOWN, u.kind, u.place)
            if u.power == view.viewer:
                board.mine[p] = (u.kind, u.place)
        for owner in view.owners.values():
            board.centres[owner] = board.centres.get(owner, 0) + 1
        return board

    def province(self, place: str) -> str:
        """The province of a place (a coast or a depth place folds to itself or its province)."""
        return self.gmap.province_of.get(place, place)

    def owner(self, province: str) -> str | None:
        """Who owns the centre ``province`` (``None`` if nobody or not a centre)."""
        return self.view.owners.get(province)

    def kind(self, order: Order | None) -> str:
        """The declared kind name of an order (``move``, ``support``, ``train_move``, ``torpedo``…)."""
        return self.rules.kind_of(order).name

    def parse_legal(self, legal: Mapping[str, Sequence[str]]) -> dict[str, list[tuple[str, Order]]]:
        """Each key's legal orders, parsed (an order the parser refuses is left out)."""
        out: dict[str, list[tuple[str, Order]]] = {}
        for key, texts in legal.items():
            parsed: list[tuple[str, Order]] = []
            for text in texts:
                try:
                    parsed.append((text, self.rules.parse(text)))
                except OrderError:
                    continue
            out[key] = parsed
        return out
