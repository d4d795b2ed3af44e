"""The gettext catalogs: every message of the code is translated in French, and translators work.

``test_french_catalog_is_complete`` extracts every message from the general
code and the templates (as ``scripts/update-catalogs`` does) and fails when one
is missing, untranslated or fuzzy in the French catalog, naming each.
``test_each_module_s_catalog_is_complete`` does the same for each registered
rule module: the words of its folder and of its registry entry, in its own
catalog (``<folder>/locale/fr/LC_MESSAGES/<name>.po``) or the general one.
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

from arbitre.variants.registry import RULE_MODULES, RuleModule
from arbitre.words import translator
from arbitre.words.catalogs import (
    LOCALE_DIR,
    CatalogError,
    catalog_languages,
    compile_po,
    module_folder,
    module_po,
    po_path,
)
from arbitre.words.module_catalogs import babel_keywords, module_messages

ROOT = Path(__file__).resolve().parent.parent

_FIELD = re.compile(r"{(\w*)[^{}]*}")


def extracted_messages() -> dict[str, str]:
    """Every message id in the code and templates (the singular of plurals) → where it is."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    out: dict[str, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT),
        method_map,
        options_map,
        keywords=babel_keywords(),  # type: ignore[arg-type]
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


def module_catalog(module: RuleModule, lang: str) -> Catalog:
    """``module``'s own catalog of ``lang`` (empty when it has none)."""
    folder = module_folder(module.factory_at)
    assert folder is not None, module.name
    po = module_po(folder, lang)
    if not po.is_file():
        return Catalog(locale=lang)
    with po.open("rb") as f:
        return read_po(f)


def module_problems(module: RuleModule, lang: str) -> list[str]:
    """What is wrong with ``module``'s words in ``lang``: each must be in its own catalog, or the general one."""
    with po_path(lang).open("rb") as f:
        general = read_po(f)
    wanted = module_messages(module)
    mine = {k: v for k, v in wanted.items() if not (general.get(k) and general.get(k).string)}  # type: ignore[union-attr]
    return problems(module_catalog(module, lang), mine)


@pytest.mark.parametrize("module", RULE_MODULES, ids=[m.name for m in RULE_MODULES])
def test_each_module_s_catalog_is_complete(module: RuleModule) -> None:
    found = module_messages(module)
    assert module.title in found and module.description in found
    found_problems = module_problems(module, "fr")
    assert not found_problems, "run scripts/update-catalogs and translate:\n" + "\n".join(found_problems)


def test_a_module_s_words_are_in_its_folder_only() -> None:
    """The general catalog keeps no word that only a module uses: each module's words are in its folder."""
    general_code = extracted_messages()
    with po_path("fr").open("rb") as f:
        general = read_po(f)
    strays = [
        f"{module.name}: {msgid!r}"
        for module in RULE_MODULES
        for msgid in module_messages(module)
        if msgid not in general_code and general.get(msgid) is not None
    ]
    assert not strays, "words of a module in arbitre/locale (move them to its folder):\n" + "\n".join(strays)


def test_a_module_s_words_are_read_from_its_folder() -> None:
    """The translator merges each module's catalog behind the general one (a module's title, a report)."""
    fr = translator("fr")
    for module in RULE_MODULES:
        words = module_catalog(module, "fr").get(module.description)
        assert words is not None and fr.gettext(module.description) == words.string != module.description, module.name
    assert fr.gettext("Orders") == "Ordres"  # the general catalog still comes first


def test_a_module_without_its_catalog_is_caught() -> None:
    """A module whose French words are missing from its folder fails the completeness check."""
    module = RuleModule("nowhere", "tests.test_catalogs:nothing", "A title nobody translated", "Nor this one.")
    assert {
        "missing: 'A title nobody translated' (arbitre/variants/registry.py (nowhere))",
        "missing: 'Nor this one.' (arbitre/variants/registry.py (nowhere))",
    } <= set(module_problems(module, "fr"))


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


def test_update_writes_a_new_module_s_catalog_in_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``scripts/update-catalogs`` (module part): a new module's words land in its folder, translations are kept."""
    from arbitre.words.module_catalogs import update_module_catalog

    folder = tmp_path / "newpkg" / "shiny"
    folder.mkdir(parents=True)
    (tmp_path / "newpkg" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "__init__.py").write_text('def N_(m):\n    return m\n\nWORDS = N_("Shiny words")\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = RuleModule("shiny", "newpkg.shiny:make", "Shiny", "Shiny rules.")
    po = update_module_catalog(module, "fr")
    assert po == folder / "locale" / "fr" / "LC_MESSAGES" / "shiny.po"
    assert sorted(module_problems(module, "fr")) == [
        "untranslated: 'Shiny rules.' (arbitre/variants/registry.py (shiny))",
        "untranslated: 'Shiny words' (shiny/__init__.py:4)",
        "untranslated: 'Shiny' (arbitre/variants/registry.py (shiny))",
    ]
    text = po.read_text(encoding="utf-8")
    for english, french in (("Shiny", "Brillant"), ("Shiny rules.", "Règles brillantes."), ("Shiny words", "Mots")):
        text = text.replace(f'msgid "{english}"\nmsgstr ""', f'msgid "{english}"\nmsgstr "{french}"')
    po.write_text(text, encoding="utf-8")
    assert update_module_catalog(module, "fr") == po and module_problems(module, "fr") == []
