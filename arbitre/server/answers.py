"""Typed answers of the game services and the JSON API: what a service returns is a value with named fields,
not a mapping.

Each answer is a frozen pydantic model; a route returns it and FastAPI writes it as JSON (the app sorts keys,
:mod:`arbitre.server.canonical`), and ``GET /openapi.json`` shows it as the route's response model.  A key
that an answer carries only sometimes (``orders`` for a player, ``all_orders`` for the master) is a field
left out of the JSON when it is ``None`` (:data:`Omitted`): null and missing stay what they were.  Pages read
the same value as a mapping through :meth:`Answer.data`, the one serializer.

What the answers hold from other modules stays in their own form where that form is open by design: a view's
data (:mod:`arbitre.views`, with the extras of every rule module), the game's ending and scores.  A vote as its
viewer sees it (:func:`arbitre.judge.votes.vote_view`), the vote settings and the bot seats are typed here.
The other route modules' answers live beside the code that builds them (:mod:`arbitre.server.lateness`,
:mod:`arbitre.server.sandbox`, :mod:`arbitre.server.tournaments`, :mod:`arbitre.server.accounts`...), on
:class:`Answer`.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

T = TypeVar("T")


def _absent(value: object) -> bool:
    return value is None


Omitted = Annotated[T | None, Field(exclude_if=_absent)]
"""A field present in the JSON only when it has a value (give it ``= None``: then the key is missing, not null)."""

Mapping = dict[str, Any]
"""Another module's JSON form (a view, a vote, the scores...), carried as it is."""


class Answer(BaseModel):
    """A typed answer: frozen, its fields named; :meth:`data` is its JSON form as Python values."""

    model_config = ConfigDict(frozen=True)

    def data(self) -> dict[str, Any]:
        """The answer as the mapping its JSON is written from (keys as in the JSON, missing keys left out)."""
        return self.model_dump(mode="python", by_alias=True)


class Builds(Answer):
    """The builds a power may make and how many its orders give."""

    allowed: int
    given: int


class Disbands(Answer):
    """The disbands a power owes and how many its orders give."""

    required: int
    given: int


class ToDo(Answer):
    """What a power has still to do now with some orders: the phase kind and step, whether one change is all
    the step takes, the units still without an order, the builds or disbands owed, whether it is complete."""

    kind: str
    step: str
    one_change: bool
    missing: list[str]
    complete: bool
    builds: Omitted[Builds] = None
    disbands: Omitted[Disbands] = None


class RejectedOrder(Answer):
    """One submitted line the engine refused (kept: it will fail), in the reader's words."""

    order: str
    outcome: str
    reason: str | None
    message: str | None


class SubmitAnswer(Answer):
    """The answer to a player's orders and/or ready switch: the refused lines, whether a step was processed,
    the step the game now stands at and what the power still has to do (``None`` once processed)."""

    rejected: list[RejectedOrder]
    processed: bool
    phase: str
    step: str
    to_do: ToDo | None


class GameSummary(Answer):
    """What anyone who may see the game may know about it."""

    id: int
    name: str
    map: str
    rules: list[str]
    options: Mapping
    press: str
    assignment: str
    deadlines: dict[str, int]
    status: str
    phase: str
    step: str
    result: str
    deadline: str | None
    """When the current step closes (ISO 8601), ``None`` without a deadline."""
    remaining_seconds: int | None
    show_progress: bool
    private: bool
    anonymous: bool
    votes: Mapping
    seats: int | None
    steps: list[str]
    players: Omitted[int] = None
    """Seats taken (the lobby and joining answers only)."""
    taken: Omitted[int] = None
    """Seats taken, again under the lobby's name."""


class MyGame(GameSummary):
    """One of the account's games: its summary and the account's role and power there."""

    role: str
    power: str | None


class Account(Answer):
    """An account: its id, name and language."""

    id: int
    name: str
    lang: str


class AccountGames(Account):
    """The account and its games."""

    games: list[MyGame]


