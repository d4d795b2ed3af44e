"""Rules: the rule-set a game carries, named options, order legality and legal-order lists."""

from arbitre.rules.legal_orders import legal_orders
from arbitre.rules.legality import army_can_be_convoyed, clear_caches, convoy_routes, unit_can_reach
from arbitre.rules.options import (
    OPTION_CHOICES,
    OPTION_ENUMS,
    AdjacentConvoy,
    CivilDisorder,
    ConvoyParadox,
    MissingCoast,
    MultipleOrders,
    MultiRouteConvoy,
    RetreatToConvoyOrigin,
    RuleOptions,
    SupportCoast,
    TooManyBuilds,
    WrongUnitType,
)
from arbitre.rules.ruleset import RuleSet
from arbitre.rules.variant import Variant

__all__ = [
    "OPTION_CHOICES",
    "OPTION_ENUMS",
    "AdjacentConvoy",
    "CivilDisorder",
    "ConvoyParadox",
    "MissingCoast",
    "MultiRouteConvoy",
    "MultipleOrders",
    "RetreatToConvoyOrigin",
    "RuleOptions",
    "RuleSet",
    "SupportCoast",
    "TooManyBuilds",
    "Variant",
    "WrongUnitType",
    "army_can_be_convoyed",
    "clear_caches",
    "convoy_routes",
    "legal_orders",
    "unit_can_reach",
]
