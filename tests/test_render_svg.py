"""Maps from the command line (every order kind, from real games: tests/test_render_game.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from arbitre.cli.main import app

SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, kind: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == f"order {kind}"]


def test_cli_map_from_position(tmp_path: Path) -> None:
    request = {
        "map": "standard",
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
    }
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
