"""Events: facts produced by a phase, each naming its audience when it is created.

An :class:`Event` is what a rule module discloses (a submarine surfacing, a
torpedo hit, a sonar contact…).  Its ``audience`` is fixed when the event is
made: a set of power ids, or :data:`EVERYONE` for a public fact.  The game
master always reads every event; an observer reads only public ones.  Views
(:mod:`arbitre.views`) let an event through to a viewer with :func:`can_see`
and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    """What views need of an event: its kind, its audience and its words in English and French."""

    @property
    def kind(self) -> str:
        """A dotted code such as ``submarines.torpedo_hit``."""

    @property
    def audience(self) -> frozenset[str]:
        """Who is told (see :data:`EVERYONE`); the game master is always told."""

    @property
    def en(self) -> str:
        """The fact in English."""

    @property
    def fr(self) -> str:
        """The fact in French."""


@dataclass(frozen=True, slots=True)
class Event:
    """One fact of a phase, told to ``audience`` only, worded in English and French.

    ``data`` holds the fact in machine form (places, unit kinds) for programs;
    it never holds more than the words do.
    """

    kind: str
    audience: Audience
    en: str
    fr: str
    data: Mapping[str, object] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        """True when every player and observer is told."""
        return PUBLIC in self.audience
