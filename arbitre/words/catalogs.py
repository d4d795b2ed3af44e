"""The project's gettext catalogs: where they are, and how a language's messages are loaded.

The catalogs live in the package (``arbitre/locale/<lang>/LC_MESSAGES/arbitre.po``,
template ``arbitre/locale/arbitre.pot``).  The set-up (``scripts/setup.sh``)
compiles each ``.po`` to its ``.mo``; a ``.mo`` that is missing or older than
its ``.po`` is compiled again in memory on first use with Babel, so a fresh
clone works and an edited catalog is never silently ignored.  A language
whose catalog is missing is an error, not a quiet fall back to English.

Refresh the catalogs after changing a message (``scripts/update-catalogs``)::

    pybabel extract -F babel.cfg -k t -o arbitre/locale/arbitre.pot arbitre
    pybabel update -i arbitre/locale/arbitre.pot -d arbitre/locale -D arbitre
    # translate the new entries in arbitre/locale/fr/LC_MESSAGES/arbitre.po (and clear "fuzzy")
    pybabel compile -d arbitre/locale -D arbitre
"""

from __future__ import annotations

import gettext
import io
from pathlib import Path

DOMAIN = "arbitre"
"""The gettext domain: every catalog file is named ``arbitre.po`` / ``arbitre.mo``."""
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are (inside the package, so an installed copy carries them)."""
SOURCE_LANGUAGE = "en"
"""The language of the message ids: it needs no catalog."""
KEYWORDS = ("_", "gettext", "ngettext", "pgettext", "npgettext", "N_", "t")
"""Function names whose string arguments are messages (``t`` is the pages' translator)."""


class CatalogError(RuntimeError):
    """A catalog that is missing or cannot be read."""


def catalog_languages() -> tuple[str, ...]:
    """The languages that have a catalog, besides English."""
    return tuple(sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")))


def po_path(lang: str) -> Path:
    """The translator's catalog of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """The compiled catalog of ``lang`` (made by the set-up, not kept in git)."""
    return po_path(lang).with_suffix(".mo")


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of catalog ``po`` (fuzzy entries left out, as ``pybabel compile`` does)."""
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError as err:  # pragma: no cover - babel is a dependency
        raise CatalogError(f"{po} must be compiled and Babel is not installed: run scripts/setup.sh") from err
    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def load(lang: str) -> gettext.NullTranslations:
    """The messages of ``lang``: its ``.mo`` when up to date, else its ``.po`` compiled now."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    po, mo = po_path(lang), mo_path(lang)
    if not po.is_file():
        raise CatalogError(f"no catalog for language {lang!r} (looked for {po})")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po)))
