"""The submarine's unit letters and the torpedo orders, with their grammar.

* Unit letters at the start of an order: ``SM``, ``S``, ``U``, ``SUB``,
  ``SUBMARINE``, ``SOUSMARIN`` (``S`` in the middle of an order stays
  "supports": ``SM MED-1 S SM ATL-1 - MED``).
* Depth places are written ``MED-1`` (or ``Mediterranean-1``, or the full
  name with ``(depths)``); the standard place reader already reads
  ``MED - 1`` as one name.
* ``F MED Torp. MED-1`` / ``SM MED-1 Torp. MED`` (also ``T``, ``TORP``,
  ``TORPEDO``, ``TORPILLE``): a torpedo along the vertical link.
* ``F NTH S SM MAO-1 Torp. MAO``: a support given to a torpedo (legal, and
  without effect).
"""

from __future__ import annotations

from dataclasses import dataclass

from arbitre.orders import Order, OrderParser, UnitRef
from arbitre.orders.parser import SUPPORT_WORDS
from arbitre.variants.submarines.layers import SUB

UNIT_WORDS: dict[str, str] = {
    "SM": SUB,
    "S": SUB,
    "U": SUB,
    "SUB": SUB,
    "SUBMARINE": SUB,
    "SOUSMARIN": SUB,
}
"""Words that name a submarine at the start of an order."""
TORPEDO_WORDS = frozenset({"T", "TORP", "TORPEDO", "TORPEDOES", "TORPEDOS", "TORPILLE", "TORPILLES", "TORPILLER"})
"""Words of a torpedo order (``Torp.`` loses its dot when the order is read)."""


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class Torpedo(Order):
    """``F MED Torp. MED-1``: fire at whatever stands on ``target`` once the ordinary moves are resolved."""

    target: str = ""

    def format(self) -> str:
        return f"{self.unit} Torp. {self.target}"


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class TorpedoSupport(Order):
    """``F NTH S SM MAO-1 Torp. MAO``: a support given to a torpedo; legal, and without effect."""

    supported: UnitRef = UnitRef(None, "")
    target: str = ""

    def format(self) -> str:
        return f"{self.unit} S {self.supported} Torp. {self.target}"


def explain_depth(parser: OrderParser, tokens: list[str]) -> Order | None:
    """Extra parser that reads nothing but explains a depth that does not exist (``BRE-1``, ``MAO-2``).

    Without it the standard grammar stops at the ``-`` and says "unexpected '-'".
    """
    names = parser.index.names
    for i, tok in enumerate(tokens):
        if tok != "-" or i == 0 or i + 1 >= len(tokens) or not tokens[i + 1].isdigit():
            continue
        for k in range(min(i, parser.index.longest), 0, -1):
            province = names.get(" ".join(tokens[i - k : i]))
            if province is None:
                continue
            written = f"{province}-{tokens[i + 1]}"
            if written in parser.map.provinces:
                break
            prov = parser.map.provinces[province]
            if tokens[i + 1] != "1" or prov.terrain == "depth":
                why = "the only depth is -1, the hidden layer under a sea"
            else:
                land = "a coast" if prov.terrain == "coast" else "land"
                why = f"{prov.name} is {land}, and {land} has no depth: only a sea has a hidden layer X-1"
            raise parser.invalid(f"Submarines: {written} does not exist: {why}", i, "no_depth")
    return None


def parse_torpedo(parser: OrderParser, tokens: list[str]) -> Order | None:
    """Extra parser for :meth:`OrderSyntax.extended`: a torpedo or a support of one, or ``None``."""
    at = next((i for i, t in enumerate(tokens) if i > 0 and t in TORPEDO_WORDS), None)
    if at is None:
        return None
    unit, i = parser.unit(0)
    if i == at:
        target, j = parser.place(i + 1)
        parser.end(j)
        return Torpedo(unit, target)
    if parser.at(i) in SUPPORT_WORDS:
        supported, j = parser.unit(i + 1)
        if j == at:
            target, k = parser.place(j + 1)
            parser.end(k)
            return TorpedoSupport(unit, supported, target)
        i = j
    raise parser.invalid(
        "a torpedo is written 'F MED Torp. MED-1' (a support of one: 'F NTH S SM MAO-1 Torp. MAO')", i, "syntax"
    )
