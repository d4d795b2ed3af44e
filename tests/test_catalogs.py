"""The gettext catalogs: every message of the code is translated in French, and translators work.

``test_french_catalog_is_complete`` extracts every message from the code and
the templates (as ``scripts/update-catalogs`` does) and fails when one is
missing, untranslated or fuzzy in the French catalog, naming each.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from arbitre.words import translator
from arbitre.words.catalogs import KEYWORDS, LOCALE_DIR, CatalogError, catalog_languages, compile_po, po_path

ROOT = Path(__file__).resolve().parent.parent

_FIELD = re.compile(r"{(\w*)[^{}]*}")

_PLURAL_KEYWORDS = {"ngettext": (1, 2), "npgettext": ((1, "c"), 2, 3), "pgettext": ((1, "c"), 2)}


def extracted_messages() -> dict[str, str]:
    """Every message id in the code and templates (the singular of plurals) → where it is."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {k: _PLURAL_KEYWORDS.get(k) for k in KEYWORDS}
    out: dict[str, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            out.setdefault(msgid, f"{filename}:{lineno}")
    return out


def problems(catalog: Catalog, wanted: dict[str, str]) -> list[str]:
    """What is wrong with ``catalog`` for the messages ``wanted``: missing, untranslated, fuzzy, bad fields."""
    out = []
    for msgid, where in sorted(wanted.items()):
        entry = catalog.get(msgid)
        if entry is None:
            out.append(f"missing: {msgid!r} ({where})")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            out.append(f"untranslated: {msgid!r} ({where})")
        elif entry.fuzzy:
            out.append(f"fuzzy: {msgid!r} ({where})")
        elif any(set(_FIELD.findall(s)) != set(_FIELD.findall(msgid)) for s in strings[:1]):
            out.append(f"fields differ: {msgid!r} ({where})")
    for entry, errors in catalog.check():
        out.extend(f"{err}: {entry.id!r}" for err in errors)
    return out


def test_code_has_messages() -> None:
    found = extracted_messages()
    assert "Orders" in found and len(found) > 50


@pytest.mark.parametrize("lang", ["fr"])
def test_french_catalog_is_complete(lang: str) -> None:
    assert lang in catalog_languages()
    with po_path(lang).open("rb") as f:
        catalog = read_po(f)
    found = problems(catalog, extracted_messages())
    assert not found, "run scripts/update-catalogs and translate:\n" + "\n".join(found)


def test_the_check_catches_missing_and_fuzzy_entries() -> None:
    catalog = read_po(
        io.StringIO(
            'msgid "A"\nmsgstr "a"\n\n#, fuzzy\nmsgid "B"\nmsgstr "b"\n\nmsgid "C"\nmsgstr ""\n\n'
            'msgid "E {n}"\nmsgstr "e {m}"\n'
        )
    )
    found = problems(catalog, {"A": "x", "B": "y", "C": "z", "D": "w", "E {n}": "v"})
    assert found == ["fuzzy: 'B' (y)", "untranslated: 'C' (z)", "missing: 'D' (w)", "fields differ: 'E {n}' (v)"]


def test_translators() -> None:
    fr, en = translator("fr"), translator("en")
    assert fr.gettext("Orders") == "Ordres"
    assert en.gettext("Orders") == "Orders"
    assert translator("de").lang == "en"  # any other language: English
    assert fr("Line") == "Ligne"
    assert fr.ngettext("{n} spy", "{n} spies", 1) == "{n} spy"  # no translation: the English form


def test_compile_on_demand(tmp_path: Path) -> None:
    po = tmp_path / "arbitre.po"
    po.write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] "plusieurs"\n',
        encoding="utf-8",
    )
    import gettext

    catalog = gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    assert catalog.ngettext("one", "many", 1) == "un"
    assert catalog.ngettext("one", "many", 2) == "plusieurs"


def test_missing_catalog_is_an_error() -> None:
    from arbitre.words.catalogs import load

    with pytest.raises(CatalogError, match="no catalog"):
        load("xx")
    assert LOCALE_DIR.is_dir()
