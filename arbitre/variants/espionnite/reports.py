"""The private reports of the lock, as :class:`~arbitre.rules.events.Event` data naming their audience.

* A successful spy's power learns the spied unit's order as locked, and the
  orders its power gave with that unit (``A EGY H; SC F MED - RED``).  The
  unit's power is in the data only when the unit was in sight of the spying
  power; a submerged submarine's order is told without its nationality.
* A failed spy's power learns only that it learnt nothing (the same data
  whether the target was counter-spied or, for an unseen place, empty).
* With the ``espionnite_catch_notice`` setting, a counter-spy's power learns
  how many spies it caught on which unit, never whose they were.

Their words: :mod:`~arbitre.variants.espionnite.wording`.
"""

from __future__ import annotations

from arbitre.rules import RuleSet
from arbitre.rules.events import Event, only
from arbitre.state import Position
from arbitre.variants.espionnite.espionage import Espionage, SpyResult
from arbitre.variants.espionnite.validation import is_hidden_from
from arbitre.variants.espionnite.wording import SPY_CAUGHT, SPY_FAILED, SPY_SUCCEEDED

__all__ = ["SPY_CAUGHT", "SPY_FAILED", "SPY_SUCCEEDED", "espionage_events"]


def _success(rules: RuleSet, position: Position, result: SpyResult) -> Event:
    assert result.unit is not None and result.order is not None
    place = result.unit.place
    given = [result.order.format(), *(o.format() for o in result.given_with)]  # a Suez permission in Egypt
    data: dict[str, object] = {"target": place, "order": "; ".join(given), "orders": len(given), "power": None}
    if not is_hidden_from(rules, position, rules.game_map.province_of[place], result.power):
        data.update(power=result.unit.power, unit=str(result.unit))
    return Event(SPY_SUCCEEDED, only(result.power), data)


def _failure(result: SpyResult) -> Event:
    return Event(SPY_FAILED, only(result.power), {"target": result.target})


def espionage_events(
    rules: RuleSet, position: Position, espionage: Espionage, catch_notice: bool = False
) -> tuple[Event, ...]:
    """The events of the lock: one per spy, and one per catch when ``catch_notice`` is on."""
    out = [_success(rules, position, r) if r.succeeded else _failure(r) for r in espionage.results]
    if catch_notice:
        out.extend(Event(SPY_CAUGHT, only(c.power), {"place": c.place, "spies": c.spies}) for c in espionage.catches)
    return tuple(out)
