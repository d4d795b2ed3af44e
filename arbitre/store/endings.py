"""A game's length and scoring settings: the last year, the centres that win, the scoring system; and
the scores of a finished game (computed by :mod:`arbitre.judge.scoring`).

The engine ends the game (``Game.last_year``, ``Game.target_centers``); this
table keeps the settings beside the game so that lists and pages read them
without loading the engine state.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.judge import DRAWN, WON, Game
from arbitre.judge.scoring import SYSTEMS, rounded, score
from arbitre.store.games import GameRuleError
from arbitre.store.models import Base

DEFAULT_SCORING = "draw-size"
"""The scoring system of a game made without one."""
MAX_YEARS = 1000
"""How many years past its first a game may be set to last."""


class GameEnding(Base):
    """A game's length and scoring settings."""

    __tablename__ = "game_endings"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    scoring: Mapped[str] = mapped_column(String(32), default=DEFAULT_SCORING)
    last_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    target_centers: Mapped[int | None] = mapped_column(Integer, nullable=True)


@dataclass(frozen=True)
class Ending:
    """Length and scoring settings, as checked: ``None`` means the map's own rule."""

    scoring: str = DEFAULT_SCORING
    last_year: int | None = None
    target_centers: int | None = None

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"scoring": self.scoring, "last_year": self.last_year, "target_centers": self.target_centers}


def check_ending(game: Game, scoring: str | None, last_year: Any, target_centers: Any) -> Ending:
    """Check the settings against the game's map (raises :class:`GameRuleError` naming the field)."""
    name = scoring or DEFAULT_SCORING
    if name not in SYSTEMS:
        raise GameRuleError(f"scoring: one of {', '.join(SYSTEMS)}")
    first = game.phase.year
    if last_year is not None and (
        isinstance(last_year, bool) or not isinstance(last_year, int) or not first <= last_year <= first + MAX_YEARS
    ):
        raise GameRuleError(f"last_year: a year from {first} to {first + MAX_YEARS} (or null)")
    centres = len(game.rules.game_map.supply_centers)
    if target_centers is not None and (
        isinstance(target_centers, bool) or not isinstance(target_centers, int) or not 1 <= target_centers <= centres
    ):
        raise GameRuleError(f"target_centers: a number of centres from 1 to {centres} (or null)")
    return Ending(name, last_year, target_centers)


def store_ending(session: Session, game_id: int, ending: Ending) -> None:
    """Keep a new game's length and scoring settings."""
    session.add(GameEnding(game_id=game_id, **ending.to_data()))
    session.flush()


def ending_of(session: Session, game_id: int) -> Ending:
    """The game's settings (the defaults for a game made before they existed)."""
    found = session.get(GameEnding, game_id)
    if found is None:
        return Ending()
    return Ending(found.scoring, found.last_year, found.target_centers)


def scores(game: Game, ending: Ending, excluded: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """The scores of a won or drawn game under its system (``None`` while it runs or when it ended without a
    result): system, its source, each power's centres and score.

    ``excluded`` powers (bot seats, when the game's bot setting leaves them out) get no score, and the
    system is applied to the other powers alone; a solo by an excluded power scores the others 0.
    """
    if game.status not in (WON, DRAWN):
        return None
    system = SYSTEMS[ending.scoring]
    centres = {p: game.centers(p) for p in game.powers()}
    scored = {p: c for p, c in centres.items() if p not in excluded}
    winners = [w for w in game.winners if w not in excluded]
    if game.status == WON and not winners:
        got = dict.fromkeys(scored, Fraction(0))
    else:
        got = score(system, scored, game.status, winners)
    return {
        "system": system.name,
        "title": system.title,
        "source": system.source,
        "centres": centres,
        "scores": rounded(got),
        "excluded": sorted(p for p in centres if p in excluded),
    }
