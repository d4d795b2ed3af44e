"""A whole Espionnite game through ``arbitre play``: lock, reveal, reaction, by options and interactively."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.judge import Game

runner = CliRunner()
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def play(path: Path, *args: str, input: str | None = None) -> str:
    res = runner.invoke(app, ["play", str(path), *args], input=input)
    assert res.exit_code == 0, res.output
    return res.output


def saved(path: Path) -> Game:
    return Game.from_data(json.loads(path.read_text()))


def test_a_whole_espionnite_game(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["new", str(path), "--rules", "espionnite", "-o", "espionnite_catch_notice=true"])
    assert res.exit_code == 0, res.output

    # Spring 1901 by options: orders, everyone confirms, the orders lock.
    out = play(
        path,
        "--order",
        "FRANCE: A PAR - BUR",
        "--order",
        "FRANCE: SPY MUN",
        "--order",
        "GERMANY: A MUN - RUH",
        "--order",
        "GERMANY: CONTRE-ESPION MUN",
        "--order",
        "ENGLAND: ESPION Munich",
        "--order",
        "ITALY: SPY BER",
        *[a for p in POWERS for a in ("--confirm", p)],
    )
    assert "the orders of S1901M are locked" in out and "reaction step" in out
    assert saved(path).step == "reaction"
    # Each power reads only its own report.
    out = play(path, "--report", "FRANCE", "--report", "GERMANY", "--report", "ITALY", "--report", "TURKEY")
    assert "FRANCE: Your spy (SPY MUN) learnt nothing." in out
    assert "GERMANY: Your counter-spy guarding MUN caught 2 spies." in out
    assert "ITALY: Your spy watched Germany's A BER: its order is A BER H." in out
    assert "TURKEY: no report" in out
    # Germany's locked order was disinformation; France may not change a German unit.
    res = runner.invoke(app, ["play", str(path), "--react", "FRANCE: A MUN - BOH"])
    assert res.exit_code == 2 and "belongs to GERMANY" in res.output
    res = runner.invoke(app, ["play", str(path), "--order", "FRANCE: A PAR H"])
    assert res.exit_code == 2 and "locked" in res.output
    play(path, "--react", "GERMANY: A MUN - RUH", "--react", "GERMANY: A MUN - BUR")  # the second replaces the first
    out = play(path, *[a for p in POWERS for a in ("--confirm", p)])
    assert "everyone confirmed: S1901M adjudicated" in out
    game = saved(path)
    assert str(game.phase) == "F1901M"
    results = {r.order_text: r.reason for r in game.history[-1].results}
    assert results["A PAR - BUR"] == "bounced" and results["A MUN - BUR"] == "bounced"
    assert "A MUN - RUH" not in results and not any("SPY" in t for t in results)

    # Fall 1901 interactively: orders per power, then each power reads its report and may change one order.
    orders = {
        "ENGLAND": ["F LON - NTH", "SPY PAR"],
        "FRANCE": ["A PAR - BUR", "SPY XYZ", "?"],
        "GERMANY": ["A MUN H", "COUNTERSPY BER"],
    }
    reactions = {"ENGLAND": ["A PAR - GAS", "F LON - ENG"], "GERMANY": ["A MUN - BUR"]}
    lines: list[str] = []
    for p in POWERS:
        lines += [*orders.get(p, []), ""]
    for p in POWERS:
        lines += reactions.get(p, [""])
    out = play(path, input="\n".join(lines) + "\n")
    assert "'XYZ' is not a place" in out  # refused at once, and not kept
    assert "SPY MUN" in out  # the '?' listing offers spies
    assert "ENGLAND — ENGLAND: Your spy watched France's A PAR: its order is A PAR - BUR." in out
    assert "belongs to FRANCE" in out  # England's first change was refused; it tried again
    assert "change: F LON - ENG" in out and "change: A MUN - BUR" in out
    game = saved(path)
    fall = game.history[-1]
    assert str(fall.position.phase) == "F1901M"
    assert fall.changes == {"ENGLAND": "F LON - ENG", "GERMANY": "A MUN - BUR"}
    results = {r.order_text: r.reason for r in fall.results}
    assert results["F LON - ENG"] is None and results["A MUN - BUR"] == "bounced"
    assert "F LON - NTH" not in results

    # Then the rest of the game with random orders and random changes, to the end.
    out = play(path, "--random", "3000", "--seed", "5")
    game = saved(path)
    assert game.is_over and game.status == "won", out
    assert any(rec.changes for rec in game.history[2:])
    assert any(rec.lock_events for rec in game.history[2:])
    kinds = {rec.position.phase.kind for rec in game.history}
    assert kinds == {"M", "R", "A"}
    out = play(path, "--history")
    assert "Spring 1901 Movement" in out
