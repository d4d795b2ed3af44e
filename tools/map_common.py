"""Pieces shared by the map converters (tools/build_*_map.py): coasts and powers in our format."""

from __future__ import annotations

from typing import Any

COAST_FR = {"NC": "côte nord", "SC": "côte sud", "EC": "côte est", "WC": "côte ouest"}
"""French words of the coast suffixes."""


def coast_entries(src: dict[str, Any], french: dict[str, str]) -> dict[str, dict[str, str]]:
    """``XXX/YC`` → English and French names, from a shared map file's ``coast_names``."""
    coasts = {}
    for loc, name in sorted(src["coast_names"].items()):
        prov, coast = loc.split("/")
        coasts[loc] = {"name": name, "name_fr": f"{french[prov]} ({COAST_FR[coast]})"}
    return coasts


def power_entries(src: dict[str, Any], names: dict[str, tuple[str, str, str]]) -> dict[str, dict[str, Any]]:
    """Each power's names, homes and starting units, from a shared map file's ``powers``."""
    powers = {}
    for power, info in sorted(src["powers"].items()):
        name, name_fr, adjective = names[power]
        powers[power] = {
            "name": name,
            "name_fr": name_fr,
            "adjective": adjective,
            "homes": info["home_centers"],
            "units": [f"{u['type']} {u['location']}" for u in info["starting_units"]],
        }
    return powers
