"""What MILA's requests do, through the site's application services (:mod:`arbitre.server.actions`,
:mod:`arbitre.server.services`): the same accounts, games, orders, press and votes as the pages and the
JSON API.  Every function opens its own transaction and runs in a worker thread; refusals are
:class:`~arbitre.server.mila.protocol.MilaError`.

Roles: the game's master is MILA's omniscient observer (``omniscient_type``), a player is its power, an
observer is ``observer_type``.  Only games MILA's client can draw are served: the standard map with no rule
module (rule options are fine: they change rulings, not what is on the board).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.server import actions, services
from arbitre.server.auth import Actor
from arbitre.server.errors import Problem
from arbitre.server.fields import MAX_SECONDS
from arbitre.server.mila import board, names
from arbitre.server.mila.protocol import MilaError
from arbitre.server.site import Site
from arbitre.store.accounts import user_by_name
from arbitre.store.games import DEADLINE_KEYS, lobby_games
from arbitre.store.lifecycle import powers_to_act
from arbitre.store.messages import PUBLIC, count_for, messages_after
from arbitre.store.models import ACTIVE, FINISHED, FORMING, MASTER, OBSERVER, PAUSED, PLAYER, GameRow, User

MAP = "standard"
"""The one map MILA's client and arbitre draw alike."""
PAGE = 500
"""Messages read at once."""


def _problem(err: Problem, error_type: str = "ResponseException") -> MilaError:
    where = f" ({err.where})" if err.where else ""
    return MilaError(f"{err.message}{where}", error_type)


@contextmanager
def _site_errors(error_type: str = "ResponseException") -> Iterator[None]:
    """The site's refusals (:class:`Problem`) as MILA errors."""
    try:
        yield
    except Problem as err:
        raise _problem(err, "GameIdException" if err.status == 404 else error_type) from err


def _actor(user: User) -> Actor:
    return Actor(user=user, nonce="", lang=user.lang or "en", by_token=True)


def _user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise MilaError("this account no longer exists", "TokenException")
    return user


def _game_id(value: str) -> int:
    if not value.isdigit() or len(value) > 12:
        raise MilaError(f"no game {value[:40]!r} here (game ids are numbers)", "GameIdException")
    return int(value)


def representable(row: GameRow) -> None:
    """Refuse a game MILA's client cannot represent (another map, or a rule module)."""
    if row.map_name != MAP or row.rules:
        rules = f" with rule modules {', '.join(row.rules)}" if row.rules else ""
        raise MilaError(
            f"game {row.id} is played on the {row.map_name} map{rules}: MILA's client can only represent the "
            f"standard map without rule modules; play it on the site or through the JSON API",
            "GameIdException",
        )


def mila_rules(row: GameRow) -> list[str]:
    """The MILA rules that describe the site's settings of a game."""
    rules = ["REAL_TIME"]  # a power's orders count as submitted at once (see set_orders)
    if row.assignment == "choice":
        rules.append("POWER_CHOICE")
    rules.append({"none": "NO_PRESS", "public": "PUBLIC_PRESS"}.get(row.press, "PRESS"))
    return sorted(r for r in rules if r != "PRESS")


def role_of(seat: services.Seat) -> str:
    """The MILA role of a member."""
    if seat.role == MASTER:
        return board.OMNISCIENT_TYPE
    if seat.role == PLAYER:
        if seat.member is None:
            return board.OBSERVER_TYPE
        return seat.power or seat.member.wanted_power or board.OBSERVER_TYPE
    return board.OBSERVER_TYPE


def viewer_of(role: str) -> str:
    """The view builder's viewer id of a MILA role."""
    if role == board.OMNISCIENT_TYPE:
        return "master"
    if role == board.OBSERVER_TYPE:
        return "observer"
    return role


def press_name(role: str) -> str:
    """The name a MILA role reads press under."""
    if role == board.OMNISCIENT_TYPE:
        return "MASTER"
    return "OBSERVER" if role == board.OBSERVER_TYPE else role


