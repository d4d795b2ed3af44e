"""The JSON API for bots: the same answers as the pages (OpenAPI docs at ``/api/docs``).

Authenticate with ``Authorization: Bearer <token>`` (make a token with
``POST /api/tokens`` or on the account page).  Requests made with the session
cookie instead must carry the ``X-CSRF-Token`` header on every change.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import Field, StringConstraints

from arbitre.life.forming import BotsRequest, GameSettings
from arbitre.life.referee import SubmitResult
from arbitre.maps import available_maps
from arbitre.rules.options import options_catalogue
from arbitre.server import actions, drafts, services
from arbitre.server.answers import (
    Account,
    AccountGames,
    Checked,
    Done,
    Draft,
    GameState,
    GameSummary,
    JoinPage,
    Legal,
    Messages,
    NewAccount,
    OptionsCatalogue,
    OutsiderState,
    OwnOrders,
    PhaseAnswer,
    PlayedPhase,
    ProposedVote,
    RejectedOrder,
    SavedDraft,
    SubmitAnswer,
    Token,
    Votes,
)
from arbitre.server.auth import client_address, site_of
from arbitre.server.engine_words import engine_message
from arbitre.server.errors import Problem
from arbitre.server.fields import (
    MAX_LINE,
    MAX_ORDERS,
    Deadlines,
    LongText,
    Minutes,
    Names,
    Options,
    Orders,
    Secret,
    ShortText,
    Strict,
)
from arbitre.server.guesses import join_code_guess
from arbitre.server.lateness import settings_from
from arbitre.server.milaexport import mila_export
from arbitre.server.routes.api_lateness import LatenessIn
from arbitre.server.services import Seat
from arbitre.server.visit import CSRF_HEADER, Visit, reading, writing
from arbitre.store.accounts import create_token
from arbitre.store.games import games_of, lobby_games, taken_seats
from arbitre.store.models import MASTER, PLAYER
from arbitre.words.modules import modules_catalogue

router = APIRouter(prefix="/api", tags=["api"])


class AccountIn(Strict):
    """A new account."""

    name: ShortText = Field(max_length=40)
    password: Secret
    lang: Literal["en", "fr"] = "en"


class TokenIn(Strict):
    """Credentials exchanged for a bearer token."""

    name: ShortText = Field(max_length=40)
    password: Secret
    label: ShortText = "bot"


class MeIn(Strict):
    """Account preferences."""

    lang: Literal["en", "fr"]


class VotesIn(Strict):
    """A game's vote settings: the vote kinds whose ballots are secret, and whether a draw includes every
    power still in the game (DIAS)."""

    secret: list[Literal["draw", "concede", "pause", "resume", "extend"]] | None = Field(default=None, max_length=5)
    dias: bool = True


class BotsIn(Strict):
    """Bot seats at creation: the powers a bot plays, the bot setting for votes and scores, and after how
    many missed steps in a row a bot takes a late player's seat."""

    seats: Names = []
    votes: Literal["abstain", "exclude", "count"] = "abstain"
    after_missed: int | None = Field(default=None, strict=True, ge=1, le=20)


