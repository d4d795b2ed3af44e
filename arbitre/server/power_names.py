"""Power names as pages show them: the map's name for the power in the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from arbitre.maps.loader import available_maps, load_map


@cache
def _names(lang: str) -> dict[str, str]:
    """Power id → its name in ``lang``, over every map (the first map naming a power wins)."""
    out: dict[str, str] = {}
    for name in available_maps():
        for power, info in load_map(name).powers.items():
            out.setdefault(power, info.display_fr if lang == "fr" else info.display)
    return out


def power_names(lang: str) -> dict[str, str]:
    """Power id → its name in ``lang``, over every map (public map data: live pages name senders with it)."""
    return dict(_names(lang))


def power_namer(lang: str) -> Callable[[str | None], str]:
    """``power_name(id)``: the power's name in ``lang``; an unknown id as given, ``None`` as an empty text."""
    names = _names(lang)

    def power_name(power: str | None) -> str:
        if not power:
            return ""
        return names.get(power, power)

    return power_name
