"""Votes of a game, as rules: what may be proposed, who must agree, when a vote passes, who sees what.

Pure functions over plain values (no storage, no clock): the store keeps the
votes and ballots in rows and asks this module what they mean.

- **Kinds**: ``draw`` (among every survivor, or — when the game is not DIAS —
  among the set of survivors the proposer names), ``concede`` (everyone else
  concedes the game to one power), ``pause``, ``resume``, ``extend`` (the
  current deadline, by some minutes).
- **Who must agree** (the electorate): every survivor, except the power a
  concession is made to; seats the game leaves out of votes (bots under the
  ``abstain`` or ``exclude`` setting) are not asked.
- **Passing**: a vote passes when every power of its electorate said yes, and
  fails at the first no.  The game master may approve or reject it alone.
- **Secrecy** (a game setting per kind): in a secret vote a player sees only
  its own ballot and the outcome; in a public one everyone sees every ballot.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitre.views import MASTER, OBSERVER

DRAW = "draw"
CONCEDE = "concede"
PAUSE = "pause"
RESUME = "resume"
EXTEND = "extend"
KINDS = (DRAW, CONCEDE, PAUSE, RESUME, EXTEND)
"""Every kind of vote."""

YES = "yes"
NO = "no"
CHOICES = (YES, NO)
"""A ballot's choices."""

OPEN = "open"
PASSED = "passed"
FAILED = "failed"
EXPIRED = "expired"
"""A pause, resume or extension vote ends with the step it was opened in; any vote ends with the game."""
WITHDRAWN = "withdrawn"
STATUSES = (OPEN, PASSED, FAILED, EXPIRED, WITHDRAWN)
VIEWERS = (MASTER, OBSERVER)
"""Viewers that are not powers: the master sees every ballot, an observer the public ones."""
"""Where a vote stands."""

STEP_BOUND = (PAUSE, RESUME, EXTEND)
"""Kinds that only make sense in the step they were opened in."""
MAX_EXTENSION_MINUTES = 7 * 24 * 60
"""The longest extension a vote may propose (a week)."""

DEFAULT_SECRET = frozenset({DRAW, CONCEDE})
"""Kinds that are secret unless the game says otherwise."""


class VoteError(ValueError):
    """A proposal or ballot the rules refuse (the message says why; ``where`` names the field)."""

    def __init__(self, message: str, where: str = "kind") -> None:
        super().__init__(message)
        self.where = where


@dataclass(frozen=True)
class VoteSettings:
    """A game's vote settings: which kinds are secret, and whether a draw includes every survivor (DIAS)."""

    secret: frozenset[str] = DEFAULT_SECRET
    dias: bool = True

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None) -> VoteSettings:
        """Read the stored form (missing keys take the defaults)."""
        data = data or {}
        secret = data.get("secret")
        kinds = DEFAULT_SECRET if secret is None else frozenset(k for k in secret if k in KINDS)
        return cls(secret=kinds, dias=bool(data.get("dias", True)))

    def to_data(self) -> dict[str, Any]:
        """The stored form."""
        return {"secret": sorted(self.secret), "dias": self.dias}

    def is_secret(self, kind: str) -> bool:
        """Is a vote of ``kind`` secret in this game?"""
        return kind in self.secret


@dataclass(frozen=True)
class Motion:
    """What a vote proposes: its kind, the powers it names (a draw's set, a concession's winner), minutes."""

    kind: str
    powers: tuple[str, ...] = ()
    minutes: int | None = None


def make_motion(
    kind: str,
    survivors: Sequence[str],
    settings: VoteSettings,
    powers: Iterable[str] = (),
    minutes: int | None = None,
) -> Motion:
    """Check a proposal against the game and return it in normal form (raises :class:`VoteError`)."""
    named = tuple(sorted({p.upper() for p in powers}))
    if kind not in KINDS:
        raise VoteError(f"a vote is one of {', '.join(KINDS)}")
    stray = [p for p in named if p not in survivors]
    if stray:
        raise VoteError(f"{stray[0]} is not a power still in the game", "powers")
    if kind == DRAW:
        if settings.dias:
            if named and set(named) != set(survivors):
                raise VoteError("in this game a draw includes every power still in it", "powers")
            return Motion(DRAW, tuple(sorted(survivors)))
        return Motion(DRAW, named or tuple(sorted(survivors)))
    if kind == CONCEDE:
        if len(named) != 1:
            raise VoteError("a concession names the one power it is made to", "powers")
        return Motion(CONCEDE, named)
    if named:
        raise VoteError(f"a {kind} vote names no power", "powers")
    if kind == EXTEND:
        if minutes is None or not 1 <= minutes <= MAX_EXTENSION_MINUTES:
            raise VoteError(f"an extension is between 1 and {MAX_EXTENSION_MINUTES} minutes", "minutes")
        return Motion(EXTEND, (), minutes)
    if minutes is not None:
        raise VoteError(f"a {kind} vote takes no minutes", "minutes")
    return Motion(kind)


def electorate(motion: Motion, survivors: Iterable[str], left_out: Collection[str] = ()) -> tuple[str, ...]:
    """The powers that must agree: every survivor but the one conceded to and the seats left out of votes."""
    conceded_to = set(motion.powers) if motion.kind == CONCEDE else set()
    return tuple(sorted(p for p in survivors if p not in conceded_to and p not in left_out))


def outcome(voters: Collection[str], ballots: Mapping[str, str]) -> str:
    """``passed`` when every voter said yes, ``failed`` at the first no, ``open`` otherwise."""
    if any(ballots.get(p) == NO for p in voters):
        return FAILED
    if voters and all(ballots.get(p) == YES for p in voters):
        return PASSED
    return OPEN


def may_vote(power: str | None, voters: Collection[str]) -> bool:
    """May this seat cast a ballot in the vote?"""
    return power is not None and power in voters


@dataclass(frozen=True)
class VoteRecord:
    """A vote as stored: the motion, its proposer, the ballots, where it stands."""

    number: int
    motion: Motion
    proposer: str
    status: str
    voters: tuple[str, ...]
    ballots: Mapping[str, str] = field(default_factory=dict)
    phase: str = ""
    decided_by: str = ""
    """``ballots`` (everyone agreed, or someone said no), ``master``, or ``""`` while open."""


def vote_view(record: VoteRecord, viewer: str, secret: bool) -> dict[str, Any]:
    """The vote as ``viewer`` (a power, ``master`` or ``observer``) may see it.

    Public votes show every ballot and the proposer.  In a secret vote a power
    sees its own ballot and the outcome only (not who proposed it, not who else
    voted); an observer sees the outcome; the master sees everything.
    """
    sees_all = viewer == MASTER or not secret
    out: dict[str, Any] = {
        "id": record.number,
        "kind": record.motion.kind,
        "powers": list(record.motion.powers),
        "minutes": record.motion.minutes,
        "status": record.status,
        "phase": record.phase,
        "secret": secret,
        "decided_by": record.decided_by,
        "you_vote": viewer in record.voters and record.status == OPEN,
        "your_ballot": record.ballots.get(viewer),
        # while open: who must agree (public); once closed the store lists who voted, which a secret vote hides
        "voters": list(record.voters) if sees_all or record.status == OPEN else [],
    }
    if sees_all:
        out["proposer"] = record.proposer
        out["ballots"] = dict(sorted(record.ballots.items()))
    else:
        out["proposer"] = record.proposer if record.proposer == viewer else None
        out["ballots"] = {viewer: record.ballots[viewer]} if viewer in record.ballots else {}
    return out
