"""A game's lateness settings: grace, excuses, automatic extensions, civil disorder, replacement,
rest days and fixed-time deadlines; the presets "casual" and "tournament" fill them in.

These are lifecycle rules of the store layer: the rules engine never sees them.
What they do at a deadline is in :mod:`arbitre.store.missed`; the calls for a
replacement are in :mod:`arbitre.store.replacements`.  The existing bot rule
(``after_missed`` of :mod:`arbitre.store.botseats`) is one of these settings:
it is read and written here, and stored where the bot seats keep it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from sqlalchemy import JSON, ForeignKey
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.botseats import bot_settings, store_settings
from arbitre.store.games import GameRuleError
from arbitre.store.models import Base
from arbitre.store.schedule import WEEKDAYS, Calendar, clock_time, zone

PRESET_NAMES = ("none", "casual", "tournament")
"""The presets: ``none`` (no lateness rule: the step is processed at its deadline), ``casual``, ``tournament``."""


@dataclass(frozen=True)
class Lateness:
    """A game's lateness settings (see ``docs/server.md``, "Lateness")."""

    preset: str = "none"
    """The preset these settings started from (``custom`` once a value differs from it)."""
    grace_minutes: int = 0
    """A quiet period after a deadline with missing orders: orders given in it are on time (0–1440)."""
    excuses: int = 0
    """Missed deadlines each player may excuse: an excused miss extends the deadline, gives no yellow
    card and does not count towards civil disorder (0–10)."""
    extensions: int = 0
    """Automatic extensions of a step while orders are missing (0–10; each counts as a missed deadline)."""
    extension_hours: int = 24
    """How long an automatic or excused extension is (1–168 hours)."""
    disorder_after: int | None = None
    """A power whose player misses this many steps in a row falls into civil disorder (1–20, or none)."""
    replace_on_disorder: bool = False
    """Civil disorder publishes a call for a replacement (a take-over link) by itself."""
    bot_after_missed: int | None = None
    """A bot takes the seat of a power that missed this many steps in a row (1–20, or none)."""
    rest_days: tuple[str, ...] = ()
    """Days of the week on which no deadline falls (``mon`` … ``sun``)."""
    deadline_time: str | None = None
    """``HH:MM``: deadlines fall at this time of day on the game's clock (or none)."""
    timezone: str = "UTC"
    """The game's time zone (an IANA name such as ``Europe/Paris``)."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def calendar(self) -> Calendar:
        """The game's calendar (time zone, fixed time, rest days)."""
        return Calendar(self.timezone, self.deadline_time, self.rest_days)

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready dict of the settings."""
        data = asdict(self)
        data.pop("extra")
        data["rest_days"] = list(self.rest_days)
        return data


PRESETS: dict[str, Lateness] = {
    "none": Lateness(),
    "casual": Lateness(
        preset="casual",
        grace_minutes=60,
        excuses=3,
        extensions=2,
        extension_hours=24,
        disorder_after=3,
        replace_on_disorder=False,
    ),
    "tournament": Lateness(
        preset="tournament",
        grace_minutes=15,
        excuses=1,
        extensions=0,
        extension_hours=24,
        disorder_after=2,
        replace_on_disorder=True,
    ),
}
"""The presets, by name (``tournament`` follows the French community's habit of replacing a player
after two missed deadlines and counting yellow cards)."""

FIELDS = tuple(f for f in Lateness.__dataclass_fields__ if f not in ("preset", "extra"))
"""The settings a game may set one by one (over its preset)."""
CALENDAR = ("rest_days", "deadline_time", "timezone")
"""The calendar settings: no preset sets them, so changing them keeps the preset's name."""
_BOUNDS = {
    "grace_minutes": (0, 1440),
    "excuses": (0, 10),
    "extensions": (0, 10),
    "extension_hours": (1, 168),
    "disorder_after": (1, 20),
    "bot_after_missed": (1, 20),
}


class LatenessSetting(Base):
    """A game's lateness settings (JSON of :meth:`Lateness.to_data`), and where its current step stands."""

    __tablename__ = "lateness_settings"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    step_state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """``{"step": "<phase>/<step>", "graced": bool, "extended": int}`` for the step being played."""


