"""``arbitre export`` (a game as MILA's saved-game JSON) and ``arbitre import`` (a MILA saved game replayed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from arbitre.cli.listing import ListingError, load_game
from arbitre.interface.mila import ExportError, MilaImportError, export_game, import_game

console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def _fail(message: str, code: int = 2) -> None:
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def _write(text: str, out: Path | None) -> None:
    if out is None:
        sys.stdout.write(text + "\n")
        return
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(out)  # atomic: a crash never leaves half a file


def export_command(
    game_file: Annotated[Path, typer.Argument(help="A game file (arbitre new / arbitre play).")],
    format_: Annotated[str, typer.Option("--format", help="The format to write: mila.")] = "mila",
    out: Annotated[Path | None, typer.Option("--output", "-o", help="Where to write (stdout when left out).")] = None,
    game_id: Annotated[str | None, typer.Option("--id", help="The saved game's id (default: the file's name).")] = None,
) -> None:
    """Write a game of the standard map as MILA's saved-game JSON (docs/mila.md)."""
    if format_ != "mila":
        _fail(f"--format must be mila, not {format_!r}")
    try:
        game = load_game(game_file)
    except ListingError as err:
        _fail(str(err))
        return
    try:
        saved = export_game(game, game_id or game_file.stem)
    except ExportError as err:
        _fail(f"{game_file}: {err}")
        return
    _write(json.dumps(saved, ensure_ascii=False), out)


def import_command(
    saved_file: Annotated[Path, typer.Argument(help="A MILA saved game (JSON; the first line of a .jsonl file).")],
    out: Annotated[
        Path | None, typer.Option("--output", "-o", help="The game file to write (stdout when left out).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="A rule option name=value (default: preset=mila).")
    ] = None,
) -> None:
    """Replay a MILA saved game with arbitre's engine; fail naming the first phase that disagrees with the record."""
    try:
        text = saved_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        _fail(f"{saved_file}: {err}")
        return
    try:
        saved = json.loads(text)
    except json.JSONDecodeError:
        try:
            saved = json.loads(text.splitlines()[0]) if text.strip() else None
        except (json.JSONDecodeError, IndexError) as err:
            _fail(f"{saved_file}: not JSON ({err})")
            return
    options: dict[str, str] | None = None
    if option:
        options = {}
        for item in option:
            if "=" not in item:
                _fail(f"option {item!r} must be written name=value")
            name, value = item.split("=", 1)
            options[name.strip()] = value.strip()
    try:
        game = import_game(saved, options)
    except MilaImportError as err:
        _fail(f"{saved_file}: {err}", 1)
        return
    except ValueError as err:  # a bad rule option
        _fail(str(err))
        return
    _write(json.dumps(game.to_data(), ensure_ascii=False, indent=1), out)
    phases = len(saved.get("phases", [])) if isinstance(saved, dict) else 0
    err_console.print(
        escape(f"{saved_file}: {phases} phases replayed, every one agrees with the record"), highlight=False
    )
