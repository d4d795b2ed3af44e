"""Sandboxes: open one from a position you may see, give orders for every power, adjudicate, step, branch, share.

A sandbox started from a game is built **from the requester's view only**
(:func:`position_from_view`): a player's sandbox of a running game holds the
units that player sees (never a foreign submerged submarine, never a sonar
contact's hidden nationality: contacts are left out), the centres, the phase.
The whole board is used only when the requester may see it: the game master,
or anyone in a finished game.  A sandbox of a sandbox starts from the whole
sandbox, which its owner built.  A share link reads the sandbox, never changes it.
"""

from __future__ import annotations

import secrets

from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.server.answers import Answer, Mapping, Omitted
from arbitre.server.errors import bad_request, conflict, not_found
from arbitre.server.power_names import power_namer
from arbitre.server.services import Seat, played_view
from arbitre.server.site import Site
from arbitre.server.viewing import view_data
from arbitre.state import Dislodged, Phase, Position, Unit
from arbitre.store.access import may_know
from arbitre.store.models import FINISHED, MASTER
from arbitre.store.sandboxes import Sandbox, add_sandbox, get_sandbox
from arbitre.views import View
from arbitre.words.phases import phase_name
from arbitre.words.translate import translator

MAX_ORDERS = 400
"""At most this many order lines in one sandbox adjudication."""


class SandboxItem(Answer):
    """One of the owner's sandboxes: its id and name."""

    id: int
    name: str


class SandboxRejected(Answer):
    """An order of a sandbox adjudication the engine refused (it fails): its power, text and why."""

    power: str
    order: str
    message: str


class SandboxState(Answer):
    """What a sandbox page shows: the phase under the cursor (whole board, orders and results once played), the
    phases, the powers still to order; ``share``: the share link (its owner only, not on a shared page)."""

    id: int
    name: str
    cursor: int
    count: int
    phases: list[str]
    newest: bool
    status: str
    winners: list[str]
    powers: list[str]
    to_order: list[str]
    view: Mapping
    shared: bool
    parent: int | None
    share: Omitted[str] = None


class Adjudicated(SandboxState):
    """A sandbox just adjudicated, and the orders the engine refused."""

    rejected: list[SandboxRejected]


def position_from_view(game: Game, view: View) -> Position:
    """The position a sandbox starts from: exactly the units, dislodged units and centres ``view`` holds.

    Units seen without a nationality are left out (nobody could order them);
    the variant state is the view's for the game master, a new game's otherwise.
    """
    gmap = game.rules.game_map
    units = {
        gmap.province_of.get(u.place, u.place): Unit(u.power, u.kind, u.place)
        for u in view.units
        if u.power is not None
    }
    dislodged = {
        gmap.province_of.get(d.unit.place, d.unit.place): Dislodged(
            Unit(d.unit.power, d.unit.kind, d.unit.place), d.attacker_from, d.retreats, d.by_convoy
        )
        for d in view.dislodged
        if d.unit.power is not None
    }
    extras = (
        dict(view.extras)
        if view.viewer == MASTER
        else dict(Game.new(game.map_name, game.rule_names, game.options).position.extras)
    )
    return Position(view.map_name, Phase.parse(view.phase), units, dict(view.owners), dislodged, extras)


def _fresh_game(game: Game, position: Position) -> Game:
    box = Game.new(game.map_name, game.rule_names, game.options)
    box.position = position
    return box


def open_from_game(session: Session, site: Site, seat: Seat, index: int | None, lang: str = "en") -> Sandbox:
    """A new sandbox of the requester, from the current phase (or played phase ``index``) as they may see it;
    its name in ``lang``, the requester's language ("Game — Spring 1901, movement (France's view)")."""
    assert seat.member is not None
    game = site.referee.game(session, seat.row)
    viewer = MASTER if seat.row.status == FINISHED else seat.viewer
    if index is None:
        view = game.view(viewer)
    else:
        played = played_view(site, session, seat.row, index, viewer)
        if played is None:
            raise not_found(f"phase {index} of this game")
        view = played
    data = _fresh_game(game, position_from_view(game, view)).to_data()
    _ = translator(lang)
    who = _("whole board") if viewer == MASTER else _("{power}'s view", power=power_namer(lang)(viewer))
    # a sandbox may be shared with anyone: it names its game only if anyone may know the game exists
    game_name = seat.row.name if may_know(seat.row, None) else _("private game")
    return add_sandbox(
        session,
        seat.member.user_id,
        secrets.token_urlsafe(24),
        f"{game_name} — {phase_name(view.phase, _)} ({who})",
        data,
        0,
        site.now(),
        source_game_id=seat.row.id,
    )


