"""The declaration order, ``DECLARE BUR`` (``ANNOUNCE BUR``, ``ANNONCE BUR``), and its grammar."""

from __future__ import annotations

from dataclasses import dataclass

from arbitre.orders import Order, OrderParser

DECLARE_WORDS = frozenset({"DECLARE", "DECLARES", "ANNOUNCE", "ANNONCE", "ANNONCER"})
"""Words that start a declaration."""


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class Declare(Order):
    """``DECLARE BUR``: this power declares, for everyone to read, that it means to enter ``target``."""

    target: str = ""

    def format(self) -> str:
        return f"DECLARE {self.target}"


def is_declaration(tokens: list[str]) -> bool:
    """Do these tokens (see :func:`arbitre.orders.tokenize`) start a declaration?"""
    return bool(tokens) and tokens[0] in DECLARE_WORDS


def parse_declaration(parser: OrderParser, tokens: list[str]) -> Order | None:
    """Extra parser: a declaration (``DECLARE`` and a province), or ``None``."""
    if not is_declaration(tokens):
        return None
    if len(tokens) < 2:
        raise parser.invalid("a declaration names a province: DECLARE BUR", 1, "missing_place")
    place, j = parser.place(1)
    parser.end(j)
    return Declare(None, parser.map.province_of[place])
