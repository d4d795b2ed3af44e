"""Each rule module's own catalogs: the messages of its folder and of its registry entry, kept in its folder.

``scripts/update-catalogs`` runs ``python -m arbitre.words.module_catalogs``:
for every registered module whose folder is in this repository, the messages
of its folder's code (``_``, ``gettext``, ``N_``…) and its registry entry's
words (title, description, options) are merged into
``<folder>/locale/<lang>/LC_MESSAGES/<folder name>.po`` for each language of
the general catalogs; new entries are empty (to translate), gone ones are
dropped.  ``tests/test_catalogs.py`` asks the same messages of each module's
catalog (or of the general one).  The general catalog's extraction
(``babel.cfg``) skips the modules' folders and the registry list.
"""

from __future__ import annotations

import sys
from pathlib import Path

from arbitre.variants.registry import RULE_MODULES, RuleModule
from arbitre.words.catalogs import KEYWORDS, catalog_languages, module_folder, module_po

PLURAL_KEYWORDS: dict[str, object] = {"ngettext": (1, 2), "npgettext": ((1, "c"), 2, 3), "pgettext": ((1, "c"), 2)}
"""Babel's argument specs of the message functions that take more than one string."""


def babel_keywords() -> dict[str, object]:
    """The message functions (:data:`~arbitre.words.catalogs.KEYWORDS`) as Babel's extractor wants them."""
    return {k: PLURAL_KEYWORDS.get(k) for k in KEYWORDS}


Message = str | tuple[str, ...]
"""A message id: its words, or its singular and plural forms."""


def module_messages(module: RuleModule) -> dict[str, str]:
    """Every message id of ``module`` (the singular of plurals) → where it is."""
    return {(m if isinstance(m, str) else m[0]): where for m, where in module_entries(module).items()}


def module_entries(module: RuleModule) -> dict[Message, str]:
    """Every message of ``module`` → where it is: its registry entry's words, then its folder's code."""
    from babel.messages.extract import extract_from_dir

    out: dict[Message, str] = {}
    entry = f"arbitre/variants/registry.py ({module.name})"
    for text in (module.title, module.description, *(o.description for o in module.options)):
        if text:
            out.setdefault(text, entry)
    folder = module_folder(module.factory_at)
    if folder is None:
        return out
    found = extract_from_dir(
        str(folder),
        [("**.py", "python")],
        keywords=babel_keywords(),  # type: ignore[arg-type]
    )
    for filename, lineno, message, _comments, _context in found:
        if message and (message if isinstance(message, str) else message[0]):
            out.setdefault(message, f"{folder.name}/{filename}:{lineno}")
    return out


def update_module_catalog(module: RuleModule, lang: str) -> Path | None:
    """Merge ``module``'s messages into its catalog of ``lang`` (created if missing); its path, or ``None``.

    A module with no message gets no catalog.
    """
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    folder = module_folder(module.factory_at)
    messages = module_entries(module)
    if folder is None or not messages:
        return None
    template = Catalog(project="arbitre", msgid_bugs_address="")
    for msgid in messages:
        template.add(msgid)
    po = module_po(folder, lang)
    if po.is_file():
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
    else:
        catalog = Catalog(
            locale=lang,
            project="arbitre",
            msgid_bugs_address="",
            fuzzy=False,
            header_comment=(
                f"# {lang} words of the {folder.name} rule module (the message ids are the English words).\n"
                "# Refresh with scripts/update-catalogs; see docs/translations.md."
            ),
        )
        po.parent.mkdir(parents=True, exist_ok=True)
    created = catalog.creation_date
    catalog.update(template, no_fuzzy_matching=True)
    catalog.creation_date = created  # unchanged words leave the file unchanged
    with po.open("wb") as f:
        write_po(f, catalog, width=0, ignore_obsolete=True, omit_header=False, sort_output=True, no_location=True)
    return po


def main(argv: list[str]) -> int:
    """Update the catalogs of every registered module inside ``argv[0]`` (default: this package's folder)."""
    root = Path(argv[0]).resolve() if argv else Path(__file__).resolve().parent.parent
    for module in RULE_MODULES:
        folder = module_folder(module.factory_at)
        if folder is None or root not in folder.parents:
            continue
        for lang in catalog_languages():
            update_module_catalog(module, lang)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
