"""The live event stream of a game: what changed for one reader, as server-sent events.

Each open stream keeps a :class:`Glance`, the moving parts of the game *as its
reader may see them*: phase, step, status, deadline, the ready switches the
reader may see and how many messages it may read.  When a change signal arrives
for the game (:mod:`arbitre.store.changes`: a ``NOTIFY`` from any process on
PostgreSQL, the process's own commit on SQLite), the stream builds a new glance
for its reader, from the reader's own seat, and sends the differences as
events.  A change the reader may not see changes nothing in its glance, so it
sends nothing: no event, payload or event id depends on what the reader may not
see.

The event id is the glance itself, written as a short string (a cursor).  A
client that reconnects with ``Last-Event-ID`` gets the differences between that
glance and the current one, so nothing is lost between two connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from arbitre.judge import Game
from arbitre.server import services
from arbitre.server.answers import VoteView
from arbitre.server.services import Seat, own_orders, step_orders
from arbitre.server.site import Site
from arbitre.store.changes import ChangeBus
from arbitre.store.facts import fact, press_topics
from arbitre.store.messages import TO_MASTER, count_for, messages_after
from arbitre.store.models import ACTIVE, FINISHED, FORMING, MASTER, PAUSED, PLAYER, Message

KINDS = (
    "hello",
    "phase",
    "step",
    "started",
    "finished",
    "paused",
    "resumed",
    "deadline",
    "ready",
    "given",
    "message",
    "vote_opened",
    "vote_cast",
    "vote_decided",
)
"""The event types a stream sends (see :func:`differences`)."""

LIFETIME_SECONDS = 900.0
"""A stream ends after this long; the browser reconnects at once with ``Last-Event-ID``."""
RETRY_MS = 3000
"""How long a client waits before reconnecting (the ``retry:`` field)."""
MAX_MESSAGES = 100
"""Most message events sent at once (a reader far behind gets the newest ones)."""
MAX_VOTES = 12
"""How many of the newest votes a glance follows (older ones are long decided)."""
GIVEN_LETTERS = {"none": "n", "partly": "p", "all": "a"}
"""A power's orders state in a cursor (``-``: not shown to the reader, or the power has nothing to order)."""
STATUS_LETTERS = {"open": "o", "passed": "p", "failed": "f", "expired": "e", "withdrawn": "w"}
"""A vote's status in a cursor."""


@dataclass(frozen=True)
class Glance:
    """What one reader sees of a game's moving parts; events are differences between two glances."""

    status: str
    phase: str
    step: str
    result: str
    deadline: int | None
    """The deadline as a UNIX time (``None`` when the clock is stopped)."""
    remaining: int | None
    """Seconds left while the game is paused."""
    played: int
    """How many phases have been played (the length of the history)."""
    messages: int
    """How many messages the reader may read."""
    ready: frozenset[str] = field(default_factory=frozenset)
    """The powers whose ready switch is on, among those the reader may see."""
    powers: tuple[str, ...] = ()
    """The game's powers (to write ``ready`` in the cursor)."""
    given: tuple[str, ...] | None = None
    """Per power (in ``powers`` order), its orders state as the reader's players table shows it: a letter of
    :data:`GIVEN_LETTERS`, or ``-`` (not shown); ``None`` when unknown (a cursor written before it was kept)."""
    votes: tuple[str, ...] = ()
    """The newest votes as the reader sees them: ``<number in the game><status letter><ballot per power: y, n or
    ->`` (only the ballots the reader may see: in a secret vote a player's own)."""

    def cursor(self) -> str:
        """The glance as an event id:
        ``2.<status>.<phase>.<step>.<result>.<deadline>.<remaining>.<played>.<messages>.<ready>.<votes>.<given>``."""
        mask = sum(1 << i for i, p in enumerate(self.powers) if p in self.ready)
        parts = [
            self.status,
            self.phase,
            self.step,
            self.result or "-",
            _num(self.deadline),
            _num(self.remaining),
            str(self.played),
            str(self.messages),
            str(mask),
            "_".join(self.votes) or "-",
        ]
        if self.given is not None:
            parts.append("".join(self.given))
        return "2." + ".".join(parts)

    def state(self, game_id: int) -> dict[str, Any]:
        """The glance as the payload of a state event."""
        return {
            "game": game_id,
            "status": self.status,
            "phase": self.phase,
            "step": self.step,
            "result": self.result,
            "deadline": datetime.fromtimestamp(self.deadline, UTC).isoformat() if self.deadline else None,
            "remaining_seconds": self.remaining,
            "played": self.played,
            "ready": sorted(self.ready),
        }