class NewAccount(Answer):
    """A new account's id and name."""

    id: int
    name: str


class Token(Answer):
    """A bearer token (shown once)."""

    token: str


class Done(Answer):
    """An action that answers nothing but its success."""

    ok: bool = True


class RosterPlayer(Answer):
    """A player's seat: the power (``None`` before the game starts) and the player's name (``None`` while an
    anonymous game runs)."""

    power: str | None
    user: str | None


class Roster(Answer):
    """Who is in the game: master, players (sorted by power), observers."""

    master: str | None
    players: list[RosterPlayer]
    observers: list[str]


class Invitation(Answer):
    """A private game's invitation link path and join code (for the one who invites)."""

    path: str
    code: str | None


class Role(Answer):
    """The requester's role and power in the game."""

    role: str | None
    power: str | None


class Viewer(Role):
    """The requester's role, power, viewer id and the power it asked for (before seating)."""

    viewer: str
    wanted: str | None


class JoinPage(Answer):
    """What the join page shows anyone who may see the game: its settings, roster and powers."""

    game: GameSummary
    roster: Roster
    powers: list[str]
    chosen: list[str]
    code_needed: bool
    you: Role


class OwnOrders(Answer):
    """A player's orders for the current step: the lines, the ready switch, the legal orders, the draft, what
    is still to do; in a step after the orders lock, the ``locked`` orders."""

    phase: str
    step: str
    lines: list[str]
    ready: bool
    must_order: bool
    legal: dict[str, list[str]]
    submitted: bool
    draft: list[str] | None
    to_do: ToDo | None
    locked: Omitted[list[str]] = None


class PowerOrders(Answer):
    """A power's orders and ready switch, as the master sees them."""

    lines: list[str]
    ready: bool


class PowerProgress(Answer):
    """Has a power given orders (``given``; ``orders``: ``none``, ``partly`` or ``all``), is it ready."""

    given: bool
    orders: str
    ready: bool


class VoteView(Answer):
    """A vote as its reader may see it (:func:`arbitre.judge.votes.vote_view`): in a secret vote a power sees
    its own ballot only and the proposer only when it proposed; an observer sees the outcome."""

    id: int
    """The vote's number in its game."""
    kind: str
    powers: list[str]
    minutes: int | None
    status: str
    phase: str
    secret: bool
    decided_by: str
    you_vote: bool
    your_ballot: str | None
    voters: list[str]
    proposer: str | None
    ballots: dict[str, str]


class VotingSettings(Answer):
    """A game's vote settings: the kinds of vote that are secret, whether a draw includes every survivor."""

    secret: list[str]
    dias: bool


class BotSeatInfo(Answer):
    """A seat a bot plays: its kind, why it holds the seat, and since which phase."""

    kind: str
    reason: str
    since: str


class BotSettings(Answer):
    """How votes and scores treat bot seats, and after how many missed steps a bot takes a seat (``None``: never)."""

    votes: str
    after_missed: int | None


class BotSummary(Answer):
    """A game's bot seats (by power), its bot settings and the choices of the votes setting."""

    seats: dict[str, BotSeatInfo]
    settings: BotSettings
    votes_choices: list[str]


class GameBots(BotSummary):
    """The bot seats after the master gave one to a bot, and the game (it may have started)."""

    game: GameSummary


class GameState(Answer):
    """A member's game page: summary, roster, their view, the votes open, the ending; their orders (a player),
    every power's orders (the master), what the lock revealed (a step after the orders lock)."""

    game: GameSummary
    roster: Roster
    invitation: Invitation | None
    powers: list[str]
    you: Viewer
    winners: list[str]
    view: Mapping
    bots: BotSummary
    votes: list[VoteView]
    ending: Mapping
    scores: Mapping | None
    progress: dict[str, PowerProgress] | None
    orders: Omitted[OwnOrders] = None
    reveal: Omitted[list[Mapping]] = None
    all_orders: Omitted[dict[str, PowerOrders]] = None
    to_act: Omitted[list[str]] = None
    ready: Omitted[list[str]] = None


