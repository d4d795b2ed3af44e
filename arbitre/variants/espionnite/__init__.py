"""Espionnite: a spy and a counter-spy per power, a private reveal at the lock, and a reaction step.

Rules as the judge applies them: ``docs/variants/espionnite.md``.  Modules:

* :mod:`~arbitre.variants.espionnite.orders` — the ``SPY`` and ``COUNTERSPY`` orders and their grammar;
* :mod:`~arbitre.variants.espionnite.validation` — which espionage orders are allowed;
* :mod:`~arbitre.variants.espionnite.espionage` — which spies succeed and what they learn;
* :mod:`~arbitre.variants.espionnite.reports` — the private reports, as events with an audience;
* :mod:`~arbitre.variants.espionnite.variant` — the rule module's hooks.

The reaction step itself is the judge's (:mod:`arbitre.judge.steps`): Espionnite
only asks for it.
"""

from arbitre.variants.espionnite.espionage import Catch, Espionage, SpyResult, resolve_espionage
from arbitre.variants.espionnite.orders import CounterSpy, Spy, parse_espionage
from arbitre.variants.espionnite.reports import SPY_CAUGHT, SPY_FAILED, SPY_SUCCEEDED, espionage_events
from arbitre.variants.espionnite.variant import CATCH_NOTICE, Espionnite, make_espionnite
from arbitre.variants.espionnite.wording import ORDER_MESSAGES

__all__ = [
    "CATCH_NOTICE",
    "ORDER_MESSAGES",
    "SPY_CAUGHT",
    "SPY_FAILED",
    "SPY_SUCCEEDED",
    "Catch",
    "CounterSpy",
    "Espionage",
    "Espionnite",
    "Spy",
    "SpyResult",
    "espionage_events",
    "make_espionnite",
    "parse_espionage",
    "resolve_espionage",
]
