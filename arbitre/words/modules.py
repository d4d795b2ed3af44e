"""The rule modules as people read them: each registered module's title, description, maps and options.

Read from the registry list (:mod:`arbitre.variants.registry`) without
importing any module; the words come from the catalogs.  Shown by
``GET /api/options``, the new-game page and ``arbitre new --help``.
"""

from __future__ import annotations

from arbitre.variants.registry import RULE_MODULES
from arbitre.words.translate import LANGUAGES, translator


def _words(message: str) -> dict[str, str]:
    """``message`` in every language of the site."""
    return {lang: translator(lang).gettext(message) for lang in LANGUAGES}


def modules_catalogue() -> list[dict[str, object]]:
    """Every registered rule module as plain data: name, words (by language), maps (empty: any), options.

    ``for_map`` names the map that always brings the module (it is not chosen per game).
    """
    return [
        {
            "name": m.name,
            "title": _words(m.title),
            "description": _words(m.description),
            "maps": list(m.maps),
            "for_map": m.for_map,
            "options": [{"name": o.name, "description": _words(o.description)} for o in m.options],
        }
        for m in RULE_MODULES
    ]


def modules_help(lang: str = "en") -> str:
    """One line per module chosen per game: ``name: title (maps)``, for ``--help``."""
    _ = translator(lang)
    lines = []
    for m in RULE_MODULES:
        if m.for_map is not None:
            continue
        # Round brackets: the help is shown through rich, whose markup would eat "[maps: …]".
        maps = f" ({_('maps: {maps}', maps=', '.join(m.maps))})" if m.maps else ""
        lines.append(f"{m.name}: {_.gettext(m.title)}{maps}")
    return "; ".join(lines)
