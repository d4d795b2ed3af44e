"""Positions played in MILA's own engine and in arbitre's with the ``mila`` preset: the same outcome.

Each test builds a position in MILA's engine (``diplomacy.Game``), plays it there, saves the game with
MILA's ``to_saved_game_format``, and checks that arbitre's import agrees with every phase, that
arbitre's export of the imported game passes MILA's ``is_valid_saved_game``, and (where the DATC
rules otherwise) that the DATC preferences do not agree.  Skipped only when ``diplomacy`` is not
installed.  ``bench/bench_mila_import.py`` plays hundreds of random games the same way.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.interface.mila import MilaImportError, export_game, import_game
from arbitre.judge import position_from_data
from arbitre.variants import make_rules

diplomacy = pytest.importorskip("diplomacy")
from diplomacy.utils.export import is_valid_saved_game, to_saved_game_format  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _mila(units: dict[str, list[str]], *turns: dict[str, list[str]]) -> Any:
    """MILA's engine from ``units`` in S1901M, each turn's orders given and processed."""
    game = diplomacy.Game()
    game.clear_units()
    for power, texts in units.items():
        game.set_units(power, texts)
    for orders in turns:
        for power, texts in orders.items():
            game.set_orders(power, texts)
        game.process()
    return game


def _saved(game: Any) -> dict[str, Any]:
    saved: dict[str, Any] = json.loads(json.dumps(to_saved_game_format(game)))
    return saved


def _units(game: Any) -> dict[str, list[str]]:
    return {p: sorted(u) for p, u in game.get_units().items() if u}


def _both_ways(saved: dict[str, Any]) -> None:
    """Import agrees with every phase, and the export of what was imported passes MILA's checker."""
    game = import_game(saved)
    assert is_valid_saved_game(export_game(game, "test"))


# ---------------------------------------------------------------- self_dislodge_support=via_convoy
SELF_DISLODGE_UNITS = {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["A HOL", "F BEL"]}
SELF_DISLODGE_ORDERS = {
    "ENGLAND": ["A LON - HOL VIA", "F NTH C A LON - HOL"],
    "GERMANY": ["A HOL H", "F BEL S A LON - HOL"],
}


def test_own_support_for_a_via_attack_dislodges_as_in_milas_engine() -> None:
    """Germany's support of England's VIA attack dislodges Germany's army: in MILA and in the mila preset."""
    mila = _mila(SELF_DISLODGE_UNITS, SELF_DISLODGE_ORDERS)
    assert mila.get_current_phase() == "S1901R"
    assert _units(mila) == {"ENGLAND": ["A HOL", "F NTH"], "GERMANY": ["*A HOL", "F BEL"]}
    after = {}
    for preset in ("mila", "datc"):
        rules = make_rules("standard", [], {"preset": preset})
        outcome = adjudicate(rules, position_from_data(rules, "S1901M", SELF_DISLODGE_UNITS, {}), SELF_DISLODGE_ORDERS)
        after[preset] = (sorted(str(u) for u in outcome.after.units.values()), sorted(outcome.dislodged))
    assert after["mila"] == (["A HOL", "F BEL", "F NTH"], ["HOL"])
    assert after["datc"] == (["A HOL", "A LON", "F BEL", "F NTH"], [])  # DATC 6.D.12: the support never helps


def test_own_support_without_via_does_not_dislodge_in_milas_engine_either() -> None:
    """The same move written without VIA: MILA, like the DATC, does not count Germany's support."""
    orders = {**SELF_DISLODGE_ORDERS, "ENGLAND": ["A LON - HOL", "F NTH C A LON - HOL"]}
    mila = _mila(SELF_DISLODGE_UNITS, orders)
    assert mila.get_current_phase() == "F1901M"
    rules = make_rules("standard", [], {"preset": "mila"})
    outcome = adjudicate(rules, position_from_data(rules, "S1901M", SELF_DISLODGE_UNITS, {}), orders)
    assert not outcome.dislodged
    saved = _saved(mila)
    import_game(saved)  # agrees with every phase
    # MILA's checker refuses its own game: its possible orders write every convoyed move with VIA.
    assert not is_valid_saved_game(saved)


def test_a_mila_game_with_a_self_dislodging_via_attack_imports_and_exports() -> None:
    """Import agrees on every phase (with the retreat that follows); the DATC preferences fail at the attack."""
    saved = _saved(_mila(SELF_DISLODGE_UNITS, SELF_DISLODGE_ORDERS, {"GERMANY": ["A HOL R KIE"]}))
    _both_ways(saved)
    with pytest.raises(MilaImportError, match=r"phases\[0\] S1901M: A LON"):
        import_game(saved, {"preset": "datc"})


