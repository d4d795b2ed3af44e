"""What the pages and the JSON API both say: every answer about a game is assembled here.

Access is decided in :func:`open_game`; everything about the board comes from
the requester's own view (:mod:`arbitre.server.viewing`).  A player sees their
own orders and ready switch only; the master sees everyone's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import Session

from arbitre.judge import ORDERS, Accepts, Game
from arbitre.judge.game import record_from_data
from arbitre.judge.votes import VoteSettings, vote_view
from arbitre.life.endings import scores
from arbitre.life.forming import steps_of
from arbitre.life.referee import check_step_orders, powers_to_act
from arbitre.life.votes import records as vote_records
from arbitre.server.answers import (
    BotSeatInfo,
    BotSettings,
    BotSummary,
    CheckedLine,
    Conversation,
    Ending,
    GameState,
    GameSummary,
    Invitation,
    JoinPage,
    Legal,
    Message,
    MyGame,
    OwnOrders,
    PhaseAnswer,
    PlayedPhase,
    PowerOrders,
    PowerProgress,
    Press,
    Role,
    Roster,
    RosterPlayer,
    ToDo,
    Viewer,
    Votes,
    VoteView,
    VotingSettings,
)
from arbitre.server.auth import Actor
from arbitre.server.errors import forbidden, not_found, not_logged_in
from arbitre.server.site import Site
from arbitre.server.todo import NONE, given_state, to_do
from arbitre.server.viewing import current_view, phase_view, view_data, viewer_id
from arbitre.store.access import may_know
from arbitre.store.botseats import BOT_VOTES, bot_seats, bot_settings, excluded_from_scores
from arbitre.store.drafts import users_draft
from arbitre.store.endings import ending_of
from arbitre.store.facts import fact, orders_topic, press_topics
from arbitre.store.games import (
    chosen_powers,
    game_and_membership,
    game_by_invitation,
    get_game,
    invitation_and_membership,
    membership_of,
    memberships,
    taken_seats,
    user_names,
)
from arbitre.store.messages import (
    PUBLIC,
    TO_MASTER,
    allowed_recipients,
    conversation_parties,
    conversations,
    count_for,
    mark_read,
    messages_after,
    read_marks,
)
from arbitre.store.models import (
    ACTIVE,
    FINISHED,
    FORMING,
    MASTER,
    OBSERVER,
    PAUSED,
    PLAYER,
    GameRow,
    Membership,
    MessageRead,
    OrderRow,
)
from arbitre.store.orders import order_row, orders_of_step
from arbitre.store.records import played_phases, played_record, played_records
from arbitre.views import View


@dataclass
class Seat:
    """A requester's place in one game."""

    row: GameRow
    member: Membership | None

    @property
    def role(self) -> str | None:
        """``master``, ``player``, ``observer`` or ``None`` for an outsider."""
        return self.member.role if self.member else None

    @property
    def power(self) -> str | None:
        """The power a player holds (``None`` before the game starts and for other roles)."""
        return self.member.power if self.member else None

    @property
    def wanted_power(self) -> str | None:
        """The power a player chose, or ranked first, before the game starts and seats it (else ``None``)."""
        if self.member is None or self.member.power:
            return None
        return self.member.wanted_power

    @property
    def viewer(self) -> str:
        """The viewer id this requester's views are built for."""
        return viewer_id(self.role or OBSERVER, self.power)

    @property
    def press_name(self) -> str:
        """The name this requester reads and writes press under."""
        if self.role == MASTER:
            return TO_MASTER
        return self.power or "OBSERVER"


def open_game(
    session: Session,
    game_id: int,
    actor: Actor,
    *,
    member: bool = True,
    lock: bool = False,
    roles: tuple[str, ...] = (),
) -> Seat:
    """The game ``game_id`` and the requester's seat; 404/401/403 when it is missing or closed to them.

    Whether the requester may know the game exists is the site's one rule
    (:func:`arbitre.store.access.may_know`): to anyone it hides from, the answer is the one for an id no
    game ever had (404), whatever the route; a private game is reached from outside through its
    invitation link only (:func:`open_invitation`).
    """
    if lock:
        row = get_game(session, game_id, lock=True, with_data=True)
        m = membership_of(session, game_id, actor.user.id) if row is not None and actor.user else None
    else:  # one query: the row and the requester's membership
        row, m = game_and_membership(session, game_id, actor.user.id if actor.user else None)
    if row is None or not may_know(row, m):
        raise not_found("this game")
    if member and m is None:
        raise not_logged_in() if actor.user is None else forbidden("you are not in this game")
    if roles and (m is None or m.role not in roles):
        raise forbidden(f"only the game's {' or '.join(roles)} may do this")
    return Seat(row, m)


