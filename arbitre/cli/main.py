"""The ``arbitre`` command line: adjudicate JSON, check the DATC, list orders, play local games."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from arbitre.bots import Bot, bot_step
from arbitre.cli.botcmd import bot_command, parse_bot_seats
from arbitre.cli.contract import run as run_contract
from arbitre.cli.display import history_text, last_phase_text, position_text
from arbitre.cli.listing import ListingError, legal_listing, listing_json, load_game, viewer_of
from arbitre.cli.mapcmd import map_command
from arbitre.cli.milacmd import export_command, import_command
from arbitre.cli.serve import serve
from arbitre.cli.steps import StepOptions, apply_step_options, prompt_changes, random_changes, takes_changes
from arbitre.judge import ORDERS, Accepts, Game, StepError
from arbitre.orders import OrderError
from arbitre.variants import RULE_MODULES
from arbitre.views import MASTER
from arbitre.words.modules import modules_help


def _module_options() -> str:
    """Each rule module's options, for help."""
    return "; ".join(f"{o.name} ({m.name})" for m in RULE_MODULES for o in m.options)


def _map_names() -> str:
    """The maps shipped with the package (their data files), for help."""
    from arbitre import maps

    return ", ".join(sorted(p.stem for p in (Path(maps.__file__).parent / "data").glob("*.json")))


app = typer.Typer(help="arbitre — a Diplomacy judge.", no_args_is_help=True, add_completion=False)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)  # never wrap an error message mid-phrase


def _fail(message: str, code: int = 2) -> None:
    err_console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(code)


def _parse_options(values: list[str]) -> dict[str, str]:
    out = {}
    for item in values:
        if "=" not in item:
            _fail(f"option {item!r} must be written name=value")
        name, value = item.split("=", 1)
        out[name.strip()] = value.strip()
    return out


@app.command()
def adjudicate(
    file: Annotated[Path | None, typer.Argument(help="JSON or JSON Lines file; stdin when left out.")] = None,
) -> None:
    """Adjudicate positions given as JSON (one object, or one per line) and print one outcome per position."""
    code = run_contract(file)
    if code == 2:
        raise typer.Exit(2)
    if code:
        raise typer.Exit(1)


