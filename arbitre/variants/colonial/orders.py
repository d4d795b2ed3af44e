"""Colonial's order kinds and their notations: train moves and Suez permissions.

Accepted, case- and accent-insensitive (``TSR`` may also be written
``TRANSSIBERIEN``/``TRANSSIBERIAN``):

* a train move: ``A MOS - TSR - VLA``, ``A MOS TSR VLA``, ``A MOS - VLA VIA TSR``
  (also ``BY TSR``, ``PAR TSR``, ``PAR LE TSR``);
* a support of a train move: ``A IRK S A MOS - VLA`` (the ordinary notation) or
  ``A IRK S A MOS - TSR - VLA``;
* a Suez permission, given by the power holding Egypt: ``SC F MED - RED`` (the
  DATC's notation) or ``SUEZ F MED`` (the fleet named; the direction follows);
  ``SC NONE`` (``SC AUCUNE``) gives none: as a reaction-step change it withdraws
  the power's permission.

Moves through the canal are written as ordinary moves: ``F MED - RED``.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbitre.orders import Order, OrderParser, Support, UnitRef
from arbitre.orders.parser import MOVE_WORDS, SUPPORT_WORDS, VIA_WORDS
from arbitre.variants.colonial.board import colonial_board

TSR_WORDS = frozenset({"TSR", "TRANSSIBERIEN", "TRANSSIBERIAN", "TRANSSIB"})
"""Words naming the Trans-Siberian Railroad in an order."""
ARTICLES = frozenset({"LE", "THE", "LA"})
"""Articles allowed before the railroad's name (``PAR LE TSR``)."""
PERMISSION_WORDS = frozenset({"SC", "SUEZ"})
"""Words that start a Suez permission."""
NONE_WORDS = frozenset({"NONE", "AUCUNE", "AUCUN", "RIEN"})
"""``SC NONE``: no permission (the reaction step's way to withdraw one under Espionnite)."""


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class TrainMove(Order):
    """``A MOS - TSR - VLA``: a Russian army travels the railroad towards the station ``target``."""

    target: str = ""

    def format(self) -> str:
        return f"{self.unit} - TSR - {self.target}"


@dataclass(frozen=True)  # no slots: a compiled Order keeps ``unit`` in its own layout
class SuezPermission(Order):
    """``SC F MED - RED``: the power holding Egypt lets the fleet ``fleet`` through the canal to ``target``.

    A whole-power order (``unit is None``): the unit in Egypt keeps its own order.
    """

    fleet: UnitRef = UnitRef(None, "")
    target: str = ""

    @property
    def withdraws(self) -> bool:
        """``SC NONE``: no permission (a reaction-step change that takes the power's permission back)."""
        return not self.fleet.place

    def format(self) -> str:
        if self.withdraws:
            return "SC NONE"
        return f"SC {self.fleet} - {self.target}"


def _train_tail(parser: OrderParser, tokens: list[str], i: int) -> str | None:
    """Read ``- TSR - VLA`` or ``- VLA VIA TSR`` from token ``i``; the target, or ``None`` if neither."""
    if i >= len(tokens) or tokens[i] not in MOVE_WORDS:
        return None
    j = i + 1
    if j < len(tokens) and tokens[j] in TSR_WORDS:
        j += 1
        if j < len(tokens) and tokens[j] in MOVE_WORDS:
            j += 1
        target, k = parser.place(j)
        parser.end(k)
        return target
    target, k = parser.place(j)
    if k < len(tokens) and tokens[k] in VIA_WORDS:
        k += 1
        if k < len(tokens) and tokens[k] in ARTICLES:
            k += 1
        if k < len(tokens) and tokens[k] in TSR_WORDS:
            parser.end(k + 1)
            return target
    return None


def parse_colonial(parser: OrderParser, tokens: list[str]) -> Order | None:
    """Extra parser for :meth:`OrderSyntax.extended`: a train move, its support, or a Suez permission.

    Returns ``None`` for every other order, which the standard grammar then reads.
    """
    if tokens[0] in PERMISSION_WORDS:
        return _parse_permission(parser, tokens)
    if not any(t in TSR_WORDS for t in tokens):
        return None
    unit, i = parser.unit(0)
    tokens_i = tokens[i] if i < len(tokens) else None
    if tokens_i in SUPPORT_WORDS:
        supported, j = parser.unit(i + 1)
        target = _train_tail(parser, tokens, j)
        if target is not None:
            return Support(unit, supported, target)
    elif tokens_i in TSR_WORDS:  # A MOS TSR VLA
        target, j = parser.place(i + 1)
        parser.end(j)
        return TrainMove(unit, target)
    else:
        target = _train_tail(parser, tokens, i)
        if target is not None:
            return TrainMove(unit, target)
    raise parser.invalid("a train move reads A MOS - TSR - VLA or A MOS - VLA VIA TSR", i, "tsr_syntax")


def _parse_permission(parser: OrderParser, tokens: list[str]) -> Order:
    if len(tokens) == 2 and tokens[1] in NONE_WORDS:
        return SuezPermission(None, UnitRef(None, ""), "")
    if len(tokens) < 2:
        raise parser.invalid("a Suez permission names the fleet it lets through: SC F MED - RED", 1, "missing_place")
    fleet, j = parser.unit(1)
    target = ""
    if j < len(tokens) and tokens[j] in MOVE_WORDS:
        target, j = parser.place(j + 1)
    parser.end(j)
    if not target:
        board = colonial_board(parser.map)
        if fleet.province in board.canal_seas:
            target = board.other_sea(fleet.province)
    return SuezPermission(None, fleet, target)