def _num(value: int | None) -> str:
    return "-" if value is None else str(value)


_VOTE = r"\d{1,9}[opfew][yn-]{0,32}"
_CURSOR = re.compile(
    r"^2\.([a-z]{1,16})\.([A-Za-z0-9]{1,16})\.([a-z_]{1,24})\.([a-z_]{1,16}|-)\.(\d{1,12}|-)"
    r"\.(\d{1,9}|-)\.(\d{1,6})\.(\d{1,9})\.(\d{1,12})"
    rf"\.((?:{_VOTE})(?:_{_VOTE}){{0,{MAX_VOTES - 1}}}|-)(?:\.([npa-]{{1,64}}))?$"
)


def parse_cursor(text: str | None, powers: tuple[str, ...]) -> Glance | None:
    """The glance written in an event id, or ``None`` when ``text`` is not one (then the stream starts afresh)."""
    m = _CURSOR.match(text or "")
    if not m:
        return None
    status, phase, step, result, deadline, remaining, played, messages, mask, votes, given = m.groups()
    return Glance(
        status=status,
        phase=phase,
        step=step,
        result="" if result == "-" else result,
        deadline=None if deadline == "-" else int(deadline),
        remaining=None if remaining == "-" else int(remaining),
        played=int(played),
        messages=int(messages),
        ready=frozenset(p for i, p in enumerate(powers) if int(mask) >> i & 1),
        powers=powers,
        votes=() if votes == "-" else tuple(votes.split("_")),
        given=tuple(given) if given and len(given) == len(powers) else None,
    )


def seen_ready(session: Session, seat: Seat) -> frozenset[str]:
    """The ready switches ``seat`` may see that are on: all of them for the master, and for every member of a
    running game that shows its players' progress (its players table shows them); else a player's own."""
    row = seat.row
    if seat.role == MASTER or (row.status in (ACTIVE, PAUSED) and services.shows_progress(row)):
        return frozenset(p for p, r in step_orders(session, row).items() if r.ready)
    if seat.role == PLAYER and seat.power:
        mine = own_orders(session, row, seat.power)  # never every power's rows: nobody else's orders cost work
        if mine is not None and mine.ready:
            return frozenset([seat.power])
    return frozenset()


def seen_given(session: Session, seat: Seat, game: Game) -> tuple[str, ...]:
    """Each power's orders state as the reader's players table shows it (``none``, ``partly``, ``all`` as a
    letter; ``-`` where the table shows none): every power that must act, in a running game that shows its
    players' progress; else nothing (the table has no such column)."""
    row = seat.row
    powers = game.powers()
    if row.status not in (ACTIVE, PAUSED) or not services.shows_progress(row):
        return ("-",) * len(powers)
    shown = fact(session, row, "progress", ("orders", "game"), lambda: services.progress(session, row, game))
    return tuple(GIVEN_LETTERS[shown[p].orders] if p in shown else "-" for p in powers)


def glance(site: Site, session: Session, seat: Seat) -> Glance:
    """The reader's glance at its game now, built from what its seat may see."""
    row = seat.row
    game = site.referee.game(session, row)
    return Glance(
        status=row.status,
        phase=row.phase,
        step=row.step,
        result=row.result or "",
        deadline=int(row.deadline_at.timestamp()) if row.deadline_at else None,
        remaining=row.remaining_seconds,
        played=row.played,
        messages=fact(
            session,
            row,
            ("count", seat.press_name),
            press_topics(seat.press_name, TO_MASTER),
            lambda: count_for(session, row.id, seat.press_name),
        ),
        ready=seen_ready(session, seat),
        powers=tuple(game.powers()),
        given=seen_given(session, seat, game),
        votes=tuple(vote_token(n, v, game.powers()) for n, v in seen_votes(site, session, seat).items()),
    )


def seen_votes(site: Site, session: Session, seat: Seat) -> dict[int, VoteView]:
    """The game's newest votes as the reader may see them (``GET /api/games/{id}/votes``'s items), by their
    number in the game (1 for its first vote: unlike the row ids, it does not count other games' votes)."""
    shown = sorted(services.votes(site, session, seat).votes, key=lambda v: v.id)
    return {n: v for n, v in enumerate(shown, start=1) if n > len(shown) - MAX_VOTES}


