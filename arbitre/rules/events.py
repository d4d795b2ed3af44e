"""Events: facts produced by a phase, as data, each naming its audience when it is created.

An :class:`Event` is what a rule module discloses (a submarine surfacing, a
torpedo hit, a sonar contact…): a ``kind``, an ``audience`` and ``data``, and
no words.  Its ``audience`` is fixed when the event is made: a set of power
ids, or :data:`EVERYONE` for a public fact.  The game master always reads
every event; an observer reads only public ones.  Views (:mod:`arbitre.views`)
let an event through to a viewer with :func:`can_see` and nothing else.

Words come at the edge (:mod:`arbitre.words.events`): each rule module names,
in its disclosure facet (``event_wordings``), a :data:`Wording` per event
kind, a function of the event's data and a :class:`Speech` (the reader's
catalog).  So the words a viewer reads are made only from data it may see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

MASTER = "master"
"""The viewer id of the game master, who reads everything."""
OBSERVER = "observer"
"""The viewer id of an observer, who reads what is public."""
PUBLIC = "*"
"""The member of an audience that stands for every player and every observer."""

Audience = frozenset[str]
"""Who may read a fact: power ids, or :data:`EVERYONE`; the empty audience is the game master's alone."""
EVERYONE: Audience = frozenset({PUBLIC})
"""The audience of a public fact."""
NOBODY: Audience = frozenset()
"""The audience of a fact only the game master reads."""


def only(*powers: str) -> Audience:
    """The audience made of ``powers`` (duplicates and order do not matter)."""
    return frozenset(powers)


def can_see(audience: Audience, viewer: str) -> bool:
    """May ``viewer`` (a power, ``observer`` or ``master``) read a fact told to ``audience``?"""
    return viewer == MASTER or PUBLIC in audience or (viewer != OBSERVER and viewer in audience)


def narrowest(audiences: Iterable[Audience]) -> Audience:
    """The audience allowed by every one of ``audiences`` (used when several rule modules have a say)."""
    out: Audience = EVERYONE
    for aud in audiences:
        if PUBLIC in aud:
            continue
        out = aud if PUBLIC in out else out & aud
    return out


@runtime_checkable
class EventLike(Protocol):
    """What views need of an event: its kind, its audience and its data."""

    @property
    def kind(self) -> str:
        """A dotted code such as ``submarines.torpedo_hit``."""

    @property
    def audience(self) -> frozenset[str]:
        """Who is told (see :data:`EVERYONE`); the game master is always told."""

    @property
    def data(self) -> Mapping[str, object]:
        """The fact in machine form (places, orders, power ids); its words are made from it alone."""


@dataclass(frozen=True, slots=True)
class Event:
    """One fact of a phase, told to ``audience`` only.

    ``data`` holds the fact in machine form (places, orders, power ids, plain
    JSON values); whoever is told the fact may read all of it, and its words
    (:data:`Wording`) are made from it alone.
    """

    kind: str
    audience: Audience
    data: Mapping[str, object] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        """True when every player and observer is told."""
        return PUBLIC in self.audience


class Speech(Protocol):
    """The reader's language, as a :data:`Wording` uses it (made at the edge by :mod:`arbitre.words`)."""

    def gettext(self, message: str) -> str:
        """``message`` (English, the message id) in the reader's language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural message for ``n`` in the reader's language."""
        ...

    def power(self, power: str) -> str:
        """The name of ``power`` (a power id) in the reader's language."""
        ...


Wording = Callable[[Mapping[str, object], Speech], str]
"""The words of one event kind: a function of the event's data and the reader's :class:`Speech`."""
