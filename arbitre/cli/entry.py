"""The ``arbitre`` program: ``adjudicate [FILE]`` and ``orders FILE --json`` go straight to their work, the rest to typer.

``arbitre adjudicate`` is called once per batch by scripts and other
programs, and ``arbitre orders FILE --json`` by bots; importing the whole
command line (typer, rich, the SVG renderer) would triple their start-up.  Any
other use, ``adjudicate`` with an option such as ``--help``, and an ``orders``
listing that is refused (whose error the command line words) go through the
full command line.  ``bench/bench_startup.py`` measures both; a test checks
what they import.  ``arbitre --version`` says which core runs (compiled or
pure Python, and why).
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command named on the command line."""
    args = sys.argv[1:]
    if args == ["--version"]:
        from arbitre import __version__
        from arbitre.native import build_status

        sys.stdout.write(f"arbitre {__version__}, core: {build_status()}\n")
        return
    if args[:1] == ["adjudicate"] and len(args) <= 2 and not any(a.startswith("-") for a in args[1:]):
        import gc
        from pathlib import Path

        from arbitre.cli.contract import run

        # What is loaded now (modules, maps) lives as long as the process: the collector need not walk
        # it again and again while a batch allocates (a sixth of the time of a long batch).
        gc.freeze()
        sys.exit(run(Path(args[1]) if len(args) == 2 else None))
    if args[:1] == ["orders"] and _orders_json(args[1:]):
        return
    from arbitre.cli.main import app

    app()


def _orders_json(args: list[str]) -> bool:
    """Print ``arbitre orders FILE --json``'s listing; False (nothing printed) for what typer must handle."""
    from arbitre.cli.listing import ListingError, legal_listing, listing_json, load_game, parse_orders_args

    parsed = parse_orders_args(args)
    if parsed is None:
        return False
    path, power, viewer = parsed
    try:
        listing = legal_listing(load_game(path), power, viewer)
    except ListingError:
        return False  # the full command line words the refusal
    sys.stdout.write(listing_json(listing))
    return True


if __name__ == "__main__":
    main()
