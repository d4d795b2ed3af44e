"""Parse orders written in the usual notations, English or French, short or long.

Accepted, case-insensitive: ``A PAR - BUR``, ``A PAR-BUR``, ``F STP/SC - BOT``,
``F STP(SC)``, ``A PAR S A MAR - BUR``, ``A PAR S MAR``, ``F NTH C A LON - NWY``,
``A LON - NWY VIA`` / ``via convoy``, ``A PAR H``, ``A MUN R BOH``,
``A MUN D``, ``A PAR B``, ``BUILD A PAR``, ``WAIVE``; a convoy path in a move
(``A YOR - NTH - BEL``, DATC 4.A.6) and the nationality of a supported or convoyed
unit (``A PAR S GERMAN A MUN - BUR``, DATC 4.C.5); full names as the DATC
writes them (``F North Sea Convoys A London - Norway``) and French names and
words (``A Bourgogne SOUTIENT A Rhénanie``).

Variants extend the grammar through :class:`OrderSyntax`: more unit letters and
extra parsers tried before the standard grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from arbitre.maps import GameMap
from arbitre.orders.errors import AmbiguousOrder, InvalidOrder
from arbitre.orders.model import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    UnitRef,
    Waive,
)
from arbitre.orders.names import join_dotted, name_index, strip_accents

HOLD_WORDS = frozenset({"H", "HOLD", "HOLDS", "STAND", "STANDS", "TIENT", "RESTE"})
MOVE_WORDS = frozenset({"-", "TO", "MOVE", "MOVES", "VERS"})
SUPPORT_WORDS = frozenset({"S", "SUPPORT", "SUPPORTS", "SOUTIENT", "SOUTIEN", "SOUTIENS"})
CONVOY_WORDS = frozenset({"C", "CONVOY", "CONVOYS", "CONVOIE", "CONVOIES"})
RETREAT_WORDS = frozenset({"R", "RETREAT", "RETREATS", "RETRAITE", "RETRAITES"})
DISBAND_WORDS = frozenset({"D", "DISBAND", "DISBANDS", "REMOVE", "DISSOUS", "DISSOUDRE", "LICENCIE"})
BUILD_WORDS = frozenset({"B", "BUILD", "BUILDS", "CONSTRUIT", "CONSTRUIRE"})
WAIVE_WORDS = frozenset({"WAIVE", "WAIVES", "RENONCE", "PASS"})
VIA_WORDS = frozenset({"VIA", "BY", "PAR"})
CONVOY_NOUNS = frozenset({"CONVOY", "CONVOI"})

STANDARD_UNIT_WORDS: dict[str, str] = {
    "A": "A",
    "ARMY": "A",
    "ARMEE": "A",
    "F": "F",
    "FLEET": "F",
    "FLOTTE": "F",
}

_COAST_WORDS = {
    "N": "NC",
    "NC": "NC",
    "NORTH": "NC",
    "NORD": "NC",
    "S": "SC",
    "SC": "SC",
    "SOUTH": "SC",
    "SUD": "SC",
    "E": "EC",
    "EC": "EC",
    "EAST": "EC",
    "EST": "EC",
    "W": "WC",
    "WC": "WC",
    "WEST": "WC",
    "OUEST": "WC",
    "O": "WC",
}
_COAST_RE = re.compile(
    r"\s*(?:\(\s*|/\s*)(?:COTE\s+)?(NORTH|SOUTH|EAST|WEST|NORD|SUD|EST|OUEST|NC|SC|EC|WC|N|S|E|W|O)"
    r"(?:\s*COAST)?\s*\)?(?=\s|$|-)"
)

_STRIP = re.compile(r"[.,;'`\"()]+")
_WORD = re.compile(r"^[A-Z0-9]+$")

Token = str
ExtraParser = Callable[["OrderParser", list[Token]], "Order | None"]


@dataclass(frozen=True)
class OrderSyntax:
    """The words a game accepts: unit letters and extra parsers from variants."""

    unit_words: dict[str, str] = field(default_factory=lambda: dict(STANDARD_UNIT_WORDS))
    extra_parsers: tuple[ExtraParser, ...] = ()

    def extended(self, unit_words: dict[str, str] | None = None, parsers: Sequence[ExtraParser] = ()) -> OrderSyntax:
        """A syntax with more unit words and parsers (used by variants)."""
        return OrderSyntax({**self.unit_words, **(unit_words or {})}, self.extra_parsers + tuple(parsers))


STANDARD_SYNTAX = OrderSyntax()
"""The syntax of standard Diplomacy."""


def strip_coasts(text: str) -> str:
    """The order with every written coast removed (DATC 4.B.6: an unknown coast is ignored)."""
    return _COAST_RE.sub(" ", strip_accents(text).upper())


def tokenize(text: str) -> list[Token]:
    """Split an order into upper-case tokens; a coast becomes its own ``/XC`` token."""
    s = join_dotted(strip_accents(text).upper())
    if not s.isascii():
        s = s.replace("–", " - ").replace("—", " - ").replace("’", " ")
    if ">" in s:
        s = s.replace("->", " - ").replace("=>", " - ")
    if "/" in s or "(" in s:
        s = _COAST_RE.sub(lambda m: " /" + _COAST_WORDS[m.group(1)] + " ", s)
    if "-" in s:
        s = s.replace("-", " - ")
    s = _STRIP.sub(" ", s)
    return s.split()


class OrderParser:
    """Parses one order's tokens against a map.  Use :func:`parse_order`."""

    def __init__(self, game_map: GameMap, text: str, syntax: OrderSyntax) -> None:
        self.map = game_map
        self.text = text
        self.syntax = syntax
        self.tokens = tokenize(text)
        self.index = name_index(game_map)

    # --- errors ------------------------------------------------------
    def column_of(self, i: int) -> int | None:
        """Best-effort column in the original text of token ``i``."""
        if i >= len(self.tokens):
            return len(self.text)
        word = self.tokens[i].lstrip("/")
        pos = strip_accents(self.text).upper().find(word)
        return pos if pos >= 0 else None

    def invalid(self, message: str, i: int, reason: str = "syntax") -> InvalidOrder:
        """An :class:`InvalidOrder` pointing at token ``i``."""
        return InvalidOrder(message, text=self.text, column=self.column_of(i), reason=reason)

    # --- pieces ------------------------------------------------------
    def at(self, i: int) -> Token | None:
        """Token ``i`` or ``None`` past the end."""
        return self.tokens[i] if i < len(self.tokens) else None

    def place(self, i: int) -> tuple[str, int]:
        """Read a place name starting at token ``i``: returns (place id, next index)."""
        toks = self.tokens
        if i >= len(toks):
            raise self.invalid("a place name is missing at the end of the order", i, "missing_place")
        first = toks[i]
        if first in self.index.names and first not in self.index.starts_longer:
            # Fast path: a one-word name (most often the abbreviation) that nothing extends.
            province, j = self.index.names[first], i + 1
            if j < len(toks) and toks[j].startswith("/"):
                return self._coast(province, j)
            return province, j
        best: tuple[str, int] | None = None
        words: list[str] = []
        j = i
        while j < len(toks) and len(words) < self.index.longest and not toks[j].startswith("/"):
            if toks[j] != "-":
                if not _WORD.match(toks[j]):
                    break  # punctuation is not part of a name
                words.append(toks[j])
                # Tokens are already upper case, accent-free and punctuation-free: the
                # joined words are in the index's normal form.
                key = " ".join(words)
                if key in self.index.ambiguous:
                    provs = ", ".join(self.index.ambiguous[key])
                    raise AmbiguousOrder(
                        f"{' '.join(words)!r} could be any of {provs}",
                        text=self.text,
                        column=self.column_of(i),
                        reason="ambiguous_name",
                    )
                if key in self.index.names:
                    best = (self.index.names[key], j + 1)
            elif not words:
                break
            j += 1
        if best is None:
            raise self.invalid(f"{toks[i]!r} is not a place on the {self.map.name} map", i, "unknown_place")
        province, j = best
        if j < len(toks) and toks[j].startswith("/"):
            return self._coast(province, j)
        return province, j

    def _coast(self, province: str, j: int) -> tuple[str, int]:
        """Attach the coast token ``j`` (``/SC``) to ``province``."""
        coast = f"{province}/{self.tokens[j][1:]}"
        if coast not in self.map.provinces[province].coasts:
            raise self.invalid(
                f"{self.map.provinces[province].name} has no coast {self.tokens[j][1:]}", j, "unknown_coast"
            )
        return coast, j + 1

    def unit(self, i: int, need_kind: bool = False) -> tuple[UnitRef, int]:
        """Read ``[kind] place`` at token ``i``."""
        tok = self.at(i)
        kind = self.syntax.unit_words.get(tok) if tok else None
        if kind is not None:
            # A lone kind word followed by nothing is not a unit ("A" alone).
            if self.at(i + 1) is None:
                raise self.invalid("a place name is missing after the unit kind", i + 1, "missing_place")
            i += 1
        elif need_kind:
            raise self.invalid("a unit kind (A or F) is expected here", i, "missing_kind")
        place, i = self.place(i)
        return UnitRef(kind, place), i

    def end(self, i: int) -> None:
        """Fail if tokens remain after position ``i``."""
        if i < len(self.tokens):
            raise self.invalid(f"unexpected {self.tokens[i]!r} after the end of the order", i, "trailing")

    def nationality(self, i: int) -> tuple[str | None, int]:
        """Read an optional nationality before a supported or convoyed unit (``GERMAN A MUN``).

        A word that is also a place is a nationality only when a unit kind follows it.
        """
        tok = self.at(i)
        power = _nationalities(self.map).get(tok) if tok else None
        if power is None:
            return None, i
        if self.at(i + 1) in self.syntax.unit_words or (
            tok not in self.index.names and tok not in self.index.starts_longer and tok not in self.index.ambiguous
        ):
            return power, i + 1
        return None, i

    def via(self, i: int) -> tuple[bool, int]:
        """Read an optional ``VIA [CONVOY]`` / ``BY CONVOY`` / ``PAR CONVOI``."""
        tok = self.at(i)
        if tok in VIA_WORDS:
            nxt = self.at(i + 1)
            if nxt in CONVOY_NOUNS:
                return True, i + 2
            if tok == "VIA":
                return True, i + 1
        return False, i

    # --- grammar -----------------------------------------------------
    def parse(self) -> Order:
        """Parse the whole order."""
        toks = self.tokens
        if not toks:
            raise self.invalid("the order is empty", 0, "empty")
        for extra in self.syntax.extra_parsers:
            order = extra(self, toks)
            if order is not None:
                return order
        head = toks[0]
        if head in WAIVE_WORDS:
            self.end(1)
            return Waive(None)
        if head in BUILD_WORDS and len(toks) > 1 and toks[1] in self.syntax.unit_words:
            unit, i = self.unit(1, need_kind=True)
            self.end(i)
            return Build(unit)
        if head in DISBAND_WORDS and len(toks) > 1 and toks[1] in self.syntax.unit_words:
            unit, i = self.unit(1, need_kind=True)
            self.end(i)
            return Disband(unit)
        unit, i = self.unit(0)
        verb = self.at(i)
        if verb is None or verb in HOLD_WORDS:
            self.end(i + 1 if verb else i)
            return Hold(unit)
        if verb in MOVE_WORDS:
            target, j = self.place(i + 1)
            path: list[str] = []
            while self.at(j) in MOVE_WORDS:
                # A convoy path (DATC 4.A.6): every place but the last is a sea of the route.
                path.append(target)
                target, j = self.place(j + 1)
            via, j = self.via(j)
            self.end(j)
            return Move(unit, target, via, tuple(path))
        if verb in RETREAT_WORDS:
            j = i + 1 if self.at(i + 1) not in MOVE_WORDS else i + 2
            target, j = self.place(j)
            self.end(j)
            return Retreat(unit, target)
        if verb in DISBAND_WORDS:
            self.end(i + 1)
            return Disband(unit)
        if verb in BUILD_WORDS:
            self.end(i + 1)
            return Build(unit)
        if verb in SUPPORT_WORDS:
            nationality, j = self.nationality(i + 1)
            supported, j = self.unit(j)
            nxt = self.at(j)
            if nxt is None or nxt in HOLD_WORDS:
                self.end(j + 1 if nxt else j)
                return Support(unit, supported, None, nationality)
            if nxt in MOVE_WORDS:
                target, k = self.place(j + 1)
                self.end(k)
                return Support(unit, supported, target, nationality)
            raise self.invalid(f"expected '-' or the end of the order, found {nxt!r}", j)
        if verb in CONVOY_WORDS:
            nationality, j = self.nationality(i + 1)
            convoyed, j = self.unit(j)
            if self.at(j) not in MOVE_WORDS:
                raise self.invalid("a convoy names the army's move: F NTH C A LON - NWY", j, "convoy_target")
            target, k = self.place(j + 1)
            self.end(k)
            return Convoy(unit, convoyed, target, nationality)
        raise self.invalid(f"{verb!r} is not an order word (expected H, -, S, C, R, D or B)", i, "unknown_verb")


