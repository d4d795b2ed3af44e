"""Rule modules: the registry list (:mod:`~arbitre.variants.registry`) and :func:`make_rules`.

Each rule module lives in its own package here (``colonial``, ``submarines``,
``espionnite``…) and is known to the judge only through the list in
:mod:`arbitre.variants.registry`; no module registers itself on import.
"""

from arbitre.variants.combine import InapplicableModuleError, UnknownVariantError, make_rules
from arbitre.variants.registry import MAP_VARIANTS, MODULES, REGISTRY, RULE_MODULES, ModuleOption, RuleModule

__all__ = [
    "MAP_VARIANTS",
    "MODULES",
    "REGISTRY",
    "RULE_MODULES",
    "InapplicableModuleError",
    "ModuleOption",
    "RuleModule",
    "UnknownVariantError",
    "make_rules",
]