# --------------------------------------------------------------------------- accounts
_KEY = secrets.token_bytes(32)
_CHECKED: dict[tuple[str, bytes], tuple[int, int]] = {}
"""Credentials this process checked: (name, keyed digest of the password) → (account id, the account's
revision then).  MILA's clients sign in at every connection; a password is hashed (slowly, on purpose) once,
and a change to the account (a new password) makes its entry stale."""
MAX_CHECKED = 10_000


def sign_in(site: Site, username: str, password: str, address: str) -> int:
    """The account's id: logged in with the site's password, or registered with the site's own rules."""
    if not username or not password:
        raise MilaError("sign_in needs a username and a password", "UserException")
    key = (username.strip().lower(), hmac.new(_KEY, password.encode("utf-8", "surrogatepass"), "sha256").digest())
    known = _CHECKED.get(key)
    if known is not None:
        with site.db.reading() as s:
            try:
                site.guard.check(address, username)
            except Problem as err:
                raise _problem(err, "UserException") from err
            user = s.get(User, known[0])
            if user is not None and user.revision == known[1]:
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
                raise _problem(err, "UserException") from err
            if user is None:
                raise MilaError("wrong password for this account", "UserException")
            return user.id
    try:
        password_hash = actions.check_account(site, username.strip(), password, address)
        with site.db.writing() as s:
            return actions.register(s, site, username.strip(), password_hash, "en").id
    except Problem as err:
        raise _problem(err, "UserException") from err


def check_user(site: Site, user_id: int) -> None:
    """Refuse a token whose account is gone."""
    with site.db.reading() as s:
        _user(s, user_id)


# --------------------------------------------------------------------------- games
@dataclass(frozen=True)
class Seen:
    """What a client was told of a game: its status, the played phases and the messages it read."""

    status: str
    played: int
    """How many phases of the game's history (arbitre's, left-out ones included) it knows."""
    visible: int
    """How many MILA phases it knows."""
    messages: int


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
    data: dict[str, Any] = {
        "map": MAP,
        "press": "none" if "NO_PRESS" in rules else ("public" if "PUBLIC_PRESS" in rules else "full"),
        "assignment": "choice" if "POWER_CHOICE" in rules or power else "random",
        "deadlines": dict.fromkeys(DEADLINE_KEYS, seconds),
    }
    if power:
        data.update({"creator": PLAYER, "power": power.upper()})
    with site.db.writing() as s, _site_errors("GameCreationException"):
        user = _user(s, user_id)
        row = actions.new_game(s, site, user, {"name": f"{user.name} (MILA client)", **data})
        gid = row.id
    return join_game(site, user_id, str(gid), power.upper() if power else None)


def join_game(site: Site, user_id: int, game_id: str, power: str | None, code: str | None = None) -> Joined:
    """Join a game (as ``power``, or as an observer) unless the requester is in it already; its MILA object."""
    gid = _game_id(game_id)
    with site.db.writing() as s, _site_errors():
        user = _user(s, user_id)
        seat = services.open_game(s, gid, _actor(user), member=False, lock=True)
        representable(seat.row)
        if seat.member is None:
            if power is not None and seat.row.assignment != "choice" and seat.row.status == FORMING:
                raise MilaError("this game gives powers at random: join it without a power name", "GameRoleException")
            actions.join_game(s, site, seat, user, PLAYER if power else OBSERVER, power, None, code)
            seat = services.open_game(s, gid, _actor(user), lock=True)
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


def _seat(s: Session, user_id: int, game_id: str, role: str, *, lock: bool = False) -> services.Seat:
    """The requester's seat in a game, which must be the role its client claims."""
    user = _user(s, user_id)
    with _site_errors():
        seat = services.open_game(s, _game_id(game_id), _actor(user), lock=lock)
    representable(seat.row)
    if role_of(seat) != role:
        raise MilaError(f"you are not {role[:40]} in game {game_id}", "GameRoleException")
    return seat


