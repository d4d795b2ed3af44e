"""No convoys: a small example rule module in which convoy orders are illegal.

Written as the worked example of ``docs/architecture.md`` ("Adding a rule
module"): this folder and one line in :mod:`arbitre.variants.registry` are
all it takes.  Choose it with ``make_rules(..., rules=["no_convoys"])``,
``--rules no_convoys`` or ``"rules": ["no_convoys"]`` in JSON.
"""

from arbitre.variants.no_convoys.variant import NoConvoys, make_no_convoys

__all__ = ["NoConvoys", "make_no_convoys"]
