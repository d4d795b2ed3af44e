"""What the pages and the API both do: each action checks its inputs and runs in the caller's transaction."""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TypeVar

from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.judge.votes import CHOICES as VOTE_CHOICES
from arbitre.judge.votes import KINDS as VOTE_KINDS
from arbitre.life import votes as store_votes
from arbitre.life.endings import check_ending
from arbitre.life.forming import DEADLINE_KEYS, BotsRequest, GameSettings, create_game, join
from arbitre.life.referee import SubmitResult
from arbitre.life.turns import Closing, Plan, Submission, Turn, closing, ending, play, submission
from arbitre.maps import available_maps
from arbitre.server.answers import CheckedLine
from arbitre.server.errors import Problem, bad_request, conflict, forbidden, not_found
from arbitre.server.fields import MAX_ID, MAX_ITEMS, MAX_LINE, MAX_ORDERS, MAX_SECONDS
from arbitre.server.local_times import known_zone
from arbitre.server.security import DUMMY_HASH, hash_password, verify_password
from arbitre.server.services import Seat, check
from arbitre.server.site import Site
from arbitre.store.accounts import NameTaken, create_user, user_by_name
from arbitre.store.botseats import seat_bot, store_settings
from arbitre.store.drafts import drop_draft
from arbitre.store.endings import store_ending
from arbitre.store.games import GameRuleError, memberships
from arbitre.store.lateness import store_lateness
from arbitre.store.messages import TO_MASTER, post_message
from arbitre.store.models import MASTER, OBSERVER, PLAYER, GameRow, Message, User
from arbitre.variants import MODULES, REGISTRY

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{3,40}$")
V = TypeVar("V")
R = TypeVar("R")
MASTER_ACTIONS = ("pause", "resume", "extend", "adjudicate", "draw", "end", "replace")
"""What the master console can do."""


def check_account(site: Site, name: str, password: str, address: str) -> str:
    """Check a new account's name and password and hash the password (throttled per address; run it
    before opening the write transaction: hashing is slow)."""
    site.guard.check(address, None)
    if not NAME_RE.match(name or "") or not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise bad_request(
            "a name is 3 to 40 letters, digits, '-' or '_'; a password 8 to 200 characters",
            "bad_account",
            "name" if not NAME_RE.match(name or "") else "password",
        )
    return site.guard.gate.run(lambda: hash_password(password))


def register(session: Session, site: Site, name: str, password_hash: str, lang: str, zone: str = "") -> User:
    """Create an account with a hash from :func:`check_account`; ``zone``: its time zone when a known one (the
    browser's, so that e-mails show the times the pages show), else UTC."""
    try:
        user = create_user(session, name, password_hash, lang if lang in ("en", "fr") else "en", site.now())
    except NameTaken as err:
        raise conflict("this name is taken") from err
    if known_zone(zone):
        user.time_zone = zone
    return user


def authenticate(session: Session, site: Site, name: str, password: str, address: str) -> User | None:
    """The user if ``password`` is theirs (throttled per address and per account and address; 429 beyond the limits).

    A hash is checked either way, so timing tells nothing; hashing runs through
    the site's bounded gate.  Call it in a read transaction, never a write one.
    """
    ticket = site.guard.check(address, name)  # counted as a failure until the password proves right
    user = user_by_name(session, name.strip())
    ok = site.guard.gate.run(lambda: verify_password(user.password_hash if user else DUMMY_HASH, password))
    if ok and user is not None:
        site.guard.passed(ticket)
        return user
    return None


GameRequest = GameSettings
"""A new game as asked for: :class:`arbitre.life.forming.GameSettings` itself (the name MILA's service uses)."""


