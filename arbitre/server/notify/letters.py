"""A notification's words for its recipient: from the recipient's own view, language and time zone.

A letter reads only what its recipient may read: the game's public facts
(name, phases, deadline, status), the recipient's own seat, the recipient's
view of a played phase (:meth:`arbitre.judge.Game.phase_view`) and the press
messages the recipient may read.  It never names a player behind a power, so
an anonymous game stays anonymous, and a hidden unit never shows (the view
leaves it out).  Times are absolute, in the recipient's time zone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime
from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.judge.game import record_from_data
from arbitre.judge.votes import VoteSettings, vote_view
from arbitre.life.referee import Referee, my_orders, powers_to_act
from arbitre.life.votes import records as vote_records
from arbitre.server import wording
from arbitre.server.answers import Answer, VoteView
from arbitre.server.i18n import translator as page_words
from arbitre.server.power_names import power_namer
from arbitre.server.viewing import phase_view, view_data, viewer_id
from arbitre.store.games import membership_of
from arbitre.store.models import ACTIVE, MASTER, PLAYER, GameRow, Message, Notification, User
from arbitre.store.outbox import (
    CALLS,
    DEADLINE,
    FINISHED_KIND,
    MESSAGE,
    PHASE,
    REPLACEMENT,
    STARTED,
    VOTE_DECIDED,
    VOTE_OPENED,
)
from arbitre.store.records import played_index, played_record
from arbitre.words import translator
from arbitre.words.phases import phase_name
from arbitre.words.translate import N_, Translator

KIND_NAMES = {
    PHASE: N_("A phase was processed"),
    DEADLINE: N_("A deadline is near"),
    MESSAGE: N_("A new message"),
    VOTE_OPENED: N_("A vote was opened"),
    VOTE_DECIDED: N_("A vote was decided"),
    REPLACEMENT: N_("A replacement is wanted"),
    STARTED: N_("A game started"),
    FINISHED_KIND: N_("A game ended"),
    CALLS: N_("A replacement is wanted in any game of the site"),
}
"""What each kind is called on the account page and in the unsubscribe page."""
VOTE_NAMES = {
    "draw": N_("draw"),
    "concede": N_("concession"),
    "pause": N_("pause"),
    "resume": N_("resumption of the game"),
    "extend": N_("deadline extension"),
}
"""What a vote is about, by the votes code's ``vote`` field."""
CHOICES = {"yes": N_("yes"), "no": N_("no")}
"""A ballot's words."""
STEP_NAMES = {"orders": N_("orders"), "reaction": N_("reaction")}


class NoteItem(Answer):
    """A notification as its recipient's list and a webhook body say it: kind, game, subject, text, the site
    page it is about (a path), when."""

    kind: str
    game: int | None
    subject: str
    text: str
    link: str
    at: str


@dataclass(frozen=True)
class Letter:
    """A notification in words: a subject, paragraphs, and the site page it is about (a path)."""

    subject: str
    paragraphs: tuple[str, ...]
    link: str

    def text(self) -> str:
        """The paragraphs as plain text."""
        return "\n\n".join(self.paragraphs)

    def item(self, note: Notification) -> NoteItem:
        """What a notification list and a webhook body say of ``note`` written as this letter."""
        return NoteItem(
            kind=note.kind,
            game=note.game_id,
            subject=self.subject,
            text=self.text(),
            link=self.link,
            at=note.created_at.isoformat(),
        )


