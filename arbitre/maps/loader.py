"""Load :class:`~arbitre.maps.model.GameMap` objects from the package's data files."""

from __future__ import annotations

import json
import pkgutil
import re
from functools import cache
from typing import Any

from arbitre.maps.model import GameMap, PowerInfo, Province

_MAP_NAME = re.compile(r"[a-z0-9_]+")
"""What a shipped map's name may be (its data file is ``data/<name>.json``)."""


class UnknownMapError(ValueError):
    """Raised when a map name has no data file in the package."""


def available_maps() -> list[str]:
    """Names of the maps shipped with the package."""
    from importlib import resources  # its readers import zipfile, tempfile…: only when the maps are listed

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
    # One read through the package's loader: importlib.resources' readers (zipfile, tempfile…) are
    # imported only to list the maps when a name is unknown, not on every start-up.
    raw = None
    if _MAP_NAME.fullmatch(name):
        try:
            raw = pkgutil.get_data("arbitre.maps", f"data/{name}.json")
        except OSError:
            raw = None
    if raw is None:
        raise UnknownMapError(f"unknown map {name!r}; known maps: {', '.join(available_maps())}")
    return map_from_dict(json.loads(raw.decode("utf-8")))
