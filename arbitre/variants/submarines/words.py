"""The wording of every Submarines event kind: message ids for the project's catalogs, and nothing else.

Each function turns an event's data into words through the reader's
:class:`~arbitre.rules.events.Speech` (the catalogs are read at the edge, by
:mod:`arbitre.words.events`).  Nothing here decides who is told: the events
of :mod:`~arbitre.variants.submarines.disclosure` carry only what their
audience may know (a power is in the data only where the rules disclose it),
and the words are made from that data alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules.events import Speech, Wording

PREFIX = "submarines."
SURFACED = PREFIX + "surfaced"
UNSEEN_BOUNCE = PREFIX + "unseen_bounce"
SONAR = PREFIX + "sonar"
DECISIVE_SUPPORT = PREFIX + "decisive_support"
DOWNWARD_SUPPORT = PREFIX + "downward_support"
DEPTH_SUPPORT = PREFIX + "depth_support"
TORPEDO_HIT = PREFIX + "torpedo_hit"
TORPEDO_MISS = PREFIX + "torpedo_miss"
DEPTH_ATTACK = PREFIX + "depth_attack"
LOST_SUBMARINE = PREFIX + "lost_submarine"

Data = Mapping[str, object]


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is shown."""
    return message


ORDER_MESSAGES = (
    N_("only fleets and submarines fire torpedoes"),
    N_("torpedoes are fired in movement phases only"),
    N_("no torpedo is fired from {place}: torpedoes are fired at sea"),
    N_("{unit} is not at sea: torpedoes are fired at sea, straight up or down"),
    N_("a torpedo goes straight up or down: {unit} can fire only at {place}"),
    N_("a torpedo goes straight up or down: from {place} only at {other}"),
)
"""The refusals the torpedo checks write (validation.py), as message ids: the edge translates them."""


def _s(data: Data, key: str) -> str:
    return str(data.get(key, ""))


def surfaced(data: Data, _: Speech) -> str:
    """A submarine surfaced: it now appears as an ordinary unit of its power."""
    return _.gettext("{power}'s submarine surfaces in {place} ({order}).").format(
        power=_.power(_s(data, "power")), place=_s(data, "place"), order=_s(data, "order")
    )


def unseen_bounce(data: Data, _: Speech) -> str:
    """A surfacing failed against surface units: they bounced an unseen unit."""
    return _.gettext("An unseen submarine tried to surface in {place} and bounced.").format(place=_s(data, "place"))


def sonar(data: Data, _: Speech) -> str:
    """A sonar contact, without nationality."""
    return _.gettext("Sonar contact: a submarine in {place} (nationality unknown).").format(place=_s(data, "place"))


def decisive_support(data: Data, _: Speech) -> str:
    """A support from the depths to the surface that decided a result (no nationality)."""
    return _.gettext("A submarine in {place} gave a decisive support: {order}.").format(
        place=_s(data, "place"), order=_s(data, "order")
    )


def downward_support(data: Data, _: Speech) -> str:
    """A support from the surface into the depths (the supported submarine's nationality is not told)."""
    return _.gettext("Support into the depths by {power}: {order}.").format(
        power=_.power(_s(data, "power")), order=_s(data, "order")
    )


def depth_support(data: Data, _: Speech) -> str:
    """A support between two depth places, told to the owners of both units."""
    return _.gettext("Support in the depths by {power}: {order}.").format(
        power=_.power(_s(data, "power")), order=_s(data, "order")
    )


def torpedo_hit(data: Data, _: Speech) -> str:
    """A hit: names the firing place, never the firing power; the victim's power only when it was in sight."""
    if data.get("power") is None:
        who = _.gettext("a submarine")
    else:
        # TRANSLATORS: a unit of a power, e.g. "Germany's F KIE"
        who = _.gettext("{power}'s {unit}").format(power=_.power(_s(data, "power")), unit=_s(data, "unit"))
    text = _.gettext("A torpedo fired from {firing_place} hit {who} in {target}.").format(
        firing_place=_s(data, "firing_place"), who=who, target=_s(data, "target")
    )
    if data.get("destroyed"):
        text += " " + _.gettext("It had no room to retreat and is destroyed.")
    return text


def torpedo_miss(data: Data, _: Speech) -> str:
    """A miss: the firing unit's power is told only when it fired from the surface."""
    if data.get("power") is None:
        return _.gettext("A torpedo fired from {firing_place} at {target} missed.").format(
            firing_place=_s(data, "firing_place"), target=_s(data, "target")
        )
    return _.gettext("{power}'s {unit} fired a torpedo at {target} and missed.").format(
        power=_.power(_s(data, "power")), unit=_s(data, "unit"), target=_s(data, "target")
    )


def depth_attack(data: Data, _: Speech) -> str:
    """Told to an attacker in the depths: the nationality of the submarine it attacked."""
    return _.gettext("Your {unit} attacked a submarine of {power} in {place}.").format(
        unit=_s(data, "attacker"), power=_.power(_s(data, "power")), place=_s(data, "place")
    )


def lost_submarine(data: Data, _: Speech) -> str:
    """A submerged submarine was lost: who lost it, and nothing else."""
    return _.gettext("{power} lost a submarine.").format(power=_.power(_s(data, "power")))


WORDINGS: dict[str, Wording] = {
    SURFACED: surfaced,
    UNSEEN_BOUNCE: unseen_bounce,
    SONAR: sonar,
    DECISIVE_SUPPORT: decisive_support,
    DOWNWARD_SUPPORT: downward_support,
    DEPTH_SUPPORT: depth_support,
    TORPEDO_HIT: torpedo_hit,
    TORPEDO_MISS: torpedo_miss,
    DEPTH_ATTACK: depth_attack,
    LOST_SUBMARINE: lost_submarine,
}
"""The wording of each Submarines event kind (the variant's ``event_wordings``)."""