def open_invitation(session: Session, token: str, actor: Actor, *, lock: bool = False) -> Seat:
    """The game an invitation link leads to, and the requester's seat in it (404 for a token that is not one)."""
    if not lock:  # one query: the game and the requester's membership
        found, m = invitation_and_membership(session, token, actor.user.id if actor.user else None)
        if found is None:
            raise not_found("this invitation")
        return Seat(found, m)
    found = game_by_invitation(session, token)
    if found is None:
        raise not_found("this invitation")
    row = get_game(session, found.id, lock=True, with_data=True)
    assert row is not None
    m = membership_of(session, row.id, actor.user.id) if actor.user else None
    return Seat(row, m)


def summary(row: GameRow, taken: int | None = None) -> GameSummary:
    """What anyone who may see the game may know about it (``taken``: seats taken, for the lobby)."""
    return _summary(GameSummary, row, players=taken, taken=taken)


def my_game(row: GameRow, member: Membership) -> MyGame:
    """One of an account's games: its summary, the account's role and power there."""
    return _summary(MyGame, row, role=member.role, power=member.power)


S = TypeVar("S", bound=GameSummary)


def _summary(kind: type[S], row: GameRow, **more: Any) -> S:
    return kind(
        id=row.id,
        name=row.name,
        map=row.map_name,
        rules=list(row.rules),
        options=dict(row.options),
        press=row.press,
        assignment=row.assignment,
        deadlines=dict(row.deadlines),
        status=row.status,
        phase=row.phase,
        step=row.step,
        result=row.result,
        deadline=row.deadline_at.isoformat() if row.deadline_at else None,
        remaining_seconds=row.remaining_seconds,
        show_progress=shows_progress(row),
        private=bool(row.private),
        anonymous=bool(row.anonymous),
        votes=VoteSettings.from_data(row.vote_settings).to_data(),
        seats=row.seats,
        steps=steps_of(row.map_name, list(row.rules)),
        **more,
    )


def hides_players(row: GameRow, seat: Seat | None) -> bool:
    """Does this reader see no name behind the powers (an anonymous game not yet over; the master sees them)?"""
    return bool(row.anonymous) and row.status != FINISHED and not (seat is not None and seat.role == MASTER)


def roster(session: Session, row: GameRow, seat: Seat | None = None) -> Roster:
    """Who is in the game: master, players with their powers (sorted by power, so the order tells nothing
    about who joined when), observers.  In an anonymous game, until it ends, players have no name."""
    hidden = hides_players(row, seat)
    return fact(session, row, ("roster", hidden), ("seats",), lambda: _roster(session, row, hidden))


def _roster(session: Session, row: GameRow, hidden: bool) -> Roster:
    members = game_members(session, row)
    names = user_names(session, {m.user_id for m in members})
    players = [
        RosterPlayer(power=m.power, user=None if hidden else names[m.user_id]) for m in members if m.role == PLAYER
    ]
    players.sort(key=lambda p: (p.power or "", p.user or ""))
    return Roster(
        master=next((names[m.user_id] for m in members if m.role == MASTER), None),
        players=players,
        observers=sorted(names[m.user_id] for m in members if m.role == OBSERVER),
    )


def game_members(session: Session, row: GameRow) -> list[Membership]:
    """Everyone in the game (cached while the game's seats do not change; read-only)."""
    return fact(session, row, "members", ("seats",), lambda: memberships(session, row.id))


def step_orders(session: Session, row: GameRow) -> dict[str, OrderRow]:
    """Every power's order row for the game's current step (cached while no power's orders change; read-only):
    for the master, and for the progress a game shows everyone.  A player's own orders: :func:`own_orders`."""
    return fact(
        session,
        row,
        ("orders", row.phase, row.step),
        ("orders",),
        lambda: orders_of_step(session, row.id, row.phase, row.step),
    )


