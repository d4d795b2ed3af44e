"""The ``arbitre`` program: ``arbitre adjudicate [FILE]`` goes straight to the contract, the rest to typer.

``arbitre adjudicate`` is called once per batch by scripts and other
programs; importing the whole command line (typer, rich, the SVG renderer)
would triple its start-up.  Any other use, and ``adjudicate`` with an option
such as ``--help``, goes through the full command line.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command named on the command line."""
    args = sys.argv[1:]
    if args[:1] == ["adjudicate"] and len(args) <= 2 and not any(a.startswith("-") for a in args[1:]):
        import gc
        from pathlib import Path

        from arbitre.cli.contract import run

        # What is loaded now (modules, maps) lives as long as the process: the collector need not walk
        # it again and again while a batch allocates (a sixth of the time of a long batch).
        gc.freeze()
        sys.exit(run(Path(args[1]) if len(args) == 2 else None))
    from arbitre.cli.main import app

    app()


if __name__ == "__main__":
    main()
