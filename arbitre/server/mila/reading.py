"""What a MILA client is told, built from its own view: the game object of a join, the played phases, and
the notifications (processed phases, press, status) that take it from what it knew to now.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from arbitre.judge.game import record_from_data
from arbitre.server import services
from arbitre.server.mila import board, timelines
from arbitre.server.mila.access import (
    PAGE,
    Seen,
    controllers,
    messages_of,
    mila_rules,
    press_name,
    seat_of,
    user_of,
    viewer_of,
)
from arbitre.server.mila.protocol import MilaError
from arbitre.server.site import Site
from arbitre.store.messages import count_for, messages_after
from arbitre.store.models import FINISHED, GameRow
from arbitre.store.records import played_index, played_records


def game_object(site: Site, user_id: int, game_id: int, role: str) -> tuple[dict[str, Any], Seen]:
    """MILA's ``Game`` object of a game for the requester's role, and what it tells (read together, so that
    the notifications start exactly where the object ends)."""
    with site.db.reading() as s:
        seat = seat_of(s, user_id, str(game_id), role)
        row = seat.row
        game = services.whole_game(site, s, row)  # played phases from their records
        timeline = board.Timeline(game, viewer_of(role), board.micros(row.created_at))
        ctl = controllers(s, seat)
        if role in game.rules.game_map.powers and seat.power is None:
            ctl.setdefault(role, user_of(s, user_id).name)  # chosen before the game starts
        messages = messages_of(s, row, role)
        seen = seen_of(row.status, timeline, count_for(s, row.id, press_name(role)))
        return board.game_object(
            timeline,
            game_id=str(row.id),
            role=role,
            rules=mila_rules(row),
            status=board.STATUSES.get(row.status, "active"),
            controllers=ctl,
            controlled=[role] if role in game.rules.game_map.powers else [],
            observer_level=board.MASTER_TYPE if role == board.OMNISCIENT_TYPE else board.OBSERVER_TYPE,
            messages=messages,
            deadline=int(row.deadlines.get("M", 0)),
            created=board.micros(row.created_at),
            now=board.micros(site.now()),
        ), seen


def phase_history(
    site: Site, user_id: int, game_id: str, role: str, start: str | int | None, end: str | int | None
) -> list[dict[str, Any]]:
    """The played MILA phases from ``start`` to ``end`` (phase names or indices, as MILA takes them; ``None``:
    from the first, to the last) as the requester sees them.  Only the records of the phases asked for (and of
    the one after each) and their messages are read: where the viewer's timeline stands before them is stored
    with the records (:mod:`.timelines`)."""
    with site.db.reading() as s:
        seat = seat_of(s, user_id, game_id, role)
        row = seat.row
        game = site.referee.game(s, row)  # the current position: no record is read
        viewer = viewer_of(role)
        folded = timelines.stored(s, row, game.rules, viewer)
        count = folded.count()  # MILA phases (a retreat phase nobody could play is no MILA phase)

        def index(bound: str | int | None, default: int) -> int:
            if bound is None or bound == "":
                return default
            if isinstance(bound, int):
                return bound if bound >= 0 else count + bound
            found = played_index(s, row.id, bound)
            if found is None or found >= row.played or not folded.is_phase(found):
                raise MilaError(f"no played phase {bound[:16]!r} in game {game_id}", "GamePhaseException")
            return folded.known(found + 1).visible - 1

        chosen = list(range(count))[index(start, 0) : index(end, count - 1) + 1]
        if not chosen:
            return []
        first, last = folded.record_of(chosen[0]), folded.record_of(chosen[-1])
        # the record after the last phase asked for: the board that follows it (its disbands, if it is a
        # retreat phase left out of MILA's)
        records = [record_from_data(game.rules, d) for d in played_records(s, row.id, first, min(last + 2, row.played))]
        timeline = board.Timeline(game, viewer, board.micros(row.created_at), records, folded.known(first))
        shown = [timeline.played[k].view.phase for k in range(len(chosen))]
        messages = messages_of(s, row, role, shown)
        return [timeline.phase_data(k, messages) for k in range(len(chosen))]


def glance(site: Site, user_id: int, game_id: str, role: str) -> tuple[Seen, str]:
    """What a client that follows a game from now on knows of it, and its current MILA phase (no record is read:
    where the viewer's timeline stands is stored with the last record)."""
    with site.db.reading() as s:
        seat = seat_of(s, user_id, game_id, role)
        row = seat.row
        game = site.referee.game(s, row)  # the current position: no record is read
        viewer = viewer_of(role)
        known = timelines.stored(s, row, game.rules, viewer).known(row.played)
        count = count_for(s, row.id, press_name(role))
        current = board.COMPLETED if game.is_over else game.view(viewer).phase
        return Seen(row.status, known.played, known.visible, count, known.influence), current


def seen_of(status: str, timeline: board.Timeline, messages: int) -> Seen:
    """What a client told ``timeline`` (and ``messages`` messages) knows."""
    known = timeline.known
    return Seen(status, known.played, known.visible, messages, known.influence)


def since(site: Site, s: Session, row: GameRow, role: str, seen: Seen) -> board.Timeline:
    """The phases ``seen`` does not tell of, as ``role`` sees them: only the records played since are read,
    so that telling a client of one more phase costs the same at any length of the game."""
    game = site.referee.game(s, row)  # the current position: no record is read
    rules = game.rules
    records = [record_from_data(rules, data) for data in played_records(s, row.id, seen.played, row.played)]
    return board.Timeline(game, viewer_of(role), board.micros(row.created_at), records, seen.known())


Note = tuple[str, dict[str, Any]]
"""A notification's MILA name and its fields."""


def news(site: Site, user_id: int, game_id: str, role: str, seen: Seen) -> tuple[Seen, list[Note]]:
    """The notifications that take the client from ``seen`` to now, each built from its own view: messages,
    processed phases, status changes."""
    out: list[Note] = []
    with site.db.reading() as s:
        seat = seat_of(s, user_id, game_id, role)
        row = seat.row
        reader = press_name(role)
        count = count_for(s, row.id, reader)
        new_messages = []
        if count > seen.messages:
            for start in range(seen.messages, count, PAGE):
                new_messages.extend(messages_after(s, row.id, reader, start, PAGE))
        mila = [d for m in new_messages for d in board.message_data(m)]
        mila = [m for m in mila if m["sender"] != role]  # a sender has its own message from the answer
        known = seen.known()
        if row.played != seen.played or row.status != seen.status:
            timeline = since(site, s, row, role, seen)  # only when a phase was played or the status moved
            game = timeline.game
            current = timeline.current.phase
            for m in mila:
                if m["phase"] != current:
                    out.append(("game_message_received", {"message": m}))
            mila = [m for m in mila if m["phase"] == current]
            if timeline.played or (row.status == FINISHED and seen.status != FINISHED):
                shown = [played.view.phase for played in timeline.played] + [current]
                messages = messages_of(s, row, role, shown)  # only the phases told: the others are not read
                own = (
                    [role]
                    if role in game.rules.game_map.powers
                    else (sorted(game.powers()) if role == board.OMNISCIENT_TYPE else [])
                )
                now = board.micros(site.now())
                for k in range(len(timeline.played)):
                    after = (
                        timeline.phase_data(k + 1, messages)
                        if k + 1 < len(timeline.played)
                        else timeline.current_data([], now, own)
                    )
                    out.append(
                        (
                            "game_processed",
                            {
                                "previous_phase_data": timeline.phase_data(k, messages),
                                "current_phase_data": after,
                            },
                        )
                    )
            known = timeline.known
            if row.status != seen.status:
                out.append(("game_status_update", {"status": board.STATUSES.get(row.status, "active")}))
        out.extend(("game_message_received", {"message": m}) for m in mila)
        return Seen(row.status, known.played, known.visible, count, known.influence), out
