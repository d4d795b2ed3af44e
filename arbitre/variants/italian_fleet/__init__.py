"""Italian fleet: on the standard map Italy starts with F NAP, A ROM, F VEN and owns Tunis from the start.

One folder and one entry in :mod:`arbitre.variants.registry` (written by
following ``docs/architecture.md``, "Adding a rule module"); its rule cases are
``cases.json`` here.  The registry entry names the one map it applies to: on
another map the module is refused.
"""

from arbitre.variants.italian_fleet.variant import ItalianFleet, make_italian_fleet

__all__ = ["ItalianFleet", "make_italian_fleet"]