@app.command()
def datc(
    paths: Annotated[list[Path], typer.Argument(help="DATC v3.2 HTML file(s), e.g. DATC_v3_2_chapter6.html.")],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show every failing expectation.")] = False,
) -> None:
    """Run DATC test files and print a table of results by section."""
    from arbitre.datc import parse_datc_html
    from arbitre.datc.runner import run_case

    failed_total = 0
    for path in paths:
        try:
            cases = parse_datc_html(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            _fail(f"{path}: {err}")
            return
        by_section: dict[str, list[bool]] = {}
        titles: dict[str, str] = {}
        failures = []
        errata: list[str] = []
        for case in track(cases, description=f"{path.name}", console=err_console):
            report = run_case(case)
            by_section.setdefault(case.section, []).append(report.passed)
            titles[case.section] = case.section_title
            if not report.passed:
                failures.append(report)
            errata.extend(f"{case.case_id}: {e}" for e in report.errata)
        table = Table(title=str(path))
        for col in ("section", "title", "passed", "cases"):
            table.add_column(col)
        for section, results in by_section.items():
            table.add_row(section, titles[section], str(sum(results)), str(len(results)))
        passed = sum(sum(r) for r in by_section.values())
        table.add_row("total", "", str(passed), str(len(cases)))
        console.print(table)
        for e in errata:
            console.print(f"[yellow]erratum[/yellow] {e}")
        for rep in failures:
            console.print(f"[red]FAILED[/red] {rep.case.case_id} {rep.case.title}")
            if verbose:
                for p in rep.problems:
                    console.print(f"    {p}")
        failed_total += len(failures)
    if failed_total:
        raise typer.Exit(1)


def _load_game(path: Path) -> Game:
    try:
        return load_game(path)
    except ListingError as err:
        _fail(str(err))
    raise AssertionError("unreachable")


def _viewer(game: Game, viewer: str) -> str:
    """The viewer id of ``--viewer`` (a power of the game, ``master`` or ``observer``)."""
    try:
        return viewer_of(game, viewer)
    except ListingError as err:
        _fail(str(err))
        raise AssertionError("unreachable") from err


def _save_game(game: Game, path: Path) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(game.to_data(), ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)  # atomic: a crash never leaves half a game file


@app.command()
def orders(
    game_file: Annotated[Path, typer.Argument(help="A game file made by 'arbitre new'.")],
    power: Annotated[str | None, typer.Option("--power", "-p", help="Only this power.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    viewer: Annotated[
        str,
        typer.Option(
            "--viewer",
            help="List as this viewer: a power (its own orders only), 'master' (everyone's) or 'observer' (none).",
        ),
    ] = MASTER,
) -> None:
    """List every legal order of every unit, for each power (or one)."""
    try:
        listing = legal_listing(load_game(game_file), power, viewer)
    except ListingError as err:
        _fail(str(err))
        return
    if as_json:
        sys.stdout.write(listing_json(listing))
        return
    for p, by_unit in listing.items():
        console.print(f"[bold]{p}[/bold]")
        for unit, options in by_unit.items():
            console.print(f"  {unit}: " + " | ".join(options))


@app.command()
def new(
    game_file: Annotated[Path, typer.Argument(help="Where to keep the game (JSON).")],
    map_name: Annotated[str, typer.Option("--map", help=f"The map: {_map_names()}.")] = "standard",
    rules: Annotated[
        list[str], typer.Option("--rules", "-r", help=f"Rule module to add (repeatable): {modules_help()}.")
    ] = [],  # noqa: B006
    option: Annotated[
        list[str],
        typer.Option("--option", "-o", help=f"Rule option name=value; the modules' own: {_module_options()}."),
    ] = [],  # noqa: B006
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Start a new local game kept in a JSON file."""
    if game_file.exists() and not force:
        _fail(f"{game_file} exists; use --force to overwrite it")
    try:
        game = Game.new(map_name, rules, _parse_options(option))
    except ValueError as err:
        _fail(str(err))
        return
    _save_game(game, game_file)
    console.print(position_text(game))


@app.command()
def play(
    game_file: Annotated[Path, typer.Argument(help="A game file made by 'arbitre new'.")],
    order: Annotated[
        list[str], typer.Option("--order", help="'POWER: ORDER' (repeatable); replaces that power's orders.")
    ] = [],  # noqa: B006
    advance: Annotated[bool, typer.Option("--advance", help="Adjudicate the phase after taking the orders.")] = False,
    history: Annotated[bool, typer.Option("--history", help="Show the history.")] = False,
    random_phases: Annotated[int, typer.Option("--random", help="Play N phases with random legal orders.")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed for --random.")] = 0,
    confirm: Annotated[
        list[str],
        typer.Option("--confirm", help="POWER is done with this step (repeatable); the step closes when all are."),
    ] = [],  # noqa: B006
    lock: Annotated[
        bool,
        typer.Option(
            "--lock", help="End the current step with its lock now, as at its deadline, and open the next step."
        ),
    ] = False,
    step: Annotated[
        str | None,
        typer.Option(
            "--step", help="Lock the orders, step by step, until step NAME of the phase is open (see its rules)."
        ),
    ] = None,
    change: Annotated[
        list[str],
        typer.Option(
            "--change",
            "--react",
            help="'POWER: ORDER': POWER's one change, in a step that takes one (a later one replaces it). --react is an alias.",
        ),
    ] = [],  # noqa: B006
    report: Annotated[
        list[str], typer.Option("--report", help="Show what the lock told POWER ('master': every report).")
    ] = [],  # noqa: B006
    viewer: Annotated[
        str,
        typer.Option(
            "--viewer",
            help="Print the board, results and reports as this viewer sees them: a power, 'observer' or 'master'.",
        ),
    ] = MASTER,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Powers played by the house bot, e.g. FRANCE,GERMANY: they order (and react) before each adjudication.",
        ),
    ] = "",
    bot_seed: Annotated[int, typer.Option("--bot-seed", help="Seed of the bots (the same seed, the same orders).")] = 0,
) -> None:
    """Play a local game: give orders, advance, show the position and the history.

    Without options it runs interactively: for each power that must order, type
    one order per line and an empty line to finish; then the phase is adjudicated.
    When the rules declare more steps (see the rule module's page), the orders
    then lock, each power reads what the lock told it and, in a step that takes
    one change, may change one order; only then is the phase adjudicated.
    """
    game = _load_game(game_file)
    who = _viewer(game, viewer)
    try:
        seats = parse_bot_seats(game, bots, bot_seed)
    except ValueError as err:
        _fail(str(err))
        return
    if history:
        console.print(history_text(game, who))
    by_power: dict[str, list[str]] = {}
    for item in order:
        if ":" not in item:
            _fail(f"--order {item!r} must be written 'POWER: ORDER'")
        p, o = item.split(":", 1)
        by_power.setdefault(p.strip().upper(), []).append(o.strip())
    for p, os_ in by_power.items():
        if p not in game.powers():
            _fail(f"{p!r} is not a power of this game ({', '.join(game.powers())})")
        try:
            rejected = game.set_orders(p, os_)
        except StepError as err:
            _fail(f"{err} (use --change)")
            return
        for r in rejected:
            console.print(f"[yellow]{r.power}: {r.text}: {r.outcome}[/yellow] {r.message or r.reason}")
    step_options = StepOptions(confirm, lock, step, change, report)
    steps_given = step_options.given()
    if steps_given:
        try:
            apply_step_options(game, console, step_options)
        except (ValueError, StepError, RuntimeError) as err:
            _save_game(game, game_file)
            _fail(err.describe() if isinstance(err, OrderError) else str(err))
    if random_phases:
        rng = random.Random(seed)
        for _ in track(range(random_phases), description="playing", console=err_console):
            if game.is_over:
                break
            if game.step == ORDERS:
                for p in game.powers_to_order():
                    game.set_orders(p, [rng.choice(v) for k, v in game.legal_orders(p).items() if k != "WAIVE"])
                while game.next_step is not None:
                    game.lock()
            if takes_changes(game):
                random_changes(game, rng)
            game.advance()
        _save_game(game, game_file)
        console.print(position_text(game, who))
        return
    if advance:
        _bots_play(game, seats)
        game.advance()
        console.print(last_phase_text(game, who))
        _save_game(game, game_file)
        console.print(position_text(game, who))
        return
    if by_power or history or steps_given:
        _save_game(game, game_file)
        if by_power or steps_given:
            console.print(position_text(game, who))
        return
    _interactive(game, game_file, seats)


def _bots_play(game: Game, seats: dict[str, Bot]) -> None:
    """The bot seats give their orders (and, once locked, their reactions) for the current step."""
    if seats and not game.is_over:
        bot_step(game, seats)
        if game.step == ORDERS and game.next_step is not None:
            while game.next_step is not None:
                game.lock()
            bot_step(game, seats)


def _interactive(game: Game, game_file: Path, seats: dict[str, Bot] | None = None) -> None:
    seats = seats or {}
    console.print(position_text(game))
    if seats:
        console.print(f"played by the house bot: {', '.join(sorted(seats))}")
    while not game.is_over:
        takes_orders = game.current_step.accepts == Accepts.ORDERS  # the first step, or a module's after a lock
        if takes_orders and seats:
            bot_step(game, seats)
        for p in game.powers_to_order() if takes_orders else ():
            if p in seats:
                continue
            console.print(f"[bold]{p}[/bold] orders (empty line to finish, '?' for the legal orders):")
            lines: list[str] = []
            while True:
                try:
                    line = input("> ").strip()
                except EOFError:
                    _save_game(game, game_file)
                    return
                if not line:
                    break
                if line == "?":
                    for unit, opts in game.legal_orders(p).items():
                        console.print(f"  {unit}: " + " | ".join(opts))
                    continue
                rejected = game.check_orders(p, [line])
                if rejected:
                    console.print(
                        f"[yellow]  {rejected[0].outcome}: {rejected[0].message or rejected[0].reason}[/yellow]"
                    )
                    continue
                lines.append(line)
            game.set_orders(p, lines)
        if game.next_step is not None:
            game.lock()  # one step at a time: the next may take orders again (asked above) or one change
            _save_game(game, game_file)
            if game.current_step.accepts == Accepts.ORDERS:
                continue
        if takes_changes(game) and seats:
            bot_step(game, seats)
        if takes_changes(game) and not prompt_changes(game, console, skip=set(seats)):
            _save_game(game, game_file)
            return
        game.advance()
        console.print(last_phase_text(game))
        _save_game(game, game_file)
        console.print(position_text(game))


@app.command()
def demo(
    phases: Annotated[int, typer.Option(help="How many phases to play.")] = 12,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 1,
) -> None:
    """Play a short demo game with random legal orders and print each phase."""
    game = Game.new()
    rng = random.Random(seed)
    for _ in range(phases):
        if game.is_over:
            break
        for p in game.powers_to_order():
            game.set_orders(p, [rng.choice(v) for k, v in game.legal_orders(p).items() if k != "WAIVE"])
        outcome = game.advance()
        console.print(f"[bold]{outcome.before.phase.long_name}[/bold]")
        console.print(last_phase_text(game))
    console.print(position_text(game))


app.command()(serve)
app.command("map")(map_command)
app.command("bot")(bot_command)
app.command("export")(export_command)
app.command("import")(import_command)

if __name__ == "__main__":
    app()