def own_orders(session: Session, row: GameRow, power: str) -> OrderRow | None:
    """One power's order row for the game's current step (cached while that power's orders do not change, so
    another power's orders never make it be read again; read-only)."""
    return fact(
        session,
        row,
        ("own orders", power, row.phase, row.step),
        (orders_topic(power),),
        lambda: order_row(session, row.id, row.phase, row.step, power),
    )


def invitation(row: GameRow, seat: Seat, has_master: bool) -> Invitation | None:
    """A private game's invitation link path and join code, for the one who invites: its master (in a game
    without a master, its players).  Nobody else sees them, a player who took a seat over included."""
    inviter = seat.role == MASTER or (seat.role == PLAYER and not has_master)
    if not row.private or not inviter or not row.invite_token:
        return None
    return Invitation(path=f"/invite/{row.invite_token}", code=row.join_code or None)


def join_page(site: Site, session: Session, seat: Seat) -> JoinPage:
    """What the join page shows anyone who may see the game: its settings, roster and powers."""
    row = seat.row
    game = site.referee.game(session, row)
    return JoinPage(
        # Seats and chosen powers cached per game generation, like the roster: the page costs no query of its own.
        game=summary(row, fact(session, row, "taken", ("seats", "bots"), lambda: taken_seats(session, row.id))),
        roster=roster(session, row, seat),
        powers=game.powers(),
        chosen=(
            list(fact(session, row, "chosen", ("seats", "bots"), lambda: chosen_powers(session, row.id)))
            if row.assignment == "choice"
            else []
        ),
        code_needed=bool(row.private and row.join_code),
        you=Role(role=seat.role, power=seat.power),
    )


def game_state(site: Site, session: Session, seat: Seat) -> GameState:
    """The game page of a member: summary, roster, their view, and their orders (all orders for the master)."""
    row = seat.row
    game = site.referee.game(session, row)
    running = row.status in (ACTIVE, PAUSED)
    view = view_data(current_view(game, seat.viewer), game.rules)
    orders: OwnOrders | None = None
    if seat.role == PLAYER and seat.power:
        mine = own_orders(session, row, seat.power)
        lines, ready = (list(mine.lines), mine.ready) if mine else ([], False)
        must = running and seat.power in powers_to_act(game)
        draft = current_draft(session, seat) if must else None
        orders = OwnOrders(
            phase=row.phase,
            step=row.step,
            lines=lines,
            ready=ready,
            must_order=must,
            legal=legal_orders(game, seat.power) if must else {},
            submitted=mine is not None and bool(mine.lines),
            draft=draft,
            # what is still to do with the orders the box shows (the draft when there is one)
            to_do=to_do(game, seat.power, lines if draft is None else draft) if must else None,
            locked=list(game.pending.get(seat.power, [])) if row.step != ORDERS else None,
        )
    master_rows = step_orders(session, row) if seat.role == MASTER else None
    ending = ending_state(session, row, game)
    return GameState(
        game=summary(row),
        roster=roster(session, row, seat),
        invitation=invitation(row, seat, any(m.role == MASTER for m in game_members(session, row))),
        powers=game.powers(),
        you=Viewer(role=seat.role, power=seat.power, viewer=seat.viewer, wanted=seat.wanted_power),
        winners=list(game.winners),
        view=view,
        bots=fact(session, row, "bots", ("bots",), lambda: bot_summary(session, row.id)),
        votes=[v for v in votes(site, session, seat).votes if v.status == "open"],
        ending=ending.ending,
        scores=ending.scores,
        progress=progress(session, row, game) if running and shows_progress(row) else None,
        orders=orders,
        # what the lock told this viewer: the report of its current view
        reveal=view["report"] if row.step != ORDERS else None,
        all_orders=(
            {p: PowerOrders(lines=list(r.lines), ready=r.ready) for p, r in sorted(master_rows.items())}
            if master_rows is not None
            else None
        ),
        to_act=(powers_to_act(game) if running else []) if master_rows is not None else None,
        ready=sorted(p for p, r in master_rows.items() if r.ready) if master_rows is not None else None,
    )