def _messages(s: Session, row: GameRow, role: str) -> list[dict[str, Any]]:
    """Every message ``role`` may read in the game, as MILA's messages."""
    out: list[dict[str, Any]] = []
    reader = press_name(role)
    total = count_for(s, row.id, reader)
    for start in range(0, total, PAGE):
        for m in messages_after(s, row.id, reader, start, PAGE):
            data = board.message_data(m)
            if data is not None:
                out.append(data)
    return out


def controllers(s: Session, seat: services.Seat) -> dict[str, str]:
    """Who plays each power, as the requester's roster shows it (``anonymous`` in an anonymous game)."""
    roster = services.roster(s, seat.row, seat)
    out = {}
    for p in roster["players"]:
        if p["power"]:
            out[p["power"]] = p["user"] or "anonymous"
    return out


def game_object(site: Site, user_id: int, game_id: int, role: str) -> tuple[dict[str, Any], Seen]:
    """MILA's ``Game`` object of a game for the requester's role, and what it tells (read together, so that
    the notifications start exactly where the object ends)."""
    with site.db.reading() as s:
        seat = _seat(s, user_id, str(game_id), role)
        row = seat.row
        game = site.referee.game(s, row)
        timeline = board.Timeline(game, viewer_of(role), board.micros(row.created_at))
        ctl = controllers(s, seat)
        if role in game.rules.game_map.powers and seat.power is None:
            ctl.setdefault(role, _user(s, user_id).name)  # chosen before the game starts
        messages = _messages(s, row, role)
        seen = Seen(row.status, len(game.history), len(timeline.played), count_for(s, row.id, press_name(role)))
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
        user = _user(s, user_id)
        for row, taken in lobby_games(s, user.id):
            if row.map_name != MAP or row.rules:
                continue
            info = game_info(row, taken, None)
            if status and info["status"] != status:
                continue
            if game_id and game_id not in info["game_id"]:
                continue
            seat = services.open_game(s, row.id, _actor(user), member=False)
            out.append(game_info(row, taken, seat))
    return out


def dummy_waiting_powers(site: Site, user_id: int, size: int) -> dict[str, list[str]]:
    """Seats nobody holds that a bot could take now: the free powers of open games that let players choose."""
    out: dict[str, list[str]] = {}
    count = 0
    with site.db.reading() as s:
        user = _user(s, user_id)
        for row, taken in lobby_games(s, user.id):
            if count >= size or row.map_name != MAP or row.rules or row.status != FORMING:
                continue
            if row.assignment != "choice" or (row.seats is not None and taken >= row.seats):
                continue
            seat = services.open_game(s, row.id, _actor(user), member=False)
            if seat.member is not None:
                continue
            page = services.join_page(site, s, seat)
            free = [p for p in page["powers"] if p not in page["chosen"]][: size - count]
            if free:
                out[str(row.id)] = free
                count += len(free)
    return out


def playable_powers(site: Site, user_id: int, game_id: str) -> list[str]:
    """The powers of a game nobody has chosen yet."""
    with site.db.reading() as s, _site_errors():
        seat = services.open_game(s, _game_id(game_id), _actor(_user(s, user_id)), member=False)
        representable(seat.row)
        if seat.row.status != FORMING:
            return []
        page = services.join_page(site, s, seat)
        return [p for p in page["powers"] if p not in page["chosen"]]


# --------------------------------------------------------------------------- in a game
def _power(seat: services.Seat, asked: str | None) -> str:
    power = seat.power
    if seat.role != PLAYER or not power:
        raise MilaError("only a player holding a power does this (the game has not started?)", "GameRoleException")
    if asked and asked.upper() != power:
        raise MilaError(f"you play {power}, not {asked[:40]}", "GameRoleException")
    return power


