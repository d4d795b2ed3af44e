"""Deadlines on a game's calendar: fixed time of day in its time zone (across daylight-saving changes)
and rest days.  The expected instants are written by hand from the 2030 European calendar: summer
time starts on Sunday 31 March and ends on Sunday 27 October."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from arbitre.store.schedule import Calendar, is_rest_day, next_deadline

DAY = 24 * 3600


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_without_a_calendar_the_deadline_is_the_phase_length() -> None:
    assert next_deadline(utc(2030, 1, 1, 12), 600, Calendar()) == utc(2030, 1, 1, 12, 10)


def test_a_fixed_time_keeps_the_wall_clock_across_the_spring_change() -> None:
    paris = Calendar("Europe/Paris", "20:00")
    # Saturday 30 March 20:00 CET (19:00 UTC); the next is Sunday 31 March 20:00 CEST (18:00 UTC), 23 hours later
    assert next_deadline(utc(2030, 3, 30, 19), DAY, paris) == utc(2030, 3, 31, 18)
    # and back in autumn: Saturday 26 October 20:00 CEST (18:00 UTC) → Sunday 20:00 CET (19:00 UTC), 25 hours
    assert next_deadline(utc(2030, 10, 26, 18), DAY, paris) == utc(2030, 10, 27, 19)


def test_a_fixed_time_rounds_up_to_the_next_occurrence() -> None:
    paris = Calendar("Europe/Paris", "20:00")
    # processed early, at 09:00 UTC on 1 July (11:00 CEST): a day's phase ends the next day at 20:00 CEST
    assert next_deadline(utc(2030, 7, 1, 9), DAY, paris) == utc(2030, 7, 2, 18)
    # a short phase ends the same evening
    assert next_deadline(utc(2030, 7, 1, 9), 3600, paris) == utc(2030, 7, 1, 18)


def test_a_time_skipped_by_the_spring_change_falls_after_it() -> None:
    night = Calendar("Europe/Paris", "02:30")  # 02:30 does not exist on 31 March 2030 in Paris
    assert next_deadline(utc(2030, 3, 30, 1, 30), DAY, night) == utc(2030, 3, 31, 1, 30)  # 03:30 CEST


def test_rest_days_move_the_deadline_to_the_next_open_day() -> None:
    weekend = Calendar("Europe/Paris", None, ("sat", "sun"))
    # Friday 5 July 2030 12:00 UTC + 1 day = Saturday: moved to Monday 8 July, same wall-clock time
    assert next_deadline(utc(2030, 7, 5, 12), DAY, weekend) == utc(2030, 7, 8, 12)
    both = Calendar("America/New_York", "18:00", ("sun",))
    # Saturday 6 July 2030 23:00 UTC (19:00 EDT) + 1 day → Sunday 18:00 is a rest day → Monday 18:00 EDT
    assert next_deadline(utc(2030, 7, 6, 23), DAY, both) == utc(2030, 7, 8, 22)
    assert is_rest_day(utc(2030, 7, 6, 23), weekend) and not is_rest_day(utc(2030, 7, 8, 0), weekend)


def test_an_unknown_zone_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="Mars/Olympus"):
        next_deadline(utc(2030, 1, 1), DAY, Calendar("Mars/Olympus"))
