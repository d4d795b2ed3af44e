"""Espionnite orders: notations, validation with clear errors, one of each per power, legal-order lists."""

from __future__ import annotations

import pytest

from arbitre.judge import Game
from arbitre.orders import InvalidOrder
from arbitre.variants import make_rules
from arbitre.variants.espionnite import CounterSpy, Spy


@pytest.mark.parametrize(
    ("text", "kind", "place"),
    [
        ("SPY MUN", Spy, "MUN"),
        ("spy mun", Spy, "MUN"),
        ("ESPION Munich", Spy, "MUN"),
        ("Espionne Munich", Spy, "MUN"),
        ("SPY F KIE", Spy, "KIE"),
        ("SPY STP/SC", Spy, "STP/SC"),
        ("COUNTERSPY BER", CounterSpy, "BER"),
        ("COUNTER-SPY BER", CounterSpy, "BER"),
        ("counter spy ber", CounterSpy, "BER"),
        ("CONTRE-ESPION Berlin", CounterSpy, "BER"),
        ("contre espion BER", CounterSpy, "BER"),
        ("Contre-Espion Bérlin", CounterSpy, "BER"),
    ],
)
def test_notations(text: str, kind: type, place: str) -> None:
    order = make_rules("standard", ["espionnite"]).parse(text)
    assert isinstance(order, kind)
    assert order.unit is None  # a whole-power order: it never clashes with the unit's own order
    assert order.target.place == place


def test_formats_round_trip() -> None:
    rules = make_rules("standard", ["espionnite"])
    for text in ("SPY MUN", "COUNTERSPY BER"):
        assert rules.parse(text).format() == text
        assert rules.parse(rules.parse(text).format()) == rules.parse(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("SPY", "missing_place"),
        ("CONTRE-ESPION", "missing_place"),
        ("SPY XYZ", "unknown_place"),
        ("SPY MUN BER", "trailing"),
    ],
)
def test_unreadable_orders(text: str, reason: str) -> None:
    with pytest.raises(InvalidOrder) as err:
        make_rules("standard", ["espionnite"]).parse(text)
    assert err.value.reason == reason


def test_standard_rules_do_not_know_spies() -> None:
    with pytest.raises(InvalidOrder):
        make_rules("standard").parse("SPY MUN")


def _rejected(game: Game, power: str, orders: list[str]) -> dict[str, tuple[str, str | None, str | None]]:
    return {r.text: (r.outcome, r.reason, r.message) for r in game.check_orders(power, orders)}


def test_validation_errors_are_clear() -> None:
    game = Game.new(rules=["espionnite"])
    out = _rejected(game, "FRANCE", ["SPY PAR", "SPY BUR", "COUNTERSPY MUN", "COUNTERSPY BUR"])
    assert out["SPY PAR"] == (
        "illegal",
        "own_unit",
        "Espionnite: the unit in PAR is yours; a spy watches a unit of another power",
    )
    assert out["SPY BUR"] == ("illegal", "no_unit", "Espionnite: there is no unit in BUR to spy on")
    assert out["COUNTERSPY MUN"] == (
        "illegal",
        "not_own_unit",
        "Espionnite: the unit in MUN belongs to GERMANY; a counter-spy guards one of your own units",
    )
    assert out["COUNTERSPY BUR"] == (
        "illegal",
        "no_unit",
        "Espionnite: you have no unit in BUR; a counter-spy guards one of your own units",
    )
    assert _rejected(game, "FRANCE", ["SPY MUN", "COUNTERSPY PAR", "A PAR - BUR"]) == {}


def test_one_spy_and_one_counterspy_per_power() -> None:
    game = Game.new(rules=["espionnite"])
    out = _rejected(game, "FRANCE", ["SPY MUN", "SPY BER", "SPY MUN", "COUNTERSPY PAR", "CONTRE-ESPION MAR"])
    assert set(out) == {"SPY BER", "CONTRE-ESPION MAR"}
    assert out["SPY BER"][1] == "duplicate" and "SPY MUN counts" in str(out["SPY BER"][2])
    assert out["CONTRE-ESPION MAR"][1] == "duplicate" and "COUNTERSPY PAR counts" in str(out["CONTRE-ESPION MAR"][2])


def test_no_espionage_in_retreat_or_adjustment_phases() -> None:
    game = Game.new(rules=["espionnite"])
    game.set_orders("GERMANY", ["A MUN - BUR"])
    game.set_orders("FRANCE", ["F BRE - MAO"])
    game.advance()  # S1901M: Germany in Burgundy
    game.set_orders("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR", "F MAO - POR"])
    game.advance()  # F1901M: Burgundy is dislodged, France takes Portugal
    assert str(game.phase) == "F1901R" and game.next_step is None
    out = _rejected(game, "GERMANY", ["SPY PAR", "COUNTERSPY BUR"])
    assert {r[1] for r in out.values()} == {"wrong_phase"}
    assert "only in movement phases" in str(out["SPY PAR"][2])
    game.set_orders("GERMANY", ["A BUR R RUH", "SPY PAR"])
    outcome = game.close_step()  # no reaction step: closing the orders step adjudicates
    assert outcome is not None and str(game.phase) == "W1901A"
    assert all("SPY" not in r.order_text for r in outcome.results)  # never published, even refused
    assert game.next_step is None
    assert {r[1] for r in _rejected(game, "FRANCE", ["ESPION BER"]).values()} == {"wrong_phase"}


def test_legal_order_lists_offer_spies_and_counterspies() -> None:
    game = Game.new(rules=["espionnite"])
    listing = game.legal_orders("FRANCE")
    assert "SPY MUN" in listing["SPY"] and "SPY PAR" not in listing["SPY"]
    assert listing["COUNTERSPY"] == ["COUNTERSPY BRE", "COUNTERSPY MAR", "COUNTERSPY PAR"]
    for key in ("SPY", "COUNTERSPY"):
        assert all(not game.check_orders("FRANCE", [o]) for o in listing[key])
    assert "SPY" not in Game.new().legal_orders("FRANCE")
