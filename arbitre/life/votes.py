"""Votes in rows: propose, cast a ballot, let the master decide, and carry out a vote that passes.

The rules (what may be proposed, who must agree, when a vote passes, who
sees what) are :mod:`arbitre.judge.votes`; this module keeps votes and ballots
in rows and runs inside the caller's write transaction, on the locked game row.
A passed draw or concession ends the game; a passed pause, resume or extension
acts on its clock, as the master's console would.

Every reader names a vote by its number in its game (``Vote.number``: 1 for the game's first
vote), never by its row id, which counts every game's votes (private games' included).

Notifications: :func:`announce` is the one place that tells the outside world
that a vote was opened or decided (it writes to the notification outbox when
that module is present).
"""

from __future__ import annotations

import importlib
import logging
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from arbitre.judge import Game
from arbitre.judge.votes import (
    CONCEDE,
    DRAW,
    EXPIRED,
    EXTEND,
    FAILED,
    NO,
    OPEN,
    PASSED,
    PAUSE,
    RESUME,
    STEP_BOUND,
    WITHDRAWN,
    YES,
    Motion,
    VoteError,
    VoteRecord,
    VoteSettings,
    electorate,
    make_motion,
    outcome,
)
from arbitre.life.referee import Referee
from arbitre.store.botseats import bot_seats, bot_settings
from arbitre.store.games import GameRuleError
from arbitre.store.models import ACTIVE, FINISHED, PAUSED, Ballot, GameRow, Vote
from arbitre.views import MASTER

log = logging.getLogger("arbitre.store")


def settings_of(row: GameRow) -> VoteSettings:
    """The game's vote settings."""
    return VoteSettings.from_data(row.vote_settings)


def left_out(session: Session, row: GameRow) -> set[str]:
    """Seats that are not asked: bots, unless the game's bot setting says they count."""
    if bot_settings(session, row.id).votes == "count":
        return set()
    return set(bot_seats(session, row.id))


def voters_of(session: Session, row: GameRow, game: Game, motion: Motion) -> tuple[str, ...]:
    """The powers that must agree to ``motion`` now."""
    return electorate(motion, game.active_powers(), left_out(session, row))


def step_key(row: GameRow) -> str:
    """Where the game's clock stands: a pause, resume or extension vote lasts this long."""
    return f"{row.phase}/{row.step}"


def votes_of(session: Session, game_id: int) -> list[Vote]:
    """A game's votes, oldest first."""
    return list(session.scalars(select(Vote).where(Vote.game_id == game_id).order_by(Vote.id)))


def ballots_of(session: Session, vote_ids: list[int]) -> dict[int, dict[str, str]]:
    """The ballots of some votes: vote id → power → ``yes``/``no``."""
    out: dict[int, dict[str, str]] = {v: {} for v in vote_ids}
    if vote_ids:
        for b in session.scalars(select(Ballot).where(Ballot.vote_id.in_(vote_ids))):
            out[b.vote_id][b.power] = b.choice
    return out


def effective_status(vote: Vote, row: GameRow) -> str:
    """Where a vote stands now: an open vote ends with the game, and a clock vote with its step."""
    if vote.status != OPEN:
        return vote.status
    if row.status == FINISHED or (vote.kind in STEP_BOUND and vote.step_key != step_key(row)):
        return EXPIRED
    return OPEN


def records(session: Session, row: GameRow, game: Game) -> list[VoteRecord]:
    """Every vote of the game as the rules module reads it (voters as they stand now for open votes)."""
    votes = votes_of(session, row.id)
    ballots = ballots_of(session, [v.id for v in votes])
    out = []
    for v in votes:
        motion = Motion(v.kind, tuple(v.powers or ()), v.minutes)
        status = effective_status(v, row)
        voters = voters_of(session, row, game, motion) if status == OPEN else tuple(sorted(ballots[v.id]))
        out.append(
            VoteRecord(
                number=v.number,
                motion=motion,
                proposer=v.proposer,
                status=status,
                voters=voters,
                ballots=ballots[v.id],
                phase=v.phase,
                decided_by=v.decided_by,
            )
        )
    return out