def new_game(session: Session, site: Site, user: User, request: GameSettings) -> GameRow:
    """Create a game with ``user`` as master (or first player) from a typed request."""
    map_name = request.map_name or "standard"
    if map_name not in available_maps():
        raise bad_request(f"unknown map {map_name!r}; known: {', '.join(available_maps())}", "bad_settings", "map")
    unknown = [r for r in request.rules if r not in REGISTRY]
    if unknown:
        raise bad_request(
            f"unknown rule module {unknown[0]!r}; known: {', '.join(sorted(REGISTRY)) or 'none'}",
            "bad_settings",
            "rules",
        )
    elsewhere = [r for r in request.rules if not MODULES[r].applies_to(map_name)]
    if elsewhere:
        module = MODULES[elsewhere[0]]
        raise bad_request(
            f"rule module {module.name!r} does not apply to the map {map_name!r}; it applies to: "
            f"{', '.join(module.maps)}",
            "bad_settings",
            "rules",
        )
    if len(request.options) > MAX_ITEMS or len(request.rules) > MAX_ITEMS:
        raise bad_request(f"at most {MAX_ITEMS} rule modules and {MAX_ITEMS} options", "bad_settings", "options")
    for key, value in request.options.items():
        if (
            not isinstance(key, str)
            or len(key) > 80
            or (isinstance(value, str) and len(value) > MAX_LINE)
            or not isinstance(value, (str, int))
            or (isinstance(value, int) and abs(value) > MAX_ID)
        ):
            raise bad_request(
                f"an option is a name of at most 80 characters with a value of at most {MAX_LINE} "
                "characters, a whole number or a yes/no",
                "bad_settings",
                f"options.{str(key)[:80]}",
            )
    if any(
        k not in DEADLINE_KEYS or not isinstance(v, int) or isinstance(v, bool) for k, v in request.deadlines.items()
    ):
        raise bad_request(
            f"deadlines are seconds (integers) keyed by {', '.join(DEADLINE_KEYS)}", "bad_settings", "deadlines"
        )
    try:
        row = create_game(session, user, replace(request, map_name=map_name), site.now())
    except (GameRuleError, ValueError) as err:
        where = (err.where or "settings") if isinstance(err, GameRuleError) else "options"
        raise bad_request(str(err), "bad_settings", where) from err
    if request.lateness is not None:
        store_lateness(session, row.id, request.lateness)
    try:  # checked against the map; a refusal rolls the whole creation back
        ending = check_ending(
            site.referee.game(session, row), request.scoring, request.last_year, request.target_centers
        )
    except GameRuleError as err:
        raise bad_request(str(err), "bad_settings", str(err).split(":", 1)[0]) from err
    store_ending(session, row.id, ending)
    _creation_bots(session, site, row, request.bots)
    return row


def _creation_bots(session: Session, site: Site, row: GameRow, asked: BotsRequest | None) -> None:
    """Seat the bots a new game asks for (empty seats only) and keep its bot settings; the game starts
    if that fills it."""
    if asked is None:
        return
    try:
        store_settings(session, row.id, asked.votes, asked.after_missed)
    except GameRuleError as err:
        raise bad_request(str(err), "bad_settings", "bots") from err
    powers = site.referee.game(session, row).powers()
    members = [m for m in memberships(session, row.id) if m.role == PLAYER]
    wanted = {m.wanted_power for m in members if m.wanted_power}
    seats = [v for v in asked.seats if v.strip()]
    if len(set(seats)) + len(members) > len(powers):
        raise bad_request(
            f"{len(set(seats))} bots and {len(members)} player(s) would not fit the {len(powers)} seats",
            "bad_settings",
            "bots.seats",
        )
    for power in seats:
        power = power.strip().upper()
        if power in wanted:
            raise bad_request(f"you asked for {power}: a bot cannot take it", "bad_settings", "bots.seats")
        try:
            seat_bot(session, row, power, powers, "empty")
        except GameRuleError as err:
            raise bad_request(str(err), "bad_settings", "bots.seats") from err
    site.referee.maybe_start(session, row, site.now())


