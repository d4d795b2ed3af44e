"""Each audience's MILA timeline written with each played phase's record, and read back.

When a step closes and its phase is played, :func:`write_steps` stores where every audience (master, observer,
each power) stands after that record, from that audience's own view of it
(:func:`arbitre.interface.mila.influence.advance_all`), next to the record.  A reader asks :func:`known_at`:
the stored step of the record before, read as one row.  Should a step be missing (it never is after migration
``0019_milastore``), the records after the latest stored one are folded: the answer is the same, only slower.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from arbitre.interface.mila.influence import (
    Known,
    advance,
    advance_all,
    influence_data,
    influence_from_data,
    start,
)
from arbitre.judge.game import PhaseRecord, record_from_data, record_view
from arbitre.rules import RuleSet
from arbitre.store.milasteps import Step, add_steps, latest_step, latest_steps
from arbitre.store.records import played_records


def known_of(step: Step) -> Known:
    """Where a timeline stands after the record of a stored step."""
    played, visible, influence = step
    return Known(played + 1, visible, influence_from_data(influence))


def known_at(session: Session, game_id: int, rules: RuleSet, viewer: str, played: int) -> Known:
    """Where ``viewer``'s timeline stands after records ``0`` to ``played - 1``: the stored step of record
    ``played - 1`` (the records after the latest stored step folded, should it be missing)."""
    if played == 0:
        return start(rules.game_map)
    latest = latest_step(session, game_id, viewer, played)
    known = start(rules.game_map) if latest is None else known_of(latest)
    if known.played == played:
        return known
    gmap = rules.game_map
    for data in played_records(session, game_id, known.played, played):
        known = advance(known, record_view(rules, record_from_data(rules, data), viewer), gmap)
    return known


def known_before(
    session: Session, game_id: int, rules: RuleSet, viewers: Iterable[str], played: int
) -> dict[str, Known]:
    """Where each of ``viewers`` stands after records ``0`` to ``played - 1`` (one read for all of them)."""
    stored = latest_steps(session, game_id, played) if played else {}
    return {v: known_of(stored[v]) if v in stored else known_at(session, game_id, rules, v, played) for v in viewers}


def write_steps(
    session: Session, game_id: int, rules: RuleSet, index: int, record: PhaseRecord, before: dict[str, Known]
) -> dict[str, Known]:
    """Store where each audience of ``before`` stands after played phase ``index`` (``record``); returns it."""
    after = advance_all(rules, before, record)
    add_steps(session, game_id, index, {v: (k.visible, influence_data(k.influence)) for v, k in after.items()})
    return after
