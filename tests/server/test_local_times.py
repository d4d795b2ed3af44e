"""Page times: the reader's chosen zone first, else the game's, else UTC, with the zone named."""

from __future__ import annotations

from arbitre.server.local_times import time_formatter
from arbitre.store.models import User


def _user(zone: str) -> User:
    return User(name="x", password_hash="", time_zone=zone)


def test_the_readers_zone_wins_then_the_games_then_utc() -> None:
    winter = "2030-01-01T19:00:00+00:00"
    assert time_formatter(None)(winter, None) == "2030-01-01 19:00 UTC"
    assert time_formatter(None)(winter, "Europe/Paris") == "2030-01-01 20:00 CET"
    assert time_formatter(_user("UTC"))(winter, "Europe/Paris") == "2030-01-01 20:00 CET"  # UTC is the default
    assert time_formatter(_user("America/New_York"))(winter, "Europe/Paris") == "2030-01-01 14:00 EST"
    assert time_formatter(None)("2030-07-01T19:00:00", "Europe/Paris") == "2030-07-01 21:00 CEST"  # naive: UTC
    assert time_formatter(_user("Not/AZone"))(winter, "Also/Not") == "2030-01-01 19:00 UTC"
    assert time_formatter(None)(None, None) == ""