def votes(site: Site, session: Session, seat: Seat) -> Votes:
    """The game's votes as the requester may see them (secret ballots: only their own), what they may
    propose, and the game's vote settings."""
    row = seat.row
    game = site.referee.game(session, row)
    settings = VoteSettings.from_data(row.vote_settings)
    # open votes' voters are read from the game (its survivors), its seats and bots
    records = fact(session, row, "votes", ("votes", "game", "seats", "bots"), lambda: vote_records(session, row, game))
    shown = [VoteView(**vote_view(r, seat.viewer, settings.is_secret(r.motion.kind))) for r in records]
    running = row.status in (ACTIVE, PAUSED)
    may_propose = running and seat.role == PLAYER and seat.power in game.active_powers()
    return Votes(
        votes=sorted(shown, key=lambda v: -v.id),
        settings=VotingSettings(**settings.to_data()),
        survivors=game.active_powers() if running else [],
        may_propose=bool(may_propose),
        may_decide=running and seat.role == MASTER,
    )


def bot_summary(session: Session, game_id: int) -> BotSummary:
    """The bot seats of a game (power → kind, reason, since) and its bot settings (anyone in the game may know)."""
    setting = bot_settings(session, game_id)
    return BotSummary(
        seats={
            p: BotSeatInfo(kind=b.kind, reason=b.reason, since=b.since) for p, b in bot_seats(session, game_id).items()
        },
        settings=BotSettings(votes=setting.votes, after_missed=setting.after_missed),
        votes_choices=list(BOT_VOTES),
    )


def ending_state(session: Session, row: GameRow, game: Game) -> Ending:
    """The game's length and scoring settings (``ending``) and, once it is won or drawn, its ``scores``."""
    ending = fact(session, row, "ending", ("ending",), lambda: ending_of(session, row.id))
    # only a finished game has scores: a running game's page asks nothing about its bot seats here
    excluded = (
        fact(session, row, "excluded", ("bots",), lambda: excluded_from_scores(session, row.id))
        if row.status == FINISHED
        else frozenset()
    )
    return Ending(ending=ending.to_data(), scores=scores(game, ending, excluded))


def shows_progress(row: GameRow) -> bool:
    """Does the game show everyone who has given orders and who is ready (a game setting, on by default)?"""
    return row.show_progress is not False  # a row made before the setting existed shows it


def progress(session: Session, row: GameRow, game: Game) -> dict[str, PowerProgress]:
    """For each power that must act in the current step: has it given orders (``given``: some; ``orders``:
    ``none``, ``partly`` or ``all`` of what it has to order, never a count), is it ready."""
    rows = step_orders(session, row)
    out: dict[str, PowerProgress] = {}
    for p in powers_to_act(game):
        r = rows.get(p)
        lines = list(r.lines) if r else []
        # "given" is read from the same public word: a hidden unit's order never shows (todo.given_state)
        state = given_state(game, p, lines)
        out[p] = PowerProgress(given=state != NONE, orders=state, ready=bool(r and r.ready))
    return out


def own_to_do(site: Site, session: Session, seat: Seat, lines: list[str] | None = None) -> ToDo | None:
    """What the requester's power has still to do now with ``lines`` (default: its submitted orders); ``None``
    when it has nothing to order in the current step."""
    row = seat.row
    game = site.referee.game(session, row)
    if seat.role != PLAYER or not seat.power or row.status not in (ACTIVE, PAUSED):
        return None
    if seat.power not in powers_to_act(game):
        return None
    if lines is None:
        mine = own_orders(session, row, seat.power)
        lines = list(mine.lines) if mine else []
    return to_do(game, seat.power, lines)


def current_draft(session: Session, seat: Seat) -> list[str] | None:
    """The seat's draft for the current step, read only by the player who wrote it (``None``: none, one of a
    past step, or one its seat's former player wrote)."""
    if seat.role != PLAYER or not seat.power or seat.member is None:
        return None
    row = users_draft(session, seat.row.id, seat.power, seat.member.user_id)
    if row is None or (row.phase, row.step) != (seat.row.phase, seat.row.step):
        return None
    return list(row.lines)


def legal_orders(game: Game, power: str) -> dict[str, list[str]]:
    """The engine's legal orders of ``power`` now (judged on what that power may see), keyed by unit place.

    In a step after the orders lock (Espionnite's reaction step) only the
    changes the engine would accept there are listed.
    """
    legal = game.legal_orders(power)
    if game.current_step.accepts == Accepts.ORDERS:  # any step taking whole orders (a module's may follow a lock)
        return legal
    out: dict[str, list[str]] = {}
    for key, options in legal.items():
        kept = [o for o in options if not check_step_orders(game, power, [o])]
        if kept:
            out[key] = kept
    return out


