"""The private reports of the lock, as :class:`~arbitre.rules.events.Event` values naming their audience.

* A successful spy's power learns the spied unit's order as locked, and the
  orders its power gave with that unit (``A EGY H; SC F MED - RED``).  The
  unit's power is named only when the unit was in sight of the spying power;
  a submerged submarine's order is told without its nationality.
* A failed spy's power learns only that it learnt nothing (the same words
  whether the target was counter-spied or, for an unseen place, empty).
* With the ``espionnite_catch_notice`` setting, a counter-spy's power learns
  how many spies it caught on which unit, never whose they were.
"""

from __future__ import annotations

from arbitre.rules import RuleSet
from arbitre.rules.events import Event, only
from arbitre.state import Position
from arbitre.variants.espionnite.espionage import Espionage, SpyResult
from arbitre.variants.espionnite.validation import is_hidden_from

SPY_SUCCEEDED = "espionnite.spy_succeeded"
"""Event kind: a spy learnt the order of the unit it watched."""
SPY_FAILED = "espionnite.spy_failed"
"""Event kind: a spy learnt nothing."""
SPY_CAUGHT = "espionnite.spy_caught"
"""Event kind: a counter-spy caught one or more spies (only with the catch-notice setting)."""


def _success(rules: RuleSet, position: Position, result: SpyResult) -> Event:
    assert result.unit is not None and result.order is not None
    order = result.order.format()
    also = [o.format() for o in result.given_with]  # given with the unit (a Suez permission in Egypt)
    en_is, fr_is = "its order is", "son ordre est"
    if also:
        order = "; ".join([order, *also])
        en_is, fr_is = "its orders are", "ses ordres sont"
    place = result.unit.place
    if is_hidden_from(rules, position, rules.game_map.province_of[place], result.power):
        owner = None
        en = f"Your spy watched the unit in {place}: {en_is} {order}."
        fr = f"Votre espion a observé l'unité en {place} : {fr_is} {order}."
    else:
        owner = result.unit.power
        info = rules.game_map.powers[owner]
        en = f"Your spy watched {info.display}'s {result.unit}: {en_is} {order}."
        fr = f"Votre espion a observé l'unité {result.unit} ({info.display_fr}) : {fr_is} {order}."
    data: dict[str, object] = {"target": place, "order": result.order.format(), "given_with": also,
                               "power": owner}
    return Event(SPY_SUCCEEDED, only(result.power), en, fr, data)


def _failure(result: SpyResult) -> Event:
    return Event(
        SPY_FAILED, only(result.power),
        f"Your spy (SPY {result.target}) learnt nothing.",
        f"Votre espion (ESPION {result.target}) n'a rien appris.",
        {"target": result.target},
    )


def espionage_events(rules: RuleSet, position: Position, espionage: Espionage,
                     catch_notice: bool = False) -> tuple[Event, ...]:
    """The events of the lock: one per spy, and one per catch when ``catch_notice`` is on."""
    out = [_success(rules, position, r) if r.succeeded else _failure(r) for r in espionage.results]
    if catch_notice:
        for c in espionage.catches:
            en_n = "a spy" if c.spies == 1 else f"{c.spies} spies"
            fr_n = "un espion" if c.spies == 1 else f"{c.spies} espions"
            out.append(Event(
                SPY_CAUGHT, only(c.power),
                f"Your counter-spy guarding {c.place} caught {en_n}.",
                f"Votre contre-espion qui gardait {c.place} a arrêté {fr_n}.",
                {"place": c.place, "spies": c.spies},
            ))
    return tuple(out)