class GameIn(Strict):
    """A new game's settings (deadlines in seconds, keyed M, R, A and the steps rule modules declare;
    ``show_progress``: everyone sees who has given orders and who is ready)."""

    name: ShortText
    map: ShortText = "standard"
    rules: Names = []
    options: Options = {}
    press: Literal["none", "public", "full"] = "full"
    deadlines: Deadlines = {}
    show_progress: bool = True
    """Does everyone see who has given orders and who is ready?"""
    assignment: Literal["random", "choice", "preferences"] = "random"
    creator: Literal["master", "player"] = "master"
    """Are you the game's master (who does not play), or one of its players (the game then has no master)?"""
    power: ShortText | None = Field(default=None, max_length=24)
    """The power you ask for, if you play and players choose."""
    preferences: Names | None = None
    """The powers you would rather play, best first, if you play and powers are seated by preferences."""
    private: bool = False
    """Listed to its members only; others join through its invitation link."""
    join_code: ShortText = Field(default="", max_length=40)
    """With a private game: a code that joining also asks for."""
    anonymous: bool = False
    """Until the game ends, no answer names the player behind a power."""
    votes: VotesIn | None = None
    lateness: LatenessIn | None = None
    """Lateness settings: a preset (``casual``, ``tournament``) and any setting over it."""
    last_year: int | None = Field(default=None, strict=True, ge=1, le=99999)
    """The game ends in a draw once this year is played (``null``: no fixed length)."""
    target_centers: int | None = Field(default=None, strict=True, ge=1, le=999)
    """The centres a power needs to win (``null``: the map's number)."""
    scoring: Literal["draw-size", "sum-of-squares", "c-diplo", "c-diplo-100"] = "draw-size"
    """The scoring system of the game's final page."""
    bots: BotsIn | None = None
    """Seats the house bot plays from the start, and how votes, scores and lateness treat bot seats (the
    way a game without a master gets bots; a master can also seat them later)."""

    def request(self) -> GameSettings:
        """The typed creation request (lateness settings read here: a 400 names a wrong one)."""
        return GameSettings(
            name=self.name,
            map_name=self.map,
            rules=tuple(self.rules),
            options=dict(self.options),
            press=self.press,
            assignment=self.assignment,
            deadlines=dict(self.deadlines),
            show_progress=self.show_progress,
            private=self.private,
            join_code=self.join_code,
            anonymous=self.anonymous,
            secret_votes=tuple(self.votes.secret) if self.votes and self.votes.secret is not None else None,
            dias=self.votes.dias if self.votes else True,
            creator=self.creator,
            power=self.power,
            preferences=tuple(self.preferences or ()),
            last_year=self.last_year,
            target_centers=self.target_centers,
            scoring=self.scoring,
            lateness=settings_from(self.lateness.settings()) if self.lateness else None,
            bots=BotsRequest(tuple(self.bots.seats), self.bots.votes, self.bots.after_missed) if self.bots else None,
        )


class JoinIn(Strict):
    """Join as a player (optionally naming the wanted power, or ranking powers) or as an observer;
    ``code``: a private game's join code."""

    role: Literal["player", "observer"] = "player"
    power: ShortText | None = None
    preferences: Names | None = None
    code: ShortText | None = Field(default=None, max_length=40)


class OrdersIn(Strict):
    """Orders (one per item; ``null`` keeps the current ones) and/or the ready switch.

    ``phase`` (optional) is the phase the orders are meant for; they are refused if
    the game has moved on.
    """

    orders: Orders | None = None
    ready: bool | None = None
    phase: ShortText | None = Field(default=None, max_length=16)


class DraftIn(Strict):
    """A draft: the order box's lines as typed (never adjudicated), for the step named by ``phase``/``step``."""

    orders: list[Annotated[str, StringConstraints(max_length=MAX_LINE)]] = Field(max_length=MAX_ORDERS)
    phase: ShortText | None = Field(default=None, max_length=16)
    step: ShortText | None = Field(default=None, max_length=24)


class CheckIn(Strict):
    """Orders to check without storing them."""

    orders: Orders


class MessageIn(Strict):
    """A press message: ``to`` is a list of recipients (powers and/or ``MASTER``), or ``["*"]`` for public
    press; one name alone (``"FRANCE"``, ``"*"``) is still accepted."""

    to: Annotated[ShortText, Field(max_length=24)] | Names = Field(union_mode="left_to_right")
    body: LongText


class ReadIn(Strict):
    """A conversation to mark as read: its id in the ``conversations`` list (``*`` for public press)."""

    conversation: ShortText = Field(max_length=420)


class MasterIn(Strict):
    """A master-console action."""

    action: Literal["pause", "resume", "extend", "adjudicate", "draw", "end", "replace"]
    minutes: Minutes | None = None
    power: ShortText | None = None
    user: ShortText | None = None
    powers: Names | None = None
    """For a draw: the powers sharing it (default: every power still in the game)."""


class VoteIn(Strict):
    """A vote to open: ``draw`` (``powers``: the draw's set, when the game is not DIAS), ``concede``
    (``powers``: the one power conceded to), ``pause``, ``resume``, ``extend`` (``minutes``)."""

    kind: Literal["draw", "concede", "pause", "resume", "extend"]
    powers: Names | None = None
    minutes: Minutes | None = None


class BallotIn(Strict):
    """A ballot: yes or no."""

    choice: Literal["yes", "no"]


class DecisionIn(Strict):
    """The master's decision on an open vote."""

    decision: Literal["approve", "reject"]


