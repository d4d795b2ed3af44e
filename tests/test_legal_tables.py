"""Legal orders from the map's table of texts (arbitre.rules.legal_tables) are the lists made before it, order kept.

The digests were taken from the lists :func:`~arbitre.rules.legal_orders` gave
before the table (each order text formatted per position): every power's
lists, keys and orders in their order, phase after phase of seeded random
games where each unit picks one of its legal orders, on the standard map and
with rule modules (Colonial, Submarines, Espionnite).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.judge import start_position
from arbitre.rules import legal_orders
from arbitre.rules.legal_tables import MAP_LIMIT, kept_maps, map_orders
from arbitre.state import Position
from arbitre.variants import make_rules

DIGESTS = [
    ("standard", (), 0, 35, "fcffd5f2a229a3a8976c74dcbf78aa3c00799614606d01287e59c5c8f5dd0e55"),
    ("standard", (), 5, 33, "01e09c9940649199e025cb7251ca298ce78dbfc98c9c87149a5a4a74be173a1a"),
    ("colonial", (), 0, 40, "39006ed7135cb71feab0089bb5d8f31804c7b36dc5404334eece7c8287a89755"),
    ("standard", ("submarines",), 1, 40, "d856dde4ac87ec48e9fb806650e86f8ef016be192d97ee6feaea265dab236c32"),
    ("standard", ("espionnite",), 2, 33, "de270704686b2c2f270aa4fd15091e950a32be2d008d0038e61630d53aa133db"),
    ("colonial", ("submarines",), 0, 30, "927b3ec92e4cb5604ab3b93c473ab385d127b634a06ef409af3762cae3d1caa9"),
]


def _digest(map_name: str, modules: tuple[str, ...], seed: int, phases: int) -> tuple[int, str]:
    """(phases played, digest of every power's legal orders in each) of a seeded random game to 1912."""
    rules = make_rules(map_name, modules)
    rng = random.Random(seed)
    position: Position = start_position(rules)
    digest = hashlib.sha256()
    played = 0
    while position.phase.year <= 1912 and played < phases:
        played += 1
        fresh = replace(position)  # nothing remembered from an earlier call
        lists = {power: legal_orders(rules, fresh, power) for power in rules.game_map.powers}
        digest.update(json.dumps([[p, list(d.items())] for p, d in lists.items()]).encode())
        orders = {p: [rng.choice(d[k]) for k in sorted(d) if k != "WAIVE" and d[k]] for p, d in lists.items()}
        position = adjudicate(rules, position, orders).after
    return played, digest.hexdigest()


@pytest.mark.parametrize(("map_name", "modules", "seed", "phases", "expected"), DIGESTS)
def test_legal_orders_are_the_lists_made_before_the_table(
    map_name: str, modules: tuple[str, ...], seed: int, phases: int, expected: str
) -> None:
    assert _digest(map_name, modules, seed, phases) == (phases, expected)


def test_asking_twice_gives_fresh_lists_that_a_caller_may_change() -> None:
    rules = make_rules("standard")
    position = start_position(rules)
    first = legal_orders(rules, position, "FRANCE")
    first["PAR"].append("A PAR - MOS")
    first["MAR"].clear()
    again = legal_orders(rules, position, "FRANCE")
    assert "A PAR - MOS" not in again["PAR"]
    assert again["MAR"][:2] == ["A MAR H", "A MAR - BUR"]
    assert legal_orders(rules, replace(position), "FRANCE") == again


def test_the_table_of_texts_is_kept_per_map_and_bounded() -> None:
    rules = make_rules("standard")
    table = map_orders(rules.game_map)
    assert map_orders(rules.game_map) is table
    paris = table.of("A", "PAR")
    assert paris.own[0] == "A PAR H"
    assert paris.supports(table.of("A", "MAR")) == ("A PAR S A MAR - BUR", "A PAR S A MAR - GAS")
    # Rule modules that transform the map make one per rule set: the cache never holds more than MAP_LIMIT.
    for _ in range(MAP_LIMIT + 2):
        map_orders(make_rules("standard", ("submarines",)).game_map)
    assert kept_maps() <= MAP_LIMIT