def propose(
    session: Session,
    referee: Referee,
    row: GameRow,
    power: str,
    kind: str,
    powers: list[str],
    minutes: int | None,
    now: datetime,
) -> Vote:
    """Open a vote proposed by ``power`` (its own ballot is yes); it may pass at once."""
    if row.status not in (ACTIVE, PAUSED):
        raise GameRuleError("votes are held in a running game", "kind")
    game = referee.game(session, row)
    if power not in game.active_powers():
        raise GameRuleError("only a power still in the game proposes a vote", "kind")
    try:
        motion = make_motion(kind, game.active_powers(), settings_of(row), powers, minutes)
    except VoteError as err:
        raise GameRuleError(str(err), err.where) from err
    if motion.kind == PAUSE and row.status != ACTIVE:
        raise GameRuleError("the game is already paused", "kind")
    if motion.kind == RESUME and row.status != PAUSED:
        raise GameRuleError("the game is not paused", "kind")
    for v in votes_of(session, row.id):
        if v.kind == motion.kind and effective_status(v, row) == OPEN:
            raise GameRuleError(f"a {motion.kind} vote is already open", "kind")
    vote = Vote(
        game_id=row.id,
        kind=motion.kind,
        powers=list(motion.powers),
        minutes=motion.minutes,
        proposer=power,
        phase=row.phase,
        step_key=step_key(row),
        status=OPEN,
        decided_by="",
        created_at=now,
        # the game's row is locked: no other vote of this game is being numbered now
        number=int(session.scalar(select(func.coalesce(func.max(Vote.number), 0)).where(Vote.game_id == row.id)) or 0)
        + 1,
    )
    session.add(vote)
    session.flush()
    if power in voters_of(session, row, game, motion):
        session.add(Ballot(vote_id=vote.id, power=power, choice=YES, at=now))
        session.flush()
    announce(session, row, vote, "vote_opened", now, voters_of(session, row, game, motion))
    settle(session, referee, row, vote, now)
    return vote


def _open_vote(session: Session, row: GameRow, number: int) -> Vote:
    """The game's vote numbered ``number``, if it is open (``LookupError`` when the game has no such vote)."""
    vote = session.scalars(select(Vote).where(Vote.game_id == row.id, Vote.number == number)).first()
    if vote is None:
        raise LookupError(number)
    if effective_status(vote, row) != OPEN:
        raise GameRuleError(f"this vote is {effective_status(vote, row)}", "vote")
    return vote


def cast(session: Session, referee: Referee, row: GameRow, number: int, power: str, choice: str, now: datetime) -> Vote:
    """``power`` votes yes or no (a later ballot replaces its earlier one while the vote is open)."""
    if choice not in (YES, NO):
        raise GameRuleError("a ballot is yes or no", "choice")
    vote = _open_vote(session, row, number)
    game = referee.game(session, row)
    if power not in voters_of(session, row, game, Motion(vote.kind, tuple(vote.powers or ()), vote.minutes)):
        raise GameRuleError(f"{power} does not vote on this", "vote")
    ballot = session.scalars(select(Ballot).where(Ballot.vote_id == vote.id, Ballot.power == power)).first()
    if ballot is None:
        session.add(Ballot(vote_id=vote.id, power=power, choice=choice, at=now))
    else:
        ballot.choice, ballot.at = choice, now
    _changed(vote)
    session.flush()
    settle(session, referee, row, vote, now)
    return vote


def _changed(vote: Vote) -> None:
    """Mark the vote changed, so that its game's live streams hear of a ballot (a ballot row names no game)."""
    flag_modified(vote, "status")