def _names(value: object, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(value) > MAX_ITEMS:
        raise bad_request(f"{where} is a list of at most {MAX_ITEMS} power names", "bad_settings", where)
    return [v for v in value if v.strip()]


def join_game(
    session: Session,
    site: Site,
    seat: Seat,
    user: User,
    role: str,
    power: str | None,
    preferences: list[str] | None = None,
    code: str | None = None,
) -> None:
    """Join as a player (optionally asking for a power, or ranking powers) or an observer; the game starts
    when full.  A private game with a join code asks for it (the invitation link alone is not enough)."""
    row = seat.row
    if (
        row.private
        and row.join_code
        and not hmac.compare_digest((code or "").strip().encode("utf-8", "surrogatepass"), row.join_code.encode())
    ):
        raise Problem(403, "bad_code", "this game asks for its join code, and this is not it", "code")
    game = site.referee.game(session, row)
    try:
        join(
            session,
            row,
            user,
            role if role in (PLAYER, OBSERVER) else "?",
            game.powers(),
            power or None,
            _names(preferences, "preferences"),
        )
    except GameRuleError as err:
        raise Problem(409, "conflict", str(err), err.where) from err
    site.referee.maybe_start(session, row, site.now())


def submit_orders(
    site: Site,
    read: Callable[[], AbstractContextManager[V]],
    write: Callable[[], AbstractContextManager[V]],
    find: Callable[[V, bool], tuple[Session, Seat]],
    lines: list[str] | None,
    ready: bool | None,
    phase: str | None,
    then: Callable[[V, Seat, SubmitResult], R],
) -> R:
    """A player's orders and/or ready switch for the current step, through :func:`arbitre.life.turns.play`:
    read once and checked in a read transaction, written if the game has not changed meanwhile (else again).

    ``read``/``write`` open the caller's transactions, ``find`` gives the seat in one (locked in the write one),
    ``then`` makes the answer inside the write transaction from what was done.
    """
    seats: list[Seat] = []

    def row(v: V, lock: bool) -> tuple[Session, GameRow]:
        session, seat = find(v, lock)
        if seat.role != PLAYER or not seat.power:
            raise forbidden("only a player holding a power gives orders")
        if lines is not None and (len(lines) > MAX_ORDERS or any(len(x) > MAX_LINE for x in lines)):
            raise bad_request(f"at most {MAX_ORDERS} orders of {MAX_LINE} characters each", "too_long", "orders")
        seats.append(seat)
        return session, seat.row

    def store(v: V, session: Session, game: GameRow, done: Submission) -> R:
        result = site.referee.write_submission(session, game, done, site.now())
        if lines is not None:  # the box's orders are now the submitted ones: the draft is done with
            drop_draft(session, game.id, seats[-1].power or "")
        return then(v, seats[-1], result)

    plan = Plan(
        read,
        write,
        row,
        lambda session, game: site.referee.turn(session, game, site.now()),
        lambda turn: submission(turn, seats[-1].power or "", lines, ready, phase),
        store,
    )
    try:
        return play(plan)
    except GameRuleError as err:
        raise conflict(str(err)) from err


def send_message(session: Session, site: Site, seat: Seat, user: User, to: str | list[str], body: str) -> Message:
    """Post a press message to one recipient or several (a power, ``MASTER``, or ``*`` alone for public press)
    under the game's press settings; returns the stored message."""
    game = site.referee.game(session, seat.row)
    names = [to] if isinstance(to, str) else list(to)
    names = [n.strip() if n.strip() == "*" else n.strip().upper() for n in names]
    if TO_MASTER in names and not any(m.role == MASTER for m in memberships(session, seat.row.id)):
        raise bad_request("this game has no master to write to", "press", "to")
    try:
        return post_message(
            session,
            seat.row.id,
            seat.row.phase,
            user.id,
            seat.press_name,
            names,
            body or "",
            seat.row.press,
            game.powers(),
            site.now(),
        )
    except GameRuleError as err:
        raise bad_request(str(err), "press", err.where or "to") from err


def master_action(
    site: Site,
    read: Callable[[], AbstractContextManager[V]],
    write: Callable[[], AbstractContextManager[V]],
    find: Callable[[V, bool], tuple[Session, Seat]],
    action: str,
    minutes: int | None = None,
    power: str | None = None,
    user_name: str | None = None,
    powers: list[str] | None = None,
    then: Callable[[V, Seat], R] | None = None,
) -> R | None:
    """Run one master-console action through :func:`arbitre.life.turns.play` (``read``/``write``/``find``: as
    for :func:`submit_orders`): an adjudication or an end of the game is computed from the turn read, and
    written if the game has not changed meanwhile; ``then`` makes the answer inside the write transaction."""
    ref = site.referee
    seats: list[Seat] = []

    def row(v: V, lock: bool) -> tuple[Session, GameRow]:
        session, seat = find(v, lock)
        if seat.role != MASTER:
            raise forbidden("only the game master may do this")
        seats.append(seat)
        return session, seat.row

    def compute(turn: Turn) -> Closing | Game | None:
        if action == "extend":
            if not isinstance(minutes, int) or isinstance(minutes, bool) or abs(minutes) > MAX_SECONDS // 60:
                raise bad_request("extend needs a whole number of minutes (at most 60 days)", "bad_action", "minutes")
        elif action == "adjudicate":
            return closing(turn)
        elif action in ("draw", "end"):
            drawn = [p.upper() for p in powers or []]
            known = turn.game.powers()
            if any(p not in known for p in drawn):
                raise bad_request(f"a draw is among powers of the game ({', '.join(known)})", "bad_action", "powers")
            return ending(turn, "draw" if action == "draw" else "end", drawn or None)
        elif action not in MASTER_ACTIONS:
            raise bad_request(f"unknown action {action!r}; known: {', '.join(MASTER_ACTIONS)}", "bad_action", "action")
        return None

    def store(v: V, session: Session, game: GameRow, done: Closing | Game | None) -> R | None:
        now = site.now()
        if isinstance(done, Closing):
            ref.write_closing(session, game, done, "master", now)
        elif isinstance(done, Game):
            ref.write_ending(session, game, done, now)
        elif action == "pause":
            ref.pause(game, now)
        elif action == "resume":
            ref.resume(game, now)
        elif action == "extend":
            ref.extend(game, (minutes or 0) * 60, now)
        elif action == "replace":
            target = user_by_name(session, user_name or "")
            if target is None:
                raise bad_request(f"no user called {user_name!r}", "bad_action", "user")
            ref.replace_player(session, game, (power or "").upper(), target, now)
        return None if then is None else then(v, seats[-1])

    try:
        return play(Plan(read, write, row, lambda session, game: ref.turn(session, game, site.now()), compute, store))
    except GameRuleError as err:
        raise conflict(str(err)) from err


def check_orders(site: Site, session: Session, seat: Seat, lines: list[str]) -> list[CheckedLine]:
    """Check orders as the player typed them (nothing is stored)."""
    if seat.role != PLAYER or not seat.power:
        raise forbidden("only a player holding a power gives orders")
    if len(lines) > MAX_ORDERS or any(len(x) > MAX_LINE for x in lines):
        raise bad_request(f"at most {MAX_ORDERS} orders of {MAX_LINE} characters each", "too_long", "orders")
    return check(site.referee.game(session, seat.row), seat.power, lines)


def _vote_problem(err: GameRuleError) -> Problem:
    return Problem(409, "conflict", str(err), err.where)


def propose_vote(
    session: Session, site: Site, seat: Seat, kind: str, powers: list[str] | None, minutes: int | None
) -> int:
    """A player opens a vote (its own ballot is yes); returns the vote's id (its number in the game)."""
    if seat.role != PLAYER or not seat.power:
        raise forbidden("only a player holding a power proposes a vote")
    if kind not in VOTE_KINDS:
        raise bad_request(f"a vote is one of {', '.join(VOTE_KINDS)}", "bad_vote", "kind")
    try:
        vote = store_votes.propose(session, site.referee, seat.row, seat.power, kind, powers or [], minutes, site.now())
    except GameRuleError as err:
        raise _vote_problem(err) from err
    return vote.number


def cast_ballot(session: Session, site: Site, seat: Seat, vote_id: int, choice: str) -> None:
    """A player votes yes or no on an open vote."""
    if seat.role != PLAYER or not seat.power:
        raise forbidden("only a player holding a power votes")
    if choice not in VOTE_CHOICES:
        raise bad_request("a ballot is yes or no", "bad_vote", "choice")
    try:
        store_votes.cast(session, site.referee, seat.row, vote_id, seat.power, choice, site.now())
    except LookupError as err:
        raise not_found("this vote") from err
    except GameRuleError as err:
        raise _vote_problem(err) from err


def withdraw_vote(session: Session, site: Site, seat: Seat, vote_id: int, what: str) -> None:
    """A player takes back its ballot (``what="ballot"``), or withdraws the vote it opened (``"vote"``), while
    the vote is open."""
    if seat.role != PLAYER or not seat.power:
        raise forbidden("only a player holding a power withdraws a ballot or a vote")
    try:
        if what == "ballot":
            store_votes.withdraw_ballot(session, seat.row, vote_id, seat.power)
        else:
            store_votes.withdraw(session, seat.row, vote_id, seat.power, site.now())
    except LookupError as err:
        raise not_found("this vote") from err
    except GameRuleError as err:
        raise _vote_problem(err) from err


def decide_vote(session: Session, site: Site, seat: Seat, vote_id: int, decision: str) -> None:
    """The master approves (the vote passes and is carried out) or rejects an open vote."""
    if seat.role != MASTER:
        raise forbidden("only the game master decides a vote alone")
    if decision not in ("approve", "reject"):
        raise bad_request("a decision is approve or reject", "bad_vote", "decision")
    try:
        store_votes.decide(session, site.referee, seat.row, vote_id, decision == "approve", site.now())
    except LookupError as err:
        raise not_found("this vote") from err
    except GameRuleError as err:
        raise _vote_problem(err) from err
