"""Page and report languages: English (the message ids) and French, from the gettext catalogs (docs/translations.md)."""

from __future__ import annotations

from collections.abc import Callable

from arbitre.words import translator as words_translator

LANGUAGES = ("en", "fr")
"""The languages a user can pick."""


def translator(lang: str) -> Callable[..., str]:
    """``t(text, **values)``: ``text`` (English) in ``lang``, with ``{name}`` fields filled in."""
    catalog = words_translator(lang)

    def t(text: str, **values: object) -> str:
        out = catalog.gettext(text)
        return out.format(**values) if values else out

    return t


def pick_language(header: str | None) -> str:
    """The first supported language of an ``Accept-Language`` header (default English)."""
    for part in (header or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"
