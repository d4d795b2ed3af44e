"""MILA's saved-game format (PyPI ``diplomacy``, its engine 1.1.2): games out of arbitre and into it.

- :func:`export_game` writes an arbitre game of the standard map as MILA's saved-game JSON;
- :func:`import_game` replays a MILA saved game with arbitre's engine and checks every phase.

See docs/mila.md.  Written from MILA's format as its package writes and reads it; none of its code.
"""

from arbitre.interface.mila.replay import DEFAULT_OPTIONS, MilaImportError, import_game
from arbitre.interface.mila.saved import ExportError, PressMessage, export_game, exportable

__all__ = [
    "DEFAULT_OPTIONS",
    "ExportError",
    "MilaImportError",
    "PressMessage",
    "export_game",
    "exportable",
    "import_game",
]
