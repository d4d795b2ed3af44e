"""Fifteen centres: a shorter game, won with 15 supply centres instead of the map's number.

One folder and one entry in :mod:`arbitre.variants.registry` (written by
following ``docs/architecture.md``, "Adding a rule module"); its rule cases are
``cases.json`` here (the ``winners`` expectation of ``docs/cases.md``).
"""

from arbitre.variants.fifteen_centres.variant import FifteenCentres, make_fifteen_centres

__all__ = ["FifteenCentres", "make_fifteen_centres"]
