"""When a deadline falls: a phase length, a fixed time of day in the game's time zone, and rest days.

Pure: every function is given the current time; nothing here reads a clock.
A fixed-time deadline is the first time ``HH:MM`` on the game's wall clock at
or after ``now + length - 1 hour``: the hour of slack keeps a daily deadline at
the same wall-clock time across a daylight-saving change (a 24-hour phase is
then 23 or 25 hours long).  A deadline that would fall on a rest day moves to
the next day that is not one, at the same wall-clock time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""Day names, in the order of :meth:`datetime.weekday`."""
SLACK = timedelta(hours=1)
"""How much earlier than the phase length a fixed-time deadline may fall (daylight-saving changes)."""


@dataclass(frozen=True)
class Calendar:
    """A game's calendar: its time zone, a fixed time of day for deadlines (or none), its rest days."""

    timezone: str = "UTC"
    deadline_time: str | None = None
    """``HH:MM`` on the game's wall clock, or ``None``: the deadline is the phase length from now."""
    rest_days: tuple[str, ...] = ()
    """Days (from :data:`WEEKDAYS`) on which no deadline falls."""


def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (raises ``ValueError`` naming it when unknown)."""
    if name not in _zones():
        raise ValueError(f"unknown time zone {name!r} (an IANA name such as Europe/Paris)")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise ValueError(f"unknown time zone {name!r} (an IANA name such as Europe/Paris)") from err


_ZONES: frozenset[str] = frozenset()


def _zones() -> frozenset[str]:
    global _ZONES  # computed once: listing the zones reads the time-zone database
    if not _ZONES:
        _ZONES = frozenset(available_timezones() | {"UTC"})
    return _ZONES


def clock_time(text: str) -> time:
    """``HH:MM`` as a time (raises ``ValueError`` saying the expected form)."""
    parts = text.split(":")
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 2 for p in parts):
        raise ValueError(f"a time of day is written HH:MM, not {text[:20]!r}")
    hour, minute = int(parts[0]), int(parts[1])
    if hour > 23 or minute > 59:
        raise ValueError(f"{text!r} is not a time of day")
    return time(hour, minute)


def _at(day: date, wall: time, tz: ZoneInfo) -> datetime:
    """The UTC instant of wall-clock ``wall`` on ``day`` in ``tz`` (a time skipped by a change falls after it)."""
    return datetime.combine(day, wall, tzinfo=tz).astimezone(UTC)


def next_deadline(now: datetime, seconds: int, calendar: Calendar) -> datetime:
    """When a step of ``seconds`` started at ``now`` ends under ``calendar`` (aware UTC)."""
    tz = zone(calendar.timezone)
    base = now + timedelta(seconds=seconds)
    if calendar.deadline_time:
        wall = clock_time(calendar.deadline_time)
        earliest = max(now + timedelta(seconds=1), base - SLACK)
        day = earliest.astimezone(tz).date()
        at = _at(day, wall, tz)
        if at < earliest:
            day += timedelta(days=1)
            at = _at(day, wall, tz)
    else:
        local = base.astimezone(tz)
        day, wall, at = local.date(), local.timetz().replace(tzinfo=None), base
    for _ in range(7):  # at most six rest days in a row (all seven are refused by the settings)
        if WEEKDAYS[day.weekday()] not in calendar.rest_days:
            return at
        day += timedelta(days=1)
        at = _at(day, wall, tz)
    return at


def is_rest_day(now: datetime, calendar: Calendar) -> bool:
    """Is ``now`` a rest day on the game's wall clock?"""
    return WEEKDAYS[now.astimezone(zone(calendar.timezone)).weekday()] in calendar.rest_days