class OutsiderState(Answer):
    """What an outsider reads of a game: its summary."""

    game: GameSummary


class Ending(Answer):
    """The game's length and scoring settings and, once it is won or drawn, its scores."""

    ending: Mapping
    scores: Mapping | None


class GameScores(Ending):
    """A game's number and status, its length and scoring settings, its scores once it is won or drawn."""

    game: int
    status: str


class Votes(Answer):
    """The game's votes as the requester may see them, what they may propose, and the vote settings."""

    votes: list[VoteView]
    settings: VotingSettings
    survivors: list[str]
    may_propose: bool
    may_decide: bool


class ProposedVote(Votes):
    """A vote just opened: its id and the game's votes."""

    id: int


class Legal(Answer):
    """The order picker's data: the legal orders of the power's units and whether one line replaces all."""

    phase: str
    step: str
    legal: dict[str, list[str]]
    one_line: bool


class CheckedLine(Answer):
    """One line the engine rejects: its number, text, outcome, reason and message."""

    line: int | None
    order: str
    outcome: str
    reason: str | None
    message: str


class Checked(Answer):
    """The engine's verdict on orders not stored: the rejected lines and what is still to do."""

    errors: list[CheckedLine]
    to_do: ToDo | None


class Draft(Answer):
    """A player's draft for the current step (``lines``: ``None`` without one) and what is still to do."""

    phase: str
    step: str
    lines: list[str] | None
    to_do: ToDo | None


class SavedDraft(Draft):
    """A draft just saved."""

    lines: list[str]
    saved: bool = True


class PlayedPhase(Answer):
    """A played phase: its index and name."""

    index: int
    phase: str


class PhaseAnswer(Answer):
    """A played phase as the requester sees it."""

    index: int
    view: Mapping


class Message(Answer):
    """A press message: its number among those the reader may read, phase, sender, recipients, conversation."""

    id: int
    phase: str
    sender: str = Field(serialization_alias="from", validation_alias=AliasChoices("sender", "from"))
    to: list[str]
    conversation: str
    body: str
    at: str


class Conversation(Answer):
    """One of the requester's conversations: parties, the others, counts, the number of its newest message."""

    id: str
    parties: list[str]
    with_: list[str] = Field(serialization_alias="with", validation_alias=AliasChoices("with_", "with"))
    count: int
    unread: int
    last: int | None


class Press(Answer):
    """The messages the requester may read, their conversations, and the press setting."""

    press: str
    you: str
    conversation: str | None
    conversations: list[Conversation]
    messages: list[Message]


class Messages(Press):
    """The press answer and where the requester may write."""

    recipients: list[str]


class OptionValue(Answer):
    """One value of a disputed rule: what it does, and whether it is the DATC preference."""

    value: str
    description: str
    datc_preference: bool


class RuleOptionEntry(Answer):
    """One disputed rule as the catalogue lists it: its DATC paragraph, its title, its values."""

    name: str
    datc: str
    title: str
    default: str
    values: list[OptionValue]


class OptionGroup(Answer):
    """The disputed rules of one DATC section."""

    key: str
    title: str
    options: list[RuleOptionEntry]


class PresetEntry(Answer):
    """A named rule set: the options it sets and where its reading comes from."""

    name: str
    title: str
    options: dict[str, str]
    sources: str


class ModuleOptionEntry(Answer):
    """One option of a rule module, its description in each language of the site."""

    name: str
    description: dict[str, str]


class ModuleEntry(Answer):
    """A registered rule module: its words in each language, the maps it applies to (empty: any), the map that
    always brings it (``for_map``), its options."""

    name: str
    title: dict[str, str]
    description: dict[str, str]
    maps: list[str]
    for_map: str | None
    options: list[ModuleOptionEntry]


class OptionsCatalogue(Answer):
    """Every disputed rule (by DATC section), every preset, every map and every rule module."""

    groups: list[OptionGroup]
    presets: list[PresetEntry]
    maps: list[str]
    modules: list[ModuleEntry]
