"""Drawings of views: every order kind, results, submarines, and that only the view is drawn."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.render import load_geometry, render_svg
from arbitre.views.model import MASTER, View, VisibleDislodged, VisibleOrder, VisibleUnit

SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, kind: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == f"order {kind}"]


def standard_view(**kw: object) -> View:
    base: dict[str, object] = dict(
        viewer=MASTER, map_name="standard", phase="S1901M",
        units=(VisibleUnit("FRANCE", "A", "PAR"), VisibleUnit("FRANCE", "A", "MAR"),
               VisibleUnit("ENGLAND", "F", "NTH"), VisibleUnit("ENGLAND", "A", "YOR"),
               VisibleUnit("GERMANY", "A", "MUN"), VisibleUnit("RUSSIA", "F", "STP/SC"),
               VisibleUnit("ITALY", "A", "VEN")),
        owners={"PAR": "FRANCE", "MAR": "FRANCE", "LON": "ENGLAND", "MUN": "GERMANY"},
    )
    base.update(kw)
    return View(**base)  # type: ignore[arg-type]


def test_every_standard_order_kind_is_drawn() -> None:
    orders = (
        VisibleOrder("FRANCE", "A PAR - BUR", "move", ("PAR", "BUR"), "succeeds"),
        VisibleOrder("FRANCE", "A MAR S A PAR - BUR", "support", ("MAR", "PAR", "BUR"), "succeeds"),
        VisibleOrder("GERMANY", "A MUN - BUR", "move", ("MUN", "BUR"), "fails", "bounce"),
        VisibleOrder("ENGLAND", "F NTH C A YOR - NWY", "convoy", ("NTH", "YOR", "NWY"), "succeeds"),
        VisibleOrder("ENGLAND", "A YOR - NWY VIA", "move", ("YOR", "NWY"), "succeeds"),
        VisibleOrder("RUSSIA", "F STP/SC H", "hold", ("STP/SC",), "succeeds"),
        VisibleOrder("ITALY", "A VEN S F STP/SC", "support", ("VEN", "STP/SC"), "fails", "void"),
    )
    svg = render_svg(standard_view(orders=orders, bounced=("BUR",)))
    ET.fromstring(svg)  # well-formed
    assert len(groups(svg, "move")) == 3
    move = groups(svg, "move")[0]
    assert move.find(f"{SVG}polygon") is not None  # an arrowhead on the successful move
    failed = groups(svg, "move")[1]
    assert failed.find(f"{SVG}polygon") is None and failed.find(f"{SVG}line") is not None  # a bar instead
    assert len(groups(svg, "support")) == 2
    assert len(groups(svg, "convoy")) == 1
    assert len(groups(svg, "hold")) == 1
    assert "standoff in BUR" in svg


def test_results_retreat_disband_build() -> None:
    dislodged = (VisibleDislodged(VisibleUnit("GERMANY", "A", "MUN"), "BOH", ("KIE", "RUH")),)
    retreat = standard_view(
        phase="S1901R", dislodged=dislodged,
        orders=(VisibleOrder("GERMANY", "A MUN R KIE", "retreat", ("MUN", "KIE"), "succeeds"),
                VisibleOrder("ENGLAND", "A YOR D", "disband", ("YOR",), "succeeds")),
    )
    svg = render_svg(retreat)
    assert len(groups(svg, "retreat")) == 1 and len(groups(svg, "disband")) == 1
    root = ET.fromstring(svg)
    (dis,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "dislodged"]
    assert dis.find(f"{SVG}g") is not None  # the dislodged unit is drawn beside its place
    build = standard_view(phase="W1901A", orders=(VisibleOrder("FRANCE", "F BRE B", "build", ("BRE",), "succeeds"),))
    svg = render_svg(build)
    (g,) = groups(svg, "build")
    assert "FRANCE F BRE" in ET.tostring(g, encoding="unicode")


def test_colonial_train_and_suez() -> None:
    geo = load_geometry("colonial")
    view = View(
        viewer=MASTER, map_name="colonial", phase="S1870M",
        units=(VisibleUnit("RUSSIA", "A", "MOS"), VisibleUnit("TURKEY", "F", "MED"),
               VisibleUnit("BRITAIN", "A", "EGY"), VisibleUnit("CHINA", "A", "IRK")),
        owners={"MOS": "RUSSIA"},
        orders=(
            VisibleOrder("RUSSIA", "A MOS - TSR - VLA", "train", ("MOS", "VLA"), "succeeds", final_place="KRA"),
            VisibleOrder("BRITAIN", "SUEZ F MED", "suez", ("EGY", "MED", "RED"), "succeeds"),
        ),
    )
    svg = render_svg(view, geo)
    (train,) = groups(svg, "train")
    polylines = train.findall(f"{SVG}polyline")
    # The real trip MOS-PRM-OMS-KRA (4 stations) and the part not travelled KRA-IRK-VLA.
    assert len(polylines[0].get("points", "").split()) == 4
    assert any(len(p.get("points", "").split()) == 3 for p in polylines)
    (suez,) = groups(svg, "suez")
    assert "Suez Canal" in ET.tostring(suez, encoding="unicode")


def submarine_views() -> tuple[View, View, View]:
    """The master, the submarine's owner (England) and an outsider (France), built by allow-list."""
    public = (VisibleUnit("FRANCE", "F", "MAO"), VisibleUnit("ITALY", "F", "TYS"))
    hidden = VisibleUnit("ENGLAND", "S", "ION-1", hidden=True)
    contact = VisibleUnit(None, "S", "TYS-1")
    torp = VisibleOrder("ENGLAND", "SM ION-1 T ION", "torpedo", ("ION-1", "ION"), "fails")
    master = View(MASTER, "standard", "S1902M", public + (hidden, VisibleUnit("ITALY", "S", "TYS-1", hidden=True)),
                  {}, orders=(torp,))
    england = View("ENGLAND", "standard", "S1902M", public + (hidden, contact), {}, orders=(torp,))
    france = View("FRANCE", "standard", "S1902M", public, {})
    return master, england, france


