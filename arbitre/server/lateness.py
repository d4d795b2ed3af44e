"""Lateness on the site: the settings of a game, the public boards of missed deadlines (per game and
site-wide), the master's calls for a replacement and the take-over of a seat through its link.

A game's board is read by anyone who may know the game exists, and the site-wide board lists only
such games (:mod:`arbitre.store.access`, the site's one rule): a private game's misses, yellow cards,
players and take-over links are shown to its members only, and its take-over link works only for them.
In an anonymous game the boards name powers, never the accounts behind them, until the game ends; the
site-wide yellow-card counts leave such games out for the same reason.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arbitre.server.answers import Answer, GameSummary, Omitted
from arbitre.server.errors import bad_request, conflict, not_found
from arbitre.server.services import Seat
from arbitre.server.site import Site
from arbitre.store.access import known_game_ids, may_know
from arbitre.store.games import GameRuleError, get_game, membership_of, user_names
from arbitre.store.lateness import Lateness, lateness_of, parse, store_lateness
from arbitre.store.missed import MissedDeadline, in_disorder
from arbitre.store.models import FINISHED, GameRow, User
from arbitre.store.replacements import ReplacementCall, call_by_token, close_calls, open_calls, publish_call

BOARD_LIMIT = 200
"""Most missed deadlines a board lists (the newest)."""


class LatenessSettings(Answer):
    """A game's lateness settings (see ``docs/server.md``, "Lateness"; :class:`arbitre.store.lateness.Lateness`)."""

    preset: str
    grace_minutes: int
    excuses: int
    extensions: int
    extension_hours: int
    disorder_after: int | None
    replace_on_disorder: bool
    bot_after_missed: int | None
    rest_days: list[str]
    deadline_time: str | None
    timezone: str

    @classmethod
    def of(cls, settings: Lateness) -> LatenessSettings:
        """The answer of stored settings."""
        return cls(**settings.to_data())


class Call(Answer):
    """What anyone may know about a call for a replacement (the take-over link included: it is public);
    ``game_name`` on the site-wide board and a take-over link's page."""

    game: int
    power: str
    reason: str
    at: str
    link: str
    open: bool
    game_name: Omitted[str] = None


class Offer(Answer):
    """What a take-over link offers: the call, its game's name and the game's summary."""

    game: GameSummary
    power: str
    reason: str
    at: str
    link: str
    open: bool
    game_name: str


class Taken(Answer):
    """A seat just taken through a take-over link: the game and the power."""

    game: GameSummary
    power: str


class Miss(Answer):
    """A missed deadline: game, phase, step, power, its player (``None`` while an anonymous game runs), when,
    excused or not, a yellow card or not; ``game_name`` on the site-wide board."""

    game: int
    phase: str
    step: str
    power: str
    player: str | None
    at: str
    excused: bool
    yellow_card: bool
    game_name: Omitted[str] = None


class BoardGame(Answer):
    """The game a lateness board is about."""

    id: int
    name: str
    status: str
    phase: str


class GameBoard(Answer):
    """A game's lateness board: its settings, missed deadlines, yellow cards per power, powers in civil disorder,
    open calls for a replacement."""

    game: BoardGame
    settings: LatenessSettings
    missed: list[Miss]
    yellow_cards: dict[str, int]
    disorder: list[str]
    calls: list[Call]


class SiteBoard(Answer):
    """The site-wide board: the newest missed deadlines, the open calls, the yellow cards per player."""

    missed: list[Miss]
    calls: list[Call]
    yellow_cards: dict[str, int]


def hides_players(row: GameRow) -> bool:
    """Does this game hide who plays which power (an anonymous game that has not ended)?"""
    return bool(getattr(row, "anonymous", False)) and row.status != FINISHED


def settings_from(data: dict[str, Any] | None) -> Lateness:
    """Lateness settings from a request (a 400 naming the field when one is wrong)."""
    try:
        return parse(data)
    except GameRuleError as err:
        where = str(err).split(":", 1)[0]
        raise bad_request(str(err), "bad_settings", where) from err


def set_lateness(session: Session, seat: Seat, data: dict[str, Any] | None) -> Lateness:
    """The master changes the game's lateness settings (preset first, then each named setting)."""
    settings = store_lateness(session, seat.row.id, settings_from(data))
    seat.row.version += 1
    return settings


def call_data(call: ReplacementCall, row: GameRow | None = None) -> Call:
    """What anyone may know about a call for a replacement (the take-over link included: it is public)."""
    return Call(
        game=call.game_id,
        power=call.power,
        reason=call.reason,
        at=call.created_at.isoformat(),
        link=f"/takeover/{call.token}",
        open=call.closed_at is None,
        game_name=row.name if row is not None else None,
    )


def offer(call: ReplacementCall, row: GameRow, summary: GameSummary) -> Offer:
    """What a take-over link offers, with the game's summary."""
    return Offer(**{**dict(call_data(call, row)), "game": summary})


def _miss_data(miss: MissedDeadline, names: dict[int, str], hidden: bool, game_name: str | None = None) -> Miss:
    return Miss(
        game=miss.game_id,
        phase=miss.phase,
        step=miss.step,
        power=miss.power,
        player=None if hidden or miss.user_id is None else names.get(miss.user_id),
        at=miss.at.isoformat(),
        excused=miss.excused,
        yellow_card=miss.carded,
        game_name=game_name,
    )


