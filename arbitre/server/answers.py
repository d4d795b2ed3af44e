"""Typed answers of the game services: what a route returns is a value with named fields, not a mapping.

FastAPI writes each as JSON in the order of its fields (the same bytes as the mappings they replace)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RejectedOrder:
    """One submitted line the engine refused (kept: it will fail), in the reader's words."""

    order: str
    outcome: str
    reason: str | None
    message: str | None


@dataclass(frozen=True)
class SubmitAnswer:
    """The answer to a player's orders and/or ready switch: the refused lines, whether a step was processed,
    the step the game now stands at and what the power still has to do (``None`` once processed)."""

    rejected: list[RejectedOrder]
    processed: bool
    phase: str
    step: str
    to_do: dict[str, Any] | None
