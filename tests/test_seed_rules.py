"""The examples of the seed pages 000 (rare cases) and 001 (standoffs), as scenario tests.

Each diagram of the French rule pages is written as a position and its orders
(the pages describe them in words); the expected results are the pages' words.
"""

from __future__ import annotations

from arbitre.interface import process


def run(units: dict[str, list[str]], orders: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    out = process({"phase": "S1901M", "units": units, "orders": orders})
    outcomes = {r["order"]: r["outcome"] for r in out["results"]}
    return outcomes, out["next"]["dislodged"]


# --- 000: auto-délogement ---------------------------------------------------------------
def test_cannot_dislodge_own_unit_with_own_support() -> None:
    res, dis = run({"FRANCE": ["A PAR", "A MAR", "A BUR"]}, {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]})
    assert res["A PAR - BUR"] == "fails" and not dis


def test_cannot_dislodge_own_unit_with_foreign_support() -> None:
    res, dis = run(
        {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN S A PAR - BUR"]},
    )
    assert res["A PAR - BUR"] == "fails" and not dis


def test_support_against_own_unit_does_not_count_but_attacker_own_support_does() -> None:
    res, dis = run(
        {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A RUH", "A MUN"]},
        {"FRANCE": ["A PAR S A RUH - BUR"], "GERMANY": ["A RUH - BUR"]},
    )
    assert res["A RUH - BUR"] == "fails" and not dis
    res, dis = run(
        {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A RUH", "A MUN"]},
        {"FRANCE": ["A PAR S A RUH - BUR"], "GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"]},
    )
    assert res["A RUH - BUR"] == "succeeds" and "FRANCE" in dis


def test_foreign_support_cannot_make_a_power_dislodge_itself() -> None:
    res, dis = run(
        {"GERMANY": ["A MUN", "A RUH", "A BER", "A SIL"], "AUSTRIA": ["A TYR", "A BOH"]},
        {
            "GERMANY": ["A MUN - TYR", "A RUH - MUN", "A BER - MUN", "A SIL - MUN"],
            "AUSTRIA": ["A TYR - MUN", "A BOH S A SIL - MUN"],
        },
    )
    assert all(res[o] == "fails" for o in ["A MUN - TYR", "A RUH - MUN", "A BER - MUN", "A SIL - MUN", "A TYR - MUN"])
    assert not dis


def test_self_dislodgement_attempt_still_makes_a_standoff() -> None:
    res, dis = run(
        {"ENGLAND": ["F DEN", "F NTH", "F HEL"], "RUSSIA": ["F BAL", "A SWE"]},
        {"ENGLAND": ["F NTH - DEN", "F HEL S F NTH - DEN"], "RUSSIA": ["F BAL - DEN", "A SWE S F BAL - DEN"]},
    )
    assert res["F BAL - DEN"] == "fails" and res["F NTH - DEN"] == "fails" and not dis


def test_self_standoff_broken_by_foreign_support() -> None:
    res, _ = run(
        {"AUSTRIA": ["A VIE", "A SER"], "RUSSIA": ["A GAL"]},
        {"AUSTRIA": ["A VIE - BUD", "A SER - BUD"], "RUSSIA": ["A GAL S A VIE - BUD"]},
    )
    assert res["A VIE - BUD"] == "succeeds" and res["A SER - BUD"] == "fails"


def test_own_attack_does_not_cut_own_support() -> None:
    res, dis = run(
        {"GERMANY": ["A MUN", "A BER", "A SIL"], "RUSSIA": ["A PRU"]},
        {"GERMANY": ["A SIL S A BER - PRU", "A MUN - SIL", "A BER - PRU"]},
    )
    assert res["A SIL S A BER - PRU"] == "succeeds" and "RUSSIA" in dis


def test_swap_by_convoy() -> None:
    res, _ = run(
        {"FRANCE": ["A BEL", "F ENG"], "ENGLAND": ["A LON", "F NTH"]},
        {"FRANCE": ["A BEL - LON", "F ENG C A LON - BEL"], "ENGLAND": ["A LON - BEL", "F NTH C A BEL - LON"]},
    )
    assert res["A BEL - LON"] == "succeeds" and res["A LON - BEL"] == "succeeds"


# --- 001: confrontations -----------------------------------------------------------------
def test_equal_attacks_bounce_and_do_not_dislodge() -> None:
    res, dis = run(
        {"GERMANY": ["A BER"], "RUSSIA": ["A WAR", "A SIL"]}, {"GERMANY": ["A BER - SIL"], "RUSSIA": ["A WAR - SIL"]}
    )
    assert res["A BER - SIL"] == "fails" and not dis


def test_a_holding_unit_stops_a_chain() -> None:
    res, _ = run(
        {"RUSSIA": ["A PRU"], "GERMANY": ["A BER", "F KIE"]},
        {"RUSSIA": ["A PRU H"], "GERMANY": ["A BER - PRU", "F KIE - BER"]},
    )
    assert res["A BER - PRU"] == "fails" and res["F KIE - BER"] == "fails"


def test_no_swap_without_convoy_but_rotation_works() -> None:
    res, _ = run({"GERMANY": ["A BER"], "RUSSIA": ["A PRU"]}, {"GERMANY": ["A BER - PRU"], "RUSSIA": ["A PRU - BER"]})
    assert res["A BER - PRU"] == "fails" and res["A PRU - BER"] == "fails"
    res, _ = run(
        {"GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU"]},
        {"GERMANY": ["A BER - PRU", "A SIL - BER"], "RUSSIA": ["A PRU - SIL"]},
    )
    assert all(v == "succeeds" for v in res.values())
