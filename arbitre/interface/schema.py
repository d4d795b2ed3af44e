"""Pydantic models of the JSON interface (``arbitre adjudicate``), documented in docs/json-interface.md."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class DislodgedIn(BaseModel):
    """A dislodged unit in a retreat-phase input."""

    model_config = ConfigDict(extra="forbid")
    unit: str = Field(description="The unit, e.g. 'A MUN'.")
    attacker_from: str | None = Field(None, description="Province the dislodging attack came from.")
    retreats: list[str] | None = Field(None, description="Allowed retreat places, as printed in a previous 'next'.")
    by_convoy: bool = Field(
        False,
        description="The attack came by convoy (then the unit may retreat to attacker_from), as 'next' printed it.",
    )


class AdjudicationRequest(BaseModel):
    """One position with its orders."""

    model_config = ConfigDict(extra="forbid")
    map: str = Field("standard", description="Map name, e.g. 'standard' (every map: GET /api/options).")
    rules: list[str] = Field(
        default_factory=list, description="Rule modules added to the map (every module: GET /api/options)."
    )
    options: dict[str, Any] = Field(default_factory=dict, description="Named rule options.")
    phase: str = Field(description="Short phase name: S1901M, F1901R, W1901A.")
    units: dict[str, list[str]] | None = Field(
        None,
        description="Units by power: {'ENGLAND': ['F LON', 'A LVP']}; the rule set's starting units when left out.",
    )
    dislodged: dict[str, list[DislodgedIn]] = Field(
        default_factory=dict, description="Retreat phase only: dislodged units by power."
    )
    supply_centers: dict[str, list[str]] | None = Field(
        None, description="Owned centres by power; home centres when left out."
    )
    orders: dict[str, list[str]] = Field(default_factory=dict, description="Orders by power, one string each.")
    order_sets: dict[str, list[list[str]]] = Field(
        default_factory=dict,
        description="Several order sets of a power, oldest first (DATC 4.D.1, 4.D.2): the options "
        "'order_sets' and 'unordered_order_sets' say which orders count.  A power is given here or in 'orders'.",
    )
    order_sets_latest_known: bool = Field(
        True, description="False when there is no telling which order set came last (DATC 4.D.2)."
    )
    viewer: str = Field("master", description="Whose view to print: a power, 'observer' or 'master'.")
    extras: dict[str, Any] = Field(default_factory=dict, description="Variant state, as printed in 'next.extras'.")
    step: Literal["reveal", "resolve"] | None = Field(
        None,
        description="Rules that lock the orders before adjudicating them: 'reveal' locks the orders and "
        "prints what the lock told each power; 'resolve' adjudicates the locked orders with "
        "each power's one change ('reactions').",
    )
    reactions: dict[str, str] = Field(
        default_factory=dict, description="Step 'resolve': each power's one change, e.g. {'FRANCE': 'A PAR - PIC'}."
    )


class ResultOut(BaseModel):
    """The outcome of one order."""

    power: str
    order: str
    outcome: str | None = Field(
        description="succeeds, fails, illegal or invalid; null when the viewer may read the order but not its result."
    )
    reason: str | None = None
    message: str | None = Field(None, description="Why an order was refused (the viewer's own orders only).")


class DislodgedOut(BaseModel):
    """A dislodged unit in the next position."""

    unit: str
    attacker_from: str | None
    retreats: list[str]
    by_convoy: bool = Field(False, description="Printed (true) only when the attack came by convoy.")


class NextOut(BaseModel):
    """The position after the phase: valid input for the next one."""

    phase: str
    units: dict[str, list[str]]
    dislodged: dict[str, list[DislodgedOut]] = Field(default_factory=dict)
    supply_centers: dict[str, list[str]]
    extras: dict[str, Any] = Field(
        default_factory=dict,
        description="The rule modules' state the viewer may read (units it knows of without their owner…).",
    )


class ReportLineOut(BaseModel):
    """One fact of the phase told to the viewer, in English and French."""

    kind: str = Field(description="A dotted code: the rule module's name, then the event's.")
    en: str
    fr: str
    audience: list[str] | None = Field(None, description="Master's view only: who was told ('*': everyone).")


class AdjudicationResponse(BaseModel):
    """One outcome object: the phase as the viewer may see it."""

    phase: str
    viewer: str | None = Field(None, description="Present when the request named a viewer other than the master.")
    results: list[ResultOut]
    next: NextOut
    report: list[ReportLineOut] = Field(default_factory=list)


class RevealLineOut(BaseModel):
    """One private fact of the lock, in English and French."""

    kind: str = Field(description="The event kind, a dotted code named by its rule module (docs/variants/).")
    en: str
    fr: str


class RevealResponse(BaseModel):
    """The answer to a ``"step": "reveal"`` request: what the lock told each power the viewer may see."""

    phase: str
    step: Literal["reveal"]
    reveals: dict[str, list[RevealLineOut]] = Field(
        description="Power -> its private reports; only the viewer's own for a power viewer, none for an observer."
    )
    rejected: list[ResultOut] = Field(description="The viewer's orders that were refused (all of them for the master).")


class ErrorOut(BaseModel):
    """Why a position could not be read."""

    where: str
    message: str


class ErrorResponse(BaseModel):
    """Printed instead of an outcome when the input is wrong."""

    error: ErrorOut
