"""Several order sets from one power (DATC 4.D.1, 4.D.2): which orders count.

A game by post or e-mail may receive several sets of orders from a power, and a
face-to-face game two sets with no telling which came last.  The options
``order_sets`` (4.D.1) and ``unordered_order_sets`` (4.D.2) say how the sets
become the one list of orders the adjudicator reads; a unit ordered twice in the
combined list then follows ``multiple_orders`` (4.D.3), and too many builds
``too_many_builds`` (4.D.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from arbitre.orders import Hold, UnitRef
from arbitre.rules.options import RuleOptions
from arbitre.state import MOVEMENT, Position


def combine_order_sets(
    options: RuleOptions,
    position: Position,
    power: str,
    sets: Sequence[Sequence[str]],
    *,
    latest_known: bool = True,
) -> list[str]:
    """The orders of ``power`` from its order ``sets``, oldest first when ``latest_known``.

    - latest set known (4.D.1): ``latest`` keeps only the last set; ``combined`` joins them all;
    - no telling which is the latest (4.D.2): ``combined`` joins them all; ``all_hold`` orders
      every unit of the power to hold (in a movement phase; nothing is built or disbanded otherwise).

    One set is simply that set.
    """
    if len(sets) <= 1:
        return [o for s in sets for o in s]
    if latest_known and options.order_sets == "latest":
        return list(sets[-1])
    if latest_known or options.unordered_order_sets == "combined":
        return [o for s in sets for o in s]
    if position.phase.kind != MOVEMENT:
        return []
    return [
        Hold(UnitRef(unit.kind, unit.place)).format()
        for _, unit in sorted(position.units.items())
        if unit.power == power
    ]