@router.post("/register", status_code=201)
def register(body: AccountIn, request: Request) -> NewAccount:
    """Create an account."""
    site = site_of(request)
    password_hash = actions.check_account(site, body.name, body.password, client_address(request))
    with site.db.writing() as s:
        user = actions.register(s, site, body.name, password_hash, body.lang)
        return NewAccount(id=user.id, name=user.name)


@router.post("/tokens", status_code=201)
def token(body: TokenIn, request: Request) -> Token:
    """Exchange a name and password for a bearer token (shown once)."""
    site = site_of(request)
    with site.db.reading() as s:  # no write transaction during the (slow) password check
        user = actions.authenticate(s, site, body.name, body.password, client_address(request))
    if user is None:
        raise Problem(401, "bad_login", "wrong user name or password")
    with site.db.writing() as s:
        return Token(token=create_token(s, user.id, body.label, site.now()))


@router.get("/me")
def me(request: Request) -> AccountGames:
    """The account and its games."""
    with reading(request) as v:
        user = v.user()
        return AccountGames(
            id=user.id,
            name=user.name,
            lang=user.lang,
            games=[services.my_game(g, m) for g, m in games_of(v.session, user.id)],
        )


@router.put("/me")
def update_me(body: MeIn, request: Request) -> Account:
    """Change preferences (language of pages and reports)."""
    with writing(request) as v:
        user = v.user()
        user.lang = body.lang
        return Account(id=user.id, name=user.name, lang=user.lang)


@router.get("/options")
def options() -> OptionsCatalogue:
    """Every rule option (grouped by DATC section, the DATC preference marked), every preset, every map
    and every rule module (its title and description in each language, the maps it applies to, its options)."""
    return OptionsCatalogue.model_validate(
        {**options_catalogue(), "maps": available_maps(), "modules": modules_catalogue()}
    )


@router.get("/games")
def games(request: Request) -> list[GameSummary]:
    """The lobby: open games with free seats first, then running games, then finished ones (``taken`` of
    ``seats``).  Private games are listed to their members only."""
    with reading(request) as v:
        return [services.summary(g, n) for g, n in lobby_games(v.session, v.actor.user.id if v.actor.user else None)]


@router.post("/games", status_code=201)
def create(body: GameIn, request: Request) -> GameSummary:
    """Create a game; you are its master."""
    with writing(request) as v:
        row = actions.new_game(v.session, v.site, v.user(), body.request())
        return services.summary(row, 0)


@router.get("/games/{game_id}")
def game(game_id: int, request: Request) -> GameState | OutsiderState:
    """A member's game page (summary, roster, their view, their orders); an outsider gets the summary."""
    with reading(request) as v:
        seat = v.game(game_id, member=False)
        if seat.member is None:
            return OutsiderState(game=services.summary(seat.row, taken_seats(v.session, game_id)))
        return services.game_state(v.site, v.session, seat)


@router.post("/games/{game_id}/join")
def join(game_id: int, body: JoinIn, request: Request) -> GameSummary:
    """Join a game as a player or an observer."""
    with join_code_guess(request, body.code), writing(request) as v:
        user = v.user()
        seat = v.game(game_id, member=False, lock=True)
        actions.join_game(v.session, v.site, seat, user, body.role, body.power, body.preferences, body.code)
        return services.summary(seat.row, taken_seats(v.session, game_id))


@router.get("/invitations/{token}")
def invitation(token: str, request: Request) -> JoinPage:
    """What an invitation link shows: the game's settings, its roster and its powers."""
    with reading(request) as v:
        seat = v.invitation(token)
        return services.join_page(v.site, v.session, seat)


@router.post("/invitations/{token}/join")
def join_by_invitation(token: str, body: JoinIn, request: Request) -> GameSummary:
    """Join the game of an invitation link (with its join code, if it has one)."""
    with join_code_guess(request, body.code, invitation=token), writing(request) as v:
        user = v.user()
        seat = v.invitation(token, lock=True)
        actions.join_game(v.session, v.site, seat, user, body.role, body.power, body.preferences, body.code)
        return services.summary(seat.row, taken_seats(v.session, seat.row.id))


@router.get("/games/{game_id}/orders")
def get_orders(game_id: int, request: Request) -> OwnOrders:
    """Your orders for the current step, your ready switch and the legal orders of your units."""
    with reading(request) as v:
        seat = v.game(game_id, roles=(PLAYER,))
        orders = services.game_state(v.site, v.session, seat).orders
        if orders is None:
            raise Problem(409, "conflict", "you hold no power yet")
        return orders


