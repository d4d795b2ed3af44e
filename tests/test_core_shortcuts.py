"""The core's shortcuts give the answers of the longer ways they replace.

* :func:`~arbitre.rules.legality.convoy_route_exists` (a breadth-first search
  over sea bits) says whether :func:`~arbitre.rules.convoy_routes` finds a route;
* the rule set's memo of checked orders, whose key leaves out the supported
  unit's power where nationality plays no part, gives the verdicts of a rule
  set that remembers nothing;
* the written-out ``__init__`` of orders, positions and outcomes keeps the
  dataclasses' signatures, defaults and ``replace``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from arbitre.adjudicator import PhaseOutcome
from arbitre.orders import Convoy, IllegalOrder, Move, Support, UnitRef
from arbitre.rules import RuleSet, convoy_routes
from arbitre.rules.legality import _sea_bits, convoy_route_exists
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules


@pytest.mark.parametrize("map_name", ["standard", "colonial"])
def test_route_exists_is_whether_routes_are_found(map_name: str) -> None:
    gmap = make_rules(map_name).game_map
    names, index, _, _ = _sea_bits(gmap)
    coasts = sorted(p for p, prov in gmap.provinces.items() if prov.terrain == "coast")
    rng = random.Random(7)
    found = 0
    for _ in range(150):
        fleets = frozenset(rng.sample(names, rng.randint(0, len(names))))
        bits = sum(1 << index[sea] for sea in fleets)
        for _ in range(20):
            origin, target = rng.choice(coasts), rng.choice(coasts)
            for limit in (12, 3):
                expected = bool(convoy_routes(gmap, fleets, origin, target, limit))
                assert convoy_route_exists(gmap, bits, origin, target, limit) == expected, (origin, target, fleets)
                found += expected
    assert found > 100  # the sample has routes, not only their absence


def _verdict(rules: RuleSet, position: Position, power: str, text: str) -> object:
    try:
        return rules.check(position, power, rules.parse(text), text=text)
    except IllegalOrder as err:
        return (err.reason, err.message)


@pytest.mark.parametrize("options", [{}, {"missing_nationality": "invalid"}, {"wrong_nationality": "invalid"}])
def test_remembered_verdicts_are_fresh_verdicts(options: dict[str, str]) -> None:
    """The same support text, the supported unit's owner changing: a remembering rule set answers as a new one."""
    remembering = make_rules("standard", options=options)
    texts = ["A PAR S A MAR - BUR", "A PAR S A MAR", "A PAR S GERMANY A MAR - BUR", "A PAR S FRANCE A MAR - BUR"]
    for owner in ["FRANCE", "GERMANY", "FRANCE", "ITALY"]:
        for kind in ["A", "F"]:
            units = {"PAR": Unit("FRANCE", "A", "PAR"), "MAR": Unit(owner, kind, "MAR")}
            position = Position("standard", Phase(1901, "S", "M"), units, {})
            for text in texts:
                fresh = make_rules("standard", options=options)
                assert _verdict(remembering, position, "FRANCE", text) == _verdict(fresh, position, "FRANCE", text)


def test_written_out_inits_keep_the_dataclass_signatures() -> None:
    unit = UnitRef("A", "PAR")
    assert Move(unit, "BUR") == Move(unit=unit, target="BUR", via_convoy=False, path=())
    assert replace(Move(unit, "BUR"), via_convoy=True) == Move(unit, "BUR", True)
    assert Support(unit).supported == UnitRef(None, "") and Support(unit).target is None
    assert Convoy(UnitRef("F", "NTH"), UnitRef("A", "LON"), "NWY").nationality is None
    a = Position("standard", Phase(1901, "S", "M"), {}, {})
    b = Position("standard", Phase(1901, "S", "M"), {}, {})
    assert a == b and a.dislodged == {} and a.extras == {} and a.memo is not b.memo
    a.memo["x"] = 1
    assert replace(a, owners={"PAR": "FRANCE"}).memo == {}  # a copy remembers nothing
    outcome = PhaseOutcome(a, b, ())
    assert outcome.dislodged == {} and outcome.bounced == frozenset() and outcome.relocated == {}
    assert replace(outcome, events=("e",)).events == ("e",)