def set_orders(
    site: Site, user_id: int, game_id: str, role: str, phase: str, power: str | None, orders: list[str]
) -> bool:
    """A power's orders (MILA's notation) for the current phase, saved not ready; ``True`` when the power has
    something to order now (the caller then marks it ready, see :func:`mark_ready`)."""
    with site.db.reading() as s:
        seat = _seat(s, user_id, game_id, role)
        mine = _power(seat, power)
        if phase != seat.row.phase:
            raise MilaError(
                f"invalid order phase, received {phase[:16]}, server phase is {seat.row.phase}", "GamePhaseException"
            )
        game = site.referee.game(s, seat.row)
        try:
            lines = [names.order_to_arbitre(game.rules, o) for o in orders if o.strip()]
        except names.OrderTextError as err:
            raise MilaError(str(err), "RequestException") from err
        if mine not in powers_to_act(game):
            if lines:
                raise MilaError(f"{mine} has nothing to order in {seat.row.phase}", "ResponseException")
            return False
        checked = actions.precheck_orders(site, s, seat, lines)
    with site.db.writing() as s, _site_errors():
        seat = _seat(s, user_id, game_id, role, lock=True)
        actions.submit_orders(s, site, seat, lines, False, phase, checked)
    return True


def mark_ready(site: Site, user_id: int, game_id: str, role: str, phase: str, ready: bool) -> None:
    """Set a power's ready switch for ``phase`` (nothing once the game has moved on); the phase is processed
    when every power that must act is ready."""
    with site.db.writing() as s:
        seat = _seat(s, user_id, game_id, role, lock=True)
        if seat.row.phase != phase or seat.row.status not in (ACTIVE, PAUSED):
            return
        game = site.referee.game(s, seat.row)
        if _power(seat, None) not in powers_to_act(game):
            return
        with _site_errors():
            actions.submit_orders(s, site, seat, None, ready, phase)


def set_wait(site: Site, user_id: int, game_id: str, role: str, power: str | None, wait: bool) -> str:
    """Check a wait-flag request; the phase it is for (the caller sets the switch, see :func:`mark_ready`)."""
    with site.db.reading() as s:
        seat = _seat(s, user_id, game_id, role)
        _power(seat, power)
        return seat.row.phase


def clear_orders(site: Site, user_id: int, game_id: str, role: str, power: str | None) -> None:
    """Take a power's orders back."""
    with site.db.writing() as s, _site_errors():
        seat = _seat(s, user_id, game_id, role, lock=True)
        _power(seat, power)
        actions.submit_orders(s, site, seat, [], False, None)


def send_message(
    site: Site, user_id: int, game_id: str, role: str, sender: str, recipient: str, body: str, phase: str
) -> int:
    """A press message from the requester's power; its time (MILA's ``time_sent``)."""
    with site.db.writing() as s, _site_errors():
        seat = _seat(s, user_id, game_id, role, lock=True)
        mine = _power(seat, None)
        if sender != mine:
            raise MilaError("a power can only send its own messages", "GameRoleException")
        if recipient != names.GLOBAL and phase and phase != seat.row.phase:
            raise MilaError(f"the game is at {seat.row.phase}, not {phase[:16]}", "GamePhaseException")
        to = PUBLIC if recipient == names.GLOBAL else recipient.upper()
        msg = actions.send_message(s, site, seat, _user(s, user_id), to, body)
        return board.micros(msg.created_at)


def vote(site: Site, user_id: int, game_id: str, role: str, power: str | None, choice: str) -> None:
    """MILA's draw vote as the site's draw vote: ``yes`` opens one (or votes yes on the open one), ``no`` votes
    no on the open one, ``neutral`` takes the ballot back."""
    with site.db.writing() as s, _site_errors():
        seat = _seat(s, user_id, game_id, role, lock=True)
        _power(seat, power)
        if seat.row.status not in (ACTIVE, PAUSED):
            raise MilaError("this game is not running", "GameNotPlayingException")
        shown = services.votes(site, s, seat)["votes"]
        draw = next((v for v in shown if v["kind"] == "draw" and v["status"] == "open"), None)
        if draw is None:
            if choice == "yes":
                actions.propose_vote(s, site, seat, "draw", None, None)
            return
        if choice == "neutral":
            actions.withdraw_vote(s, site, seat, int(draw["id"]), "ballot")
        else:
            actions.cast_ballot(s, site, seat, int(draw["id"]), choice)


def process_now(site: Site, user_id: int, game_id: str, role: str) -> None:
    """The master processes the current phase now."""
    with site.db.writing() as s, _site_errors():
        seat = _seat(s, user_id, game_id, role, lock=True)
        actions.master_action(s, site, seat, "adjudicate")


