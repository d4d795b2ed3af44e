"""Where one audience's MILA timeline stands after each played phase: its count of MILA phases and MILA's
``influence`` (province → the power that last stood there), folded record by record from **that audience's
own view** of each record (:func:`arbitre.judge.game.record_view`, the allow-list builder).

A MILA phase is a played phase except a retreat phase in which no dislodged unit could go anywhere (MILA never
holds such a phase; :func:`hidden`).  The site stores an audience's :class:`Known` after every record with the
record (``mila_steps``, written when the record is written), so that a MILA read never folds a game's records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arbitre.judge.game import PhaseRecord, record_view
from arbitre.maps import GameMap
from arbitre.rules import RuleSet
from arbitre.views import View

Influence = dict[str, str]
"""Province → the power that last stood on it (MILA's ``influence``)."""

MASTER = "master"
OBSERVER = "observer"


def audiences(gmap: GameMap) -> list[str]:
    """Every audience a MILA client reads a game as: the master, an observer, each power of the map."""
    return [MASTER, OBSERVER, *sorted(gmap.powers)]


def start_influence(gmap: GameMap) -> Influence:
    """The provinces of each power's starting units."""
    return {gmap.province_of[u.split()[1]]: p for p, info in gmap.powers.items() for u in info.start_units}


def influence_after(before: Influence, view: View, gmap: GameMap) -> Influence:
    """``before`` with every province a unit of ``view`` stands on given to that unit's power."""
    out = dict(before)
    for unit in view.units:
        if unit.power:
            out[gmap.province_of[unit.place]] = unit.power
    return out


def hidden(view: View) -> bool:
    """Is ``view`` a retreat phase in which no dislodged unit could go anywhere (not a phase for MILA)?"""
    return (
        view.phase.endswith("R")
        and bool(view.dislodged)
        and all(d.retreats is not None and not d.retreats for d in view.dislodged)
    )


@dataclass(frozen=True)
class Known:
    """Where an audience's timeline stands, so that the next phases are built from the new records alone."""

    played: int
    """Records (played phases of arbitre, left-out ones included) already read."""
    visible: int
    """MILA phases already built from them."""
    influence: Influence
    """The starting influence with the board of every record read but the first applied."""


def start(gmap: GameMap) -> Known:
    """Where every timeline stands before the first record."""
    return Known(0, 0, start_influence(gmap))


def advance(known: Known, view: View, gmap: GameMap) -> Known:
    """Where an audience's timeline stands after one more record, ``view`` being that record as the audience
    sees it."""
    influence = influence_after(known.influence, view, gmap) if known.played >= 1 else known.influence
    return Known(known.played + 1, known.visible + (0 if hidden(view) else 1), influence)


def advance_all(rules: RuleSet, before: Mapping[str, Known], record: PhaseRecord) -> dict[str, Known]:
    """Every audience of ``before`` after one more record, each from its own view of the record."""
    gmap = rules.game_map
    return {viewer: advance(known, record_view(rules, record, viewer), gmap) for viewer, known in before.items()}


def influence_data(influence: Influence) -> dict[str, list[str]]:
    """An influence as stored: each power's provinces, sorted (MILA's own shape of it)."""
    out: dict[str, list[str]] = {}
    for province, power in influence.items():
        out.setdefault(power, []).append(province)
    return {power: sorted(provinces) for power, provinces in sorted(out.items())}


def influence_from_data(data: Mapping[str, list[str]]) -> Influence:
    """An influence as :func:`influence_data` stored it."""
    return {province: power for power, provinces in data.items() for province in provinces}