def zone(user: User) -> ZoneInfo:
    """The user's time zone (UTC if theirs is unknown)."""
    try:
        return ZoneInfo(user.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def when(moment: datetime | str | None, user: User, _: Translator) -> str:
    """An absolute time in the user's time zone and language: "Tuesday 24 November 2026, 09:00 (Europe/Paris)"."""
    if moment is None:
        return _("no deadline")
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    tz = zone(user)
    local = format_datetime(moment.astimezone(tz), "EEEE d MMMM y, HH:mm", locale=_.lang)
    return f"{local} ({tz.key})"


def power_name(power: str, _: Translator) -> str:
    """A power's name in the reader's language, from its map (``MASTER`` is the game master)."""
    if power == "MASTER":
        return _("the game master")
    if power == "*":
        return _("everyone")
    return power_namer(_.lang)(power)


@dataclass(frozen=True)
class Reader:
    """Who reads a letter: the user and, for a game, their seat in it."""

    user: User
    role: str | None
    power: str | None

    @property
    def viewer(self) -> str:
        """The view builder's viewer id of this reader."""
        return viewer_id(self.role or "observer", self.power)


def write(session: Session, referee: Referee, note: Notification, user: User) -> Letter:
    """The letter of ``note`` for its recipient ``user`` (their language, time zone and view)."""
    _ = translator(user.lang)
    row = session.get(GameRow, note.game_id) if note.game_id is not None else None
    if row is None:
        return Letter(_.gettext(KIND_NAMES.get(note.kind, note.kind)), (), "/notifications")
    member = membership_of(session, row.id, user.id)
    reader = Reader(user, member.role if member else None, member.power if member else None)
    writer = _WRITERS.get(note.kind, _generic)
    return writer(session, referee, row, note.data or {}, reader, _)


Writer = Callable[[Session, Referee, GameRow, dict[str, Any], Reader, Translator], Letter]


def _seat(reader: Reader, _: Translator) -> str:
    if reader.role == MASTER:
        return _("You are the game master.")
    if reader.role == PLAYER and reader.power:
        return _("Your power: {power}.", power=power_name(reader.power, _))
    return _("You observe this game.")


def _phase(session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator) -> Letter:
    game = referee.game(session, row)
    done, now = str(data.get("from", "")), str(data.get("phase", ""))
    name = row.name
    paragraphs: list[str] = []
    if done == now and data.get("status") != "finished":
        subject = _("{game}: the orders of {phase} are locked", game=name, phase=phase_name(now, _))
        paragraphs.append(
            _(
                "The orders of {phase} are locked. Now the {step} step, until {deadline}.",
                phase=phase_name(now, _),
                step=_.gettext(STEP_NAMES.get(str(data.get("step", "")), str(data.get("step", "")))),
                deadline=when(data.get("deadline"), r.user, _),
            )
        )
        paragraphs.append(_("What the lock revealed to you is on the game page."))
    else:
        subject = _("{game}: the phase {phase} was processed", game=name, phase=phase_name(done, _))
        paragraphs.append(_("The phase {phase} was processed.", phase=phase_name(done, _)))
        paragraphs.extend(_own_results(session, row, game, done, r, _))
        if data.get("status") == ACTIVE or data.get("deadline"):
            paragraphs.append(
                _(
                    "Now: {phase}. Deadline: {deadline}.",
                    phase=phase_name(now, _),
                    deadline=when(data.get("deadline"), r.user, _),
                )
            )
    return Letter(subject, tuple(paragraphs), f"/games/{row.id}")


def _own_results(session: Session, row: GameRow, game: Game, phase: str, r: Reader, _: Translator) -> list[str]:
    """The reader's own orders of played ``phase`` with their results, from the reader's view of its record."""
    if r.role != PLAYER or not r.power:
        return []
    index = played_index(session, row.id, phase)
    data = played_record(session, row.id, index) if index is not None else None
    if index is None or data is None:
        return []
    view = view_data(phase_view(game.rules, record_from_data(game.rules, data), r.viewer), game.rules)
    following = played_record(session, row.id, index + 1)
    after = (
        view_data(phase_view(game.rules, record_from_data(game.rules, following), r.viewer), game.rules)
        if following is not None
        else None
    )
    words = page_words(r.user.lang)  # the result sentences are the pages' own (arbitre.server.wording)
    lines = [
        "  " + _("{order}: {result}", order=o["text"], result=wording.result_text(o, view, words, after) or "-")
        for o in view.get("orders", ())
        if o.get("power") == r.power
    ]
    if not lines:
        return [_("You gave no orders in this phase.")]
    return [_("Your orders:") + "\n" + "\n".join(lines)]


def _deadline(
    session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator
) -> Letter:
    phase = str(data.get("phase", row.phase))
    subject = _("{game}: the deadline of {phase} is near", game=row.name, phase=phase_name(phase, _))
    paragraphs = [
        _(
            "The deadline of {phase} is {deadline}.",
            phase=phase_name(phase, _),
            deadline=when(data.get("deadline"), r.user, _),
        )
    ]
    if r.role == PLAYER and r.power and row.phase == phase and row.status == ACTIVE:
        game = referee.game(session, row)
        if r.power in powers_to_act(game):
            lines, ready = my_orders(session, row, r.power)
            if not lines:
                paragraphs.append(_("You have not given orders yet."))
            elif not ready:
                paragraphs.append(_("Your orders are in, but you are not marked ready."))
            else:
                paragraphs.append(_("Your orders are in and you are ready."))
    return Letter(subject, tuple(paragraphs), f"/games/{row.id}")


def _message(
    session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator
) -> Letter:
    msg = session.get(Message, int(data.get("message", 0) or 0))
    if msg is None or msg.game_id != row.id:
        return Letter(_("{game}: new message", game=row.name), (), f"/games/{row.id}/messages")
    sender = power_name(msg.sender, _) if msg.sender != "OBSERVER" else _("an observer")
    subject = _("{game}: new message ({sender})", game=row.name, sender=sender)
    if msg.recipient == "*":
        head = _("{sender} wrote to everyone ({phase}):", sender=sender, phase=phase_name(msg.phase, _))
    elif len(msg.recipients) > 1:
        names = ", ".join(power_name(p, _) for p in msg.recipients)
        head = _("{sender} wrote to {names} ({phase}):", sender=sender, names=names, phase=phase_name(msg.phase, _))
    else:
        head = _("{sender} wrote to you ({phase}):", sender=sender, phase=phase_name(msg.phase, _))
    body = "\n".join("> " + line for line in msg.body.splitlines())
    return Letter(subject, (head, body), f"/games/{row.id}/messages")


def _started(
    session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator
) -> Letter:
    subject = _("{game} has started", game=row.name)
    paragraphs = [
        _("The game {game} has started.", game=row.name),
        _seat(r, _),
        _("First deadline: {deadline}.", deadline=when(data["deadline"], r.user, _)) if data.get("deadline") else "",
    ]
    return Letter(subject, tuple(p for p in paragraphs if p), f"/games/{row.id}")


def _finished(
    session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator
) -> Letter:
    game = referee.game(session, row)
    winners = ", ".join(power_name(p, _) for p in sorted(game.winners))
    result = str(data.get("result", row.result))
    if result == "won" and winners:
        line = _("The game {game} is over: won by {powers}.", game=row.name, powers=winners)
    elif result == "drawn" and winners:
        line = _("The game {game} is over: a draw between {powers}.", game=row.name, powers=winners)
    else:
        line = _("The game {game} was ended by its game master.", game=row.name)
    return Letter(_("{game} is over", game=row.name), (line,), f"/games/{row.id}")


def _vote(session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator) -> Letter:
    what = _.gettext(VOTE_NAMES.get(str(data.get("vote", "")), N_("proposal")))
    powers = [str(p) for p in data.get("powers") or []]
    among = ", ".join(power_name(p, _) for p in sorted(powers))
    shown = _vote_seen(session, referee, row, data, r)  # the vote as the reader may see it (secret ballots)
    at = when(data["at"], r.user, _) if data.get("at") else ""
    paragraphs = []
    if data.get("passed") is None:
        subject = _("{game}: vote — {what}", game=row.name, what=what)
        paragraphs.append(_("A vote was opened: {what}.", what=what))
        if shown and shown.proposer:
            paragraphs.append(_("Proposed by {power}.", power=power_name(shown.proposer, _)))
        if among:
            paragraphs.append(_("Powers named: {powers}.", powers=among))
        if data.get("minutes"):
            paragraphs.append(_("The deadline would move {minutes} minutes later.", minutes=data["minutes"]))
        if at:
            paragraphs.append(_("Opened: {time}.", time=at))
        if r.role == PLAYER and r.power in (data.get("voters") or ()):
            paragraphs.append(_("Your vote is asked: say yes or no on the game page."))
    elif data.get("status") == "withdrawn":
        subject = _("{game}: vote withdrawn — {what}", game=row.name, what=what)
        paragraphs.append(_("The vote was withdrawn by the power that opened it: {what}.", what=what))
    elif data.get("passed"):
        subject = _("{game}: vote passed — {what}", game=row.name, what=what)
        paragraphs.append(_("The vote passed: {what}.", what=what))
    else:
        subject = _("{game}: vote failed — {what}", game=row.name, what=what)
        paragraphs.append(_("The vote failed: {what}.", what=what))
    if data.get("passed") is not None:
        if among:
            paragraphs.append(_("Powers named: {powers}.", powers=among))
        if shown and shown.decided_by == "master":
            paragraphs.append(_("The game master decided it."))
        ballots = dict(shown.ballots) if shown else {}
        if ballots and (r.role == MASTER or not (shown and shown.secret)):  # the master sees every ballot
            listed = ", ".join(
                _("{power}: {choice}", power=power_name(p, _), choice=_.gettext(CHOICES.get(c, c)))
                for p, c in sorted(ballots.items())
            )
            paragraphs.append(_("Ballots: {ballots}.", ballots=listed))
        elif r.power and r.power in ballots:
            paragraphs.append(
                _("Your ballot: {choice}.", choice=_.gettext(CHOICES.get(ballots[r.power], ballots[r.power])))
            )
        if at:
            paragraphs.append(_("Decided: {time}.", time=at))
    return Letter(subject, tuple(paragraphs), f"/games/{row.id}")


def _vote_seen(session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader) -> VoteView | None:
    """The vote of ``data`` as the reader's view shows it (``None`` if it is gone)."""
    number = data.get("id")
    if not isinstance(number, int):
        return None
    game = referee.game(session, row)
    record = next((v for v in vote_records(session, row, game) if v.number == number), None)
    if record is None:
        return None
    return VoteView(
        **vote_view(record, r.viewer, VoteSettings.from_data(row.vote_settings).is_secret(record.motion.kind))
    )


def _replacement(
    session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator
) -> Letter:
    # the power only: never the account that held it (an anonymous game stays anonymous)
    power = power_name(str(data.get("power", "")), _)
    subject = _("{game}: a player is wanted for {power}", game=row.name, power=power)
    paragraphs = [_("The game {game} needs a new player for {power}.", game=row.name, power=power)]
    if data.get("reason") == "disorder":
        paragraphs.append(_("The power fell into civil disorder after missing its deadlines."))
    else:
        paragraphs.append(_("The game master called for a replacement."))
    paragraphs.append(
        _(
            "Phase: {phase}. Deadline: {deadline}.",
            phase=phase_name(str(data.get("phase", row.phase)), _),
            deadline=when(data.get("deadline"), r.user, _),
        )
    )
    link = str(data.get("link") or f"/games/{row.id}")
    if not link.startswith("/"):
        link = f"/games/{row.id}"
    if r.role == PLAYER or r.role == MASTER:
        paragraphs.append(_("Anyone who has no seat in the game may take this one with the link below."))
    else:
        paragraphs.append(_("To take the seat, open the link below and log in."))
    return Letter(subject, tuple(paragraphs), link)


def _generic(
    session: Session, referee: Referee, row: GameRow, data: dict[str, Any], r: Reader, _: Translator
) -> Letter:
    return Letter(f"{row.name}", (), f"/games/{row.id}")


_WRITERS: dict[str, Writer] = {
    PHASE: _phase,
    DEADLINE: _deadline,
    MESSAGE: _message,
    STARTED: _started,
    FINISHED_KIND: _finished,
    VOTE_OPENED: _vote,
    VOTE_DECIDED: _vote,
    REPLACEMENT: _replacement,
    CALLS: _replacement,
}
