"""The JSON interface: the documented schema, JSON Lines, clear errors, `next` as valid input."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.interface import process, process_text

EXAMPLE = {
    "map": "standard",
    "rules": [],
    "options": {},
    "phase": "S1901M",
    "units": {"ENGLAND": ["F LON", "F EDI", "A LVP"], "RUSSIA": ["F STP/SC"]},
    "supply_centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
    "orders": {"ENGLAND": ["F LON - NTH", "A LVP - YOR"]},
}


def test_schema_example() -> None:
    out = process(EXAMPLE)
    assert out["phase"] == "S1901M"
    assert {"power": "ENGLAND", "order": "F LON - NTH", "outcome": "succeeds", "reason": None} in out["results"]
    assert out["next"]["phase"] == "F1901M"
    assert out["next"]["units"]["ENGLAND"] == ["F EDI", "F NTH", "A YOR"]
    assert out["next"]["supply_centers"] == {"ENGLAND": ["EDI", "LON", "LVP"]}


def test_retreat_cycle_through_next() -> None:
    spring = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]},
        "orders": {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]},
    }
    out = process(spring)
    nxt = out["next"]
    assert nxt["phase"] == "S1901R"
    dis = nxt["dislodged"]["FRANCE"][0]
    assert dis["unit"] == "A BUR" and dis["attacker_from"] == "MUN" and "MUN" not in dis["retreats"]
    retreat = {**nxt, "orders": {"FRANCE": ["A BUR R PAR"]}}
    out2 = process(retreat)
    assert out2["next"]["phase"] == "F1901M"
    assert "A PAR" in out2["next"]["units"]["FRANCE"]


def test_standoff_place_reaches_retreat_phase_through_retreats_list() -> None:
    spring = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR", "A GAS"], "GERMANY": ["A MUN", "A RUH"], "ITALY": ["A PIE"]},
        "orders": {
            "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"],
            "FRANCE": ["A GAS - MAR"],
            "ITALY": ["A PIE - MAR"],
        },
    }
    out = process(spring)
    dis = out["next"]["dislodged"]["FRANCE"][0]
    assert "MAR" not in dis["retreats"] and "PAR" in dis["retreats"]  # MAR saw a standoff
    out2 = process({**out["next"], "orders": {"FRANCE": ["A BUR R MAR"]}})
    assert next(r["outcome"] for r in out2["results"] if r["power"] == "FRANCE") == "illegal"
    # Without the list the engine cannot know about the standoff: the list is what carries it.
    for d in out["next"]["dislodged"]["FRANCE"]:
        d.pop("retreats")
    out3 = process({**out["next"], "orders": {"FRANCE": ["A BUR R MAR"]}})
    assert next(r["outcome"] for r in out3["results"] if r["power"] == "FRANCE") == "succeeds"


def test_errors_say_where() -> None:
    bad = [
        ({**EXAMPLE, "phase": "X1901"}, "phase"),
        ({**EXAMPLE, "units": {"ENGLAND": ["Q LON"]}}, "units.ENGLAND[0]"),
        ({**EXAMPLE, "units": {"NARNIA": ["A LON"]}}, "units.NARNIA"),
        ({**EXAMPLE, "map": "moon"}, "map"),
        ({**EXAMPLE, "rules": ["nope"]}, "rules"),
        ({**EXAMPLE, "colour": "red"}, "colour"),
        ({**EXAMPLE, "options": {"convoy_paradox": "coin"}}, "options"),
        ({**EXAMPLE, "units": {"ENGLAND": ["F LON", "A LON"]}}, "units.ENGLAND[1]"),
        ({**EXAMPLE, "supply_centers": {"ENGLAND": ["YOR"]}}, "supply_centers.ENGLAND[0]"),
        ({k: v for k, v in EXAMPLE.items() if k != "phase"}, "phase"),
        ([1, 2], "(top level)"),
    ]
    for doc, where in bad:
        [(obj, ok)] = process_text(json.dumps(doc))
        assert not ok and obj["error"]["where"] == where, (doc, obj)
        assert obj["error"]["message"]


def test_bad_orders_are_results_not_errors() -> None:
    out = process({**EXAMPLE, "orders": {"ENGLAND": ["F LON - MUN", "A LVP ??", "F EDI - NTH"]}})
    outcomes = {r["order"]: r["outcome"] for r in out["results"]}
    assert outcomes["F LON - MUN"] == "illegal"
    assert outcomes["A LVP ??"] == "invalid"
    assert outcomes["F EDI - NTH"] == "succeeds"


def test_json_lines_and_exit_status(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lines = json.dumps(EXAMPLE) + "\n" + "{not json\n" + json.dumps(EXAMPLE) + "\n"
    path = tmp_path / "in.jsonl"
    path.write_text(lines)
    result = CliRunner().invoke(app, ["adjudicate", str(path)])
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(outs) == 3 and "error" in outs[1] and outs[1]["error"]["where"] == "line 2"
    assert result.exit_code == 1


def test_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "arbitre.cli.main", "adjudicate"],
        input=json.dumps(EXAMPLE),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(proc.stdout)["next"]["phase"] == "F1901M"


def test_rule_options_change_the_outcome() -> None:
    """Each named option of the DATC's alternatives is taken from the JSON and changes what it should."""
    base = {"phase": "S1901M"}
    # 4.B.4: a support naming the wrong coast (DATC 6.B.9).
    coast = {
        **base,
        "units": {"FRANCE": ["F POR", "F MAO"], "ITALY": ["F LYO", "F WES"]},
        "orders": {
            "FRANCE": ["F POR S F MAO - SPA/NC", "F MAO - SPA/SC"],
            "ITALY": ["F LYO S F WES - SPA/SC", "F WES - SPA/SC"],
        },
    }
    outcome = {r["order"]: r["outcome"] for r in process(coast)["results"]}
    assert outcome["F WES - SPA/SC"] == "succeeds"
    ignored = {r["order"]: r["outcome"] for r in process({**coast, "options": {"support_coast": "ignored"}})["results"]}
    assert ignored["F WES - SPA/SC"] == "fails"
    # 4.C.2: wrong unit type.
    kind = {**base, "units": {"ENGLAND": ["F LON"]}, "orders": {"ENGLAND": ["A LON - NTH"]}}
    assert process(kind)["results"][0]["outcome"] == "succeeds"
    strict = process({**kind, "options": {"wrong_unit_type": "illegal"}})["results"][0]
    assert strict["outcome"] == "illegal" and strict["reason"] == "wrong_unit_type"
    # 4.D.4: too many builds.
    builds = {
        "phase": "W1901A",
        "units": {"GERMANY": ["A SIL"]},
        "supply_centers": {"GERMANY": ["BER", "KIE", "MUN"]},
        "orders": {"GERMANY": ["A BER B", "F KIE B", "A MUN B"]},
    }
    first = {r["order"]: r["outcome"] for r in process(builds)["results"]}
    assert first == {"A BER B": "succeeds", "F KIE B": "succeeds", "A MUN B": "illegal"}
    strict_b = process({**builds, "options": {"too_many_builds": "all_illegal"}})["results"]
    assert all(r["outcome"] == "illegal" for r in strict_b)
    # 4.A.2: the paradox rule (DATC 6.F.14, a simple convoy paradox).
    paradox = {
        **base,
        "units": {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]},
        "orders": {"ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"], "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"]},
    }
    szykman = {r["order"]: r["outcome"] for r in process(paradox)["results"]}
    assert szykman["F WAL - ENG"] == "succeeds" and szykman["A BRE - LON"] == "fails"


