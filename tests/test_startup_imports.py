"""What ``arbitre adjudicate`` and ``arbitre orders FILE --json`` import: nothing of the full command line.

Their start-up is measured by ``bench/bench_startup.py``; these tests check, in
a fresh interpreter, that the quick paths answer correctly without loading
typer, rich, pydantic, the renderer, the server or a rule module the game does
not use, so a stray import cannot make them slow again unnoticed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbitre.cli import entry
from arbitre.cli.listing import parse_orders_args
from arbitre.cli.main import app

RUN = """
import json, sys
from arbitre.cli import entry
sys.argv = ["arbitre", *json.loads(sys.argv[1])]
code = 0
try:
    entry.main()
except SystemExit as stop:
    code = stop.code
with open({out!r}, "w") as f:
    json.dump({{"code": code, "modules": sorted(sys.modules)}}, f)
"""

NOT_LOADED = (
    "typer",
    "click",
    "rich",
    "pydantic",
    "jinja2",
    "sqlalchemy",
    "fastapi",
    "zipfile",
    "tempfile",
    "arbitre.cli.main",
    "arbitre.render",
    "arbitre.server",
    "arbitre.store",
    "arbitre.words",
    "arbitre.variants.colonial",
    "arbitre.variants.submarines",
    "arbitre.variants.espionnite",
    "arbitre.variants.no_convoys",
)
"""Modules a standard-rules quick path must not import."""


def _run(tmp_path: Path, args: list[str]) -> tuple[int, str, list[str]]:
    """Run ``arbitre ARGS`` through the entry point in a new interpreter: exit code, stdout, modules loaded."""
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", RUN.format(out=str(out)), json.dumps(args)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stderr == ""
    report = json.loads(out.read_text())
    return report["code"], done.stdout, report["modules"]


def _loaded(modules: list[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_adjudicate_answers_without_the_command_line(tmp_path: Path) -> None:
    request = {
        "map": "standard",
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        "supply_centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
        "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
    }
    path = tmp_path / "one.json"
    path.write_text(json.dumps(request) + "\n")
    code, stdout, modules = _run(tmp_path, ["adjudicate", str(path)])
    assert code == 0
    answer = json.loads(stdout)
    assert "A BUR" in answer["next"]["units"]["FRANCE"]
    assert [m for m in NOT_LOADED if _loaded(modules, m)] == []


def test_orders_json_answers_without_the_command_line(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert CliRunner().invoke(app, ["new", str(game)]).exit_code == 0
    code, stdout, modules = _run(tmp_path, ["orders", str(game), "--json", "--power", "england"])
    assert code == 0
    assert "F LON - NTH" in json.loads(stdout)["ENGLAND"]["LON"]
    assert [m for m in NOT_LOADED if _loaded(modules, m)] == []


@pytest.mark.parametrize(
    ("new_args", "orders_args"),
    [
        ([], ["--json"]),
        ([], ["--json", "-p", "france"]),
        ([], ["--viewer", "ITALY", "--json"]),
        (["--map", "colonial"], ["--json"]),
        (["--rules", "submarines"], ["--json", "--viewer", "FRANCE"]),
    ],
)
def test_quick_orders_print_what_the_command_line_prints(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    new_args: list[str],
    orders_args: list[str],
) -> None:
    game = tmp_path / "g.json"
    assert CliRunner().invoke(app, ["new", str(game), *new_args]).exit_code == 0
    full = CliRunner().invoke(app, ["orders", str(game), *orders_args])
    assert full.exit_code == 0
    monkeypatch.setattr(sys, "argv", ["arbitre", "orders", str(game), *orders_args])
    entry.main()
    assert capsys.readouterr().out == full.stdout


def test_refused_orders_go_to_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "g.json"
    assert CliRunner().invoke(app, ["new", str(game)]).exit_code == 0
    monkeypatch.setattr(sys, "argv", ["arbitre", "orders", str(game), "--json", "--viewer", "observer"])
    with pytest.raises(SystemExit) as stop:
        entry.main()
    assert stop.value.code == 2


@pytest.mark.parametrize(
    "args",
    [["g.json"], ["g.json", "--json", "--help"], ["--json"], ["g.json", "--json", "--power"], ["a", "b", "--json"]],
)
def test_only_the_plain_json_listing_is_read_quickly(args: list[str]) -> None:
    assert parse_orders_args(args) is None


def test_plain_json_listing_is_read() -> None:
    assert parse_orders_args(["g.json", "--viewer", "FRANCE", "--json", "-p", "france"]) == (
        Path("g.json"),
        "france",
        "FRANCE",
    )
