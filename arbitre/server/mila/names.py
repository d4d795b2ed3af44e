"""MILA's order and press notation, to and from arbitre's, as the protocol needs them.

On the standard map the two notations share provinces, coasts (``STP/SC``), powers, phase names
(``S1901M``) and the shape of orders (``A PAR - BUR``, ``A LON - NWY VIA``, ``A MAR S A PAR - BUR``,
``F NTH C A LON - NWY``, ``A PAR R MAR``, ``A PAR D``, ``A PAR B``, ``WAIVE``): a MILA order reaches the engine
as its text, in upper case with single spaces, and the game's rules read it (a game made by a MILA client
rules with the ``mila`` preset: an adjacent ``VIA`` move with no convoy goes over land, as in MILA).
The saved-game converter (:mod:`arbitre.interface.mila.notation`) writes arbitre's results in MILA's codes
from a whole outcome; the protocol words results from each reader's view (:mod:`.board`).
"""

from __future__ import annotations

import re

GLOBAL = "GLOBAL"
"""MILA's recipient of a public message."""
SYSTEM = "SYSTEM"
"""MILA's sender of a message the server writes (here: the game master's)."""

_SPACES = re.compile(r"\s+")
MAX_ORDER_CHARS = 120
"""The longest order string accepted from a MILA client."""


class OrderTextError(ValueError):
    """An order string that is not text of MILA's notation."""


def order_to_arbitre(text: str) -> str:
    """One MILA order string as arbitre reads it (upper case, single spaces)."""
    if not isinstance(text, str) or len(text) > MAX_ORDER_CHARS:
        raise OrderTextError(f"an order is a string of at most {MAX_ORDER_CHARS} characters")
    return _SPACES.sub(" ", text.strip().upper())


def order_from_arbitre(text: str) -> str:
    """An arbitre order as MILA writes it (the notations agree on the standard map)."""
    return _SPACES.sub(" ", text.strip())
