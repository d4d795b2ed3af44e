"""Even years: the winter adjustment phase is played only in even years (1902, 1904…).

One folder and one entry in :mod:`arbitre.variants.registry` (written by
following ``docs/architecture.md``, "Adding a rule module"); its rule cases are
``cases.json`` here.  Centres still change hands every autumn; builds and
disbands wait for the next even winter.
"""

from arbitre.variants.even_years.variant import EvenYears, make_even_years

__all__ = ["EvenYears", "make_even_years"]
