"""Pydantic models of the JSON interface (``arbitre adjudicate``), documented in docs/json-interface.md."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class DislodgedIn(BaseModel):
    """A dislodged unit in a retreat-phase input."""

    model_config = ConfigDict(extra="forbid")
    unit: str = Field(description="The unit, e.g. 'A MUN'.")
    attacker_from: str | None = Field(None, description="Province the dislodging attack came from.")
    retreats: list[str] | None = Field(None, description="Allowed retreat places, as printed in a previous 'next'.")


class AdjudicationRequest(BaseModel):
    """One position with its orders."""

    model_config = ConfigDict(extra="forbid")
    map: str = Field("standard", description="Map name: 'standard' or 'colonial'.")
    rules: list[str] = Field(default_factory=list, description="Rule modules added to the map.")
    options: dict[str, Any] = Field(default_factory=dict, description="Named rule options.")
    phase: str = Field(description="Short phase name: S1901M, F1901R, W1901A.")
    units: dict[str, list[str]] = Field(description="Units by power: {'ENGLAND': ['F LON', 'A LVP']}.")
    dislodged: dict[str, list[DislodgedIn]] = Field(default_factory=dict,
                                                    description="Retreat phase only: dislodged units by power.")
    supply_centers: dict[str, list[str]] | None = Field(
        None, description="Owned centres by power; home centres when left out.")
    orders: dict[str, list[str]] = Field(default_factory=dict, description="Orders by power, one string each.")
    viewer: str = Field("master", description="Whose view to print: a power, 'observer' or 'master'.")
    extras: dict[str, Any] = Field(default_factory=dict, description="Variant state, as printed in 'next.extras'.")


class ResultOut(BaseModel):
    """The outcome of one order."""

    power: str
    order: str
    outcome: str = Field(description="succeeds, fails, illegal or invalid.")
    reason: str | None = None
    message: str | None = None


class DislodgedOut(BaseModel):
    """A dislodged unit in the next position."""

    unit: str
    attacker_from: str | None
    retreats: list[str]


class NextOut(BaseModel):
    """The position after the phase: valid input for the next one."""

    phase: str
    units: dict[str, list[str]]
    dislodged: dict[str, list[DislodgedOut]] = Field(default_factory=dict)
    supply_centers: dict[str, list[str]]


class AdjudicationResponse(BaseModel):
    """One outcome object."""

    phase: str
    results: list[ResultOut]
    next: NextOut


class ErrorOut(BaseModel):
    """Why a position could not be read."""

    where: str
    message: str


class ErrorResponse(BaseModel):
    """Printed instead of an outcome when the input is wrong."""

    error: ErrorOut
