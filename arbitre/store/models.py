"""The relational schema: users, tokens, games, memberships, orders, messages, adjudications, records.

A game row keeps the phase being played (:meth:`arbitre.judge.Game.state_data` in
``games.data``: the current position and the step's progress) and a version; each closed
step is one :class:`GameRecord` row, written once and read as it was (no replay).  The open
step's orders are rows (:class:`OrderRow`, in normal form); everything people do around the
game (who plays what, messages, deadlines) is kept in rows too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

FORMING = "forming"
"""Game status: waiting for players."""
ACTIVE = "active"
"""Game status: being played."""
PAUSED = "paused"
"""Game status: the master paused it; no deadline runs."""
FINISHED = "finished"
"""Game status: won, drawn or ended."""

MASTER = "master"
"""Role of the game master."""
PLAYER = "player"
"""Role of a player (holds one power)."""
OBSERVER = "observer"
"""Role of an observer."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored as naive UTC and read back as an aware UTC datetime (same on every database)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Convert to naive UTC before storing."""
        if value is None:
            return None
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        """Read back as aware UTC."""
        if not isinstance(value, datetime):
            return None
        return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class SiteSetting(Base):
    """A site-wide setting (the session signing key lives here so that every process shares it)."""

    __tablename__ = "site_settings"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    """An account."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    lang: Mapped[str] = mapped_column(String(5), default="en")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """Where e-mail notifications and password resets go (``None``: no e-mail)."""
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    """An IANA time zone name: times in notifications are written in it."""
    remind_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """How long before a deadline the "deadline soon" notification comes (``None``: never)."""
    notify_off: Mapped[list[str]] = mapped_column(JSON, default=list)
    """Notification kinds turned off, as ``channel:kind`` (``email:message``, ``site:phase``…)."""
    notify_on: Mapped[list[str] | None] = mapped_column(JSON, nullable=True, default=list)
    """The opt-in kinds turned on, as ``channel:kind`` (``site:calls``…; see ``arbitre.store.outbox.OPT_IN``)."""
    webhook_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    """Where the webhook channel POSTs notifications (``None``: no webhook)."""
    webhook_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The key the webhook bodies are signed with (HMAC-SHA256), shown to the user once."""
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Grows with every change to the row (never shown): keys the per-process login cache
    (:mod:`arbitre.store.logins`), which checks it in the query each request makes anyway."""


class ApiToken(Base):
    """A bot's bearer token (only its SHA-256 is stored)."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class LoginSession(Base):
    """A logged-in browser session, recorded on the server so that it can be ended.

    The cookie carries a random secret whose SHA-256 is ``secret_hash``; a
    session is valid until ``expires_at`` unless ``ended_at`` is set (log out,
    log out everywhere, password change, or revoked from the account page).
    """

    __tablename__ = "sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    address: Mapped[str] = mapped_column(String(64), default="")


class GameRow(Base):
    """A game: its settings, the phase being played (``data``: the engine's state of it, no history; each
    played phase is a :class:`GameRecord`) and where its clock stands.

    ``phase`` and ``step`` copy the engine's progress (``orders``, or a step a rule module
    declares, e.g. ``reaction``) for queries and the event stream; ``deadline_at`` is when the current step
    ends (``None`` while forming, paused or finished); ``remaining_seconds``
    keeps the time left while paused.  ``version`` grows with every change.
    """

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    map_name: Mapped[str] = mapped_column(String(40))
    rules: Mapped[list[str]] = mapped_column(JSON, default=list)
    options: Mapped[dict[str, object]] = mapped_column(JSON, default=dict)
    press: Mapped[str] = mapped_column(String(16), default="full")
    assignment: Mapped[str] = mapped_column(String(16), default="random")
    deadlines: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default=FORMING, index=True)
    phase: Mapped[str] = mapped_column(String(16))
    step: Mapped[str] = mapped_column(String(24))
    """Copied from the engine's progress with ``phase`` and ``played`` by :func:`arbitre.life.stored.write_state`
    only (``data`` holds the same value; this column lets lists and keys read it without loading ``data``)."""
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    remaining_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, object]] = mapped_column(JSON, deferred=True)
    result: Mapped[str] = mapped_column(String(16), default="")
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    show_progress: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Does everyone see who has given orders and who is ready (a game setting)?"""
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A private game is listed to its members only and joined through its invitation link."""
    invite_token: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    """The unguessable token of the game's invitation link (``/invite/<token>``)."""
    join_code: Mapped[str] = mapped_column(String(40), default="", server_default="")
    """An optional code a player must also give to join a private game."""
    anonymous: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Until the game ends, no answer names the player behind a power."""
    vote_settings: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    """Which vote kinds are secret, and whether a draw includes every survivor (:mod:`arbitre.judge.votes`)."""
    seats: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """How many powers the game has (kept for the lobby's "3/7")."""
    played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many phases have been played (the game's :class:`GameRecord` rows with a ``played`` index)."""
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Grows with every committed change to the game or to a row of it (orders, members, press, votes, bots…),
    hidden ones included; never shown: it keys the per-process cache of page facts (:mod:`arbitre.store.facts`)."""

    topics: Mapped[dict[str, int] | None] = mapped_column(JSON().with_variant(JSONB(), "postgresql"), nullable=True)
    """For each topic of the game's rows (``seats``, ``votes``, ``orders:FRANCE``, ``press:GERMANY``…), the
    generation that last wrote it; never shown: each cached page fact is keyed by its topics' stamps, so a change
    stamps only the facts that read it (:mod:`arbitre.store.facts`)."""

    __table_args__ = (Index("ix_games_due", "status", "deadline_at"),)


class Membership(Base):
    """A user's role in a game: master, player of one power, or observer."""

    __tablename__ = "memberships"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    power: Mapped[str | None] = mapped_column(String(24), nullable=True)
    wanted_power: Mapped[str | None] = mapped_column(String(24), nullable=True)
    preferences: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    """The powers this player would rather play, best first (games whose powers are seated by preferences)."""

    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_membership_user"),
        UniqueConstraint("game_id", "power", name="uq_membership_power"),
    )


class OrderRow(Base):
    """The orders of one power for one step of one phase (one per line) and its ready switch."""

    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(16))
    step: Mapped[str] = mapped_column(String(24), default="orders")
    power: Mapped[str] = mapped_column(String(24))
    lines: Mapped[list[str]] = mapped_column(JSON, default=list)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    """The engine's readiness of this power (:attr:`arbitre.judge.Progress.confirmed`) as stored with the open
    step's submission: written only from the engine's value (:func:`arbitre.life.stored.ready_of`) and read
    back into it when the turn is loaded (:func:`arbitre.life.turns.open_turn`); it is the stored form of the
    progress's readiness, not a second state."""
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("game_id", "phase", "step", "power", name="uq_orders_phase_power"),)


