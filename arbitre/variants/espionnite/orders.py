"""Espionnite's two order kinds, ``SPY`` and ``COUNTERSPY``, and their grammar.

Both are *whole-power* orders (``unit is None``): they name a unit by its
place but give that unit no order, so they never clash with the unit's own
order in the order intake.  Accepted notations, case- and accent-insensitive:

* ``SPY PAR``, ``ESPION PAR``, ``ESPIONNE PAR`` (an optional unit letter is
  allowed and ignored: ``SPY F BRE``);
* ``COUNTERSPY BER``, ``COUNTER-SPY BER``, ``CONTRE-ESPION BER``,
  ``CONTRE ESPION BER``, ``CONTREESPION BER``.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbitre.orders import Order, OrderParser, UnitRef

SPY_WORDS = frozenset({"SPY", "SPIES", "ESPION", "ESPIONNE", "ESPIONNER"})
"""Single words that start a spy order."""
COUNTERSPY_WORDS = frozenset({"COUNTERSPY", "COUNTERSPIES", "CONTREESPION", "CONTRESPION"})
"""Single words that start a counter-spy order."""
COUNTER_PREFIXES = frozenset({"COUNTER", "CONTRE"})
"""First words of the two-word counter-spy notations (``COUNTER-SPY``, ``CONTRE-ESPION``)."""


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class Spy(Order):
    """``SPY PAR``: this power's spy watches the (foreign) unit in ``target``."""

    target: UnitRef = UnitRef(None, "")

    def format(self) -> str:
        return f"SPY {self.target.place}"


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class CounterSpy(Order):
    """``COUNTERSPY BER``: this power's counter-spy guards its own unit in ``target``."""

    target: UnitRef = UnitRef(None, "")

    def format(self) -> str:
        return f"COUNTERSPY {self.target.place}"


EspionageOrder = Spy | CounterSpy
"""Either espionage order."""


def _head(tokens: list[str]) -> tuple[type[Spy] | type[CounterSpy], int] | None:
    """The order kind a token list starts with, and the index of the place; ``None`` if not espionage."""
    first = tokens[0]
    if first in SPY_WORDS:
        return Spy, 1
    if first in COUNTERSPY_WORDS:
        return CounterSpy, 1
    if first in COUNTER_PREFIXES:
        i = 2 if len(tokens) > 2 and tokens[1] == "-" else 1
        if i < len(tokens) and tokens[i] in SPY_WORDS:
            return CounterSpy, i + 1
    return None


def is_espionage_text(tokens: list[str]) -> bool:
    """Do these tokens (see :func:`arbitre.orders.tokenize`) start a spy or counter-spy order?"""
    return bool(tokens) and _head(tokens) is not None


def mentions_espionage(tokens: list[str]) -> bool:
    """Does any token name a spy or counter-spy (``SPY: MUN``, ``A PAR SPY MUN``)?

    Such a line is a spy order, perhaps mistyped: it is kept private (read at
    the lock, refused privately there if it is wrong), never adjudicated nor
    published to the other powers.
    """
    words = ("".join(ch for ch in t if ch.isalpha()) for t in tokens)
    return any(w in SPY_WORDS or w in COUNTERSPY_WORDS for w in words)  # COUNTER-SPY holds SPY


def parse_espionage(parser: OrderParser, tokens: list[str]) -> Order | None:
    """Extra parser for :meth:`OrderSyntax.extended`: a spy or counter-spy order, or ``None``."""
    head = _head(tokens)
    if head is None:
        return None
    kind, i = head
    word = "SPY" if kind is Spy else "COUNTERSPY"
    if i >= len(tokens):
        raise parser.invalid(f"a {word.lower()} order names the place of a unit: {word} PAR", i, "missing_place")
    unit, j = parser.unit(i)
    parser.end(j)
    return kind(None, UnitRef(None, unit.place))
