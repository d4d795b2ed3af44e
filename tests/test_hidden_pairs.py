"""Hidden-state pairs: two games that differ only in what a viewer may not see give that viewer the same bytes.

Compared as JSON text *without* sorting keys (so key and list order count), and
as SVG bytes for maps:

- the viewer's own results and report when its order names a foreign hidden unit
  (a support given in the depths), whether or not that unit exists;
- the order of every list and key, whatever the order of the input's lists;
- several phases in which the viewer's visible units move while a foreign
  submerged submarine takes one of two routes far away: views, history, order
  checks (errors) and maps;
- ``arbitre map`` on a position file draws the file's ``viewer``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.interface import process
from arbitre.judge import Game, position_from_data
from arbitre.render import render_svg
from arbitre.views import build_view, view_to_data
from tests.hostile import HOSTILE

SUB = {"rules": ["submarines"], "phase": "S1901M", "viewer": "FRANCE"}


def _bytes(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, default=str)  # key order counts


def test_own_depth_support_reads_the_same_whether_the_supported_unit_exists() -> None:
    orders = {"FRANCE": ["SM MAO-1 S SM NAO-1", "SM IRI-1 H"]}
    there = {**SUB, "units": {"FRANCE": ["SM MAO-1", "SM IRI-1"], "GERMANY": ["SM NAO-1"]}, "orders": orders}
    away = {**SUB, "units": {"FRANCE": ["SM MAO-1", "SM IRI-1"], "GERMANY": ["SM BAR-1"]}, "orders": orders}
    a, b = process(there), process(away)

    def own(out: dict[str, Any]) -> Any:
        results = [r for r in out["results"] if r["power"] == "FRANCE"]
        told = [line for line in out["report"] if line["kind"] == "submarines.depth_support"]
        return _bytes(results), _bytes(told)

    assert own(a) == own(b)
    assert own(a)[1] != "[]"  # the supporter is told about its support in both cases
    germany = process({**there, "viewer": "GERMANY"})
    assert any(line["kind"] == "submarines.depth_support" for line in germany["report"])  # and the owner too


@HOSTILE
@given(data=st.data())
def test_answers_do_not_depend_on_the_order_of_the_input_lists(data: st.DataObject) -> None:
    units = {
        "FRANCE": ["A PAR", "F BRE", "A MAR"],
        "GERMANY": ["A MUN", "F KIE", "SM BAL-1"],
        "ENGLAND": ["F LON", "SM NTH-1"],
    }
    orders = {
        "FRANCE": ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"],
        "GERMANY": ["A MUN - BUR"],
        "ENGLAND": ["F LON - ENG", "SM NTH-1 - NWG-1"],
    }

    def shuffled(mapping: dict[str, list[str]]) -> dict[str, list[str]]:
        keys = data.draw(st.permutations(sorted(mapping)))
        return {k: data.draw(st.permutations(mapping[k])) for k in keys}

    viewer = data.draw(st.sampled_from(["FRANCE", "GERMANY", "observer", "master"]))
    first = process({**SUB, "viewer": viewer, "units": units, "orders": orders})
    again = process({**SUB, "viewer": viewer, "units": shuffled(units), "orders": shuffled(orders)})
    assert _bytes(first) == _bytes(again)


ROUTES = {  # Germany's submerged submarine takes one of two routes in the far north
    "a": ["SM BAR-1 - NWG-1", "SM NWG-1 H", "SM NWG-1 H"],
    "b": ["SM BAR-1 H", "SM BAR-1 H", "SM BAR-1 H"],
}
FRANCE_MOVES = [
    ["A MAR - PIE", "F BRE - MAO", "A PAR - GAS"],
    ["A PIE - TUS", "F MAO - WES", "A GAS - SPA"],
    ["A TUS - ROM", "F WES - TUN", "A SPA - POR"],
]


def _game(route: str) -> Game:
    game = Game.new("standard", ["submarines"], {})
    game.position = position_from_data(
        game.rules, "S1901M", {"FRANCE": ["A MAR", "F BRE", "A PAR"], "GERMANY": ["SM BAR-1"], "ITALY": ["A VEN"]}, None
    )
    for i, moves in enumerate(FRANCE_MOVES):
        while game.position.phase.kind != "M":
            game.advance()
        game.set_orders("FRANCE", moves)
        game.set_orders("GERMANY", [ROUTES[route][i]])
        game.advance()
    return game


def test_several_phases_views_history_errors_and_maps_are_the_same_bytes() -> None:
    a, b = _game("a"), _game("b")
    assert _bytes(view_to_data(build_view(a.rules, a.position, "master"))) != _bytes(
        view_to_data(build_view(b.rules, b.position, "master"))
    )  # the pair differs in hidden state
    for viewer in ("FRANCE", "ITALY", "observer"):
        va = build_view(a.rules, a.position, viewer, pending=a.pending)
        vb = build_view(b.rules, b.position, viewer, pending=b.pending)
        assert _bytes(view_to_data(va)) == _bytes(view_to_data(vb)), viewer
        assert render_svg(va) == render_svg(vb), viewer
        assert len(a.history) == len(b.history)
        for ra, rb in zip(a.history, b.history, strict=True):
            ha = build_view(a.rules, ra.position, viewer, outcome=ra.outcome)
            hb = build_view(b.rules, rb.position, viewer, outcome=rb.outcome)
            assert _bytes(view_to_data(ha)) == _bytes(view_to_data(hb)), (viewer, str(ra.position.phase))
            assert render_svg(ha) == render_svg(hb)
        # reloaded from their saved form (as the server stores them), the same bytes again
        la, lb = (
            Game.from_data(json.loads(json.dumps(a.to_data()))),
            Game.from_data(json.loads(json.dumps(b.to_data()))),
        )
        for ra, rb in zip(la.history, lb.history, strict=True):
            assert _bytes(view_to_data(build_view(la.rules, ra.position, viewer, outcome=ra.outcome))) == _bytes(
                view_to_data(build_view(lb.rules, rb.position, viewer, outcome=rb.outcome))
            )
    # errors about an order naming the place of the hidden unit read the same
    if a.position.phase.kind == "M":
        lines = ["SM NWG-1 - BAR-1", "F TUN S SM NWG-1", "SPY NWG-1", "A ROM - NWG-1"]
        assert repr(a.check_orders("FRANCE", lines)) == repr(b.check_orders("FRANCE", lines))


def test_map_of_a_position_file_draws_its_viewer(tmp_path: Path) -> None:
    runner = CliRunner()
    svgs = []
    for hidden in ("SM NAO-1", "SM BAR-1"):
        src = tmp_path / f"{hidden[3:6]}.json"
        src.write_text(json.dumps({**SUB, "orders": {}, "units": {"FRANCE": ["F BRE"], "GERMANY": [hidden]}}))
        result = runner.invoke(app, ["map", str(src)])
        assert result.exit_code == 0, result.output
        svgs.append(result.stdout)
        master = runner.invoke(app, ["map", str(src), "--viewer", "master"])
        assert master.stdout == result.stdout  # --viewer cannot widen the file's viewer
        other = runner.invoke(app, ["map", str(src), "--viewer", "GERMANY"])
        assert other.exit_code != 0 and "FRANCE" in other.output
    assert svgs[0] == svgs[1] and "NAO-1" not in svgs[0]
    full = tmp_path / "full.json"
    full.write_text(json.dumps({**SUB, "viewer": "master", "units": {"FRANCE": ["F BRE"], "GERMANY": ["SM NAO-1"]}}))
    assert runner.invoke(app, ["map", str(full)]).stdout != svgs[0]


def test_an_error_about_another_powers_reaction_tells_its_details_to_that_power_only() -> None:
    from arbitre.interface import RequestError

    base = {
        "rules": ["espionnite"],
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        "orders": {"FRANCE": ["A PAR H"], "GERMANY": ["A MUN H"]},
        "step": "resolve",
    }

    def error(reaction: str, viewer: str) -> tuple[str, str]:
        try:
            process({**base, "viewer": viewer, "reactions": {"FRANCE": reaction}})
        except RequestError as err:
            return err.where, err.message
        raise AssertionError("the illegal reaction was accepted")

    assert error("A PAR - MOS", "GERMANY") == error("A PAR - BUD", "GERMANY") == error("A PAR - MOS", "observer")
    assert error("A PAR - MOS", "FRANCE") != error("A PAR - BUD", "FRANCE")  # France reads its own reasons
    assert "MOS" in error("A PAR - MOS", "master")[1]


def test_nationality_options_judge_a_hidden_unit_as_the_supporter_sees_it() -> None:
    """DATC 4.C.5/4.C.6 alternatives: a support naming (or not naming) the nationality of a submerged
    submarine reads the same whether that submarine is there, and is not refused for a nationality
    the supporter cannot see."""
    orders = [
        ["SM MAO-1 S ITALIAN SM NAO-1"],
        ["SM MAO-1 S GERMAN SM NAO-1"],
        ["SM MAO-1 S SM NAO-1"],
        ["SM MAO-1 S SM NAO-1", "SM MAO-1 S GERMAN SM NAO-1 - IRI-1"],
    ]
    for option in (
        {"missing_nationality": "invalid"},
        {"missing_nationality": "unless_designated"},
        {"wrong_nationality": "invalid"},
        {"wrong_nationality": "unless_designated"},
    ):
        for lines in orders:
            answers = []
            for german in ("SM NAO-1", "SM BAR-1"):
                units = {"FRANCE": ["SM MAO-1"], "GERMANY": [german]}
                out = process({**SUB, "options": option, "units": units, "orders": {"FRANCE": lines}})
                answers.append(_bytes([r for r in out["results"] if r["power"] == "FRANCE"]))
            assert answers[0] == answers[1], (option, lines)
            assert "nationality" not in answers[0], (option, lines)
