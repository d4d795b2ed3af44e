"""The words of events, at the edge: each event kind's wording, in the reader's language.

Events carry a kind and data (:mod:`arbitre.rules.events`); each rule module
names a wording function per kind of its events (``event_wordings``, the
disclosure facet), whose message ids are extracted into the project's
catalogs.  Here a :class:`~arbitre.rules.events.Speech` is made of the
reader's catalog (:func:`arbitre.words.translator`) and the map's power
names, and the wording is called with the data of the line the viewer may
read, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arbitre.maps import GameMap
from arbitre.rules import RuleSet
from arbitre.rules.events import Wording
from arbitre.rules.facets import EventWords
from arbitre.views import ReportLine
from arbitre.words.translate import LANGUAGES, Translator, translator


@dataclass(frozen=True)
class MapSpeech:
    """A :class:`~arbitre.rules.events.Speech`: a translator, and the map's power names in its language."""

    words: Translator
    game_map: GameMap

    def gettext(self, message: str) -> str:
        """``message`` in the reader's language."""
        return self.words.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural message for ``n`` in the reader's language."""
        return self.words.ngettext(singular, plural, n)

    def power(self, power: str) -> str:
        """The name of ``power`` as the map gives it in the reader's language (its id if unknown)."""
        info = self.game_map.powers.get(power)
        if info is None:
            return power
        return info.display_fr if self.words.lang == "fr" else info.display


def wordings(rules: RuleSet) -> dict[str, Wording]:
    """The wording of every event kind the rule modules in play make, by kind."""
    out: dict[str, Wording] = {}
    for v in rules.implementing(EventWords):
        out.update(v.event_wordings())
    return out


def event_text(rules: RuleSet, kind: str, data: Mapping[str, object], lang: str) -> str:
    """The words of an event of ``kind`` with ``data``, in ``lang`` (the kind itself when no module words it)."""
    wording = wordings(rules).get(kind)
    if wording is None:
        return kind
    return wording(data, MapSpeech(translator(lang), rules.game_map))


def report_line_text(rules: RuleSet, line: ReportLine, lang: str) -> str:
    """The words of one report line of a view, in ``lang``."""
    return event_text(rules, line.key, line.data, lang)


def report_words(rules: RuleSet, line: ReportLine) -> dict[str, str]:
    """The words of one report line in every language, by language code (``{"en": …, "fr": …}``)."""
    return {lang: report_line_text(rules, line, lang) for lang in LANGUAGES}
