"""The engine's order messages in the reader's language.

The rules engine explains a refused order in English, with the names it
involves filled in ("A PAR cannot move to MUN").  Each message the engine
writes is listed here as a message id with ``{fields}`` (the gettext
convention of :mod:`arbitre.server.i18n`); a message is matched against them,
translated, and its fields put back.  A message the list does not know is
replaced by a plain sentence for its outcome, never shown in English to a
reader of another language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from arbitre.server.i18n import translator

MESSAGES = (
    # reading the order (arbitre/orders/parser.py)
    "the order is empty",
    "a unit kind (A or F) is expected here",
    "a place name is missing after the unit kind",
    "a place name is missing at the end of the order",
    "{word} is not a place on the {map} map",
    "{word} is not an order word (expected H, -, S, C, R, D or B)",
    "unexpected {word} after the end of the order",
    "expected '-' or the end of the order, found {word}",
    "{place} has no coast {coast}",
    "{words} could be any of {places}",
    "a convoy names the army's move: F NTH C A LON - NWY",
    "The order could mean more than one thing (a coast or a name left open).",
    # legality (arbitre/rules/legality.py)
    "there is no unit in {place}",
    "the unit in {place} belongs to {power}",
    "{unit} cannot move to {place}",
    "name the coast of {place}",
    "{kind} orders are not allowed in a movement phase",
    "the unit in {place} is not an army",
    "the unit in {place} is not a fleet",
    "the order names no unit type for {place} (DATC 4.C.1)",
    "the fleet is on {place}, not {other} (DATC 4.B.5)",
    "an army move names no coast (DATC 4.B.6): {place}",
    "the fleet is on {place}, not {other}",
    "a unit cannot move to its own province",
    "an army cannot enter {place}",
    "{unit} cannot reach {place}, even by convoy",
    "a unit cannot support itself",
    "there is no unit in {place} to support",
    "{unit} cannot reach {place}, so cannot support there",
    "a supported move must leave its province",
    "a unit cannot support a move into its own province",
    "{unit} cannot reach {place}, so cannot support a move there",
    "{unit} cannot reach {place}",
    "only a fleet at sea can convoy",
    "there is no unit in {place} to convoy",
    "only armies can be convoyed",
    "an army cannot be convoyed to its own province",
    "{unit} is on no convoy route from {place} to {other}",
    "only retreats and disbands are allowed in a retreat phase",
    "no dislodged unit in {place}",
    "the dislodged unit in {place} belongs to {power}",
    "{unit} cannot retreat to {place}",
    "builds cannot be waived in this game (DATC 4.D.7)",
    "only builds, disbands and waives are allowed in an adjustment phase",
    "{place} is not a home centre of {power}",
    "{power} does not own {place}",
    "{place} is occupied",
    "name the coast of {place} for a fleet",
    "a fleet cannot stand in {place}",
    "say which unit to build in {place}: A or F (DATC 4.C.3)",
    "{place} has two coasts {unit} can reach; name one",
    # steps (arbitre/judge/steps.py) and the server's reaction step
    "a reaction is one order for one of your units",
    "in the reaction step a power changes one order only",
    # Espionnite
    "there is no unit in {place} to spy on",
    "the unit in {place} is yours; a spy watches a unit of another power",
    "you have no unit in {place}; a counter-spy guards one of your own units",
    # Submarines
    "only fleets and submarines fire torpedoes",
    "torpedoes are fired in movement phases only",
    "no torpedo is fired from {place}: torpedoes are fired at sea",
    "{unit} is not at sea: torpedoes are fired at sea, straight up or down",
    "a torpedo goes straight up or down: {unit} can fire only at {place}",
    "a torpedo goes straight up or down: from {place} only at {other}",
)
"""The engine's messages, as message ids (English, with ``{fields}``)."""

FALLBACKS = {
    "illegal": "This order is not legal here.",
    "invalid": "This order cannot be read.",
    "ambiguous": "This order could mean more than one thing.",
}
"""A plain sentence per outcome, for a message :data:`MESSAGES` does not know."""
FALLBACK = "This order is refused."


def _pattern(msgid: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", msgid)
    out = []
    for i, part in enumerate(parts):
        out.append(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)")
    return re.compile("^" + "".join(out) + "$")


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((m, _pattern(m)) for m in MESSAGES)


def engine_message(message: str, outcome: str, lang: str) -> str:
    """The engine's ``message`` (English) in ``lang``; English stays as the engine wrote it."""
    if lang == "en" or not message:
        return message
    t: Callable[..., str] = translator(lang)
    head, sep, tail = message.partition(": ")  # rule modules prefix their rule's name ("Suez Canal: …")
    for text, prefix in ((message, ""), (tail, head + sep) if sep else (message, "")):
        for msgid, pattern in _patterns():
            m = pattern.match(text)
            if m:
                return prefix + t(msgid, **{k: v.strip("'") for k, v in m.groupdict().items()})
    return t(FALLBACKS.get(outcome, FALLBACK))
