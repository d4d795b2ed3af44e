"""Who may know what: the visibility hooks of every rule module in play, combined.

Views (:mod:`arbitre.views.build`) and order validation ask these functions,
never a variant directly, so that several rule modules combine: a fact is
disclosed to a viewer only when every module allows it.  With no rule module
everything on the board and every adjudicated order is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from arbitre.rules.events import EVERYONE, Audience, narrowest
from arbitre.rules.facets import Disclosure
from arbitre.state import Dislodged, Position, Unit

if TYPE_CHECKING:
    from arbitre.rules.ruleset import RuleSet
    from arbitre.rules.steps import ResultLike


def known_position(rules: RuleSet, position: Position, power: str) -> Position:
    """The position as ``power`` knows it (hidden units of others left out): what orders are checked on."""
    for v in rules.implementing(Disclosure):
        position = v.known_position(rules, position, power)
    return position


def unit_audience(rules: RuleSet, position: Position, unit: Unit) -> Audience:
    """Who sees ``unit`` standing (or dislodged) in ``position``."""
    if not rules.implementing(Disclosure):
        return EVERYONE
    return narrowest(v.unit_audience(rules, position, unit) for v in rules.implementing(Disclosure))


def order_audience(rules: RuleSet, before: Position, after: Position, result: ResultLike) -> tuple[Audience, Audience]:
    """Who reads an adjudicated order, and who reads its outcome (never more than the order's readers)."""
    if not rules.implementing(Disclosure):
        return EVERYONE, EVERYONE
    pairs = [v.order_audience(rules, before, after, result) for v in rules.implementing(Disclosure)]
    text = narrowest(p[0] for p in pairs)
    return text, narrowest([text, *(p[1] for p in pairs)])


def contacts(rules: RuleSet, position: Position, viewer: str) -> list[tuple[str, str]]:
    """Units ``viewer`` knows of without their nationality, as (kind, place), without repeats."""
    out: list[tuple[str, str]] = []
    for v in rules.implementing(Disclosure):
        for contact in v.contacts(rules, position, viewer):
            if contact not in out:
                out.append(contact)
    return out


def dislodged_view(
    rules: RuleSet, position: Position, dislodged: Dislodged, viewer: str
) -> tuple[str | None, tuple[str, ...] | None]:
    """Where the attack came from and where the unit may retreat, as ``viewer`` knows them."""
    for v in rules.implementing(Disclosure):
        seen = v.dislodged_view(rules, position, dislodged, viewer)
        if seen is not None:
            return seen
    return dislodged.attacker_from, dislodged.retreats


def visible_extras(rules: RuleSet, position: Position, viewer: str) -> dict[str, object]:
    """The variant state a player or observer may read (each rule module says which part of its own)."""
    out: dict[str, object] = {}
    for v in rules.implementing(Disclosure):
        part: Mapping[str, object] = v.visible_extras(rules, position, viewer)
        out.update(part)
    return out


def place_is_public(rules: RuleSet, place: str) -> bool:
    """Can everyone see what stands on ``place``?"""
    return all(v.place_is_public(rules, place) for v in rules.implementing(Disclosure))
