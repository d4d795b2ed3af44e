"""The order table (arbitre.rules.order_ids) vouches only for orders the reference checks allow, as written."""

from __future__ import annotations

import random

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.orders import OrderError
from arbitre.rules import RuleSet, legal_orders
from arbitre.rules.legality import check_movement_order
from arbitre.rules.order_ids import OrderTable
from arbitre.state import MOVEMENT, Position
from arbitre.variants import make_rules


def _movement_positions(rules: RuleSet, seed: int, phases: int) -> list[Position]:
    """Movement positions of a seeded random game (each unit picks one of its legal orders)."""
    rng = random.Random(seed)
    position = rules.starting_position()
    out: list[Position] = []
    for _ in range(phases):
        orders = {}
        for power in rules.game_map.powers:
            options = legal_orders(rules, position, power)
            orders[power] = [rng.choice(sorted(texts)) for _, texts in sorted(options.items()) if texts]
        if position.phase.kind == MOVEMENT:
            out.append(position)
        position = adjudicate(rules, position, orders).after
    return out


def _spellings(text: str) -> list[str]:
    """``text`` and near misses of it: the other unit kind, a unit without its kind, no coast."""
    out = [text]
    swapped = {"A": "F", "F": "A"}
    words = text.split()
    for i, word in enumerate(words):
        if word in swapped:
            out.append(" ".join([*words[:i], swapped[word], *words[i + 1 :]]))
    if words and words[0] in swapped:
        out.append(" ".join(words[1:]))
    if "/" in text:
        out.append(" ".join(w.split("/")[0] for w in words))
    return out


def _compare(rules: RuleSet, position: Position) -> tuple[int, int]:
    """Check every legal order text of every power (and near misses) as every power, both ways.

    Returns (orders compared, orders the table vouched for)."""
    texts = sorted(
        {
            s
            for p in rules.game_map.powers
            for ts in legal_orders(rules, position, p).values()
            for t in ts
            for s in _spellings(t)
        }
    )
    table = OrderTable(rules.game_map, rules.options)
    compared = vouched = 0
    for text in texts:
        try:
            order = rules.parse(text)
        except OrderError:
            continue
        entry = table.get(text, order)
        for power in rules.game_map.powers:
            fast = entry.check(position.units, power) if entry is not None else None
            try:
                reference = check_movement_order(rules.game_map, position, power, order, rules.options)
            except OrderError:
                assert fast is None, (text, power)
                continue
            finally:
                compared += 1
            if fast is not None:
                vouched += 1
                assert fast == reference, (text, power, fast, reference)
    return compared, vouched


@pytest.mark.parametrize(
    ("map_name", "modules", "options"),
    [
        ("standard", (), {}),
        ("standard", (), {"missing_nationality": "invalid", "irrelevant_coast": "illegal"}),
        ("colonial", ("submarines",), {}),
    ],
)
def test_table_agrees_with_reference_checks(
    map_name: str, modules: tuple[str, ...], options: dict[str, object]
) -> None:
    """On positions of random games, every order the table allows is allowed by the reference checks,
    in the same normal form; every order they refuse, the table leaves to them; and it vouches for most."""
    rules = make_rules(map_name, modules, options)
    compared = vouched = 0
    for position in _movement_positions(rules, seed=7, phases=9):
        c, v = _compare(rules, position)
        compared, vouched = compared + c, vouched + v
    assert compared > 1000
    assert vouched > 200


def test_table_gives_ids_once_per_order() -> None:
    """An order text is read once: the same entry, with one id, however often it is asked."""
    rules = make_rules("standard")
    table = rules.order_table
    order = rules.parse("A PAR - BUR")
    first = table.get("A PAR - BUR", order)
    assert first is not None and first.order == order
    assert table.get("A PAR - BUR", order) is first
    other = table.get("A PAR S A MAR - BUR", rules.parse("A PAR S A MAR - BUR"))
    assert other is not None and other.ident != first.ident
    assert table.get("A PAR - MOS", rules.parse("A PAR - MOS")) is None  # not adjacent: the reference decides


def test_rule_set_uses_the_table_and_keeps_refusals() -> None:
    """RuleSet.check answers from the table for a common order, and refuses as before when the unit is not there."""
    rules = make_rules("standard")
    position = rules.starting_position()
    assert rules.check(position, "FRANCE", rules.parse("A PAR - BUR"), text="A PAR - BUR") == rules.parse("A PAR - BUR")
    assert rules.order_table.entries["A PAR - BUR"] is not None
    with pytest.raises(OrderError) as err:
        rules.check(position, "GERMANY", rules.parse("A PAR - BUR"), text="A PAR - BUR")
    assert err.value.reason == "not_own_unit"
