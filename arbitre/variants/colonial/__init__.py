"""Colonial Diplomacy: its map's special rules, in two rule sets chosen per game.

The map itself is data (``arbitre/maps/data/colonial.json``, built by
``tools/build_colonial_map.py``); this package brings the rules the map
always carries (registered for the map ``colonial``):

* :mod:`~arbitre.variants.colonial.rulesets` — the two rule sets, ``vdiplomacy``
  (default) and ``avalon-hill``, and every difference between them;
* :mod:`~arbitre.variants.colonial.orders` — train moves, Suez permissions, their notations;
* :mod:`~arbitre.variants.colonial.tsr` — the Trans-Siberian Railroad;
* :mod:`~arbitre.variants.colonial.suez` — the Suez Canal;
* :mod:`~arbitre.variants.colonial.hong_kong` — Hong Kong's centre, which China gets no credit from;
* :mod:`~arbitre.variants.colonial.board` — where those places are, read from the map's facts;
* :mod:`~arbitre.variants.colonial.variant` — the rule module's hooks.

Choose the rule set with ``make_rules("colonial", options={"colonial": "avalon-hill"})``.
"""

from arbitre.variants.colonial.board import ColonialBoard, colonial_board
from arbitre.variants.colonial.orders import SuezPermission, TrainMove, parse_colonial
from arbitre.variants.colonial.rulesets import (
    AVALON_HILL,
    LINE_CENTERS_OPTION,
    RULESET_OPTION,
    RULESETS,
    VDIPLOMACY,
    ColonialRules,
    rules_from_options,
)
from arbitre.variants.colonial.variant import Colonial, make_colonial

__all__ = [
    "AVALON_HILL",
    "LINE_CENTERS_OPTION",
    "RULESETS",
    "RULESET_OPTION",
    "VDIPLOMACY",
    "Colonial",
    "ColonialBoard",
    "ColonialRules",
    "SuezPermission",
    "TrainMove",
    "colonial_board",
    "make_colonial",
    "parse_colonial",
    "rules_from_options",
]