def vote_token(number: int, vote: VoteView, powers: list[str]) -> str:
    """One vote as a glance holds it: its number in the game, its status and the ballots the reader sees."""
    marks = "".join({"yes": "y", "no": "n"}.get(str(vote.ballots.get(p)), "-") for p in powers).rstrip("-")
    return f"{number}{STATUS_LETTERS.get(vote.status, 'e')}{marks}"


def _vote_parts(token: str) -> tuple[int, str, str]:
    m = re.match(r"^(\d+)([a-z])(.*)$", token)
    return (int(m.group(1)), m.group(2), m.group(3)) if m else (0, "", "")


def vote_events(site: Site, session: Session, seat: Seat, old: Glance | None, new: Glance) -> list[Event]:
    """Vote events for what changed in the votes the reader sees: ``vote_opened``, ``vote_cast`` (a ballot the
    reader may see), ``vote_decided`` (passed, failed, expired or withdrawn).  Their data is the vote as the
    reader sees it (the items of ``GET /api/games/{id}/votes``)."""
    if old is None or old.votes == new.votes:
        return []
    before = {n: (s, marks) for n, s, marks in map(_vote_parts, old.votes)}
    oldest = min(before, default=0)
    views = seen_votes(site, session, seat)
    out: list[Event] = []
    for number, status, marks in map(_vote_parts, new.votes):
        view = views.get(number)
        if view is None:
            continue
        payload = {"game": seat.row.id, **view.data()}
        if number not in before:
            if number < oldest:
                continue  # left the window earlier: nothing new
            out.append(("vote_opened", payload))
            if status != "o":
                out.append(("vote_decided", payload))
        elif before[number][0] == "o" and status != "o":
            out.append(("vote_decided", payload))
        elif before[number] != (status, marks):
            out.append(("vote_cast", payload))
    return out


def since(site: Site, session: Session, seat: Seat) -> str:
    """The event id a page rendered now starts its stream from (so nothing between render and connection is lost)."""
    return glance(site, session, seat).cursor()


Event = tuple[str, dict[str, Any]]
"""An event type and its JSON payload."""


def differences(game_id: int, old: Glance | None, new: Glance) -> list[Event]:
    """The state events that take a reader from glance ``old`` to ``new`` (``hello`` when there is no ``old``)."""
    state = new.state(game_id)
    if old is None:
        return [("hello", state)]
    out: list[Event] = []
    if old.status == FORMING and new.status != FORMING:
        out.append(("started", state))
    if (old.phase, old.played) != (new.phase, new.played):
        out.append(("phase", {**state, "from": old.phase}))
    elif old.step != new.step:
        out.append(("step", {**state, "from": old.step}))
    if old.status != new.status and new.status == FINISHED:
        out.append(("finished", state))
    elif old.status != PAUSED and new.status == PAUSED:
        out.append(("paused", state))
    elif old.status == PAUSED and new.status not in (PAUSED, FORMING):
        out.append(("resumed", state))
    if not out and (old.deadline, old.remaining) != (new.deadline, new.remaining):
        out.append(("deadline", state))
    if (old.phase, old.step) == (new.phase, new.step):
        for power in sorted(old.ready ^ new.ready):
            out.append(
                (
                    "ready",
                    {
                        "game": game_id,
                        "phase": new.phase,
                        "step": new.step,
                        "power": power,
                        "ready": power in new.ready,
                    },
                )
            )
    if (old.phase, old.step) == (new.phase, new.step) and old.given is not None and new.given is not None:
        words = {letter: word for word, letter in GIVEN_LETTERS.items()}
        for power, before, now in zip(new.powers, old.given, new.given, strict=False):
            if before != now and now in words:
                out.append(
                    (
                        "given",
                        {"game": game_id, "phase": new.phase, "step": new.step, "power": power, "orders": words[now]},
                    )
                )
    return out


def message_event(game_id: int, msg: Message, number: int) -> Event:
    """A new message the reader may read (the same fields as the items of ``GET /api/games/{id}/messages``:
    ``number`` is its number among the reader's messages)."""
    return (
        "message",
        {
            "game": game_id,
            "id": number,
            "phase": msg.phase,
            "from": msg.sender,
            "to": msg.recipients,
            "conversation": msg.conversation,
            "body": msg.body,
            "at": msg.created_at.isoformat(),
        },
    )