def game_of(box: Sandbox) -> Game:
    """The engine game of a sandbox."""
    return Game.from_data(box.data)


def owned(session: Session, sandbox_id: int, user_id: int | None) -> Sandbox:
    """The sandbox ``sandbox_id`` if ``user_id`` owns it (404 otherwise: others learn nothing)."""
    box = get_sandbox(session, sandbox_id)
    if box is None or user_id is None or box.owner_id != user_id:
        raise not_found("this sandbox")
    return box


def step(box: Sandbox, delta: int) -> None:
    """Move the cursor back or forward by ``delta`` phases (within the played phases)."""
    game = game_of(box)
    box.cursor = max(0, min(len(game.history), box.cursor + delta))


def latest(box: Sandbox) -> int:
    """The cursor of the newest position."""
    return len(box.data.get("history", []) or [])  # type: ignore[arg-type]


def adjudicate(box: Sandbox, lines: list[str]) -> list[SandboxRejected]:
    """Adjudicate the newest phase with ``POWER: ORDER`` lines; returns the rejected ones (they fail)."""
    game = game_of(box)
    if box.cursor != len(game.history):
        raise conflict("this is a past phase: step forward to the newest phase, or branch from here")
    if game.is_over:
        raise conflict("this sandbox's game is over; step back and branch to play on")
    if len(lines) > MAX_ORDERS or any(len(x) > 200 for x in lines):
        raise bad_request(f"at most {MAX_ORDERS} orders of 200 characters each", "too_long")
    by_power: dict[str, list[str]] = {}
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if ":" not in line:
            raise bad_request(f"line {n}: write 'POWER: ORDER' (e.g. 'FRANCE: A PAR - BUR')", "bad_orders")
        power, order = (x.strip() for x in line.split(":", 1))
        if power.upper() not in game.powers():
            raise bad_request(f"line {n}: {power!r} is not a power of this game", "bad_orders")
        by_power.setdefault(power.upper(), []).append(order)
    rejected: list[SandboxRejected] = []
    for power, orders in by_power.items():
        for r in game.set_orders(power, orders):
            rejected.append(
                SandboxRejected(power=power, order=r.order_text, message=r.message or r.reason or r.outcome)
            )
    game.advance()
    box.data = game.to_data()
    box.cursor = len(game.history)
    return rejected


def branch(session: Session, site: Site, box: Sandbox, owner_id: int) -> Sandbox:
    """A new sandbox of ``owner_id`` from the phase under the cursor (the phases before it kept)."""
    game = game_of(box)
    data = game.to_data()
    played = list(data["history"])
    history = played[: box.cursor]
    if box.cursor < len(game.history):
        data["position"] = dict(played[box.cursor]["position"])  # the record's position, extras included
        data["pending"], data["confirmed"], data["changes"] = {}, [], {}
        data.pop("lock_events", None)
        data["step"] = "orders"
        data["status"], data["winners"] = "active", []
    data["history"] = history
    data["played"] = len(history)
    Game.from_data(data)  # the branch must read back (it always does: it is a prefix of a played game)
    return add_sandbox(
        session,
        owner_id,
        secrets.token_urlsafe(24),
        f"{box.name} — branch at {_phase(box)}"[:120],
        data,
        len(history),
        site.now(),
        source_game_id=box.source_game_id,
        parent_id=box.id,
    )


def _phase(box: Sandbox) -> str:
    game = game_of(box)
    return str(game.history[box.cursor].position.phase) if box.cursor < len(game.history) else str(game.phase)


def sandbox_state(box: Sandbox, shared: bool) -> SandboxState:
    """What a sandbox page shows: the phase under the cursor (whole board, orders and results once played)."""
    game = game_of(box)
    played = box.cursor < len(game.history)
    view = game.phase_view(box.cursor, MASTER) if played else game.view(MASTER)
    return SandboxState(
        id=box.id,
        name=box.name,
        cursor=box.cursor,
        count=len(game.history),
        phases=[str(r.position.phase) for r in game.history] + [str(game.phase)],
        newest=not played,
        status=game.status,
        winners=list(game.winners),
        powers=game.powers(),
        to_order=[] if played or game.is_over else game.powers_to_order(),
        view=view_data(view, game.rules),
        shared=shared,
        parent=box.parent_id,
        share=None if shared else f"/s/{box.share_token}",
    )
