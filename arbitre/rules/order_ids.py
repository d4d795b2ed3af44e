"""Movement orders as ids of a rule set's order table, their static legality worked out once.

Whether ``A PAR S A MAR - BUR`` is allowed splits in two.  What the order's
own words decide (Paris can reach Burgundy, Marseilles can reach Burgundy, the
move leaves its province, no coast or nationality to settle) depends only on
the map after the rule modules' transformations and on the rule set's options:
it is worked out the first time the order is read, and kept under an id in the
rule set's :class:`OrderTable`.  What the position decides (an army of the
ordering power stands in Paris, an army stands in Marseilles) is checked per
phase by :meth:`StaticOrder.check`, a few lookups.

The table only ever says "allowed, and this is the normal form" (the order
itself, as written): whenever it cannot say so (an unusual order, a unit that
is not the one written, a convoy, an option that looks at more), the caller
runs the reference checks of :mod:`arbitre.rules.legality`, which give every
verdict and every message.  So the table speeds up the common orders and
changes no answer; ``tests/test_order_ids.py`` compares both on every order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from arbitre.maps import ARMY, GameMap
from arbitre.orders import Hold, Move, Order, Support
from arbitre.rules.options import RuleOptions
from arbitre.state import Unit

HOLD: Final = 0
MOVE: Final = 1
SUPPORT_HOLD: Final = 2
SUPPORT_MOVE: Final = 3

_UNREAD: Final = object()
"""What :meth:`OrderTable.get` finds for a key not read yet (``None`` is a remembered verdict)."""

TABLE_LIMIT: Final = 200_000
"""Entries a table keeps before it starts again (bots may write endless distinct texts)."""


class StaticOrder:
    """One movement order of the table: its id, the order, and what its words alone decide.

    ``kind`` and ``place`` are the unit as written; for a support,
    ``supported_kind`` and ``supported_place`` the supported unit as written.
    Only orders whose every static condition holds are entries: the order is
    then legal exactly when the units written stand where written and the
    ordered one is the power's.
    """

    def __init__(
        self,
        ident: int,
        order: Order,
        code: int,
        province: str,
        kind: str,
        place: str,
        supported_province: str = "",
        supported_kind: str = "",
        supported_place: str = "",
    ) -> None:
        self.ident = ident
        self.order = order
        self.code = code
        self.province = province
        self.kind = kind
        self.place = place
        self.supported_province = supported_province
        self.supported_kind = supported_kind
        self.supported_place = supported_place

    def check(self, units: Mapping[str, Unit], power: str) -> Order | None:
        """The order's normal form (the order itself) if ``power`` may give it with these units on the
        board; ``None`` when the reference checks must decide (they say why it is not allowed)."""
        unit = units.get(self.province)
        if unit is None or unit.power != power or unit.kind != self.kind or unit.place != self.place:
            return None
        if self.code >= SUPPORT_HOLD:
            other = units.get(self.supported_province)
            if other is None or other.kind != self.supported_kind or other.place != self.supported_place:
                return None
        return self.order


class OrderTable:
    """A rule set's movement orders by id: text (or order) → :class:`StaticOrder`, filled as orders are read.

    ``None`` is remembered too: an order the table cannot vouch for (a convoy, a
    move by convoy, an illegal one) always goes to the reference checks.
    """

    def __init__(self, game_map: GameMap, options: RuleOptions) -> None:
        self.game_map = game_map
        # The options under which a written nationality or a missing one changes nothing.
        self.plain_nationality = options.missing_nationality == "valid"
        self.entries: dict[object, StaticOrder | None] = {}
        self.count = 0

    def get(self, key: object, order: Order) -> StaticOrder | None:
        """The entry of ``order`` (found under ``key``: its text, or the order itself)."""
        entries = self.entries
        found = entries.get(key, _UNREAD)
        if found is not _UNREAD:
            return found  # type: ignore[return-value]
        if len(entries) > TABLE_LIMIT:
            entries.clear()
        entry = self.read(order)
        entries[key] = entry
        return entry

    def read(self, order: Order) -> StaticOrder | None:
        """Work out what ``order``'s words alone decide; an entry if they allow it, else ``None``."""
        ref = order.unit
        if ref is None or ref.kind is None:
            return None
        gmap = self.game_map
        kind, place = ref.kind, ref.place
        here = gmap.province_of.get(place)
        if here is None or place not in gmap.adjacency.get(kind, {}):
            return None
        cls = type(order)
        if cls is Hold:
            return self._entry(order, HOLD, here, kind, place)
        if cls is Move:
            assert isinstance(order, Move)
            if order.via_convoy or order.path or (kind == ARMY and "/" in order.target):
                return None
            if order.target not in gmap.adjacency[kind][place]:
                return None
            return self._entry(order, MOVE, here, kind, place)
        if cls is not Support:
            return None
        assert isinstance(order, Support)
        if order.nationality is not None or not self.plain_nationality:
            return None
        named = order.supported
        skind, splace = named.kind, named.place
        if skind is None or splace not in gmap.adjacency.get(skind, {}):
            return None
        sprov = named.province
        if sprov == here:
            return None
        if order.target is None:
            if not gmap.can_reach_province(kind, place, sprov):
                return None
            return self._entry(order, SUPPORT_HOLD, here, kind, place, sprov, skind, splace)
        into = gmap.province_of.get(order.target)
        if into is None or into in (sprov, here):
            return None
        if not gmap.can_reach_province(kind, place, into) or not gmap.can_reach_province(skind, splace, into):
            return None  # a supported army might still get there by convoy: the board decides
        # The normal form keeps a coast only for a fleet's move (DATC 6.B.9); it must be the order as written.
        if order.target != (order.target if skind != ARMY and "/" in order.target else into):
            return None
        return self._entry(order, SUPPORT_MOVE, here, kind, place, sprov, skind, splace)

    def _entry(
        self,
        order: Order,
        code: int,
        province: str,
        kind: str,
        place: str,
        supported_province: str = "",
        supported_kind: str = "",
        supported_place: str = "",
    ) -> StaticOrder:
        self.count += 1
        return StaticOrder(
            self.count, order, code, province, kind, place, supported_province, supported_kind, supported_place
        )
