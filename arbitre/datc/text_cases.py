"""Parser for the jDip/godip adjudicator test-case text format.

A file starts with ``VARIANT_ALL <name>`` and holds cases, each running from
``CASE <label>`` to ``END``.  Inside a case, section keywords at the start of
a line introduce lists of ``Power: text`` lines::

    CASE 6.I.1
    PRESTATE_SETPHASE Fall 1901, Adjustment
    PRESTATE_SUPPLYCENTER_OWNERS
        Germany: A kie
    PRESTATE
        Germany: A par
    ORDERS
        Germany: Build A kie
    POSTSTATE
        Germany: A par
        Germany: A kie
    END

``#`` starts a comment; indentation mixes tabs and spaces.  Keywords are
matched without regard to case (one jDip file writes ``Orders``).

:func:`parse_judge_text` turns such a text into :class:`JudgeTextCase` values.
It does no I/O: the caller reads the file.  Unit, location and order text is
kept exactly as written (``A nwy``, ``F spa/sc``, ``A nwy S den - swe``);
only power names are upper-cased, and they are not otherwise corrected (one
case of the v2.4 files spells ``Germnay``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from arbitre.datc.html_cases import DatcParseError

__all__ = ["JudgeTextCase", "parse_judge_text"]


@dataclass(frozen=True)
class JudgeTextCase:
    """One ``CASE`` … ``END`` block of a jDip/godip test file.

    ``name`` is the label after ``CASE`` (for example ``"6.A.5 (Move to own
    sector with convoy)"``); ``variant`` the most recent ``VARIANT_ALL`` value
    before the case, or None.

    ``season``, ``year`` and ``phase_type`` come from ``PRESTATE_SETPHASE``
    as written (``"Spring"``/``"Fall"``, ``1901``,
    ``"Movement"``/``"Retreat"``/``"Adjustment"``).  A few cases omit that
    line; they get ``Spring 1901 Movement``, the starting phase of the map,
    and ``phase_given`` is False.

    All remaining fields hold ``(POWER, text)`` pairs with the power upper
    case and the text as written: ``supply_center_owners`` the owned
    provinces (the dummy unit letter of each line is dropped, so
    ``Russia: A war`` gives ``("RUSSIA", "war")``), ``units`` the
    ``PRESTATE`` units, ``dislodged`` the ``PRESTATE_DISLODGED`` units and
    ``orders`` the ``ORDERS``.  ``results`` lists the ``PRESTATE_RESULTS``
    lines as ``(outcome, POWER, order text)`` with outcome ``"SUCCESS"`` or
    ``"FAILURE"``.  ``post_units`` and ``post_dislodged`` are the expected
    ``POSTSTATE`` and ``POSTSTATE_DISLODGED`` lists, or None when the section
    is absent; ``post_same`` is True when the case says ``POSTSTATE_SAME``.
    """

    name: str
    variant: str | None
    season: str
    year: int
    phase_type: str
    phase_given: bool
    supply_center_owners: tuple[tuple[str, str], ...]
    units: tuple[tuple[str, str], ...]
    dislodged: tuple[tuple[str, str], ...]
    results: tuple[tuple[str, str, str], ...]
    orders: tuple[tuple[str, str], ...]
    post_units: tuple[tuple[str, str], ...] | None
    post_dislodged: tuple[tuple[str, str], ...] | None
    post_same: bool


_LIST_SECTIONS: Final = frozenset(
    {
        "PRESTATE_SUPPLYCENTER_OWNERS",
        "PRESTATE",
        "PRESTATE_DISLODGED",
        "PRESTATE_RESULTS",
        "ORDERS",
        "POSTSTATE",
        "POSTSTATE_DISLODGED",
    }
)
_KEYWORDS: Final = _LIST_SECTIONS | {
    "CASE",
    "END",
    "VARIANT_ALL",
    "PRESTATE_SETPHASE",
    "POSTSTATE_SAME",
}
_SETPHASE: Final = re.compile(r"([A-Za-z]+)\s+(\d+)\s*(?:,\s*|\(\s*)?([A-Za-z]+)\s*\)?")
_POWER: Final = re.compile(r"[A-Za-z][A-Za-z-]*")
_DUMMY_UNIT: Final = re.compile(r"[AaFf]\s+(\S+)")
_OUTCOMES: Final = frozenset({"SUCCESS", "FAILURE"})
_DEFAULT_PHASE: Final = ("Spring", 1901, "Movement")


@dataclass
class _Builder:
    """Mutable collector for one case while its lines are read."""

    name: str
    variant: str | None
    phase: tuple[str, int, str] | None = None
    lists: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    results: list[tuple[str, str, str]] = field(default_factory=list)
    post_same: bool = False

    def build(self) -> JudgeTextCase:
        """Freeze the collected data into a :class:`JudgeTextCase`."""
        season, year, phase_type = self.phase or _DEFAULT_PHASE

        def pairs(section: str) -> tuple[tuple[str, str], ...]:
            return tuple(self.lists.get(section, ()))

        def optional(section: str) -> tuple[tuple[str, str], ...] | None:
            return tuple(self.lists[section]) if section in self.lists else None

        return JudgeTextCase(
            name=self.name,
            variant=self.variant,
            season=season,
            year=year,
            phase_type=phase_type,
            phase_given=self.phase is not None,
            supply_center_owners=pairs("PRESTATE_SUPPLYCENTER_OWNERS"),
            units=pairs("PRESTATE"),
            dislodged=pairs("PRESTATE_DISLODGED"),
            results=tuple(self.results),
            orders=pairs("ORDERS"),
            post_units=optional("POSTSTATE"),
            post_dislodged=optional("POSTSTATE_DISLODGED"),
            post_same=self.post_same,
        )


def _split_power(item: str, where: str) -> tuple[str, str]:
    """Split ``Power: text`` (or ``Power text`` without the colon)."""
    if ":" in item:
        power, rest = item.split(":", 1)
    else:
        parts = item.split(None, 1)
        if len(parts) != 2:
            raise DatcParseError(f"{where}: expected 'Power: text', got {item!r}")
        power, rest = parts
    power, rest = power.strip(), " ".join(rest.split())
    if not _POWER.fullmatch(power) or not rest:
        raise DatcParseError(f"{where}: expected 'Power: text', got {item!r}")
    return power.upper(), rest


def parse_judge_text(text: str) -> list[JudgeTextCase]:
    """Parse a jDip/godip test-case file given as a string.

    Cases are returned in file order.  A ``CASE`` line met while a case is
    still open closes that case (one jDip file forgets an ``END``), and so
    does the end of the text.  Raises :class:`DatcParseError` on a line that
    fits nowhere: an item outside a list section, an unknown phase line, or an
    item not of the form ``Power: text``.
    """
    cases: list[JudgeTextCase] = []
    variant: str | None = None
    current: _Builder | None = None
    section: str | None = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"line {number}"
        first, *tail = line.split(None, 1)
        keyword = first.upper()
        argument = tail[0].strip() if tail else ""
        if keyword in _KEYWORDS:
            if keyword == "VARIANT_ALL":
                if current is not None:
                    raise DatcParseError(f"{where}: VARIANT_ALL inside a case")
                variant = argument or None
            elif keyword == "CASE":
                if current is not None:
                    cases.append(current.build())
                current = _Builder(argument, variant)
            elif current is None:
                raise DatcParseError(f"{where}: {first} outside a case")
            elif keyword == "END":
                cases.append(current.build())
                current = None
            elif keyword == "PRESTATE_SETPHASE":
                match = _SETPHASE.fullmatch(argument)
                if match is None:
                    raise DatcParseError(f"{where}: unreadable phase {argument!r}")
                current.phase = (match[1], int(match[2]), match[3])
            elif keyword == "POSTSTATE_SAME":
                current.post_same = True
            else:
                if argument:
                    raise DatcParseError(f"{where}: text after {first}: {argument!r}")
                current.lists.setdefault(keyword, [])
            section = keyword if keyword in _LIST_SECTIONS else None
            continue

        if current is None or section is None:
            raise DatcParseError(f"{where}: item outside a list section: {line!r}")
        where = f"{where} (case {current.name})"
        if section == "PRESTATE_RESULTS":
            outcome, _, rest = line.partition(":")
            outcome = outcome.strip().upper()
            if outcome not in _OUTCOMES:
                raise DatcParseError(f"{where}: expected SUCCESS: or FAILURE:, got {line!r}")
            power, order = _split_power(rest, where)
            current.results.append((outcome, power, order))
            continue
        power, item = _split_power(line, where)
        if section == "PRESTATE_SUPPLYCENTER_OWNERS":
            dummy = _DUMMY_UNIT.fullmatch(item)
            if dummy is not None:
                item = dummy[1]
            elif len(item.split()) != 1:
                raise DatcParseError(f"{where}: unreadable owner line {line!r}")
        current.lists[section].append((power, item))

    if current is not None:
        cases.append(current.build())
    return cases