def withdraw_ballot(session: Session, row: GameRow, number: int, power: str) -> Vote:
    """``power`` takes its ballot back while the vote is open (it is asked again; nothing is decided by it)."""
    vote = _open_vote(session, row, number)
    ballot = session.scalars(select(Ballot).where(Ballot.vote_id == vote.id, Ballot.power == power)).first()
    if ballot is None:
        raise GameRuleError(f"{power} has no ballot in this vote", "vote")
    session.delete(ballot)
    _changed(vote)
    session.flush()
    return vote


def withdraw(session: Session, row: GameRow, number: int, power: str, now: datetime) -> Vote:
    """The power that opened a vote withdraws it while it is undecided (it is told as decided: ``withdrawn``)."""
    vote = _open_vote(session, row, number)
    if vote.proposer != power:
        raise GameRuleError("only the power that opened a vote withdraws it", "vote")
    vote.status, vote.decided_by, vote.decided_at = WITHDRAWN, "proposer", now
    session.flush()
    announce(session, row, vote, "vote_decided", now)
    return vote


def decide(session: Session, referee: Referee, row: GameRow, number: int, approve: bool, now: datetime) -> Vote:
    """The master approves (the vote passes and is carried out) or rejects an open vote."""
    vote = _open_vote(session, row, number)
    _close(session, referee, row, vote, PASSED if approve else FAILED, MASTER, now)
    return vote


def settle(session: Session, referee: Referee, row: GameRow, vote: Vote, now: datetime) -> None:
    """Close the vote if its ballots decide it (and carry it out if it passed)."""
    game = referee.game(session, row)
    motion = Motion(vote.kind, tuple(vote.powers or ()), vote.minutes)
    result = outcome(voters_of(session, row, game, motion), ballots_of(session, [vote.id])[vote.id])
    if result != OPEN:
        _close(session, referee, row, vote, result, "ballots", now)


def _close(session: Session, referee: Referee, row: GameRow, vote: Vote, result: str, by: str, now: datetime) -> None:
    vote.status, vote.decided_by, vote.decided_at = result, by, now
    session.flush()
    if result == PASSED:
        carry_out(session, referee, row, vote, now)
    announce(session, row, vote, "vote_decided", now)


def carry_out(session: Session, referee: Referee, row: GameRow, vote: Vote, now: datetime) -> None:
    """What a passed vote does: end the game in a draw or a concession, or act on its clock."""
    if vote.kind == DRAW:
        referee.finish(session, row, now, draw=True, powers=list(vote.powers))
    elif vote.kind == CONCEDE:
        referee.concede(session, row, now, vote.powers[0])
    elif vote.kind == PAUSE:
        referee.pause(row, now)
    elif vote.kind == RESUME:
        referee.resume(row, now)
    elif vote.kind == EXTEND:
        referee.extend(row, (vote.minutes or 0) * 60, now)
    log.info("game %s: the %s vote %s passed", row.id, vote.kind, vote.number)


def announce(
    session: Session, row: GameRow, vote: Vote, kind: str, now: datetime, voters: tuple[str, ...] | None = None
) -> None:
    """Tell the game's members that a vote was opened or decided (``kind``: ``vote_opened``/``vote_decided``).

    The notification carries only what the vote is about (its id, kind, powers, minutes, the outcome, the
    time and, when opened, ``voters``: the powers asked); its words are written for each recipient from
    their own view (so a secret vote's ballots stay secret).
    Until the notification outbox (``arbitre.store.outbox``) is installed, nothing is sent.
    """
    try:
        outbox = importlib.import_module("arbitre.store.outbox")
    except ImportError:
        return
    # the letters' fields (arbitre.server.notify.letters): what it is about, the powers it names, the outcome
    passed = None if kind == "vote_opened" else vote.status == PASSED
    data = {
        "vote": vote.kind,
        "status": vote.status,
        "id": vote.number,
        "powers": list(vote.powers or []),
        "minutes": vote.minutes,
        "passed": passed,
        "at": now.isoformat(),
        "voters": list(voters) if voters is not None else None,
    }
    outbox.enqueue(session, outbox.Event(kind, row.id, key=f"vote:{vote.id}:{vote.status}", data=data), now)