_PLACE = re.compile(r"[A-Z]{3}(?:/[NSEW]C)?")
"""A place as the canonical short notation writes it (``PAR``, ``STP/SC``)."""


def _parse_short(text: str, game_map: GameMap) -> Order | None:
    """Read the canonical short notation directly; ``None`` when the text is anything else.

    Bots send millions of orders in exactly this form (``A PAR - BUR``, ``A PAR H``, ``A PAR``, ``A LON - NWY
    VIA``, ``A PAR S A MAR``, ``A PAR S A MAR - BUR``, ``F NTH C A LON - NWY``: one space between words), so
    it skips the tokenizer: the words are split on single spaces and looked up.  Every place must be an exact
    place id of the map written as :data:`_PLACE`, else the full parser decides.
    """
    words = text.split(" ")
    n = len(words)
    if n < 2 or n == 6 or n > 7:
        return None
    found = _SHORT_TABLES.get(id(game_map))
    if found is None or found[0] is not game_map:
        found = _short_tables(game_map)
    refs = found[1]
    kind_refs = refs.get(words[0])
    unit = kind_refs.get(words[1]) if kind_refs is not None else None
    if unit is None:
        return None
    if n == 2:
        return Hold(unit)
    verb = words[2]
    if n == 3:
        return Hold(unit) if verb == "H" else None
    short = found[2]
    if verb == "-":
        target = words[3]
        if target not in short or (n == 5 and words[4] != "VIA") or n == 7:
            return None
        return Move(unit, target, n == 5)
    if n == 4:
        return None
    if verb == "S":
        kind_refs = refs.get(words[3])
        supported = kind_refs.get(words[4]) if kind_refs is not None else None
        if supported is None:
            return None
        if n == 5:
            return Support(unit, supported, None)
        starget = words[6]
        if words[5] != "-" or starget not in short:
            return None
        return Support(unit, supported, starget)
    if verb == "C" and n == 7 and words[3] == "A" and words[5] == "-":
        army, ctarget = refs["A"].get(words[4]), words[6]
        if army is None or ctarget not in short:
            return None
        return Convoy(unit, army, ctarget)
    return None


