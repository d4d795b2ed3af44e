"""A Babel extractor for words that rule modules declare as data (options, their groups and presets).

The rules core writes no prose for people except the short titles and
descriptions of its declarations (``arbitre.rules.options``).  Rather than mark
each one, ``babel.cfg`` names this extractor for that module: it reads the
declarations themselves, so a new option's words reach the catalogs (and
``tests/test_catalogs.py`` asks for their French) with no extra step.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def option_texts() -> list[str]:
    """Every title and description of the disputed-rule options, their groups and presets."""
    from arbitre.rules.options import GROUPS, OPTIONS, PRESETS

    out = [title for _, title in GROUPS]
    for option in OPTIONS:
        out.append(option.title)
        out.extend(description for _, description in option.values)
    out.extend(preset.title for preset in PRESETS.values())
    return out


def extract_options(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method (``babel.cfg``): the option texts, whatever ``fileobj`` holds."""
    for text in dict.fromkeys(option_texts()):
        yield 0, "", text, ["a disputed rule of the DATC (arbitre/rules/options.py)"]