# ---------------------------------------------------------------- retreats after a convoyed attack
RETREAT_UNITS = {
    "ENGLAND": ["A LON", "F NTH", "F ENG"],
    "FRANCE": ["A BEL"],
    "GERMANY": ["A HOL", "A MUN", "A RUH"],
}
RETREAT_ORDERS = {
    "ENGLAND": ["A LON - BEL VIA", "F NTH C A LON - BEL", "F ENG S A LON - BEL"],
    "GERMANY": ["A MUN - BUR", "A RUH - BUR", "A HOL H"],
}


def test_milas_retreat_places_after_a_convoyed_attack() -> None:
    """MILA lists every neighbour (occupied HOL and RUH, the standoff in BUR); it takes a retreat to BUR only."""
    mila = _mila(RETREAT_UNITS, RETREAT_ORDERS)
    assert sorted(mila.powers["FRANCE"].retreats["A BEL"]) == ["BUR", "HOL", "PIC", "RUH"]
    assert sorted(mila.get_all_possible_orders()["BEL"]) == ["A BEL D", "A BEL R BUR", "A BEL R PIC"]
    places = {}
    for preset in ("mila", "datc"):
        rules = make_rules("standard", [], {"preset": preset})
        outcome = adjudicate(rules, position_from_data(rules, "S1901M", RETREAT_UNITS, {}), RETREAT_ORDERS)
        places[preset] = outcome.dislodged["BEL"].retreats
    assert places == {"mila": ("BUR", "PIC"), "datc": ("PIC",)}


@pytest.mark.parametrize(
    "retreat",
    [
        ["A BEL R BUR"],  # the standoff province: MILA's engine allows it after a convoyed attack
        ["A BEL R PIC"],  # a legal place
        ["A BEL D"],
        [],  # no order: disbanded
        ["A BEL R HOL"],  # occupied: MILA refuses the order, the unit is disbanded
        ["A BEL R RUH"],  # occupied by the army that bounced: refused as well
    ],
)
def test_every_retreat_after_a_convoyed_attack_imports_and_exports(retreat: list[str]) -> None:
    """Each choice a player has in MILA after a convoyed attack: import agrees, export passes MILA's checker."""
    mila = _mila(RETREAT_UNITS, RETREAT_ORDERS, {"FRANCE": retreat})
    saved = _saved(mila)
    _both_ways(saved)
    assert sorted(str(u) for u in import_game(saved).position.units.values() if u.power == "FRANCE") == sorted(
        _units(mila).get("FRANCE", [])
    )


def test_a_retreat_to_a_standoff_after_a_convoy_fails_import_by_the_datc() -> None:
    """Without the option, the retreat MILA took is one arbitre refuses, and the import says where."""
    saved = _saved(_mila(RETREAT_UNITS, RETREAT_ORDERS, {"FRANCE": ["A BEL R BUR"]}))
    with pytest.raises(MilaImportError, match=r"phases\[1\] S1901R.orders.FRANCE: arbitre refuses 'A BEL R BUR'"):
        import_game(saved, {"preset": "mila", "retreat_to_standoff": "forbidden"})


def test_a_unit_with_only_occupied_neighbours_waits_for_milas_retreat_phase() -> None:
    """Dislodged by a convoy with every neighbour taken: MILA keeps it for a retreat phase where it disbands."""
    units = {
        "ENGLAND": ["A LON", "F NTH", "F ENG"],
        "FRANCE": ["A BEL"],
        "GERMANY": ["A HOL", "A BUR", "A RUH", "F PIC"],
    }
    orders = {"ENGLAND": ["A LON - BEL VIA", "F NTH C A LON - BEL", "F ENG S A LON - BEL"]}
    mila = _mila(units, orders)
    assert mila.get_current_phase() == "S1901R"
    for retreat in ([], ["A BEL R HOL"]):
        _both_ways(_saved(_mila(units, orders, {"FRANCE": retreat})))


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mila_import", ROOT / "bench" / "bench_mila_import.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("kind", "seed", "end_year"),
    [
        ("mila", 0, 1904),
        ("busy", 0, 1904),
        ("mila", 76, 1908),  # W1908A: MILA writes ['', 'disband'] for a disband done
    ],
)
def test_random_games_played_in_milas_engine_import(kind: str, seed: int, end_year: int) -> None:
    """A few of the bench's games: import agrees on every phase, export passes MILA's checker."""
    _, problem, phases = _bench().run(seed, kind, end_year, True)
    assert problem is None and phases > 10
