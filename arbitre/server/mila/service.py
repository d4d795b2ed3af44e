"""What MILA's requests do, through the site's application services (:mod:`arbitre.server.actions`,
:mod:`arbitre.server.services`): the same accounts, games, orders, press and votes as the pages and the
JSON API.  Every function opens its own transaction and runs in a worker thread; refusals are
:class:`~arbitre.server.mila.protocol.MilaError`.  Roles and access: :mod:`.access`; what the client is
told back: :mod:`.reading`.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.life.forming import DEADLINE_KEYS
from arbitre.life.referee import powers_to_act
from arbitre.server import actions, services
from arbitre.server.errors import Problem
from arbitre.server.fields import MAX_SECONDS
from arbitre.server.mila import board, names
from arbitre.server.mila.access import (
    MAP,
    Seen,
    actor,
    game_number,
    mila_rules,
    power_of,
    problem,
    representable,
    role_of,
    seat_of,
    site_errors,
    user_of,
)
from arbitre.server.mila.protocol import MilaError
from arbitre.server.mila.reading import game_object
from arbitre.server.site import Site
from arbitre.store.accounts import user_by_name
from arbitre.store.games import lobby_games
from arbitre.store.messages import PUBLIC
from arbitre.store.models import ACTIVE, FINISHED, FORMING, MASTER, OBSERVER, PAUSED, PLAYER, GameRow, User

_KEY = secrets.token_bytes(32)
_CHECKED: dict[tuple[str, str, bytes], tuple[int, int]] = {}
"""Credentials this process checked: (database, name, keyed digest of the password) → (account id, the
account's revision then).  MILA's clients sign in at every connection; a password is hashed (slowly, on purpose) once,
and a change to the account (a new password) makes its entry stale."""
MAX_CHECKED = 10_000


def sign_in(site: Site, username: str, password: str, address: str) -> int:
    """The account's id: logged in with the site's password, or registered with the site's own rules."""
    if not username or not password:
        raise MilaError("sign_in needs a username and a password", "UserException")
    key = (
        str(site.settings.database_url),
        username.strip().lower(),
        hmac.new(_KEY, password.encode("utf-8", "surrogatepass"), "sha256").digest(),
    )
    known = _CHECKED.get(key)
    if known is not None:
        with site.db.reading() as s:
            try:
                ticket = site.guard.check(address, username)  # counted like any login
            except Problem as err:
                raise problem(err, "UserException") from err
            site.guard.passed(ticket)  # not a failure: a stale entry is checked in full below
            user = s.get(User, known[0])
            if user is not None and user.revision == known[1] and user.name.lower() == key[1]:
                return user.id
    user_id = _sign_in(site, username, password, address)
    with site.db.reading() as s:
        user = s.get(User, user_id)
        if user is not None:
            if len(_CHECKED) >= MAX_CHECKED:
                _CHECKED.pop(next(iter(_CHECKED)))
            _CHECKED[key] = (user.id, user.revision)
    return user_id


def _sign_in(site: Site, username: str, password: str, address: str) -> int:
    # MILA's sign_in registers an unknown name, so it tells whether a name exists anyway: an unknown name
    # goes straight to the registration (no password check against a dummy hash first).
    with site.db.reading() as s:
        exists = user_by_name(s, username.strip()) is not None
        if exists:
            try:
                user = actions.authenticate(s, site, username, password, address)
            except Problem as err:
                raise problem(err, "UserException") from err
            if user is None:
                raise MilaError("wrong password for this account", "UserException")
            return user.id
    try:
        password_hash = actions.check_account(site, username.strip(), password, address)
        with site.db.writing() as s:
            return actions.register(s, site, username.strip(), password_hash, "en").id
    except Problem as err:
        raise problem(err, "UserException") from err


def check_user(site: Site, user_id: int) -> None:
    """Refuse a token whose account is gone."""
    with site.db.reading() as s:
        user_of(s, user_id)


@dataclass(frozen=True)
class Joined:
    """A client's game: its id (MILA's string), the client's role and MILA's ``Game`` object."""

    game_id: str
    role: str
    game: dict[str, Any]
    seen: Seen


def available_maps(site: Site) -> dict[str, Any]:
    """MILA's ``DataMaps``: the standard map's powers, centres and places."""
    gmap = Game.new(MAP).rules.game_map
    loc_type = {}
    for place in gmap.place_names:
        prov = gmap.provinces[gmap.province_of[place]]
        loc_type[place] = "COAST" if "/" in place else str(getattr(prov, "kind", "LAND")).upper()
    return {MAP: {"powers": sorted(gmap.powers), "supply_centers": sorted(gmap.supply_centers), "loc_type": loc_type}}


def create_game(
    site: Site,
    user_id: int,
    *,
    map_name: str,
    rules: list[str],
    deadline: int,
    power: str | None,
    game_id: str | None,
    state: dict[str, Any] | None,
) -> Joined:
    """A new game of the site, made with MILA's settings; the creator masters it (or plays ``power``)."""
    if map_name != MAP:
        raise MilaError(f"map {map_name!r}: MILA's clients play the {MAP} map here", "MapIdException")
    if state:
        raise MilaError(
            "this server starts games from the map's first phase: no initial state", "GameCreationException"
        )
    if game_id:
        raise MilaError("this server numbers its games: leave game_id out", "GameIdException")
    seconds = MAX_SECONDS if deadline == 0 else max(60, min(deadline, MAX_SECONDS))
    with site.db.writing() as s, site_errors("GameCreationException"):
        user = user_of(s, user_id)
        request = actions.GameRequest(
            name=f"{user.name} (MILA client)",
            map_name=MAP,
            press="none" if "NO_PRESS" in rules else ("public" if "PUBLIC_PRESS" in rules else "full"),
            assignment="choice" if "POWER_CHOICE" in rules or power else "random",
            deadlines=dict.fromkeys(DEADLINE_KEYS, seconds),
            options={"preset": "mila"},  # MILA's rulings where they differ from the DATC (docs/mila.md)
            creator=PLAYER if power else MASTER,
            power=power.upper() if power else None,
        )
        row = actions.new_game(s, site, user, request)
        gid = row.id
    return join_game(site, user_id, str(gid), power.upper() if power else None)


def join_game(site: Site, user_id: int, game_id: str, power: str | None, code: str | None = None) -> Joined:
    """Join a game (as ``power``, or as an observer) unless the requester is in it already; its MILA object."""
    gid = game_number(game_id)
    with site.db.writing() as s, site_errors():
        user = user_of(s, user_id)
        seat = services.open_game(s, gid, actor(user), member=False, lock=True)
        representable(seat.row)
        if seat.member is None:
            if power is not None and seat.row.assignment != "choice" and seat.row.status == FORMING:
                raise MilaError("this game gives powers at random: join it without a power name", "GameRoleException")
            actions.join_game(s, site, seat, user, PLAYER if power else OBSERVER, power, None, code)
            seat = services.open_game(s, gid, actor(user), lock=True)
        role = role_of(seat)
        if power is not None and role != power:
            raise MilaError(f"you are {role} in game {gid}, not {power}", "GameRoleException")
    return Joined(str(gid), role, *game_object(site, user_id, gid, role))


def join_powers(site: Site, user_id: int, game_id: str, powers: list[str], code: str | None) -> None:
    """A bot launcher takes powers: one power per account here (a seat is one account's)."""
    wanted = sorted({p.upper() for p in powers})
    if len(wanted) != 1:
        raise MilaError(
            "one account plays one power of a game here: join_powers takes one power name", "GameRoleException"
        )
    join_game(site, user_id, game_id, wanted[0], code)


def game_info(row: GameRow, taken: int, seat: services.Seat | None) -> dict[str, Any]:
    """MILA's ``DataGameInfo`` of a game."""
    role = role_of(seat) if seat is not None and seat.member is not None else None
    return {
        "game_id": str(row.id),
        "phase": board.COMPLETED if row.status == FINISHED else row.phase,
        "timestamp": board.micros(row.created_at),
        "timestamp_created": board.micros(row.created_at),
        "map_name": row.map_name,
        "observer_level": board.MASTER_TYPE if role == board.OMNISCIENT_TYPE else board.OBSERVER_TYPE,
        "controlled_powers": [role] if role and role not in (board.OMNISCIENT_TYPE, board.OBSERVER_TYPE) else [],
        "rules": mila_rules(row),
        "status": board.STATUSES.get(row.status, "active"),
        "n_players": taken,
        "n_controls": row.seats or 7,
        "deadline": int(row.deadlines.get("M", 0)),
        "registration_password": bool(row.private and row.join_code),
    }


def list_games(site: Site, user_id: int, status: str | None, game_id: str | None) -> list[dict[str, Any]]:
    """The lobby's games MILA's client can represent, as ``DataGameInfo``."""
    out = []
    with site.db.reading() as s:
        user = user_of(s, user_id)
        for row, taken in lobby_games(s, user.id):
            if row.map_name != MAP or row.rules:
                continue
            info = game_info(row, taken, None)
            if status and info["status"] != status:
                continue
            if game_id and game_id not in info["game_id"]:
                continue
            seat = services.open_game(s, row.id, actor(user), member=False)
            out.append(game_info(row, taken, seat))
    return out


def dummy_waiting_powers(site: Site, user_id: int, size: int) -> dict[str, list[str]]:
    """Seats nobody holds that a bot could take now: the free powers of open games that let players choose."""
    out: dict[str, list[str]] = {}
    count = 0
    with site.db.reading() as s:
        user = user_of(s, user_id)
        for row, taken in lobby_games(s, user.id):
            if count >= size or row.map_name != MAP or row.rules or row.status != FORMING:
                continue
            if row.assignment != "choice" or (row.seats is not None and taken >= row.seats):
                continue
            seat = services.open_game(s, row.id, actor(user), member=False)
            if seat.member is not None:
                continue
            page = services.join_page(site, s, seat)
            free = [p for p in page.powers if p not in page.chosen][: size - count]
            if free:
                out[str(row.id)] = free
                count += len(free)
    return out


def playable_powers(site: Site, user_id: int, game_id: str) -> list[str]:
    """The powers of a game nobody has chosen yet."""
    with site.db.reading() as s, site_errors():
        seat = services.open_game(s, game_number(game_id), actor(user_of(s, user_id)), member=False)
        representable(seat.row)
        if seat.row.status != FORMING:
            return []
        page = services.join_page(site, s, seat)
        return [p for p in page.powers if p not in page.chosen]


def set_orders(
    site: Site, user_id: int, game_id: str, role: str, phase: str, power: str | None, orders: list[str]
) -> bool:
    """A power's orders (MILA's notation) for the current phase, saved not ready; ``True`` when the power has
    something to order now (the caller then marks it ready, see :func:`mark_ready`)."""
    lines: list[str] = []
    unreadable: MilaError | None = None
    try:
        lines = [names.order_to_arbitre(o) for o in orders if o.strip()]
    except names.OrderTextError as err:
        unreadable = MilaError(str(err), "RequestException")

    def find(s: Session, lock: bool) -> tuple[Session, services.Seat]:
        seat = seat_of(s, user_id, game_id, role, lock=lock)
        mine = power_of(seat, power)
        if phase != seat.row.phase:
            raise MilaError(
                f"invalid order phase, received {phase[:16]}, server phase is {seat.row.phase}", "GamePhaseException"
            )
        if unreadable is not None:
            raise unreadable
        if not lines and mine not in powers_to_act(site.referee.game(s, seat.row)):
            raise _NothingToOrder
        return s, seat

    try:
        with site_errors():
            actions.submit_orders(
                site, site.db.reading, site.db.writing, find, lines, False, phase, lambda v, seat, done: None
            )
    except _NothingToOrder:
        return False
    return True


class _NothingToOrder(Exception):
    """The power has nothing to order now and gave nothing."""


def mark_ready(site: Site, user_id: int, game_id: str, role: str, phase: str, ready: bool) -> None:
    """Set a power's ready switch for ``phase`` (nothing once the game has moved on); the phase is processed
    when every power that must act is ready."""

    def find(s: Session, lock: bool) -> tuple[Session, services.Seat]:
        seat = seat_of(s, user_id, game_id, role, lock=lock)
        if seat.row.phase != phase or seat.row.status not in (ACTIVE, PAUSED):
            raise _NothingToOrder
        if power_of(seat, None) not in powers_to_act(site.referee.game(s, seat.row)):
            raise _NothingToOrder
        return s, seat

    try:
        with site_errors():
            actions.submit_orders(
                site, site.db.reading, site.db.writing, find, None, ready, phase, lambda v, seat, done: None
            )
    except _NothingToOrder:
        return


def set_wait(site: Site, user_id: int, game_id: str, role: str, power: str | None, wait: bool) -> str:
    """Check a wait-flag request; the phase it is for (the caller sets the switch, see :func:`mark_ready`)."""
    with site.db.reading() as s:
        seat = seat_of(s, user_id, game_id, role)
        power_of(seat, power)
        return seat.row.phase


def clear_orders(site: Site, user_id: int, game_id: str, role: str, power: str | None) -> None:
    """Take a power's orders back."""

    def find(s: Session, lock: bool) -> tuple[Session, services.Seat]:
        seat = seat_of(s, user_id, game_id, role, lock=lock)
        power_of(seat, power)
        return s, seat

    with site_errors():
        actions.submit_orders(site, site.db.reading, site.db.writing, find, [], False, None, lambda v, seat, d: None)


def send_message(
    site: Site, user_id: int, game_id: str, role: str, sender: str, recipient: str, body: str, phase: str
) -> int:
    """A press message from the requester's power; its time (MILA's ``time_sent``)."""
    with site.db.writing() as s, site_errors():
        seat = seat_of(s, user_id, game_id, role, lock=True)
        mine = power_of(seat, None)
        if sender != mine:
            raise MilaError("a power can only send its own messages", "GameRoleException")
        if recipient != names.GLOBAL and phase and phase != seat.row.phase:
            raise MilaError(f"the game is at {seat.row.phase}, not {phase[:16]}", "GamePhaseException")
        to = PUBLIC if recipient == names.GLOBAL else recipient.upper()
        msg = actions.send_message(s, site, seat, user_of(s, user_id), to, body)
        return board.micros(msg.created_at)


def vote(site: Site, user_id: int, game_id: str, role: str, power: str | None, choice: str) -> None:
    """MILA's draw vote as the site's draw vote: ``yes`` opens one (or votes yes on the open one), ``no`` votes
    no on the open one, ``neutral`` takes the ballot back."""
    with site.db.writing() as s, site_errors():
        seat = seat_of(s, user_id, game_id, role, lock=True)
        power_of(seat, power)
        if seat.row.status not in (ACTIVE, PAUSED):
            raise MilaError("this game is not running", "GameNotPlayingException")
        shown = services.votes(site, s, seat).votes
        draw = next((v for v in shown if v.kind == "draw" and v.status == "open"), None)
        if draw is None:
            if choice == "yes":
                actions.propose_vote(s, site, seat, "draw", None, None)
            return
        if choice == "neutral":
            actions.withdraw_vote(s, site, seat, draw.id, "ballot")
        else:
            actions.cast_ballot(s, site, seat, draw.id, choice)


def process_now(site: Site, user_id: int, game_id: str, role: str) -> None:
    """The master processes the current phase now."""
    with site_errors():
        actions.master_action(
            site,
            site.db.reading,
            site.db.writing,
            lambda s, lock: (s, seat_of(s, user_id, game_id, role, lock=lock)),
            "adjudicate",
        )


def possible_orders(site: Site, user_id: int, game_id: str, role: str) -> dict[str, Any]:
    """MILA's ``DataPossibleOrders``: the legal orders the requester may know now (a player: its own; the
    master: everyone's; an observer: none), by unit place, and each power's orderable places."""
    with site.db.reading() as s:
        seat = seat_of(s, user_id, game_id, role)
        game = site.referee.game(s, seat.row)
        running = seat.row.status in (ACTIVE, PAUSED)
        powers = [seat.power] if seat.role == PLAYER and seat.power else (game.powers() if seat.role == MASTER else [])
        possible: dict[str, list[str]] = {}
        orderable: dict[str, list[str]] = {p: [] for p in game.powers()}
        for p in powers:
            if not running or p not in powers_to_act(game):
                continue
            for place, options in services.legal_orders(game, p).items():
                possible[place] = [names.order_from_arbitre(o) for o in options]
                orderable[p].append(place)
        return {"possible_orders": possible, "orderable_locations": orderable}