def _number(name: str, value: Any, optional: bool) -> int | None:
    if value is None and optional:
        return None
    low, high = _BOUNDS[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        tail = " (or null)" if optional else ""
        raise GameRuleError(f"lateness.{name}: a whole number from {low} to {high}{tail}")
    return value


def parse(data: Mapping[str, Any] | None) -> Lateness:
    """Settings from a request: ``preset`` first, then each named setting over it (raises
    :class:`GameRuleError` naming the field)."""
    data = dict(data or {})
    preset = data.pop("preset", "none") or "none"
    if preset not in PRESETS:
        raise GameRuleError(f"lateness.preset: one of {', '.join(PRESET_NAMES)}")
    out = PRESETS[preset]
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in FIELDS:
            raise GameRuleError(f"lateness.{str(key)[:40]}: unknown setting; known: preset, {', '.join(FIELDS)}")
        if key in ("disorder_after", "bot_after_missed"):
            changes[key] = _number(key, value, True)
        elif key in _BOUNDS:
            changes[key] = _number(key, value, False)
        elif key == "replace_on_disorder":
            if not isinstance(value, bool):
                raise GameRuleError("lateness.replace_on_disorder: true or false")
            changes[key] = value
        elif key == "rest_days":
            changes[key] = _rest_days(value)
        elif key == "deadline_time":
            changes[key] = _deadline_time(value)
        elif key == "timezone":
            changes[key] = _timezone(value)
    if not changes:
        return out
    merged = replace(out, **changes)
    differs = any(getattr(merged, k) != getattr(PRESETS[preset], k) for k in changes if k not in CALENDAR)
    return replace(merged, preset="custom" if differs and preset != "none" else preset)


def _rest_days(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(d, str) for d in value):
        raise GameRuleError(f"lateness.rest_days: a list of days among {', '.join(WEEKDAYS)}")
    days = {d.strip().lower()[:3] for d in value}
    unknown = sorted(days - set(WEEKDAYS))
    if unknown:
        raise GameRuleError(f"lateness.rest_days: {unknown[0][:10]!r} is not one of {', '.join(WEEKDAYS)}")
    if len(days) == len(WEEKDAYS):
        raise GameRuleError("lateness.rest_days: at least one day of the week must be open")
    return tuple(d for d in WEEKDAYS if d in days)


def _deadline_time(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise GameRuleError("lateness.deadline_time: HH:MM or null")
    try:
        wall = clock_time(value.strip())
    except ValueError as err:
        raise GameRuleError(f"lateness.deadline_time: {err}") from err
    return wall.strftime("%H:%M")


def _timezone(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise GameRuleError("lateness.timezone: an IANA time zone name such as Europe/Paris")
    try:
        zone(value.strip()[:64])
    except ValueError as err:
        raise GameRuleError(f"lateness.timezone: {err}") from err
    return value.strip()


def _from_data(data: Mapping[str, Any]) -> Lateness:
    kept = {k: v for k, v in data.items() if k in FIELDS or k == "preset"}
    if "rest_days" in kept:
        kept["rest_days"] = tuple(kept["rest_days"])
    return Lateness(**kept)


def lateness_of(session: Session, game_id: int) -> Lateness:
    """The game's lateness settings (no rule when none were stored; the bot rule read from the bot settings)."""
    found = session.get(LatenessSetting, game_id)
    out = _from_data(found.settings) if found is not None else Lateness()
    return replace(out, bot_after_missed=bot_settings(session, game_id).after_missed)


def store_lateness(session: Session, game_id: int, settings: Lateness) -> Lateness:
    """Keep the game's lateness settings (the bot rule goes to the bot settings, its one home)."""
    found = session.get(LatenessSetting, game_id)
    data = settings.to_data()
    data.pop("bot_after_missed")
    if found is None:
        session.add(LatenessSetting(game_id=game_id, settings=data, step_state={}))
    else:
        found.settings = data
    store_settings(session, game_id, None, settings.bot_after_missed)
    session.flush()
    return settings


def step_state(session: Session, game_id: int, marker: str) -> LatenessSetting:
    """The game's settings row with its step state reset when the step changed (``marker``: ``phase/step``)."""
    found = session.get(LatenessSetting, game_id)
    if found is None:
        found = LatenessSetting(game_id=game_id, settings={}, step_state={})
        session.add(found)
    if (found.step_state or {}).get("step") != marker:
        found.step_state = {"step": marker, "graced": False, "extended": 0}
    return found


def presets_data() -> dict[str, dict[str, Any]]:
    """Every preset's settings (what the creation page and ``GET /api/lateness/presets`` offer)."""
    return {name: preset.to_data() for name, preset in PRESETS.items()}
