"""A game's end: its length and scoring settings checked against its map, and the scores of a finished game
(computed by :mod:`arbitre.judge.scoring`; the settings are stored by :mod:`arbitre.store.endings`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from arbitre.judge import DRAWN, WON, Game
from arbitre.judge.scoring import SYSTEMS, rounded, score
from arbitre.store.endings import DEFAULT_SCORING, Ending
from arbitre.store.games import GameRuleError

MAX_YEARS = 1000
"""How many years past its first a game may be set to last."""


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