_SHORT_TABLES: dict[int, tuple[GameMap, dict[str, dict[str, UnitRef]], frozenset[str]]] = {}
"""id of a map -> (the map, kind letter -> place -> the shared :class:`UnitRef`, the places): the tables of
:func:`_parse_short`, for the places written as :data:`_PLACE` (found by the map's id: hashing a map is slow)."""


def _short_tables(game_map: GameMap) -> tuple[GameMap, dict[str, dict[str, UnitRef]], frozenset[str]]:
    """Make (and keep) the short reader's tables of ``game_map`` (kept for the last 32 maps)."""
    short = frozenset(place for place in game_map.places if _PLACE.fullmatch(place))
    every = _unit_refs(game_map)
    refs = {kind: {place: every[(kind, place)] for place in short} for kind in ("A", "F")}
    if len(_SHORT_TABLES) >= 32:
        _SHORT_TABLES.clear()
    found = _SHORT_TABLES[id(game_map)] = (game_map, refs, short)
    return found


@cache
def _nationalities(game_map: GameMap) -> dict[str, str]:
    """Every one-word way to write a power of the map (id, names, adjective) → the power's id."""
    out: dict[str, str] = {}
    for power, info in game_map.powers.items():
        for word in (power, info.display, info.display_fr, info.adjective):
            key = strip_accents(word).upper()
            if key.isalpha():
                out.setdefault(key, power)
    return out