@router.get("/games/{game_id}/legal")
def legal(game_id: int, request: Request) -> Legal:
    """The legal orders of your units now, keyed by unit place (what the map and the picker offer).

    Made by the engine from what your power may see; in a reaction step, only the
    changes the engine accepts there (``one_line``: the one change replaces the box).
    """
    with reading(request) as v:
        seat = v.game(game_id, roles=(PLAYER,))
        return services.legal_data(v.site, v.session, seat)


@router.put("/games/{game_id}/orders")
def put_orders(game_id: int, body: OrdersIn, request: Request) -> SubmitAnswer:
    """Replace your orders and/or set your ready switch; the step is processed when everyone is ready."""

    def answer(v: Visit, seat: Seat, result: SubmitResult) -> SubmitAnswer:
        rejected = [
            RejectedOrder(
                order=r.text,
                outcome=r.outcome,
                reason=r.reason,
                message=engine_message(r.message or "", r.outcome, v.actor.lang) or None,
            )
            for r in result.rejected
        ]
        return SubmitAnswer(
            rejected=rejected,
            processed=result.processed,
            phase=seat.row.phase,
            step=seat.row.step,
            to_do=None if result.processed else services.own_to_do(v.site, v.session, seat),
        )

    return actions.submit_orders(
        site_of(request),
        lambda: reading(request, CSRF_HEADER),
        lambda: writing(request),
        lambda v, lock: (v.session, v.game(game_id, lock=lock, roles=(PLAYER,))),
        body.orders,
        body.ready,
        body.phase,
        answer,
    )


@router.post("/games/{game_id}/check")
def check(game_id: int, body: CheckIn, request: Request) -> Checked:
    """Check orders without storing them: the engine's messages for the lines it rejects."""
    with reading(request, CSRF_HEADER) as v:
        seat = v.game(game_id, roles=(PLAYER,))
        errors = [  # the engine's words in the reader's language
            e.model_copy(update={"message": engine_message(e.message, e.outcome, v.actor.lang)})
            for e in actions.check_orders(v.site, v.session, seat, body.orders)
        ]
        return Checked(errors=errors, to_do=services.own_to_do(v.site, v.session, seat, body.orders))


@router.get("/games/{game_id}/draft")
def get_draft(game_id: int, request: Request) -> Draft:
    """Your draft: the orders last saved from your order box for the current step (``lines`` is ``null`` when
    you have none; a draft of a past step is never returned).  A draft is never adjudicated: only
    ``PUT /api/games/{id}/orders`` submits orders."""
    with reading(request) as v:
        seat = v.game(game_id, roles=(PLAYER,))
        if not seat.power:
            raise Problem(409, "conflict", "you hold no power yet")
        lines = services.current_draft(v.session, seat)
        return Draft(
            phase=seat.row.phase,
            step=seat.row.step,
            lines=lines,
            to_do=services.own_to_do(v.site, v.session, seat, lines) if lines is not None else None,
        )


@router.put("/games/{game_id}/draft")
def put_draft(game_id: int, body: DraftIn, request: Request) -> SavedDraft:
    """Save your draft for the current step (the order box's lines, as typed; at most 200 lines of 200
    characters).  ``phase``/``step`` name the step it is for: a draft for a step that is over is refused
    (409 ``stale_draft``).  Nobody else reads it, and saving it tells nobody anything."""
    with writing(request) as v:
        seat = v.game(game_id, roles=(PLAYER,))
        kept = drafts.put_draft(v.session, seat, v.user().id, body.orders, body.phase, body.step, v.site.now())
        to_do = services.own_to_do(v.site, v.session, seat, kept)
        return SavedDraft(phase=seat.row.phase, step=seat.row.step, lines=kept, to_do=to_do)


@router.get("/games/{game_id}/history")
def history(game_id: int, request: Request) -> list[PlayedPhase]:
    """The played phases."""
    with reading(request) as v:
        return services.history(v.site, v.session, v.game(game_id))


@router.get("/games/{game_id}/history/{index}")
def history_phase(game_id: int, index: int, request: Request) -> PhaseAnswer:
    """One played phase as you see it: board, orders and results, report."""
    with reading(request) as v:
        return services.history_phase(v.site, v.session, v.game(game_id), index)


