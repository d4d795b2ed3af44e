"""Any owned centre: the worked example of ``docs/architecture.md`` ("Adding a rule module").

A power may build in any supply centre it owns and that is empty, not only in
its home centres.  This folder and one entry in :mod:`arbitre.variants.registry`
are all it takes; its rule cases are ``cases/*.txt`` here (the case format of
``docs/cases.md``), run by the suite with every other module's.  Choose it with
``make_rules(..., rules=["any_owned_centre"])``, ``--rules any_owned_centre``
or ``"rules": ["any_owned_centre"]`` in JSON.
"""

from arbitre.variants.any_owned_centre.variant import AnyOwnedCentre, make_any_owned_centre

__all__ = ["AnyOwnedCentre", "make_any_owned_centre"]