def legal_state(game: Game, row: GameRow, power: str) -> Legal:
    """The order picker's data: the legal orders of ``power``'s units and whether one line replaces all."""
    one_line = game.current_step.accepts == Accepts.ONE_CHANGE
    return Legal(phase=row.phase, step=row.step, legal=legal_orders(game, power), one_line=one_line)


def legal_data(site: Site, session: Session, seat: Seat) -> Legal:
    """The legal-order answer of a player (empty when the power has nothing to order now)."""
    row = seat.row
    game = site.referee.game(session, row)
    must = row.status in (ACTIVE, PAUSED) and seat.power is not None and seat.power in powers_to_act(game)
    if not must or seat.power is None:
        one_line = game.current_step.accepts == Accepts.ONE_CHANGE
        return Legal(phase=row.phase, step=row.step, legal={}, one_line=one_line)
    return legal_state(game, row, seat.power)


def check(game: Game, power: str, lines: list[str]) -> list[CheckedLine]:
    """The engine's verdict on some orders for the current step: one entry per rejected line (with its number)."""
    clean = [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip()]
    rejected = check_step_orders(game, power, [text for _, text in clean])
    out = []
    used: set[int] = set()
    for r in rejected:
        line_no = next((n for n, text in clean if text == r.text and n not in used), None)
        if line_no is not None:
            used.add(line_no)
        out.append(
            CheckedLine(
                line=line_no,
                order=r.text,
                outcome=r.outcome,
                reason=r.reason,
                message=r.message or r.reason or r.outcome,
            )
        )
    return out


def history(site: Site, session: Session, seat: Seat) -> list[PlayedPhase]:
    """The played phases (index and name), from their records."""
    return [PlayedPhase(index=i, phase=phase) for i, phase in played_phases(session, seat.row.id)]


def played_view(site: Site, session: Session, row: GameRow, index: int, viewer: str) -> View | None:
    """Played phase ``index`` as ``viewer`` sees it, built from its record (``None``: no such phase)."""
    if not 0 <= index < row.played:
        return None
    data = played_record(session, row.id, index)
    if data is None:
        return None
    game = site.referee.game(session, row)
    return phase_view(game.rules, record_from_data(game.rules, data), viewer)


def whole_game(site: Site, session: Session, row: GameRow) -> Game:
    """The game with every played phase read from its record (for exports; loading a game reads none)."""
    game = site.referee.game(session, row).copy()
    game.history = [record_from_data(game.rules, data) for data in played_records(session, row.id)]
    game.played = len(game.history)
    return game


def history_phase(site: Site, session: Session, seat: Seat, index: int) -> PhaseAnswer:
    """Phase ``index`` as the requester sees it: board, orders with results, report."""
    view = played_view(site, session, seat.row, index, seat.viewer)
    if view is None:
        raise not_found(f"phase {index} of this game")
    return PhaseAnswer(index=index, view=view_data(view, site.referee.game(session, seat.row).rules))


def last_phase(site: Site, session: Session, seat: Seat) -> PhaseAnswer | None:
    """The last played phase as the requester sees it (``None`` before the first adjudication)."""
    if not seat.row.played:
        return None
    return history_phase(site, session, seat, seat.row.played - 1)


PRESS_LIMIT = 500
"""How many of the newest messages the press answer lists."""


def press(session: Session, seat: Seat, conversation: str | None = None) -> Press:
    """The messages the requester may read (only those of ``conversation`` when given: a key of the
    ``conversations`` list), their conversations, and where they may write.

    A message's ``id`` is its number among the messages the requester may read (1 for the first): the row id
    counts every message of the site, so it would tell how much others wrote to each other.  Conversations,
    their counts, unread counts and order are built from the requester's own messages and read marks."""
    # not cached: long lists, read on their own page.  The newest PRESS_LIMIT, numbered from where they start
    start = max(0, count_for(session, seat.row.id, seat.press_name) - PRESS_LIMIT)
    msgs = messages_after(session, seat.row.id, seat.press_name, start, PRESS_LIMIT)
    items = [
        Message(
            id=n,
            phase=m.phase,
            sender=m.sender,
            to=m.recipients,
            conversation=m.conversation,
            body=m.body,
            at=m.created_at.isoformat(),
        )
        for n, m in enumerate(msgs, start=start + 1)
    ]
    if conversation is not None:
        items = [m for m in items if m.conversation == conversation]
    return Press(
        press=seat.row.press,
        you=seat.press_name,
        conversation=conversation,
        conversations=conversation_list(session, seat),
        messages=items,
    )


