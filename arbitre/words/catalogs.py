"""The project's gettext catalogs: where they are, and how a language's messages are loaded.

The general catalogs live in the package (``arbitre/locale/<lang>/LC_MESSAGES/arbitre.po``,
template ``arbitre/locale/arbitre.pot``).  Each rule module keeps the words of
its own folder (and of its registry entry) in its folder:
``<folder>/locale/<lang>/LC_MESSAGES/<folder name>.po`` (:func:`module_po_paths`);
:func:`load` merges them behind the general catalog, so a new module's words
are written in its folder only.  The set-up (``scripts/setup.sh``)
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
import importlib.util
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


def module_folder(factory_at: str) -> Path | None:
    """The folder of the rule module whose factory is at ``factory_at`` (``"package.module:name"``).

    The package that holds the factory (the module itself when it is a
    package), found from the path of the dotted name without importing it.
    ``None`` when the name leads to no file.
    """
    parts = factory_at.partition(":")[0].split(".")
    spec = importlib.util.find_spec(parts[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations)))
    for part in parts[1:]:
        base = base / part
    if base.is_dir():
        return base
    return base.parent if base.with_suffix(".py").is_file() else None


def module_po(folder: Path, lang: str) -> Path:
    """The catalog of ``lang`` in a rule module's ``folder`` (its domain is the folder's name)."""
    return folder / "locale" / lang / "LC_MESSAGES" / f"{folder.name}.po"


def module_po_paths(lang: str) -> list[Path]:
    """The catalogs of ``lang`` of every registered rule module that has one, in the registry's order."""
    from arbitre.variants.registry import MODULES  # the words layer reads the list, never a module

    out: list[Path] = []
    for module in MODULES.values():
        folder = module_folder(module.factory_at)
        po = module_po(folder, lang) if folder is not None else None
        if po is not None and po.is_file() and po not in out:
            out.append(po)
    return out


def _load_po(po: Path) -> gettext.GNUTranslations:
    """The messages of catalog ``po``: its ``.mo`` when up to date, else ``po`` compiled now."""
    mo = po.with_suffix(".mo")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def load(lang: str) -> gettext.NullTranslations:
    """The messages of ``lang``: the general catalog, then each rule module's (:func:`module_po_paths`).

    A message of the general catalog wins; a module's words are found behind it.
    """
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    po = po_path(lang)
    if not po.is_file():
        raise CatalogError(f"no catalog for language {lang!r} (looked for {po})")
    catalog = _load_po(po)
    for module_catalog in module_po_paths(lang):
        catalog.add_fallback(_load_po(module_catalog))
    return catalog
