"""Parser for the test cases of DATC v3.1+ (chapter 6) in its HTML form.

From version 3.1 on, the DATC document marks every test case up so that it can
be read by a program: an ``<h4 id="6.X.N">`` heading with the title, then prose,
then one ``<div class="test-case spring|winter" id="6.X.N.orders">`` holding
the orders, one per line, each followed by
``<span class="resolution">…</span>`` with the expected outcome.  Sections are
introduced by ``<h3 id="6.X">`` headings.

:func:`parse_datc_html` turns the text of such a document into a list of
:class:`DatcCase` values.  It does no I/O: the caller reads the file.  The
older v3.0 document (``<pre>`` blocks, no resolutions) is not supported; it is
rejected with :class:`DatcParseError`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Final

__all__ = [
    "DatcCase",
    "DatcOrder",
    "DatcParseError",
    "OwnershipFact",
    "parse_datc_html",
]


class DatcParseError(ValueError):
    """Raised when a DATC data file does not have the expected shape.

    The message names the case (when known) and the offending line.
    """


@dataclass(frozen=True)
class DatcOrder:
    """One order of a DATC case together with its expected outcome.

    ``power`` is the upper-case power whose block the order stands in (for
    example ``"ENGLAND"``).  ``text`` is the order exactly as written, with
    whitespace collapsed to single spaces and without the resolution, for
    example ``"F North Sea Convoys A London - Holland"``.  ``resolution`` holds
    the lower-case tokens of the resolution span, for example
    ``("disrupted", "dislodged")``.
    """

    power: str
    text: str
    resolution: tuple[str, ...]


@dataclass(frozen=True)
class OwnershipFact:
    """A starting-position fact such as ``Germany owns SC Kiel``.

    ``power`` is upper case (``"GERMANY"``); ``kind`` is ``"SC"`` for a supply
    centre, ``"A"`` or ``"F"`` for a unit; ``location`` is the location text as
    written, for example ``"Kiel"``, ``"Spain(sc)"`` or
    ``"St Petersburg(sc)"``.
    """

    power: str
    kind: str
    location: str


@dataclass(frozen=True)
class DatcCase:
    """One DATC test case read from the HTML document.

    ``case_id`` is the number such as ``"6.F.7"``; ``section`` its section
    (``"6.F"``) and ``section_title`` that section's heading without its
    number (``"TEST CASES, CONVOYS"``); ``title`` is the case heading without
    its number.  ``phase_kind`` is ``"movement"`` (class ``spring``) or
    ``"adjustment"`` (class ``winter``).  ``facts`` are the ownership lines;
    ``orders`` are the orders of the main phase and ``retreat_orders`` those
    after a ``RETREATS`` line (empty when there is none).
    ``automatic_disbands`` lists the ``(power, unit)`` pairs that civil
    disorder is expected to remove, for example ``("GERMANY", "A Prussia")``.
    """

    case_id: str
    section: str
    section_title: str
    title: str
    phase_kind: str
    facts: tuple[OwnershipFact, ...]
    orders: tuple[DatcOrder, ...]
    retreat_orders: tuple[DatcOrder, ...]
    automatic_disbands: tuple[tuple[str, str], ...]


_SECTION_ID: Final = re.compile(r"6\.[A-Z]")
_CASE_ID: Final = re.compile(r"6\.[A-Z]\.\d+")
_FACT_LINE: Final = re.compile(r"([A-Za-z]+) owns (SC|A|F) (\S.*)")
_POWER_LINE: Final = re.compile(r"([A-Za-z]+):?")
_RETREATS_LINE: Final = "RETREATS"
_AUTO_DISBAND: Final = re.compile(r"automatic disband\s+(\S.*)", re.IGNORECASE)
_PHASE_KINDS: Final = {"spring": "movement", "winter": "adjustment"}


def _norm(text: str) -> str:
    """Collapse runs of whitespace to one space and strip the ends."""
    return " ".join(text.split())


@dataclass(frozen=True)
class _Heading:
    """A raw ``<h3>`` or ``<h4>`` heading as seen in the document."""

    level: int
    ident: str
    text: str


@dataclass(frozen=True)
class _Block:
    """A raw test-case ``<div>``: its id, classes and content segments.

    Each segment is ``(is_resolution, text)``: plain text between tags, or the
    text of one resolution span.
    """

    ident: str
    classes: tuple[str, ...]
    segments: tuple[tuple[bool, str], ...]


class _Extractor(HTMLParser):
    """Collects section and case headings and test-case blocks in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[_Heading | _Block] = []
        self._heading: tuple[int, str] | None = None
        self._heading_text: list[str] = []
        self._block: tuple[str, tuple[str, ...]] | None = None
        self._div_depth = 0
        self._segments: list[tuple[bool, str]] = []
        self._span_depth = 0
        self._in_resolution = False
        self._resolution_depth = 0
        self._resolution_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open a heading, a test-case block or a resolution span."""
        attributes = {name: value or "" for name, value in attrs}
        if self._block is not None:
            if tag == "div":
                self._div_depth += 1
            elif tag == "span":
                self._span_depth += 1
                if "resolution" in attributes.get("class", "").split():
                    if self._in_resolution:
                        raise DatcParseError(f"{self._block[0]}: nested resolution span")
                    self._in_resolution = True
                    self._resolution_depth = self._span_depth
                    self._resolution_text = []
            return
        if tag in ("h3", "h4"):
            self._heading = (int(tag[1]), attributes.get("id", ""))
            self._heading_text = []
        elif tag == "div":
            classes = tuple(attributes.get("class", "").split())
            if "test-case" in classes:
                self._block = (attributes.get("id", ""), classes)
                self._div_depth = 1
                self._segments = []
                self._span_depth = 0
                self._in_resolution = False

    def handle_endtag(self, tag: str) -> None:
        """Close whatever :meth:`handle_starttag` opened."""
        if self._block is not None:
            if tag == "span":
                if self._in_resolution and self._span_depth == self._resolution_depth:
                    self._segments.append((True, "".join(self._resolution_text)))
                    self._in_resolution = False
                self._span_depth -= 1
            elif tag == "div":
                self._div_depth -= 1
                if self._div_depth == 0:
                    ident, classes = self._block
                    if self._in_resolution:
                        raise DatcParseError(f"{ident}: unclosed resolution span")
                    self.items.append(_Block(ident, classes, tuple(self._segments)))
                    self._block = None
            return
        if self._heading is not None and tag == f"h{self._heading[0]}":
            level, ident = self._heading
            self.items.append(_Heading(level, ident, _norm("".join(self._heading_text))))
            self._heading = None

    def handle_data(self, data: str) -> None:
        """Record text inside headings and test-case blocks."""
        if self._block is not None:
            if self._in_resolution:
                self._resolution_text.append(data)
            else:
                self._segments.append((False, data))
        elif self._heading is not None:
            self._heading_text.append(data)


def _lines(block: _Block) -> list[tuple[str, str | None]]:
    """Split a block into ``(text, resolution)`` lines.

    ``text`` is the whitespace-normalised text of the line outside any
    resolution span; ``resolution`` is the text of the line's span, or None.
    """
    lines: list[tuple[str, str | None]] = []
    text: list[str] = []
    resolution: str | None = None
    for is_resolution, data in block.segments:
        if is_resolution:
            if resolution is not None:
                line = _norm("".join(text))
                raise DatcParseError(f"{block.ident}: two resolutions on one line: {line!r}")
            resolution = data
            continue
        for index, part in enumerate(data.split("\n")):
            if index > 0:
                lines.append((_norm("".join(text)), resolution))
                text = []
                resolution = None
            if resolution is not None and part.strip():
                raise DatcParseError(f"{block.ident}: text after the resolution: {part.strip()!r}")
            text.append(part)
    lines.append((_norm("".join(text)), resolution))
    return lines


def _strip_number(text: str, number: str, where: str) -> str:
    """Remove the leading ``number`` (with its trailing dot) from a heading."""
    prefix = number + "."
    if not text.startswith(prefix):
        raise DatcParseError(f"{where}: heading {text!r} does not start with {prefix!r}")
    return text[len(prefix) :].strip()


def _build_case(block: _Block, heading: _Heading, section: _Heading) -> DatcCase:
    """Turn one test-case block into a :class:`DatcCase`."""
    case_id = heading.ident
    kinds = [_PHASE_KINDS[c] for c in block.classes if c in _PHASE_KINDS]
    if len(kinds) != 1:
        raise DatcParseError(f"{case_id}: cannot tell the phase from classes {block.classes}")
    phase_kind = kinds[0]

    facts: list[OwnershipFact] = []
    orders: list[DatcOrder] = []
    retreat_orders: list[DatcOrder] = []
    disbands: list[tuple[str, str]] = []
    power: str | None = None
    in_retreats = False

    for text, resolution in _lines(block):
        if resolution is None:
            if not text:
                continue
            if text == _RETREATS_LINE:
                if phase_kind != "movement" or in_retreats:
                    raise DatcParseError(f"{case_id}: unexpected RETREATS line")
                in_retreats = True
                power = None
                continue
            fact = _FACT_LINE.fullmatch(text)
            if fact is not None:
                facts.append(OwnershipFact(fact[1].upper(), fact[2], fact[3]))
                continue
            header = _POWER_LINE.fullmatch(text)
            if header is not None:
                power = header[1].upper()
                continue
            raise DatcParseError(f"{case_id}: order without a resolution: {text!r}")
        if power is None:
            raise DatcParseError(f"{case_id}: line before any power heading: {text!r}")
        if not text:
            disband = _AUTO_DISBAND.fullmatch(_norm(resolution))
            if disband is None:
                raise DatcParseError(f"{case_id}: resolution without an order: {resolution!r}")
            disbands.append((power, disband[1]))
            continue
        tokens = tuple(token.strip().lower() for token in resolution.split(",") if token.strip())
        if not tokens:
            raise DatcParseError(f"{case_id}: empty resolution for {text!r}")
        order = DatcOrder(power, text, tokens)
        (retreat_orders if in_retreats else orders).append(order)

    return DatcCase(
        case_id=case_id,
        section=section.ident,
        section_title=_strip_number(section.text, section.ident, section.ident),
        title=_strip_number(heading.text, case_id, case_id),
        phase_kind=phase_kind,
        facts=tuple(facts),
        orders=tuple(orders),
        retreat_orders=tuple(retreat_orders),
        automatic_disbands=tuple(disbands),
    )


def parse_datc_html(text: str) -> list[DatcCase]:
    """Parse the test cases of a DATC v3.1+ HTML document.

    ``text`` is the document (or its chapter 6) as a string.  Cases are
    returned in document order.  Raises :class:`DatcParseError` when a block
    has an unexpected line, when a block does not follow its heading, or when
    the text holds no ``test-case`` block at all (for example the v3.0
    document, whose cases are plain ``<pre>`` blocks without results).
    """
    extractor = _Extractor()
    extractor.feed(text)
    extractor.close()

    cases: list[DatcCase] = []
    section: _Heading | None = None
    heading: _Heading | None = None
    for item in extractor.items:
        if isinstance(item, _Heading):
            if item.level == 3 and _SECTION_ID.fullmatch(item.ident):
                section = item
                heading = None
            elif item.level == 4 and _CASE_ID.fullmatch(item.ident):
                heading = item
            continue
        if heading is None or item.ident != heading.ident + ".orders":
            expected = "none" if heading is None else heading.ident
            raise DatcParseError(
                f"test-case block {item.ident!r} does not follow its heading (last case heading: {expected})"
            )
        if section is None or not heading.ident.startswith(section.ident + "."):
            raise DatcParseError(f"{heading.ident}: not inside its section heading")
        cases.append(_build_case(item, heading, section))
        heading = None
    if not cases:
        raise DatcParseError('no <div class="test-case ..."> block found; only the DATC v3.1+ HTML layout is supported')
    return cases