# A fleet at sea dislodged from the attacker's province: no convoy carries anything into a sea.
FLEET_AT_SEA = {
    "phase": "F1901R",
    "units": {"FRANCE": ["F LYO", "A BUR"]},
    "dislodged": {"ITALY": [{"unit": "F LYO", "attacker_from": "SPA", "retreats": ["SPA/SC", "TYS"]}]},
    "orders": {"ITALY": ["F LYO R SPA/SC"]},
}


def test_a_retreat_list_naming_the_attackers_origin_is_refused_unless_the_attack_came_by_convoy() -> None:
    out = process_text(json.dumps(FLEET_AT_SEA))[0][0]
    assert out["error"]["where"] == "dislodged.ITALY[0].retreats[0]", out
    assert "not by convoy" in out["error"]["message"]
    # an army that came by land from a coastal province (A MAR - SPA): its origin is no retreat either
    by_land = {
        "phase": "S1901R",
        "units": {"FRANCE": ["A SPA", "A GAS"]},
        "dislodged": {"ITALY": [{"unit": "A SPA", "attacker_from": "MAR", "retreats": ["MAR", "POR"]}]},
        "orders": {"ITALY": ["A SPA R MAR"]},
    }
    out = process_text(json.dumps(by_land))[0][0]
    assert out["error"]["where"] == "dislodged.ITALY[0].retreats[0]", out
    # the same, marked as an attack by convoy (DATC 6.H.11): the origin is a retreat
    convoyed = json.loads(json.dumps(by_land))
    convoyed["dislodged"]["ITALY"][0]["by_convoy"] = True
    out = process(convoyed)
    assert {"power": "ITALY", "order": "A SPA R MAR", "outcome": "succeeds", "reason": None} in out["results"]
    # by_convoy without a retreat list: the engine computes the origin in
    del convoyed["dislodged"]["ITALY"][0]["retreats"]
    assert "A MAR" in process(convoyed)["next"]["units"]["ITALY"]
    # a by_convoy that is no boolean, or with no attacker, says where
    for entry, where in (
        ({"unit": "A SPA", "attacker_from": "MAR", "by_convoy": "maybe"}, "dislodged.ITALY.0.by_convoy"),
        ({"unit": "A SPA", "by_convoy": True}, "dislodged.ITALY[0].by_convoy"),
    ):
        answer = process_text(json.dumps({**by_land, "dislodged": {"ITALY": [entry]}}))[0][0]
        assert answer["error"]["where"] == where, answer


def test_next_says_which_attacks_came_by_convoy_and_reads_back() -> None:
    # DATC 6.H.11: an army convoyed to an adjacent province leaves its origin open to the dislodged unit.
    spring = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR", "A GAS", "F LYO", "F MAO", "F WES"], "ITALY": ["A MAR"]},
        "orders": {
            "FRANCE": [
                "A GAS - MAR via convoy",
                "A BUR S A GAS - MAR",
                "F MAO C A GAS - MAR",
                "F WES C A GAS - MAR",
                "F LYO C A GAS - MAR",
            ]
        },
    }
    nxt = process(spring)["next"]
    (entry,) = nxt["dislodged"]["ITALY"]
    assert entry == {"unit": "A MAR", "attacker_from": "GAS", "retreats": ["GAS", "PIE", "SPA"], "by_convoy": True}
    out = process({**nxt, "orders": {"ITALY": ["A MAR R GAS"]}})
    assert {"power": "ITALY", "order": "A MAR R GAS", "outcome": "succeeds", "reason": None} in out["results"]
    # the same attack by land: no flag, and the origin is no retreat
    spring["orders"] = {"FRANCE": ["A GAS - MAR", "A BUR S A GAS - MAR"]}
    (entry,) = process(spring)["next"]["dislodged"]["ITALY"]
    assert entry == {"unit": "A MAR", "attacker_from": "GAS", "retreats": ["PIE", "SPA"]}
