"""One MILA websocket connection: its requests answered in order, its tokens, and the notifications each
game it follows is owed.

A token is made at each ``sign_in`` (192 random bits) and stands for the account in this server process;
one connection may hold several (MILA's client signs every player in on one connection).  Each game a
token joined is followed: the site's change signals (:class:`arbitre.server.live.Hub`) wake it, and
:func:`arbitre.server.mila.reading.news` says, from that token's own view, what it has not been told yet.
Requests are answered concurrently, each by its request id; a notification may reach the client before
the answer of the request that caused it (MILA's own server does not order them either).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from arbitre.server.live import Hub
from arbitre.server.mila import access, reading, service
from arbitre.server.mila import protocol as p
from arbitre.server.site import Site

log = logging.getLogger("arbitre.mila")
T = TypeVar("T")

READY_DELAY = 2.0
"""Seconds between a MILA client's orders (not waiting) and its ready switch: MILA's scheduler processes a phase
at its next one-second tick; two seconds leave room on a loaded machine."""
_LATER: set[asyncio.Task[None]] = set()
MAX_FOLLOWS = 200
"""Games one connection follows at most (each is a task waiting for the game's changes)."""
TOKENS: dict[str, int] = {}
"""This process's MILA tokens → account id."""
MAX_TOKENS = 100_000
"""Tokens kept at most (the oldest are forgotten first)."""
_ids = itertools.count(1)
_SIGN_INS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


def sign_ins() -> asyncio.Lock:
    """The lock that lets MILA sign-ins of this event loop check one password at a time."""
    loop = asyncio.get_running_loop()
    lock = _SIGN_INS.get(loop)
    if lock is None:
        lock = _SIGN_INS[loop] = asyncio.Lock()
    return lock


@dataclass
class Follow:
    """A game a token follows, as a role, and its notification task."""

    token: str
    game_id: str
    role: str
    seen: access.Seen
    task: asyncio.Task[None] | None = None


@dataclass
class Connection:
    """One client connection."""

    ws: WebSocket
    site: Site
    hub: Hub
    address: str
    follows: dict[tuple[str, str], Follow] = field(default_factory=dict)
    requests: set[asyncio.Task[None]] = field(default_factory=set)
    writing: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def run(self) -> None:
        """Answer requests until the client leaves."""
        try:
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                frame = message.get("text") if message.get("text") is not None else message.get("bytes")
                if frame is None:
                    continue
                # Each request in its own task, as MILA's server does: its client sends many at once
                # (it signs seven players in together) and awaits each answer by its request id.
                task = asyncio.create_task(self.handle(frame))
                self.requests.add(task)
                task.add_done_callback(self.requests.discard)
        except WebSocketDisconnect:
            return
        finally:
            for task in list(self.requests):
                task.cancel()
            for follow in self.follows.values():
                if follow.task is not None:
                    follow.task.cancel()

    async def handle(self, frame: str | bytes) -> None:
        """Answer one frame."""
        answer = await self.answer(frame)
        if answer is not None:
            await self.send(answer)

    async def send(self, value: dict[str, Any]) -> None:
        """Write one frame (a closed socket is the reader's business)."""
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        async with self.writing:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await self.ws.send_text(text)

    async def answer(self, frame: str | bytes) -> dict[str, Any] | None:
        """The response to one frame: its data, ``ok``, or MILA's ``error`` (never an exception)."""
        rid = p.request_id_of(frame)
        try:
            request = p.parse(frame)
            rid = request.request_id
            return await self.dispatch(request)
        except p.MilaError as err:
            return p.error(rid, err)
        except Exception:  # a bug must not take the connection (or the server) down
            log.exception("MILA request failed")
            return p.error(rid, p.MilaError("the server could not handle this request", "ResponseException"))

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a service function in a worker thread."""
        return await run_in_threadpool(fn, *args, **kwargs)

    def user_of(self, request: p.ChannelRequest) -> int:
        """The account a token stands for; ``TokenException`` for a token this server did not give."""
        user_id = TOKENS.get(request.token)
        if user_id is None:
            raise p.MilaError("unknown token: sign in again", "TokenException")
        return user_id

    async def dispatch(self, r: p.Request) -> dict[str, Any] | None:
        """Do what the request asks."""
        site, rid = self.site, r.request_id
        if isinstance(r, p.SignIn):
            async with sign_ins():  # one password check at a time: the site's hashing gate queues only two
                user_id = await self.call(service.sign_in, site, r.username, r.password, self.address)
            token = secrets.token_hex(24)
            if len(TOKENS) >= MAX_TOKENS:
                TOKENS.pop(next(iter(TOKENS)))
            TOKENS[token] = user_id
            return p.data(rid, "data_token", token)
        assert isinstance(r, p.ChannelRequest)
        if isinstance(r, p.UnknownToken):
            self.forget(r.token)
            return None
        user = self.user_of(r)
        if isinstance(r, p.Logout):
            self.forget(r.token)
            return p.ok(rid)
        if isinstance(r, p.GetAvailableMaps):
            return p.data(rid, "data_maps", await self.call(service.available_maps, site))
        if isinstance(r, p.CreateGame):
            joined = await self.call(
                service.create_game,
                site,
                user,
                map_name=r.map_name,
                rules=list(r.rules or []),
                deadline=r.deadline,
                power=r.power_name,
                game_id=r.game_id,
                state=r.state,
            )
            return await self.joined(rid, r.token, user, joined)
        if isinstance(r, p.JoinGame):
            joined = await self.call(service.join_game, site, user, r.game_id, r.power_name, r.registration_password)
            return await self.joined(rid, r.token, user, joined)
        if isinstance(r, p.JoinPowers):
            await self.call(service.join_powers, site, user, r.game_id, r.power_names, r.registration_password)
            return p.ok(rid)
        if isinstance(r, p.ListGames):
            return p.data(rid, "data_games", await self.call(service.list_games, site, user, r.status, r.game_id))
        if isinstance(r, p.GetGamesInfo):
            games = await self.call(service.list_games, site, user, None, None)
            return p.data(rid, "data_games", [g for g in games if g["game_id"] in r.games])
        if isinstance(r, p.GetDummyWaitingPowers):
            found = await self.call(service.dummy_waiting_powers, site, user, r.buffer_size)
            return p.data(rid, "data_games_to_power_names", found)
        if isinstance(r, p.GetPlayablePowers):
            return p.data(rid, "data_power_names", await self.call(service.playable_powers, site, user, r.game_id))
        assert isinstance(r, p.GameRequest)
        return await self.game_request(r, user)

    async def game_request(self, r: p.GameRequest, user: int) -> dict[str, Any] | None:
        """A request about one of the token's games."""
        site, rid, gid, role = self.site, r.request_id, r.game_id, r.game_role
        if isinstance(r, p.SetOrders):
            acts = await self.call(service.set_orders, site, user, gid, role, r.phase, r.power_name, list(r.orders))
            if acts and r.wait is not True:
                self.ready_later(user, gid, role, r.phase)
        elif isinstance(r, p.SetWaitFlag):
            phase = await self.call(service.set_wait, site, user, gid, role, r.power_name, r.wait)
            if r.wait:
                await self.call(service.mark_ready, site, user, gid, role, phase, False)
            else:
                self.ready_later(user, gid, role, phase)
        elif isinstance(r, p.ClearOrders):
            await self.call(service.clear_orders, site, user, gid, role, r.power_name)
        elif isinstance(r, p.Vote):
            await self.call(service.vote, site, user, gid, role, r.power_name, r.vote)
        elif isinstance(r, p.SendGameMessage):
            m = r.message
            at = await self.call(service.send_message, site, user, gid, role, m.sender, m.recipient, m.message, m.phase)
            return p.data(rid, "data_time_stamp", at)
        elif isinstance(r, p.GetAllPossibleOrders):
            found = await self.call(service.possible_orders, site, user, gid, role)
            return {"request_id": rid, "name": "data_possible_orders", **found}
        elif isinstance(r, p.GetPhaseHistory):
            phases = await self.call(reading.phase_history, site, user, gid, role, r.from_phase, r.to_phase)
            return p.data(rid, "data_game_phases", phases)
        elif isinstance(r, p.ProcessGame):
            await self.call(service.process_now, site, user, gid, role)
        elif isinstance(r, p.LeaveGame):
            follow = self.follows.pop((r.token, gid), None)
            if follow is not None and follow.task is not None:
                follow.task.cancel()
        elif isinstance(r, p.Synchronize):
            seen, phase = await self.call(reading.glance, site, user, gid, role)
            if (r.token, gid) not in self.follows:
                self.follow(Follow(r.token, gid, role, seen))
            return {
                "request_id": rid,
                "name": "data_game_info",
                "game_id": gid,
                "phase": phase,
                "timestamp": r.timestamp,
                "timestamp_created": 0,
            }
        elif isinstance(r, p.QuerySchedule):
            raise p.MilaError("this server does not publish its schedule over MILA's protocol; see the game page")
        return p.ok(rid)

    def ready_later(self, user: int, game_id: str, role: str, phase: str) -> None:
        """Mark the power ready after :data:`READY_DELAY` (MILA's scheduler processes a phase at its next tick, and
        its clients count on that: a power with nothing to order may still write in the phase just after the
        last orders came)."""

        async def later() -> None:
            await asyncio.sleep(READY_DELAY)
            try:
                await self.call(service.mark_ready, self.site, user, game_id, role, phase, True)
            except p.MilaError:
                pass  # the seat or the game changed meanwhile: nothing to mark
            except Exception:
                log.exception("MILA ready switch of game %s failed", game_id)

        task = asyncio.create_task(later())  # not cancelled with the connection: the orders were taken
        _LATER.add(task)
        task.add_done_callback(_LATER.discard)

    async def joined(self, rid: str, token: str, user: int, joined: service.Joined) -> dict[str, Any]:
        """Answer a join with the game object and start following the game."""
        old = self.follows.get((token, joined.game_id))
        if old is not None and old.task is not None:
            old.task.cancel()
        self.follow(Follow(token, joined.game_id, joined.role, joined.seen))
        return p.data(rid, "data_game", joined.game)

    def follow(self, follow: Follow) -> None:
        """Start the notification task of a followed game (at most :data:`MAX_FOLLOWS` per connection)."""
        if len(self.follows) >= MAX_FOLLOWS and (follow.token, follow.game_id) not in self.follows:
            raise p.MilaError(f"a connection follows at most {MAX_FOLLOWS} games; leave one first", "ResponseException")
        self.follows[(follow.token, follow.game_id)] = follow
        follow.task = asyncio.create_task(self.watch(follow))

    def forget(self, token: str) -> None:
        """Drop a token and stop its notifications."""
        TOKENS.pop(token, None)
        for key in [k for k in self.follows if k[0] == token]:
            task = self.follows.pop(key).task
            if task is not None:
                task.cancel()

    async def watch(self, follow: Follow) -> None:
        """Tell the token what happens in its game, from its own view, until it leaves."""
        waiter = self.hub.open(int(follow.game_id))
        waiter.event.set()  # a change may have come between the join's reading and now
        try:
            while True:
                await waiter.event.wait()
                waiter.event.clear()
                user = TOKENS.get(follow.token)
                if user is None:
                    return
                try:
                    seen, notes = await run_in_threadpool(
                        reading.news, self.site, user, follow.game_id, follow.role, follow.seen
                    )
                except p.MilaError:
                    return  # access lost: the game is no longer this token's
                for name, fields in notes:
                    await self.send(self.notification(follow, name, fields))
                follow.seen = seen
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("MILA notifications of game %s stopped", follow.game_id)
        finally:
            self.hub.close(waiter)

    @staticmethod
    def notification(follow: Follow, name: str, fields: dict[str, Any]) -> dict[str, Any]:
        """One of MILA's game notifications for a followed game."""
        return {
            "notification_id": f"n{next(_ids)}",
            "name": name,
            "token": follow.token,
            "game_id": follow.game_id,
            "game_role": follow.role,
            "power_name": None,
            **fields,
        }