class DraftRow(Base):
    """A player's draft: the orders shown in its box for one step, saved as typed and never adjudicated.

    One row per seat (game and power), kept only for the player who wrote it (``user_id``) and only for
    the step it names: a draft of a past step is never shown again.  The row's id is never shown."""

    __tablename__ = "order_drafts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(24))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(16))
    step: Mapped[str] = mapped_column(String(24))
    lines: Mapped[list[str]] = mapped_column(JSON, default=list)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("game_id", "power", name="uq_order_drafts_seat"),)


class Message(Base):
    """A press message.  ``recipient`` is ``*`` (public) or its recipients (``MASTER`` or powers) joined by
    commas; ``parties`` is its conversation: ``*``, or every party (sender and recipients) sorted, each
    between commas (``,ENGLAND,FRANCE,``), so that "is X a party" is one ``LIKE``."""

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(16))
    sender_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    sender: Mapped[str] = mapped_column(String(24))
    recipient: Mapped[str] = mapped_column(String(400))
    parties: Mapped[str] = mapped_column(String(420), default="", server_default="")
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    @property
    def recipients(self) -> list[str]:
        """The recipients: ``["*"]`` for a public message."""
        return self.recipient.split(",")

    @property
    def conversation(self) -> str:
        """The conversation's key: ``*`` (public press) or its parties sorted, joined by commas."""
        return self.parties.strip(",")


class MessageRead(Base):
    """How many messages of one conversation a user has read in a game (unread = the rest)."""

    __tablename__ = "message_reads"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    conversation: Mapped[str] = mapped_column(String(420))
    seen: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (UniqueConstraint("game_id", "user_id", "conversation", name="uq_message_read"),)


class Adjudication(Base):
    """One processed phase step; the unique key makes each step processed exactly once."""

    __tablename__ = "adjudications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(16))
    step: Mapped[str] = mapped_column(String(24))
    trigger: Mapped[str] = mapped_column(String(16))
    done_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("game_id", "phase", "step", name="uq_adjudication_step"),)


class GameRecord(Base):
    """One closed step of a game, as the engine's transition stored it (:mod:`arbitre.judge.records`).

    ``played`` is the index of the played phase an adjudicating step closed (``None`` for a lock);
    ``data`` the record: positions before and after with extras, orders in normal form, results,
    events with their audiences, what the lock revealed.  Written once, never changed.
    """

    __tablename__ = "game_records"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(16))
    step: Mapped[str] = mapped_column(String(24))
    played: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (
        UniqueConstraint("game_id", "phase", "step", name="uq_record_step"),
        UniqueConstraint("game_id", "played", name="uq_record_played"),
    )


class MilaStep(Base):
    """Where one audience's MILA timeline stands after a played phase (:mod:`arbitre.interface.mila.influence`):
    written with the phase's record, from that audience's own view of it, never changed.

    ``viewer`` is ``master``, ``observer`` or a power; ``played`` the record's index; ``visible`` the MILA phases
    among records ``0`` to ``played``; ``influence`` each power's provinces after them.
    """

    __tablename__ = "mila_steps"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    viewer: Mapped[str] = mapped_column(String(24), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, primary_key=True)
    visible: Mapped[int] = mapped_column(Integer)
    influence: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (Index("ix_mila_steps_visible", "game_id", "viewer", "visible"),)


