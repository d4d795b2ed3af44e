"""Submarines: a hidden layer under every sea, torpedoes, and reports that leak nothing.

Rules as the judge applies them: ``docs/variants/submarines.md`` (our reading of
the French seed; the decisions are in :mod:`~arbitre.variants.submarines.decisions`).
It combines with any map.  Modules, one job each:

* :mod:`~arbitre.variants.submarines.layers` — the depth place ``X-1`` under every sea, the submarine's adjacency;
* :mod:`~arbitre.variants.submarines.setup` — the starting choice of submarines (game setting ``start_submarines``);
* :mod:`~arbitre.variants.submarines.orders` — unit letters ``SM``/``S``/``U``, the torpedo orders and their grammar;
* :mod:`~arbitre.variants.submarines.validation` — which orders are allowed, judged on what the power sees;
* :mod:`~arbitre.variants.submarines.torpedoes` — torpedoes, after the ordinary moves;
* :mod:`~arbitre.variants.submarines.knowledge` — what each viewer sees (surface, own units, sonar contacts);
* :mod:`~arbitre.variants.submarines.disclosure` — who learns what: events with their audience, order audiences;
* :mod:`~arbitre.variants.submarines.words` — the English and French wording of every fact;
* :mod:`~arbitre.variants.submarines.state` — the variant state in ``Position.extras``;
* :mod:`~arbitre.variants.submarines.variant` — the rule module's hooks.
"""

from arbitre.variants.submarines.layers import SUB, add_depths, depth_of, is_depth, surface_of, twin
from arbitre.variants.submarines.orders import Torpedo, TorpedoSupport
from arbitre.variants.submarines.setup import START_SUBMARINES, read_start_submarines
from arbitre.variants.submarines.variant import Submarines, make_submarines
from arbitre.variants.submarines.words import ORDER_MESSAGES

__all__ = [
    "ORDER_MESSAGES",
    "START_SUBMARINES",
    "SUB",
    "Submarines",
    "Torpedo",
    "TorpedoSupport",
    "add_depths",
    "depth_of",
    "is_depth",
    "make_submarines",
    "read_start_submarines",
    "surface_of",
    "twin",
]
