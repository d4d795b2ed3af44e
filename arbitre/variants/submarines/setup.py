"""The starting choice: which starting fleets of each power begin the game as submarines.

A game setting, given when the game is created (decision of the spec: any of
a power's starting fleets; by default none).  Accepted forms:

* a mapping ``{"FRANCE": ["BRE"], "ENGLAND": ["LON", "EDI"]}`` (a single
  place may be given as a string);
* a string ``"FRANCE:BRE,ENGLAND:LON+EDI"`` (what ``--option`` gives on the
  command line).

A place names the province of the fleet (``STP`` finds ``F STP/SC``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from types import MappingProxyType

from arbitre.maps import FLEET, GameMap
from arbitre.variants.submarines.layers import SUB

START_SUBMARINES = "start_submarines"
"""Name of the game setting (an option of ``make_rules`` / ``Game.new``)."""

Choice = tuple[tuple[str, str], ...]
"""(power, starting place of the fleet) pairs, sorted."""


def _split(value: object) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    if isinstance(value, str):
        for item in value.replace(";", ",").split(","):
            if not item.strip():
                continue
            if ":" not in item:
                raise ValueError(f"{START_SUBMARINES}: write each power's fleets as POWER:PLACE (not {item.strip()!r})")
            power, places = item.split(":", 1)
            pairs.extend((power, p) for p in places.split("+"))
        return pairs
    if isinstance(value, Mapping):
        for power, given in value.items():
            listed = [given] if isinstance(given, str) else given
            if not isinstance(power, str) or not isinstance(listed, list | tuple):
                raise ValueError(f"{START_SUBMARINES}: expected power → list of places, e.g. {{'FRANCE': ['BRE']}}")
            pairs.extend((power, p) for p in listed)
        return pairs
    raise ValueError(f"{START_SUBMARINES}: expected a mapping or a string like 'FRANCE:BRE,ENGLAND:LON'")


def read_start_submarines(value: object, game_map: GameMap) -> Choice:
    """Read the setting against ``game_map``; raises ValueError naming what is wrong."""
    if value is None or value == "" or value == {}:
        return ()
    out: set[tuple[str, str]] = set()
    for power, place in _split(value):
        if not isinstance(place, str):
            raise ValueError(f"{START_SUBMARINES}: a place is written as a string, not {place!r}")
        pw, pl = power.strip().upper(), place.strip().upper()
        info = game_map.powers.get(pw)
        if info is None:
            raise ValueError(f"{START_SUBMARINES}: {power.strip()!r} is not a power of the {game_map.name} map")
        fleets = [u.split()[1] for u in info.start_units if u.split()[0] == FLEET]
        match = [f for f in fleets if f == pl or game_map.province_of.get(f) == pl]
        if not match:
            raise ValueError(
                f"{START_SUBMARINES}: {pw} has no starting fleet in {pl} (its fleets: {', '.join(fleets) or 'none'})"
            )
        out.add((pw, match[0]))
    return tuple(sorted(out))


@cache
def with_start_submarines(game_map: GameMap, choice: Choice) -> GameMap:
    """``game_map`` whose chosen starting fleets are submarines."""
    if not choice:
        return game_map
    powers = dict(game_map.powers)
    for power, place in choice:
        info = powers[power]
        units = tuple(f"{SUB} {place}" if u == f"{FLEET} {place}" else u for u in info.start_units)
        powers[power] = replace(info, start_units=units)
    return replace(game_map, powers=MappingProxyType(powers))