def conversation_list(session: Session, seat: Seat) -> list[Conversation]:
    """The requester's conversations: public press first, then the most recently active first; each with its
    parties, the others in it (``with``), its message count, how many of the others' messages the requester
    has not read, and the number of its newest message."""
    marks = read_marks(session, seat.row.id, seat.member.user_id) if seat.member else None
    found = {c[0]: c[1:] for c in conversations(session, seat.row.id, seat.press_name)}
    found.setdefault(PUBLIC, (0, 0, 0))
    order = sorted(found, key=lambda k: (k != PUBLIC, -found[k][1]))
    out = []
    for key in order:
        count, last, others = found[key]
        parties = conversation_parties(key)
        out.append(
            Conversation(
                id=key.strip(","),
                parties=parties,
                with_=[p for p in parties if p != seat.press_name],
                count=count,
                unread=0 if marks is None else max(0, others - marks.get(key, 0)),
                last=last or None,
            )
        )
    return out


_SEATS_OF_USER = (
    select(GameRow, Membership, MessageRead.conversation, MessageRead.seen)
    .join(Membership, Membership.game_id == GameRow.id)
    .outerjoin(MessageRead, and_(MessageRead.game_id == GameRow.id, MessageRead.user_id == Membership.user_id))
    .where(Membership.user_id == bindparam("user_id"), GameRow.status.in_((FORMING, ACTIVE, PAUSED)))
    .order_by(GameRow.id)
)
"""The seats of a user in its games that are not over, each with the user's read marks there (one row per mark,
one with no mark for a game where it has none); built once (every page's header runs it)."""


def unread_messages(session: Session, user_id: int) -> int:
    """How many messages of others the user has not read in its games that are not over (the header's
    total): the sum of its conversations' unread counts, each game's built from what its seat there may
    read and the user's own read marks, so nobody else's press moves it.  One query whatever the number of
    games: the seats with the user's read marks; each game's conversations come from the game's fact cache."""
    rows = session.execute(_SEATS_OF_USER, {"user_id": user_id}).all()
    marks = {(row.id, key): seen for row, _member, key, seen in rows if key is not None}
    seats = {member.id: (row, member) for row, member, _key, _seen in rows}.values()  # one per seat, in order
    total = 0
    for row, member in seats:
        reader = Seat(row, member).press_name
        found = fact(
            session,
            row,
            ("conversations", reader),
            press_topics(reader, TO_MASTER),
            partial(conversations, session, row.id, reader),
        )
        total += sum(max(0, others - marks.get((row.id, key), 0)) for key, _count, _last, others in found)
    return total


def read_conversation(session: Session, seat: Seat, conversation: str | None) -> None:
    """Mark the requester's messages of ``conversation`` (every conversation when ``None``) as read;
    :class:`Problem` 404 when the requester has no such conversation."""
    if seat.member is None:
        return
    found = {c[0]: c[3] for c in conversations(session, seat.row.id, seat.press_name)}  # others' messages
    if conversation is None:
        mark_read(session, seat.row.id, seat.member.user_id, found)
        return
    key = PUBLIC if conversation == PUBLIC else "," + conversation + ","
    if key not in found and key != PUBLIC:
        raise not_found(f"conversation {conversation}")
    mark_read(session, seat.row.id, seat.member.user_id, {key: found.get(key, 0)})


def recipients(site: Site, session: Session, seat: Seat) -> list[str]:
    """Where the requester may write under the game's press settings."""
    if seat.row.status == FORMING and seat.role != MASTER:
        return []
    game = site.referee.game(session, seat.row)
    out = allowed_recipients(seat.row.press, seat.press_name, game.powers())
    if not any(m.role == MASTER for m in game_members(session, seat.row)):
        out = [r for r in out if r != TO_MASTER]  # a game without a master: nobody would read it
    return out
