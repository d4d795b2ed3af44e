"""MILA's order, result and press notation, to and from arbitre's.

On the standard map the two notations share provinces, coasts (``STP/SC``), powers and phase names
(``S1901M``); orders differ only in details: MILA writes support and convoy targets without coasts, a
retreat as ``A PAR R MAR``, a build as ``A PAR B``, and reads ``A CON - BUL VIA`` to an adjacent province as
"by convoy if a fleet convoys it, else by land".  arbitre's ``adjacent_convoy=v3`` reads ``VIA`` as "by
convoy, no fallback", so an adjacent ``VIA`` move is handed over without the word: arbitre then goes by
convoy when a fleet of the army's own power convoys it, else by land (a convoy by foreign fleets alone is
the one case read differently).

This module is the protocol's own small translator; the saved-game converter of the ``mila`` work
(issue 26) may replace it later.
"""

from __future__ import annotations

import re

from arbitre.rules import RuleSet

GLOBAL = "GLOBAL"
"""MILA's recipient of a public message."""
SYSTEM = "SYSTEM"
"""MILA's sender of a message the server writes (here: the game master's)."""

_SPACES = re.compile(r"\s+")
_MOVE = re.compile(r"^([AF]) ([A-Z]{3}(?:/[A-Z]{2})?) - ([A-Z]{3}(?:/[A-Z]{2})?) VIA$")
MAX_ORDER_CHARS = 120
"""The longest order string accepted from a MILA client."""


class OrderTextError(ValueError):
    """An order string that is not text of MILA's notation."""


def order_to_arbitre(rules: RuleSet, text: str) -> str:
    """One MILA order string as arbitre reads it (upper case, single spaces, an adjacent ``VIA`` dropped)."""
    if not isinstance(text, str) or len(text) > MAX_ORDER_CHARS:
        raise OrderTextError(f"an order is a string of at most {MAX_ORDER_CHARS} characters")
    line = _SPACES.sub(" ", text.strip().upper())
    m = _MOVE.match(line)
    if m:
        kind, origin, target = m.groups()
        gmap = rules.game_map
        if origin in gmap.places and target in gmap.places and gmap.can_move(kind, origin, target):
            return f"{kind} {origin} - {target}"
    return line


def order_from_arbitre(text: str) -> str:
    """An arbitre order as MILA writes it (the notations agree on the standard map)."""
    return _SPACES.sub(" ", text.strip())
