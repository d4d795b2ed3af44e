"""The steps every registered rule module may add to a phase (for settings made before a game exists)."""

from __future__ import annotations

from arbitre.rules.phase_steps import Step, declared_steps
from arbitre.variants import MAP_VARIANTS, REGISTRY


def registered_steps() -> tuple[Step, ...]:
    """Every step after ``orders`` that a registered rule module declares, each name once (deadlines per step)."""
    return declared_steps(make({}) for make in (*MAP_VARIANTS.values(), *REGISTRY.values()))
