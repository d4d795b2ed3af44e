"""The wording of Espionnite's events: message ids for the project's catalogs, and nothing else.

Each function turns a report's data into words through the reader's
:class:`~arbitre.rules.events.Speech` (catalogs are read at the edge, by
:mod:`arbitre.words.events`).  The data carries the spied unit's power only
when the spying power could see it (:mod:`~arbitre.variants.espionnite.reports`).
"""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules.events import Speech, Wording

SPY_SUCCEEDED = "espionnite.spy_succeeded"
"""Event kind: a spy learnt the order of the unit it watched."""
SPY_FAILED = "espionnite.spy_failed"
"""Event kind: a spy learnt nothing."""
SPY_CAUGHT = "espionnite.spy_caught"
"""Event kind: a counter-spy caught one or more spies (only with the catch-notice setting)."""

Data = Mapping[str, object]


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is shown."""
    return message


STEP_WORDS = (N_("reaction"),)
"""The name of the step Espionnite declares, as the pages show it (translated there)."""

ORDER_MESSAGES = (
    N_("there is no unit in {place} to spy on"),
    N_("the unit in {place} is yours; a spy watches a unit of another power"),
    N_("you have no unit in {place}; a counter-spy guards one of your own units"),
)
"""The refusals Espionnite's order checks write (validation.py), as message ids: the edge translates them."""


def spy_succeeded(data: Data, _: Speech) -> str:
    """A successful spy: the order, and the unit's power only when it is in the data."""
    n = int(str(data.get("orders", 1)))
    if data.get("power") is None:
        return _.ngettext(
            "Your spy watched the unit in {place}: its order is {order}.",
            "Your spy watched the unit in {place}: its orders are {order}.",
            n,
        ).format(place=data.get("target"), order=data.get("order"))
    return _.ngettext(
        "Your spy watched {power}'s {unit}: its order is {order}.",
        "Your spy watched {power}'s {unit}: its orders are {order}.",
        n,
    ).format(power=_.power(str(data["power"])), unit=data.get("unit"), order=data.get("order"))


def spy_failed(data: Data, _: Speech) -> str:
    """A failed spy learnt nothing (the same words whatever the reason)."""
    return _.gettext("Your spy (SPY {target}) learnt nothing.").format(target=data.get("target"))


def spy_caught(data: Data, _: Speech) -> str:
    """A counter-spy's catch: how many spies, never whose."""
    n = int(str(data.get("spies", 1)))
    return _.ngettext(
        "Your counter-spy guarding {place} caught a spy.", "Your counter-spy guarding {place} caught {n} spies.", n
    ).format(place=data.get("place"), n=n)


WORDINGS: dict[str, Wording] = {SPY_SUCCEEDED: spy_succeeded, SPY_FAILED: spy_failed, SPY_CAUGHT: spy_caught}
"""The wording of each Espionnite event kind (the variant's ``event_wordings``)."""
