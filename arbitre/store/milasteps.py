"""Each audience's MILA timeline after each played phase, stored with the phase's record (``mila_steps``): a MILA
read of any game reads one or two of these rows, never the game's records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arbitre.store.models import MilaStep

Step = tuple[int, int, dict[str, Any]]
"""A stored step: (the record's index, the MILA phases up to it included, the influence data after it)."""


def add_steps(session: Session, game_id: int, played: int, steps: Mapping[str, tuple[int, dict[str, Any]]]) -> None:
    """Store where each audience (``viewer`` → (MILA phases, influence data)) stands after record ``played``."""
    for viewer, (visible, influence) in steps.items():
        session.add(MilaStep(game_id=game_id, viewer=viewer, played=played, visible=visible, influence=influence))


def latest_step(session: Session, game_id: int, viewer: str, before: int) -> Step | None:
    """``viewer``'s stored step of the latest record before record ``before`` (``None``: none is stored)."""
    found = session.execute(
        select(MilaStep.played, MilaStep.visible, MilaStep.influence)
        .where(MilaStep.game_id == game_id, MilaStep.viewer == viewer, MilaStep.played < before)
        .order_by(MilaStep.played.desc())
        .limit(1)
    ).first()
    return None if found is None else (int(found[0]), int(found[1]), dict(found[2]))


def latest_steps(session: Session, game_id: int, before: int) -> dict[str, Step]:
    """Every audience's stored step of record ``before - 1`` (the audiences with none stored are left out)."""
    rows = session.execute(
        select(MilaStep.viewer, MilaStep.played, MilaStep.visible, MilaStep.influence).where(
            MilaStep.game_id == game_id, MilaStep.played == before - 1
        )
    )
    return {str(v): (int(p), int(n), dict(i)) for v, p, n, i in rows}


def first_with(session: Session, game_id: int, viewer: str, visible: int) -> int | None:
    """The first record after which ``viewer`` counts ``visible`` MILA phases: the record of its MILA phase
    ``visible - 1`` (``None``: not stored)."""
    found = session.scalar(
        select(func.min(MilaStep.played)).where(
            MilaStep.game_id == game_id, MilaStep.viewer == viewer, MilaStep.visible == visible
        )
    )
    return None if found is None else int(found)


def steps_of(session: Session, game_id: int, viewer: str) -> list[Step]:
    """Every stored step of ``viewer``, oldest first (tests and checks)."""
    rows = session.execute(
        select(MilaStep.played, MilaStep.visible, MilaStep.influence)
        .where(MilaStep.game_id == game_id, MilaStep.viewer == viewer)
        .order_by(MilaStep.played)
    )
    return [(int(p), int(n), dict(i)) for p, n, i in rows]
