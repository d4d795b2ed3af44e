"""Phase names as people read them: ``S1901M`` → "Spring 1901, movement", in the reader's language.

Letters and pages both use these; the phase code itself stays in links, forms and
``data-phase`` attributes, where programs read it.
"""

from __future__ import annotations

from collections.abc import Callable

from arbitre.words.translate import N_, Translator, translator

SEASONS = {"S": N_("Spring"), "F": N_("Fall"), "W": N_("Winter")}
"""Season letter of a phase code → its English word (a catalog message)."""
PHASE_KINDS = {"M": N_("movement"), "R": N_("retreats"), "A": N_("adjustments")}
"""Phase-kind letter of a phase code → its English word (a catalog message)."""


def phase_name(phase: str, _: Translator) -> str:
    """``S1901M`` → "Spring 1901, movement" in ``_``'s language (other names as they are)."""
    if len(phase) >= 6 and phase[0] in SEASONS and phase[-1] in PHASE_KINDS and phase[1:-1].isdigit():
        return _(
            "{season} {year}, {kind}",
            season=_.gettext(SEASONS[phase[0]]),
            year=phase[1:-1],
            kind=_.gettext(PHASE_KINDS[phase[-1]]),
        )
    return phase


def phase_words(lang: str) -> dict[str, str]:
    """The words a script needs to name phases in ``lang``: ``format`` (with ``{season}``, ``{year}``,
    ``{kind}``) and one entry per season and kind letter."""
    words = translator(lang)
    out = {"format": words.gettext("{season} {year}, {kind}")}
    out.update({letter: words.gettext(word) for letter, word in (SEASONS | PHASE_KINDS).items()})
    return out


def phase_namer(lang: str) -> Callable[[str | None], str]:
    """``phase_name(code)`` in ``lang`` for templates; ``None`` gives an empty text."""
    words = translator(lang)

    def name(phase: str | None) -> str:
        return phase_name(phase, words) if phase else ""

    return name
