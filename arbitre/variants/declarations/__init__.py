"""Declarations: before the moves of a movement phase, each power may publicly declare one province it means to
enter; everyone reads the declarations when the orders lock, then every power gives its orders again.

One folder and one entry in :mod:`arbitre.variants.registry` (written by
following ``docs/architecture.md``, "Adding a rule module"): a step of its own
(``moves``), an order kind read at the lock (``DECLARE BUR``, drawn as a flag
on the province) and the words of the public event it makes.  Its rule cases
are ``cases.json`` here.
"""

from arbitre.variants.declarations.variant import Declarations, make_declarations

__all__ = ["Declarations", "make_declarations"]