def new_messages(session: Session, seat: Seat, old: Glance | None, new: Glance) -> list[Event]:
    """Message events for what the reader may read in ``new`` and had not in ``old``."""
    if old is None or new.messages <= old.messages:
        return []
    start = max(old.messages, new.messages - MAX_MESSAGES)
    return [
        message_event(seat.row.id, m, n)
        for n, m in enumerate(
            messages_after(session, seat.row.id, seat.press_name, start, new.messages - start), start=start + 1
        )
    ]


def format_event(kind: str, payload: dict[str, Any], event_id: str | None) -> str:
    """One server-sent event: ``id`` (when given), ``event`` and one ``data`` line of JSON."""
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {kind}\ndata: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}\n\n"


# --------------------------------------------------------------------------- waking streams
@dataclass(eq=False)
class Waiter:
    """One open stream's wake-up call, set from any thread."""

    game_id: int
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self) -> None:
        """Set the event in its own loop (thread-safe)."""
        with contextlib.suppress(RuntimeError):  # a closed loop: the stream is gone
            self.loop.call_soon_threadsafe(self.event.set)


class Hub:
    """This process's open streams, woken by the database's change signals."""

    def __init__(self, bus: ChangeBus) -> None:
        self.bus = bus
        self._waiters: dict[int, set[Waiter]] = {}
        self._lock = threading.Lock()
        self._stop: Callable[[], None] | None = None

    def open(self, game_id: int) -> Waiter:
        """A waiter for the changes of ``game_id`` (call from the event loop)."""
        waiter = Waiter(game_id, asyncio.get_running_loop())
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
            if self._stop is None:
                self._stop = self.bus.subscribe(self._signal)
        return waiter

    def close(self, waiter: Waiter) -> None:
        """Forget a stream's waiter."""
        with self._lock:
            group = self._waiters.get(waiter.game_id)
            if group is not None:
                group.discard(waiter)
                if not group:
                    del self._waiters[waiter.game_id]

    def streams(self) -> int:
        """How many streams are open in this process."""
        with self._lock:
            return sum(len(g) for g in self._waiters.values())

    def _signal(self, game_id: int | None, _kind: str) -> None:
        with self._lock:
            if game_id is None:
                targets = [w for g in self._waiters.values() for w in g]
            else:
                targets = list(self._waiters.get(game_id, ()))
        for waiter in targets:
            waiter.wake()

    def shutdown(self) -> None:
        """Stop listening for change signals."""
        with self._lock:
            stop, self._stop = self._stop, None
        if stop is not None:
            stop()


Reader = Callable[[Glance | None], tuple[str, Glance, list[Event]]]
"""Reads the game for one reader: (its viewer id, its glance now, the events since the glance given)."""


async def stream(
    hub: Hub, game_id: int, read: Reader, first: tuple[str, Glance, list[Event]], keepalive: float
) -> AsyncIterator[str]:
    """The text of one reader's event stream, from its first reading until it loses access or its lifetime ends.

    ``read`` runs in a worker thread after every change signal for the game and at every keep-alive beat;
    it raises when the reader may no longer read the game, which ends the stream.

    The keep-alive comment lines (``: keep-alive``) and the end of the stream keep a fixed clock: a beat every
    ``keepalive`` seconds from the stream's start, the end :data:`LIFETIME_SECONDS` after it, whatever
    happens in the game meanwhile.  (A timer restarted by every change signal would stop the keep-alives
    while others write orders, press or secret ballots: the reader would see that others are busy.)
    """
    waiter = hub.open(game_id)
    waiter.event.set()  # read once more at once: a change may have come between the first reading and now
    loop = asyncio.get_running_loop()
    try:
        yield f"retry: {RETRY_MS}\n\n"
        viewer, seen, events = first
        started = loop.time()
        end = started + LIFETIME_SECONDS
        beat = started + keepalive  # the next keep-alive
        while True:
            for i, (kind, payload) in enumerate(events):
                yield format_event(kind, payload, seen.cursor() if i == len(events) - 1 else None)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter.event.wait(), timeout=min(beat, end) - loop.time())
            if loop.time() >= end:
                return
            if loop.time() >= beat:
                yield ": keep-alive\n\n"
                beat += keepalive  # on the clock of the stream's start, not of the last change
            waiter.event.clear()
            try:
                now_viewer, now, events = await run_in_threadpool(read, seen)
            except Exception:  # access lost (logged out, removed, token deleted) or the database is gone
                return
            if now_viewer != viewer:  # the reader's seat changed: reconnecting builds the new one's stream
                return
            seen = now
    finally:
        hub.close(waiter)
