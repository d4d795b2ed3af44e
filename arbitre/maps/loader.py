"""Load :class:`~arbitre.maps.model.GameMap` objects from the package's data files."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from arbitre.maps.model import GameMap, PowerInfo, Province


class UnknownMapError(ValueError):
    """Raised when a map name has no data file in the package."""


def available_maps() -> list[str]:
    """Names of the maps shipped with the package."""
    data = resources.files("arbitre.maps") / "data"
    return sorted(p.name[:-5] for p in data.iterdir() if p.name.endswith(".json"))


def map_from_dict(raw: dict[str, Any]) -> GameMap:
    """Build a map from the JSON structure of a map data file."""
    provinces = {
        abbr: Province(
            abbr=abbr,
            name=p["name"],
            name_fr=p.get("name_fr", p["name"]),
            terrain=p["type"],
            supply_center=bool(p["supply_center"]),
            coasts=tuple(p.get("coasts", ())),
            aliases=tuple(p.get("aliases", ())),
        )
        for abbr, p in raw["provinces"].items()
    }
    powers = {
        power: PowerInfo(
            name=power,
            display=p.get("name", power.title()),
            display_fr=p.get("name_fr", p.get("name", power.title())),
            adjective=p.get("adjective", power.title()),
            homes=tuple(p["homes"]),
            start_units=tuple(p["units"]),
        )
        for power, p in raw["powers"].items()
    }
    coast_names = {loc: (c["name"], c.get("name_fr", c["name"])) for loc, c in raw.get("coasts", {}).items()}
    adjacency = {
        kind: {place: frozenset(ns) for place, ns in table.items()} for kind, table in raw["adjacency"].items()
    }
    return GameMap(
        name=raw["name"],
        title=raw.get("title", raw["name"]),
        source=raw.get("source", ""),
        first_phase=raw["first_phase"],
        victory_centers=int(raw["victory_centers"]),
        powers=powers,
        provinces=provinces,
        coast_names=coast_names,
        adjacency=adjacency,
        extra=raw.get("extra", {}),
    )


@cache
def load_map(name: str = "standard") -> GameMap:
    """Load a shipped map by name (``"standard"``, ``"colonial"``); cached."""
    if name not in available_maps():
        raise UnknownMapError(f"unknown map {name!r}; known maps: {', '.join(available_maps())}")
    text = (resources.files("arbitre.maps") / "data" / f"{name}.json").read_text(encoding="utf-8")
    return map_from_dict(json.loads(text))
