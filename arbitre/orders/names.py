"""Name lookup: every way a player may write a place, resolved to the map's id.

Names are compared after :func:`normalize`: upper case, accents removed,
punctuation turned into spaces.  So ``Rhénanie``, ``rhenanie`` and ``RUH`` all
find the Ruhr, and ``Saint-Pétersbourg`` finds St Petersburg.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from arbitre.maps import GameMap

_PUNCT = re.compile(r"[.,;:'’`\"!?_]+")
_DOTTED_SEA = re.compile(r"(?<=[A-Z]{2})\.(?=S\b)")


def join_dotted(text: str) -> str:
    """``AND.S`` → ``ANDS``: a sea's dotted abbreviation (Colonial errata, rule 13.0) is one word.

    Read with the dot as a space it would be ``AND S``, and the ``S`` would be
    taken for a support.  ``text`` is already upper case.
    """
    return _DOTTED_SEA.sub("", text) if "." in text else text


_SPACES = re.compile(r"\s+")


def strip_accents(text: str) -> str:
    """``Rhénanie`` → ``Rhenanie``."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalize(text: str) -> str:
    """The comparison form of a name: upper case, no accents, single spaces, hyphens as spaces."""
    text = _PUNCT.sub(" ", join_dotted(strip_accents(text).upper())).replace("-", " ")
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class NameIndex:
    """Normalized name → province id, plus the names that point at several provinces."""

    names: dict[str, str]
    ambiguous: dict[str, tuple[str, ...]]
    longest: int
    starts_longer: frozenset[str]
    """First words of names of several words (``NORTH`` of ``NORTH SEA``)."""


@cache
def name_index(game_map: GameMap) -> NameIndex:
    """Build (once per map) the index of every abbreviation, name and alias."""
    # Priority: abbreviations, then full names, then aliases.  A name claimed by two
    # provinces at the same priority is ambiguous unless a higher priority settles it.
    tiers: list[dict[str, set[str]]] = [{}, {}, {}]
    for abbr, prov in game_map.provinces.items():
        tiers[0].setdefault(normalize(abbr), set()).add(abbr)
        for name in (prov.name, prov.name_fr):
            tiers[1].setdefault(normalize(name), set()).add(abbr)
        for alias in prov.aliases:
            tiers[2].setdefault(normalize(alias), set()).add(abbr)
    names: dict[str, str] = {}
    ambiguous: dict[str, tuple[str, ...]] = {}
    for tier in tiers:
        for key, provs in tier.items():
            if key in names or key in ambiguous or not key:
                continue
            if len(provs) == 1:
                names[key] = next(iter(provs))
            else:
                ambiguous[key] = tuple(sorted(provs))
    longest = max(len(k.split()) for k in list(names) + list(ambiguous))
    starts = frozenset(k.split()[0] for k in list(names) + list(ambiguous) if " " in k)
    return NameIndex(names, ambiguous, longest, starts)
