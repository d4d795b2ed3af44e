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
from arbitre.variants.registry import RULE_MODULES
from arbitre.words import N_

MESSAGES = (
    # reading the order (arbitre/orders/parser.py)
    N_("the order is empty"),
    N_("a unit kind (A or F) is expected here"),
    N_("a place name is missing after the unit kind"),
    N_("a place name is missing at the end of the order"),
    N_("{word} is not a place on the {map} map"),
    N_("{word} is not an order word (expected H, -, S, C, R, D or B)"),
    N_("unexpected {word} after the end of the order"),
    N_("expected '-' or the end of the order, found {word}"),
    N_("{place} has no coast {coast}"),
    N_("{words} could be any of {places}"),
    N_("a convoy names the army's move: F NTH C A LON - NWY"),
    N_("The order could mean more than one thing (a coast or a name left open)."),
    # legality (arbitre/rules/legality.py)
    N_("there is no unit in {place}"),
    N_("the unit in {place} belongs to {power}"),
    N_("{unit} cannot move to {place}"),
    N_("name the coast of {place}"),
    N_("{kind} orders are not allowed in a movement phase"),
    N_("the unit in {place} is not an army"),
    N_("the unit in {place} is not a fleet"),
    N_("the order names no unit type for {place} (DATC 4.C.1)"),
    N_("the fleet is on {place}, not {other} (DATC 4.B.5)"),
    N_("an army move names no coast (DATC 4.B.6): {place}"),
    N_("the fleet is on {place}, not {other}"),
    N_("a unit cannot move to its own province"),
    N_("an army cannot enter {place}"),
    N_("{unit} cannot reach {place}, even by convoy"),
    N_("a unit cannot support itself"),
    N_("there is no unit in {place} to support"),
    N_("{unit} cannot reach {place}, so cannot support there"),
    N_("a supported move must leave its province"),
    N_("a unit cannot support a move into its own province"),
    N_("{unit} cannot reach {place}, so cannot support a move there"),
    N_("{unit} cannot reach {place}"),
    N_("only a fleet at sea can convoy"),
    N_("there is no unit in {place} to convoy"),
    N_("only armies can be convoyed"),
    N_("an army cannot be convoyed to its own province"),
    N_("{unit} is on no convoy route from {place} to {other}"),
    N_("only retreats and disbands are allowed in a retreat phase"),
    N_("no dislodged unit in {place}"),
    N_("the dislodged unit in {place} belongs to {power}"),
    N_("{unit} cannot retreat to {place}"),
    N_("builds cannot be waived in this game (DATC 4.D.7)"),
    N_("only builds, disbands and waives are allowed in an adjustment phase"),
    N_("{place} is not a home centre of {power}"),
    N_("{place} is not a build site of {power}"),
    N_("{power} does not own {place}"),
    N_("{place} is occupied"),
    N_("name the coast of {place} for a fleet"),
    N_("a fleet cannot stand in {place}"),
    N_("say which unit to build in {place}: A or F (DATC 4.C.3)"),
    N_("{place} has two coasts {unit} can reach; name one"),
    # steps (arbitre/judge/steps.py) and the server's reaction step
    N_("a reaction is one order for one of your units"),
    N_("in the reaction step a power changes one order only"),
)
"""The general engine's messages, as message ids (English, with ``{fields}``); each rule module lists its own
(``RuleModule.messages`` in :mod:`arbitre.variants.registry`)."""

FALLBACKS = {
    "illegal": N_("This order is not legal here."),
    "invalid": N_("This order cannot be read."),
    "ambiguous": N_("This order could mean more than one thing."),
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
    modules = tuple(m for module in RULE_MODULES for m in module.messages)
    # The most specific message first: "there is no unit in {place} to spy on" before "there is no unit in {place}".
    ordered = sorted(MESSAGES + modules, key=lambda m: -len(re.sub(r"\{\w+\}", "", m)))
    return tuple((m, _pattern(m)) for m in ordered)


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
