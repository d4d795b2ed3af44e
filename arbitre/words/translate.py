"""A :class:`Translator` per language: gettext and ngettext over the project's catalogs."""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache

from arbitre.words.catalogs import SOURCE_LANGUAGE, load

LANGUAGES = ("en", "fr")
"""The languages a reader can pick (English first: the message ids)."""


@dataclass(frozen=True)
class Translator:
    """The messages of one language.  ``lang`` is the language actually used."""

    lang: str
    catalog: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        """``message`` (English) in this language; English when it has no translation."""
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural form for ``n``, by this language's plural rule."""
        return self.catalog.ngettext(singular, plural, n)

    def __call__(self, message: str, **values: object) -> str:
        """``message`` translated, then its ``{name}`` fields filled in from ``values``."""
        out = self.gettext(message)
        return out.format(**values) if values else out


@cache
def translator(lang: str) -> Translator:
    """The translator of ``lang`` (``en`` or ``fr``); any other code gives English.

    A supported language whose catalog is missing raises
    :class:`~arbitre.words.catalogs.CatalogError`.
    """
    code = (lang or SOURCE_LANGUAGE).strip().lower()[:2]
    if code not in LANGUAGES:
        code = SOURCE_LANGUAGE
    return Translator(code, load(code))


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs (``scripts/update-catalogs`` extracts it); it is translated where shown."""
    return message