def possible_orders(site: Site, user_id: int, game_id: str, role: str) -> dict[str, Any]:
    """MILA's ``DataPossibleOrders``: the legal orders the requester may know now (a player: its own; the
    master: everyone's; an observer: none), by unit place, and each power's orderable places."""
    with site.db.reading() as s:
        seat = _seat(s, user_id, game_id, role)
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


def phase_history(
    site: Site, user_id: int, game_id: str, role: str, start: str | int | None, end: str | int | None
) -> list[dict[str, Any]]:
    """The played MILA phases from ``start`` to ``end`` (phase names or indices, as MILA takes them; ``None``:
    from the first, to the last) as the requester sees them."""
    with site.db.reading() as s:
        seat = _seat(s, user_id, game_id, role)
        game = site.referee.game(s, seat.row)
        timeline = board.Timeline(game, viewer_of(role), board.micros(seat.row.created_at))
        messages = _messages(s, seat.row, role)
        played = [timeline.phase_data(k, messages) for k in range(len(timeline.played))]
    names_ = [d["name"] for d in played]

    def index(bound: str | int | None, default: int) -> int:
        if bound is None or bound == "":
            return default
        if isinstance(bound, int):
            return bound if bound >= 0 else len(played) + bound
        if bound not in names_:
            raise MilaError(f"no played phase {bound[:16]!r} in game {game_id}", "GamePhaseException")
        return names_.index(bound)

    return played[index(start, 0) : index(end, len(played) - 1) + 1]


def glance(site: Site, user_id: int, game_id: str, role: str) -> tuple[Seen, str]:
    """What a client that follows a game from now on knows of it, and its current MILA phase."""
    with site.db.reading() as s:
        seat = _seat(s, user_id, game_id, role)
        game = site.referee.game(s, seat.row)
        timeline = board.Timeline(game, viewer_of(role), board.micros(seat.row.created_at))
        count = count_for(s, seat.row.id, press_name(role))
        return Seen(seat.row.status, len(game.history), len(timeline.played), count), timeline.current_name()


Note = tuple[str, dict[str, Any]]
"""A notification's MILA name and its fields."""


def news(site: Site, user_id: int, game_id: str, role: str, seen: Seen) -> tuple[Seen, list[Note]]:
    """The notifications that take the client from ``seen`` to now, each built from its own view: messages,
    processed phases, status changes."""
    out: list[Note] = []
    with site.db.reading() as s:
        seat = _seat(s, user_id, game_id, role)
        row = seat.row
        game = site.referee.game(s, row)
        reader = press_name(role)
        count = count_for(s, row.id, reader)
        new_messages = []
        if count > seen.messages:
            for start in range(seen.messages, count, PAGE):
                new_messages.extend(messages_after(s, row.id, reader, start, PAGE))
        mila = [d for d in (board.message_data(m) for m in new_messages) if d is not None]
        mila = [m for m in mila if m["sender"] != role]  # a sender has its own message from the answer
        visible = seen.visible
        if len(game.history) != seen.played or row.status != seen.status:
            timeline = board.Timeline(game, viewer_of(role), board.micros(row.created_at))
            current = timeline.current.phase
            for m in mila:
                if m["phase"] != current:
                    out.append(("game_message_received", {"message": m}))
            mila = [m for m in mila if m["phase"] == current]
            if len(timeline.played) > seen.visible or (row.status == FINISHED and seen.status != FINISHED):
                messages = _messages(s, row, role)
                own = (
                    [role]
                    if role in game.rules.game_map.powers
                    else (sorted(game.powers()) if role == board.OMNISCIENT_TYPE else [])
                )
                now = board.micros(site.now())
                for k in range(seen.visible, len(timeline.played)):
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
                visible = len(timeline.played)
            if row.status != seen.status:
                out.append(("game_status_update", {"status": board.STATUSES.get(row.status, "active")}))
        out.extend(("game_message_received", {"message": m}) for m in mila)
        return Seen(row.status, len(game.history), visible, count), out