def game_board(session: Session, row: GameRow) -> GameBoard:
    """A game's lateness board (for whoever may know the game: see :func:`arbitre.server.services.open_game`):
    its settings, missed deadlines, powers in civil disorder, open calls."""
    game_id = row.id
    hidden = hides_players(row)
    misses = list(
        session.scalars(
            select(MissedDeadline)
            .where(MissedDeadline.game_id == game_id)
            .order_by(MissedDeadline.id.desc())
            .limit(BOARD_LIMIT)
        )
    )
    names = user_names(session, {m.user_id for m in misses if m.user_id is not None})
    cards: dict[str, int] = {}
    for m in misses:
        if m.carded:
            cards[m.power] = cards.get(m.power, 0) + 1
    return GameBoard(
        game=BoardGame(id=row.id, name=row.name, status=row.status, phase=row.phase),
        settings=LatenessSettings.of(lateness_of(session, game_id)),
        missed=[_miss_data(m, names, hidden) for m in misses],
        yellow_cards=dict(sorted(cards.items())),
        disorder=sorted(in_disorder(session, game_id)),
        calls=[call_data(c) for c in open_calls(session, game_id)],
    )


def site_board(session: Session, user_id: int | None) -> SiteBoard:
    """The site-wide board as the reader ``user_id`` (``None``: a visitor) may see it: the newest missed
    deadlines, the open calls and the yellow cards per player, of the games the reader may know exist."""
    known = MissedDeadline.game_id.in_(known_game_ids(user_id))
    misses = list(
        session.scalars(select(MissedDeadline).where(known).order_by(MissedDeadline.id.desc()).limit(BOARD_LIMIT))
    )
    calls = open_calls(session, known=known_game_ids(user_id))
    game_ids = {m.game_id for m in misses} | {c.game_id for c in calls}
    rows = {g.id: g for g in session.scalars(select(GameRow).where(GameRow.id.in_(game_ids)))} if game_ids else {}
    names = user_names(session, {m.user_id for m in misses if m.user_id is not None})
    return SiteBoard(
        missed=[_miss_data(m, names, hides_players(rows[m.game_id]), rows[m.game_id].name) for m in misses],
        calls=[call_data(c, rows[c.game_id]) for c in calls],
        yellow_cards=yellow_cards(session, user_id),
    )


def yellow_cards(session: Session, user_id: int | None) -> dict[str, int]:
    """Yellow cards per player over every game the reader ``user_id`` may know exist (running anonymous
    games left out: they would name players)."""
    counts = session.execute(
        select(MissedDeadline.user_id, MissedDeadline.game_id, func.count())
        .where(
            MissedDeadline.carded,
            MissedDeadline.user_id.is_not(None),
            MissedDeadline.game_id.in_(known_game_ids(user_id)),
        )
        .group_by(MissedDeadline.user_id, MissedDeadline.game_id)
    ).all()
    game_ids = {g for _, g, _ in counts}
    rows = {g.id: g for g in session.scalars(select(GameRow).where(GameRow.id.in_(game_ids)))} if game_ids else {}
    per_user: dict[int, int] = {}
    for user_id, game_id, n in counts:
        if user_id is not None and not hides_players(rows[game_id]):
            per_user[user_id] = per_user.get(user_id, 0) + n
    names = user_names(session, set(per_user))
    return dict(sorted(((names[u], n) for u, n in per_user.items()), key=lambda item: (-item[1], item[0])))


def call_replacement(session: Session, site: Site, seat: Seat, power: str) -> ReplacementCall:
    """The master publishes a call for a replacement of ``power``."""
    game = site.referee.game(session, seat.row)
    try:
        return publish_call(session, seat.row, power or "", game.powers(), "master", site.now())
    except GameRuleError as err:
        raise conflict(str(err)) from err


def withdraw_call(session: Session, site: Site, seat: Seat, power: str) -> None:
    """The master withdraws the open call for ``power``."""
    power = (power or "").upper()
    if not any(c.power == power for c in open_calls(session, seat.row.id)):
        raise not_found(f"an open call for {power[:24]}")
    close_calls(session, seat.row.id, power, site.now(), None)
    seat.row.version += 1


def _known(session: Session, row: GameRow | None, user: User | None) -> bool:
    """Does the game exist for ``user`` (``None``: a visitor), under the site's one rule?"""
    if row is None:
        return False
    return may_know(row, membership_of(session, row.id, user.id) if user is not None else None)


def takeover_info(session: Session, token: str, user: User | None) -> tuple[ReplacementCall, GameRow]:
    """The call a take-over link names and its game, for ``user`` (``None``: a visitor); 404 when the link is
    unknown, and when it belongs to a game the reader may not know exists (a private game's link works only
    for its members)."""
    call = call_by_token(session, token)
    row = get_game(session, call.game_id) if call else None
    if call is None or row is None or not _known(session, row, user):
        raise not_found("this take-over link")
    return call, row


def take_over(session: Session, site: Site, token: str, user: User) -> GameRow:
    """``user`` takes the seat a take-over link offers; the late player loses it."""
    call = call_by_token(session, token)
    row = get_game(session, call.game_id, lock=True, with_data=True) if call else None
    if call is None or row is None or not _known(session, row, user):
        raise not_found("this take-over link")
    if call.closed_at is not None:
        raise conflict("this seat has been taken or the call withdrawn")
    try:
        site.referee.replace_player(session, row, call.power, user, site.now())
    except GameRuleError as err:
        raise conflict(str(err)) from err
    return row
