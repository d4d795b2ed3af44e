"""Order results worded for people: "bounced with A MUN", "support cut by A BOH", "dislodged, retreats: …".

One place, keyed by the engine's outcome and reason codes.  Every sentence is a
message id (English) with ``{named}`` fields, ready for the gettext catalogs:
the caller passes its translator ``t`` and the fields are filled in after
translation.  Only the reader's own view is read, so a result never names a
unit the reader may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from arbitre.variants.registry import registered_order_kinds
from arbitre.words import N_

Translate = Callable[[str], str]

OUTCOMES: dict[str, str] = {
    "succeeds": N_("succeeds"),
    "fails": N_("fails"),
    "illegal": N_("not a legal order"),
    "invalid": N_("not understood"),
    "void": N_("void"),
}
"""Outcome code → message id, when no reason says more."""

REASONS: dict[str, str] = {
    "bounced": N_("bounced"),
    "bounced_with": N_("bounced with {units}"),
    "cut": N_("support cut"),
    "cut_by": N_("support cut by {units}"),
    "dislodged": N_("dislodged"),
    "no_order": N_("no order given: holds"),
    "disrupted": N_("convoy disrupted"),
    "no_convoy": N_("no convoy"),
    "void": N_("void: the supported or convoyed unit did something else"),
    "civil_disorder": N_("civil disorder"),
    "duplicate": N_("a second order for the same unit"),
    "no_build_left": N_("no build left"),
    "too_many_builds": N_("more builds than owed"),
    "occupied": N_("the place is occupied"),
    "wrong_phase": N_("not an order of this phase"),
    "wrong_coast": N_("wrong coast"),
    "build_coast_needed": N_("name the coast to build on"),
    "no_disband_owed": N_("no disband owed"),
}
"""Reason code (and its variants with names) → message id; unknown codes fall back to the outcome's words."""

DISLODGED = N_("dislodged by {unit}")
DISLODGED_ANON = N_("dislodged")
RETREATS = N_("retreats: {places}")
NO_RETREAT = N_("no retreat: disbanded")


@cache
def _moving() -> frozenset[str]:
    """The names of the order kinds that take a unit somewhere, from each kind's declared effect."""
    return frozenset(name for name, kind in registered_order_kinds().items() if kind.effect.moves)


def _unit(text: str) -> str:
    """``A MUN - BUR`` → ``A MUN`` (the unit an order is given to)."""
    return " ".join(text.split()[:2])


def _province(place: str) -> str:
    return place.split("/")[0]


def _say(t: Translate, msgid: str, **fields: str) -> str:
    return t(msgid).format(**fields)


def _others_into(view: Mapping[str, Any], order: Mapping[str, Any], province: str, holding: bool = True) -> list[str]:
    """The units the reader sees moving into ``province`` (other than ``order``), and (``holding``) staying there."""
    out = []
    for o in view.get("orders", ()):
        if o is order or not o.get("places"):
            continue
        places: Sequence[str] = o["places"]
        if (o.get("kind") in _moving() and len(places) >= 2 and _province(places[-1]) == province) or (
            holding
            and _province(places[0]) == province
            and (o.get("kind") not in _moving() or o.get("outcome") not in (None, "succeeds"))
        ):
            out.append(_unit(o["text"]))
    return out


def result_text(
    order: Mapping[str, Any], view: Mapping[str, Any], t: Translate, after: Mapping[str, Any] | None = None
) -> str:
    """The result of ``order`` (a view's order, JSON form) in words, from what ``view`` shows; "" if unknown.

    ``after`` is the same reader's view of the next phase: where a dislodged unit may retreat.
    """
    outcome, reason = order.get("outcome"), order.get("reason")
    if outcome is None:
        return ""
    places: Sequence[str] = order.get("places") or ()
    words = ""
    if reason == "bounced" and len(places) >= 2:
        others = _others_into(view, order, _province(places[-1]))
        words = _say(t, REASONS["bounced_with"], units=", ".join(others)) if others else t(REASONS["bounced"])
    elif reason == "cut" and places:
        others = _others_into(view, order, _province(places[0]), holding=False)
        words = _say(t, REASONS["cut_by"], units=", ".join(others)) if others else t(REASONS["cut"])
    elif reason == "dislodged" and places:
        words = dislodged_text(view, after, places[0], t)
    elif reason in REASONS:
        words = t(REASONS[reason])
    elif outcome in OUTCOMES:
        words = t(OUTCOMES[outcome])
    else:
        words = outcome
    if outcome == "succeeds" and reason is None:
        words = t(OUTCOMES["succeeds"])
    return words


def dislodged_text(view: Mapping[str, Any], after: Mapping[str, Any] | None, place: str, t: Translate) -> str:
    """ "dislodged by A BOH, retreats: TYR, GAL": the move that took ``place``, and (from ``after``) the retreats."""
    province = _province(place)
    attacker = next(
        (
            _unit(o["text"])
            for o in view.get("orders", ())
            if o.get("kind") in _moving()
            and o.get("outcome") == "succeeds"
            and len(o.get("places") or ()) >= 2
            and _province(o["places"][-1]) == province
        ),
        None,
    )
    head = _say(t, DISLODGED, unit=attacker) if attacker else t(DISLODGED_ANON)
    for d in (after or {}).get("dislodged", ()):
        if _province(d["unit"]["place"]) != province or d.get("retreats") is None:
            continue
        retreats = d["retreats"]
        tail = _say(t, RETREATS, places=", ".join(retreats)) if retreats else t(NO_RETREAT)
        return f"{head}, {tail}"
    return head


def results(view: Mapping[str, Any], t: Translate, after: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every order of ``view`` with its result in words (``words``), in the view's order."""
    return [{**o, "words": result_text(o, view, t, after)} for o in view.get("orders", ())]


MSGIDS: tuple[str, ...] = (*OUTCOMES.values(), *REASONS.values(), DISLODGED, DISLODGED_ANON, RETREATS, NO_RETREAT)
"""Every message id of this module (for the catalogs and their completeness test)."""
