"""``arbitre map``: draw a position or a game phase as SVG or PNG."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from arbitre.cli.mapview import ViewUnavailableError, game_view, position_view
from arbitre.interface.text import TextError, loads
from arbitre.judge import Game, PositionError
from arbitre.maps import load_map
from arbitre.render import UnknownGeometryError, render_svg, svg_to_png
from arbitre.render.png import PngUnavailableError
from arbitre.views.model import MASTER, View

err_console = Console(stderr=True)


def _fail(message: str, code: int = 2) -> None:
    err_console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(code)


def _read_json(path: Path | None) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if path is None else path.read_text(encoding="utf-8")
    except OSError as err:
        _fail(f"cannot read {path}: {err.strerror}")
        raise AssertionError("unreachable") from err
    try:
        data = loads(text)
    except TextError as err:
        _fail(f"{path or 'stdin'}: {err}")
        raise AssertionError("unreachable") from err
    if not isinstance(data, dict):
        _fail("expected a JSON object: a game file or a position like the JSON interface's")
    return dict(data)


def _view_of(data: dict[str, Any], viewer: str, phase: str | None) -> View:
    try:
        if data.get("format", "").startswith("arbitre-game/"):
            game = Game.from_data(data)
            return game_view(game, viewer, phase)
        # A position file that names its viewer is drawn as that viewer sees it, never wider.
        given = str(data.get("viewer") or MASTER)
        given = given if given in (MASTER, "observer") else given.upper()
        if given != MASTER and viewer not in (MASTER, given):
            raise ViewUnavailableError(f"this position is {given}'s view; it cannot be drawn for {viewer}")
        return position_view(data, given if given != MASTER else viewer)
    except (ViewUnavailableError, PositionError) as err:
        _fail(str(err))
    except (KeyError, ValueError, TypeError) as err:
        _fail(f"cannot read this input: {err}")
    raise AssertionError("unreachable")


def map_command(
    source: Annotated[
        Path | None,
        typer.Argument(
            help="A game file (from 'arbitre new') or a position as JSON (map, phase, units, supply_centers, "
            "optional orders); stdin when left out."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Where to write; .png or .svg decides the format. SVG on stdout when left out."
        ),
    ] = None,
    viewer: Annotated[
        str, typer.Option("--viewer", help="Whose view to draw: master, observer or a power (game files only).")
    ] = MASTER,
    phase: Annotated[
        str | None,
        typer.Option("--phase", help="A played phase of the game (e.g. F1901M): drawn with its orders and results."),
    ] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="svg or png (default: from --out).")] = None,
    scale: Annotated[float, typer.Option("--scale", help="PNG size factor.")] = 1.0,
) -> None:
    """Draw a map: a position, or a game phase as one viewer sees it, as SVG or PNG."""
    data = _read_json(source)
    view = _view_of(data, viewer if viewer in (MASTER, "observer") else viewer.upper(), phase)
    kind = (fmt or (out.suffix.lstrip(".") if out else "svg")).lower()
    if kind not in ("svg", "png"):
        _fail(f"unknown format {kind!r}: use svg or png")
    try:
        gmap = load_map(view.map_name)
        names = {a: p.name for a, p in gmap.provinces.items()}
        svg = render_svg(view, names=names)
    except UnknownGeometryError as err:
        _fail(str(err))
        return
    if kind == "svg":
        if out is None:
            sys.stdout.write(svg + "\n")
        else:
            out.write_text(svg, encoding="utf-8")
        return
    if out is None:
        _fail("PNG output needs --out FILE")
        return
    try:
        out.write_bytes(svg_to_png(svg, scale))
    except PngUnavailableError as err:
        _fail(str(err))
