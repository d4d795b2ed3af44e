"""Words at the edge: every sentence a person reads comes from the gettext catalogs through here.

The rules core never writes prose: events carry a kind and data
(:mod:`arbitre.rules.events`).  The command line, the pages, the e-mails, the
map legend and the JSON interface's ``en``/``fr`` strings ask this package
for words in a language::

    from arbitre.words import translator
    _ = translator("fr")
    _.gettext("Orders")                      # "Ordres"
    _.ngettext("{n} unit", "{n} units", 3)   # the plural form, by the language's rule

Message ids are the English words (so English needs no catalog and is the
fallback of every missing translation).  Catalogs: :mod:`arbitre.words.catalogs`.
"""

from __future__ import annotations

from arbitre.words.translate import LANGUAGES, N_, Translator, translator

__all__ = ["LANGUAGES", "N_", "Translator", "translator"]