class BotSeat(Base):
    """A power of a game played by a bot (``kind``, ``seed``), and since when (``since``: a phase).

    ``seed`` is random and secret (:func:`arbitre.store.botseats.seat_bot`): the house bot is
    deterministic for its seed, so whoever knew the seed could compute the bot's orders."""

    __tablename__ = "bot_seats"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(24))
    kind: Mapped[str] = mapped_column(String(16), default="house")
    seed: Mapped[int] = mapped_column(BigInteger, default=0)
    reason: Mapped[str] = mapped_column(String(16), default="master")
    since: Mapped[str] = mapped_column(String(16), default="")
    acted: Mapped[str] = mapped_column(String(48), default="")
    """``phase/step`` the bot last gave orders for (the worker acts once per step)."""

    __table_args__ = (UniqueConstraint("game_id", "power", name="uq_bot_seat_power"),)


class Vote(Base):
    """A vote of a game (see :mod:`arbitre.judge.votes`): what it proposes, who proposed it, where it stands.

    ``step_key`` is ``phase/step`` when it was opened (a pause, resume or extension
    vote ends with that step).
    """

    __tablename__ = "votes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    powers: Mapped[list[str]] = mapped_column(JSON, default=list)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    proposer: Mapped[str] = mapped_column(String(24))
    phase: Mapped[str] = mapped_column(String(16))
    step_key: Mapped[str] = mapped_column(String(48))
    status: Mapped[str] = mapped_column(String(16), default="open")
    decided_by: Mapped[str] = mapped_column(String(16), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    number: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The vote's number in its game (1 for its first vote): what readers see and name, never the row id,
    which counts every game's votes."""

    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_vote_number"),)


class Ballot(Base):
    """One power's ballot in a vote (``yes`` or ``no``; a power may change it while the vote is open)."""

    __tablename__ = "ballots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    vote_id: Mapped[int] = mapped_column(ForeignKey("votes.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(24))
    choice: Mapped[str] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("vote_id", "power", name="uq_ballot_power"),)


class Notification(Base):
    """The outbox: one notification for one recipient, written in the transaction of the change it reports.

    ``data`` holds only what the notification is about (game, phases, message id…),
    never words: the text is written when it is read or sent, from the recipient's
    own view and in the recipient's language.  ``dedupe`` (unique per recipient)
    makes enqueuing the same event twice a no-op.  ``in_site`` is false when the
    recipient turned this kind off in the site's list (the row still feeds e-mail).
    """

    __tablename__ = "notifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(24))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    dedupe: Mapped[str] = mapped_column(String(160))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    in_site: Mapped[bool] = mapped_column(Boolean, default=True)
    read_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    number: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The notification's number among its recipient's notifications (1 for the first): the id its reader
    sees (list, e-mail ``Message-ID``, webhook delivery), never the row id, which counts everyone's."""

    __table_args__ = (
        UniqueConstraint("user_id", "dedupe", name="uq_notification_dedupe"),
        UniqueConstraint("user_id", "number", name="uq_notification_number"),
        Index("ix_notifications_user", "user_id", "id"),
    )


class Delivery(Base):
    """One notification to send on one outside channel (``email``), claimed by a sender with a lease.

    ``state``: ``pending`` → ``sent`` (or ``dropped``: the recipient turned the kind
    off meanwhile, or it failed too often).  A sender claims a pending row by
    writing its ``owner`` and ``lease_until``; a row whose lease ran out (its sender
    died between the claim and the send) is claimed again and sent with the same
    ``Message-ID``.
    """

    __tablename__ = "deliveries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    notification_id: Mapped[int] = mapped_column(ForeignKey("notifications.id", ondelete="CASCADE"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    owner: Mapped[str] = mapped_column(String(64), default="")
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    error: Mapped[str] = mapped_column(String(200), default="")

    __table_args__ = (
        UniqueConstraint("notification_id", "channel", name="uq_delivery_channel"),
        Index("ix_deliveries_due", "state", "lease_until"),
    )


class ThrottleCount(Base):
    """How many attempts one throttle key made in its current time window and the one before, shared by every
    server process (see :mod:`arbitre.store.throttles`).

    ``bucket`` is the window's number (seconds since the epoch divided by the window's length); ``n`` counts
    the attempts let through in it, ``prev`` those of the window before; the row is dead after ``until``.
    """

    __tablename__ = "throttle_counts"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    bucket: Mapped[int] = mapped_column(BigInteger)
    n: Mapped[int] = mapped_column(Integer)
    prev: Mapped[int] = mapped_column(Integer)
    until: Mapped[int] = mapped_column(BigInteger, index=True)
