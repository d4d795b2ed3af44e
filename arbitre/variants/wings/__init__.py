"""Wings: a unit kind that moves like an army and may also fly across one sea province.

One folder and one entry in :mod:`arbitre.variants.registry` (written by
following ``docs/architecture.md``, "Adding a rule module"): the movement table
of the letter ``W`` (``transform_map``), its words (``extend_syntax``) and its
:class:`~arbitre.rules.kinds.UnitKind` with its drawing as data
(``unit_kinds``).  A wing is built like any unit (``W PAR B``) in a land or
coastal build site; its rule cases are ``cases.json`` here.
"""

from arbitre.variants.wings.variant import Wings, make_wings

__all__ = ["Wings", "make_wings"]