def test_submarine_player_sees_own_submerged_unit_and_sonar_contact() -> None:
    _, england, _ = submarine_views()
    svg = render_svg(england)
    assert "ENGLAND S ION-1 (submerged)" in svg
    assert "unknown power S TYS-1" in svg  # a sonar contact, no nationality
    assert "ITALY S TYS-1" not in svg
    (torpedo,) = groups(svg, "torpedo")
    assert "torpedo miss" in ET.tostring(torpedo, encoding="unicode")


def test_outsider_map_holds_nothing_hidden() -> None:
    master, _, france = submarine_views()
    geo = load_geometry("standard")
    svg = render_svg(france, geo)
    for secret in ("ION-1", "TYS-1", "submerged", "torpedo", "ENGLAND"):
        assert secret not in svg
    for place in ("ION", "TYS"):
        x, y = geo.provinces[place].depth or (0.0, 0.0)
        assert f"translate({x:g} {y:g})" not in svg
    # The same view gives the same picture: the drawing depends on the view only.
    assert render_svg(france, geo) == svg
    assert "ITALY S TYS-1 (submerged)" in render_svg(master, geo)


def test_cli_map_from_position(tmp_path: Path) -> None:
    request = {"map": "standard", "phase": "S1901M",
               "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
               "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}
    src = tmp_path / "pos.json"
    src.write_text(json.dumps(request))
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(app, ["map", str(src), "--out", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "standoff in BUR" in svg and len(groups(svg, "move")) == 2


def test_cli_map_png_of_a_game_phase(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    runner = CliRunner()
    assert runner.invoke(app, ["new", str(game)]).exit_code == 0
    assert runner.invoke(app, ["play", str(game), "--random", "2", "--seed", "3"]).exit_code == 0
    out = tmp_path / "f1901.png"
    result = runner.invoke(app, ["map", str(game), "--phase", "F1901M", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
