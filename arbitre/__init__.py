"""arbitre: a Diplomacy judge — rules engine, variants, game server and tools."""

import os as _os

__version__ = "0.1.0"


def compiled() -> bool:
    """True when this process runs the compiled core (``scripts/build-compiled``), False for plain Python."""
    from arbitre.native import CORE_MODULES, compiled_modules

    return len(compiled_modules()) == len(CORE_MODULES)


if _os.environ.get("ARBITRE_PURE"):  # a built tree run as plain Python (see arbitre.native)
    from arbitre.native import prefer_sources

    prefer_sources()
else:  # a build older than its sources is never run: plain Python, with a warning
    from arbitre.native import check_build

    check_build()
