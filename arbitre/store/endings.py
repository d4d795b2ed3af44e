"""A game's length and scoring settings as stored: the last year, the centres that win, the scoring system.

Checking them against the map and computing a finished game's scores is the game's life
(:mod:`arbitre.life.endings`).

The engine ends the game (``Game.last_year``, ``Game.target_centers``); this
table keeps the settings beside the game so that lists and pages read them
without loading the engine state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.models import Base

DEFAULT_SCORING = "draw-size"
"""The scoring system of a game made without one."""


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
