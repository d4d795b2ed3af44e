"""Times as pages show them: in the reader's time zone when they chose one, else in the game's, else UTC,
always with the zone's abbreviation so that nobody has to guess."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from arbitre.store.models import User


def _zone(name: str | None) -> ZoneInfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def known_zone(name: str | None) -> bool:
    """Is ``name`` an IANA time zone name this server knows (``Europe/Paris``, ``UTC``)?"""
    return bool(name) and len(name or "") <= 64 and _zone(name) is not None


def time_formatter(user: User | None) -> Callable[[str | None, str | None], str]:
    """``local_time(iso, game_zone)``: an ISO instant as ``YYYY-MM-DD HH:MM ZONE`` for this reader (empty
    for none).  The reader's own zone wins unless it is the default UTC; then the game's zone is used."""
    own = user.time_zone if user is not None and user.time_zone not in (None, "", "UTC") else None

    def local_time(iso: str | None, game_zone: str | None = None) -> str:
        if not iso:
            return ""
        moment = datetime.fromisoformat(iso)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        zone = _zone(own) or _zone(game_zone) or ZoneInfo("UTC")
        local = moment.astimezone(zone)
        return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"

    return local_time
