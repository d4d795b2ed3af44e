"""``arbitre bot`` (a bot's orders for a position) and the bot seats of ``arbitre play --bots``."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from arbitre.bots import Bot, make_bot
from arbitre.judge import Game, PositionError, position_from_data

console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def parse_bot_seats(game: Game, powers: str, seed: int, kind: str = "house") -> dict[str, Bot]:
    """``"FRANCE,GERMANY"`` → a bot per power (ValueError naming the unknown power)."""
    out: dict[str, Bot] = {}
    for i, name in enumerate(p.strip().upper() for p in powers.split(",") if p.strip()):
        if name not in game.powers():
            raise ValueError(f"--bots: {name!r} is not a power of this game ({', '.join(game.powers())})")
        out[name] = make_bot(kind, seed + i)
    return out


def game_from_file(data: Mapping[str, Any]) -> Game:
    """A game file (``arbitre new``) or a position like the JSON interface's, as a game at that position."""
    if data.get("format") == "arbitre-game/1":
        return Game.from_data(data)
    game = Game.new(str(data.get("map", "standard")), data.get("rules", ()) or (), data.get("options") or {})
    if "phase" in data or "units" in data:
        game.position = position_from_data(
            game.rules,
            str(data.get("phase", game.position.phase)),
            data.get("units", {}),
            data.get("supply_centers"),
            data.get("dislodged"),
            game.position.extras,
        )
    return game


def bot_command(
    position: Annotated[
        Path,
        typer.Option(
            "--position",
            help="A game file or a position as JSON (map, rules, phase, "
            "units, supply_centers, dislodged); '-' for stdin.",
        ),
    ],
    power: Annotated[str, typer.Option("--power", "-p", help="The power the bot plays.")],
    seed: Annotated[int, typer.Option("--seed", help="The bot's seed (the same seed, the same orders).")] = 0,
    kind: Annotated[str, typer.Option("--kind", help="house, hold or random.")] = "house",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """Print the orders a bot gives for POWER in a position, chosen from POWER's view only."""
    try:
        text = sys.stdin.read() if str(position) == "-" else position.read_text(encoding="utf-8")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object: a game file or a position")
        game = game_from_file(data)
        who = power.strip().upper()
        if who not in game.powers():
            raise ValueError(f"{power!r} is not a power of this game ({', '.join(game.powers())})")
        bot = make_bot(kind, seed)
    except (OSError, ValueError, PositionError) as err:
        err_console.print(f"[red]error:[/red] {err}")
        raise typer.Exit(2) from err
    view = game.view(who)
    legal = game.legal_orders(who)
    if game.step == "reaction":
        change = bot.reaction(game.rules, view, legal)
        orders = [change] if change else []
    else:
        orders = bot.orders(game.rules, view, legal)
    if as_json:
        console.print_json(
            json.dumps(
                {"power": who, "phase": str(game.phase), "step": game.step, "bot": kind, "seed": seed, "orders": orders}
            )
        )
        return
    for line in orders:
        console.print(line, markup=False, highlight=False)