@cache
def _unit_refs(game_map: GameMap) -> dict[tuple[str, str], UnitRef]:
    """Every (kind, place) an army or fleet can be named by on the map, as shared values."""
    return {(kind, place): UnitRef(kind, place) for kind in ("A", "F") for place in game_map.places}


def control_character(text: str) -> InvalidOrder | None:
    """The error of an order line holding a control character (``None`` when it holds none).

    Refused: C0 and C1 controls but the tab (``NUL``, line breaks, U+0085), the line and
    paragraph separators U+2028/U+2029 and the non-characters U+FFFE/U+FFFF: one order is
    one line, and a separator must not be read as a space.  The message names the
    character by its code point, never by itself.
    """
    if text.isascii() and text.isprintable():
        return None  # the common case, fast
    for i, ch in enumerate(text):
        code = ord(ch)
        if ch != "\t" and (code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFFFE, 0xFFFF)):
            return InvalidOrder(
                f"the order holds a control character (U+{code:04X}) at character {i + 1}",
                text=text,
                column=i,
                reason="control_character",
            )
    return None


def parse_order(text: str, game_map: GameMap, syntax: OrderSyntax = STANDARD_SYNTAX) -> Order:
    """Parse one order.  Raises :class:`InvalidOrder` or :class:`AmbiguousOrder`."""
    bad = control_character(text)
    if bad is not None:
        raise bad
    if not syntax.extra_parsers:
        order = _parse_short(text, game_map)
        if order is not None:
            return order
    return OrderParser(game_map, text, syntax).parse()