@router.get("/games/{game_id}/export")
def export(game_id: int, request: Request, format: Literal["mila"] = "mila") -> dict[str, Any]:
    """The game as MILA's saved-game JSON (the master at any time, others once it is finished; docs/mila.md)."""
    with reading(request) as v:
        seat = v.game(game_id)
        game = services.whole_game(v.site, v.session, seat.row)  # every played phase, from its record
        return mila_export(v.session, game, seat.row.id, seat.row.status, seat.role, seat.press_name, seat.row.press)


@router.get("/games/{game_id}/messages")
def messages(game_id: int, request: Request, conversation: str | None = Query(None, max_length=420)) -> Messages:
    """The messages you may read (of one conversation when given), your conversations with their unread
    counts, and where you may write."""
    with reading(request) as v:
        seat = v.game(game_id)
        press = services.press(v.session, seat, conversation)
        return Messages(**dict(press), recipients=services.recipients(v.site, v.session, seat))


@router.post("/games/{game_id}/messages/read")
def read_messages(game_id: int, body: ReadIn, request: Request) -> Done:
    """Mark one of your conversations as read."""
    with writing(request) as v:
        seat = v.game(game_id)
        services.read_conversation(v.session, seat, body.conversation)
        return Done()


@router.post("/games/{game_id}/messages", status_code=201)
def post_message(game_id: int, body: MessageIn, request: Request) -> Done:
    """Send a message (press settings permitting)."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True)
        actions.send_message(v.session, v.site, seat, v.user(), body.to, body.body)
        return Done()


@router.post("/games/{game_id}/master")
def master(game_id: int, body: MasterIn, request: Request) -> GameSummary:
    """Master console: pause, resume, extend (minutes), adjudicate, draw (powers), end, replace (power, user)."""
    answer = actions.master_action(
        site_of(request),
        lambda: reading(request, CSRF_HEADER),
        lambda: writing(request),
        lambda v, lock: (v.session, v.game(game_id, lock=lock, roles=(MASTER,))),
        body.action,
        body.minutes,
        body.power,
        body.user,
        body.powers,
        lambda v, seat: services.summary(seat.row),
    )
    assert answer is not None
    return answer


@router.get("/games/{game_id}/votes")
def votes(game_id: int, request: Request) -> Votes:
    """The game's votes as you may see them (in a secret vote: your own ballot and the outcome)."""
    with reading(request) as v:
        return services.votes(v.site, v.session, v.game(game_id))


@router.post("/games/{game_id}/votes", status_code=201)
def propose_vote(game_id: int, body: VoteIn, request: Request) -> ProposedVote:
    """Open a vote (players); your ballot is yes.  It passes when every power that must agree agreed."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        vote_id = actions.propose_vote(v.session, v.site, seat, body.kind, body.powers, body.minutes)
        return ProposedVote(id=vote_id, **dict(services.votes(v.site, v.session, seat)))


@router.post("/games/{game_id}/votes/{vote_id}/ballot")
def ballot(game_id: int, vote_id: int, body: BallotIn, request: Request) -> Votes:
    """Vote yes or no on an open vote (a new ballot replaces your earlier one)."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        actions.cast_ballot(v.session, v.site, seat, vote_id, body.choice)
        return services.votes(v.site, v.session, seat)


@router.delete("/games/{game_id}/votes/{vote_id}/ballot")
def withdraw_ballot(game_id: int, vote_id: int, request: Request) -> Votes:
    """Take your ballot back while the vote is open (you are asked again)."""
    return _withdraw(game_id, vote_id, request, "ballot")


@router.delete("/games/{game_id}/votes/{vote_id}")
def withdraw_vote(game_id: int, vote_id: int, request: Request) -> Votes:
    """Withdraw a vote you opened while it is undecided (its status becomes ``withdrawn``)."""
    return _withdraw(game_id, vote_id, request, "vote")


def _withdraw(game_id: int, vote_id: int, request: Request, what: str) -> Votes:
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        actions.withdraw_vote(v.session, v.site, seat, vote_id, what)
        return services.votes(v.site, v.session, seat)


@router.post("/games/{game_id}/votes/{vote_id}/decision")
def decision(game_id: int, vote_id: int, body: DecisionIn, request: Request) -> Votes:
    """The master approves (the vote passes and is carried out) or rejects an open vote."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        actions.decide_vote(v.session, v.site, seat, vote_id, body.decision)
        return services.votes(v.site, v.session, seat)
