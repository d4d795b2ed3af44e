"""MILA's game states, phase data and game objects, built from one viewer's allow-list views.

Everything here reads :class:`~arbitre.views.View` objects (:meth:`arbitre.judge.Game.view`,
:meth:`~arbitre.judge.Game.phase_view`) and the messages the viewer may read; nothing is copied from a
game and then scrubbed.  A MILA *phase* is a played phase of the game, except a retreat phase in which no
dislodged unit could go anywhere: MILA never holds such a phase (its units are disbanded with the
movement), and arbitre processes it at once (nobody has anything to order in it), so it is left out and
its disbands shown with the movement before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from arbitre.interface.mila.influence import Influence, Known, hidden, influence_after, start_influence
from arbitre.interface.mila.saved import zobrist_tables
from arbitre.interface.mila.zobrist import state_hash
from arbitre.judge import Game
from arbitre.judge.game import PhaseRecord, record_view
from arbitre.maps import GameMap
from arbitre.server.mila import names
from arbitre.state import Phase
from arbitre.store.messages import PUBLIC, TO_MASTER
from arbitre.store.models import Message
from arbitre.views import View

OMNISCIENT_TYPE = "omniscient_type"
OBSERVER_TYPE = "observer_type"
MASTER_TYPE = "master_type"
COMPLETED = "COMPLETED"
SEASONS = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
KINDS = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
STATUSES = {"forming": "forming", "active": "active", "paused": "paused", "finished": "completed"}
"""The site's game status → MILA's."""


def long_phase(name: str) -> str:
    """``S1901M`` → ``SPRING 1901 MOVEMENT`` (MILA's long phase name); ``COMPLETED`` stays."""
    if name == COMPLETED:
        return name
    phase = Phase.parse(name)
    return f"{SEASONS[phase.season]} {phase.year} {KINDS[phase.kind]}"


def micros(at: datetime) -> int:
    """A time as MILA's timestamps: microseconds since the epoch."""
    return int(at.timestamp() * 1_000_000)


# --------------------------------------------------------------------------- states
def unit_text(kind: str, place: str) -> str:
    """``A PAR``, ``F STP/SC``."""
    return f"{kind} {place}"


def state(view: View, gmap: GameMap, influence: Influence, timestamp: int, name: str | None = None) -> dict[str, Any]:
    """MILA's state (``Game.get_state()``) of the board ``view`` shows; ``name`` overrides the phase name."""
    powers = sorted(gmap.powers)
    units: dict[str, list[str]] = {p: [] for p in powers}
    dislodged: dict[str, list[str]] = {p: [] for p in powers}
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for u in view.units:
        if u.power in units:
            units[u.power].append(unit_text(u.kind, u.place))
    for d in view.dislodged:
        if d.unit.power in dislodged:
            text = unit_text(d.unit.kind, d.unit.place)
            dislodged[d.unit.power].append(text)
            retreats[d.unit.power][text] = list(d.retreats or ())
    centres: dict[str, list[str]] = {p: [] for p in powers}
    for centre, owner in view.owners.items():
        if owner in centres:
            centres[owner].append(centre)
    homes = {p: list(gmap.powers[p].homes) for p in powers}
    builds = _builds(view, gmap, units, centres)
    return {
        "timestamp": timestamp,
        "zobrist_hash": state_hash(
            zobrist_tables(gmap),
            [(p, *u.split()) for p in powers for u in units[p]],  # type: ignore[misc]
            [(p, *u.split()) for p in powers for u in dislodged[p]],  # type: ignore[misc]
            [(p, c) for p in powers for c in centres[p]],
            [(p, h) for p in powers for h in homes[p]],
        ),
        "note": "",
        "name": name or view.phase,
        "units": {p: units[p] + [f"*{u}" for u in dislodged[p]] for p in powers},
        "retreats": retreats,
        "centers": centres,
        "homes": homes,
        "influence": {p: sorted(prov for prov, owner in influence.items() if owner == p) for p in powers},
        "civil_disorder": dict.fromkeys(powers, 0),
        "builds": builds,
    }


def _builds(
    view: View, gmap: GameMap, units: dict[str, list[str]], centres: dict[str, list[str]]
) -> dict[str, dict[str, Any]]:
    """MILA's ``builds``: in an adjustment phase, each power's count (centres − units, at most its free home
    centres when positive) and its free home centres."""
    out: dict[str, dict[str, Any]] = {}
    occupied = {gmap.province_of[u.split()[1]] for us in units.values() for u in us}
    adjusting = view.phase.endswith("A")
    for power, listed in units.items():
        count = len(centres[power]) - len(listed) if adjusting else 0
        sites: list[str] = []
        if count > 0:
            sites = [h for h in gmap.powers[power].homes if h in centres[power] and h not in occupied]
            count = min(count, len(sites))
        out[power] = {"count": count, "homes": sites}
    return out


# --------------------------------------------------------------------------- phases
@dataclass(frozen=True)
class Played:
    """One played phase as a viewer sees it, and the view of the phase after it (for dislodged units)."""

    view: View
    after: View


def orders_of(view: View, powers: Iterable[str]) -> dict[str, list[str]]:
    """The orders ``view`` shows, by power (MILA's notation; units left without orders are not listed)."""
    out: dict[str, list[str]] = {p: [] for p in powers}
    for o in view.orders:
        if o.power in out and o.reason != "no_order":
            out[o.power].append(names.order_from_arbitre(o.text))
    return out


def results_of(played: Played, also: View | None = None) -> dict[str, list[str]]:
    """MILA's results of a played phase, keyed by unit (``A PAR``): every unit that had an order or stood on
    the board, ``dislodged`` added for the units the phase after shows dislodged."""
    view, kind = played.view, played.view.phase[-1]
    dislodged = {unit_text(d.unit.kind, d.unit.place) for d in played.after.dislodged} if kind == "M" else set()
    out: dict[str, list[str]] = {}
    if kind == "M":
        for u in view.units:
            out[unit_text(u.kind, u.place)] = []
    for o in view.orders:
        if o.kind == "waive":
            continue
        words = o.text.split()
        unit = " ".join(words[:2]) if len(words) >= 2 else o.text
        ok = o.outcome == "succeeds"
        if kind == "A":
            out[unit] = [""] if ok else ["void"]
        elif kind == "R":
            out[unit] = (
                []
                if ok and not o.text.endswith(" D")
                else (["bounce", "disband"] if o.reason == "bounced" else ["disband"])
            )
        else:
            out[unit] = _movement_codes(o.outcome, o.reason)
    for unit in dislodged:
        out.setdefault(unit, []).append("dislodged")
    if also is not None:  # a left-out retreat phase: its units were disbanded with this movement
        for d in also.dislodged:
            out.setdefault(unit_text(d.unit.kind, d.unit.place), [])
    return out


def _movement_codes(outcome: str | None, reason: str | None) -> list[str]:
    if outcome in (None, "succeeds") or reason in (None, "no_order", "dislodged"):
        return []
    code = {"bounced": "bounce", "cut": "cut", "void": "void", "no_convoy": "no convoy", "disrupted": "disrupted"}
    return [code.get(reason, "void")]


def message_data(m: Message) -> list[dict[str, Any]]:
    """A stored message as MILA's ``Message``s: one per recipient, as MILA has one recipient a message (none
    for the master, whom MILA cannot name); the i-th copy is sent i microseconds later (MILA keys by time)."""
    sender = names.SYSTEM if m.sender == TO_MASTER else m.sender
    out: list[dict[str, Any]] = []
    for r in (r for r in m.recipients if r != TO_MASTER):
        out.append(
            {
                "sender": sender,
                "recipient": names.GLOBAL if r == PUBLIC else r,
                "time_sent": micros(m.created_at) + len(out),
                "phase": m.phase,
                "message": m.body,
            }
        )
    return out


@dataclass
class Timeline:
    """A game as one viewer sees it, phase by phase: the MILA phases played and the current one.

    Built from every record of ``game.history``, or (``since`` given) from ``records`` alone: the records
    after those ``since`` tells of, whose MILA phases are then numbered from ``since.visible``."""

    game: Game
    viewer: str
    base_time: int
    """Microseconds of the game's creation: the played states are dated from it."""
    records: Sequence[PhaseRecord] | None = None
    since: Known | None = None

    def __post_init__(self) -> None:
        game, viewer = self.game, self.viewer
        gmap = game.rules.game_map
        records = game.history if self.records is None else self.records
        views = [record_view(game.rules, r, viewer) for r in records]
        self.current = game.view(viewer)
        since = self.since or Known(0, 0, start_influence(gmap))
        self.offset = since.visible
        self.played: list[Played] = []
        self.extra: list[View | None] = []
        # influence at the start of each MILA phase of this timeline, then after its last one
        influence = since.influence
        known = since.influence
        for i, view in enumerate(views):
            if since.played + i >= 1:  # the first record's board is the starting one
                known = influence_after(known, view, gmap)
        if since.played >= 1:  # the board that followed the last record read before
            influence = influence_after(influence, views[0] if views else self.current, gmap)
        self.influence: list[Influence] = [influence]
        for i, view in enumerate(views):
            after = views[i + 1] if i + 1 < len(views) else self.current
            influence = influence_after(influence, after, gmap)
            if hidden(view):  # its board and disbands go with the phase before it
                if self.extra:
                    self.extra[-1] = view
                self.influence[-1] = influence
                continue
            self.played.append(Played(view, after))
            self.extra.append(None)
            self.influence.append(influence)
        self.known = Known(since.played + len(views), since.visible + len(self.played), known)
        """Where this timeline ends, for the next one."""

    @property
    def gmap(self) -> GameMap:
        """The game's map."""
        return self.game.rules.game_map

    def influence_at(self, k: int) -> Influence:
        """The influence at the start of MILA phase ``k`` of this timeline (``len(played)``: the current phase)."""
        return self.influence[k]

    def phase_data(self, k: int, messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """MILA's ``GamePhaseData`` of played phase ``k`` of this timeline (MILA's phase ``offset + k``), with the
        messages of that phase given."""
        played = self.played[k]
        return {
            "name": played.view.phase,
            "state": state(played.view, self.gmap, self.influence_at(k), self.base_time + self.offset + k + 1),
            "orders": orders_of(played.view, sorted(self.gmap.powers)),
            "results": results_of(played, self.extra[k]),
            "messages": [m for m in messages if m["phase"] == played.view.phase],
        }

    def current_name(self) -> str:
        """The current phase's name, ``COMPLETED`` once the game is over."""
        return COMPLETED if self.game.is_over else self.current.phase

    def current_data(self, messages: Sequence[dict[str, Any]], now: int, own: Iterable[str]) -> dict[str, Any]:
        """MILA's ``GamePhaseData`` of the current phase: its state, the pending orders of the powers in
        ``own`` that the view shows (``None`` for one that gave none), no results."""
        k = len(self.played)
        name = self.current_name()
        orders = orders_of(self.current, sorted(self.gmap.powers))
        return {
            "name": name,
            "state": state(self.current, self.gmap, self.influence_at(k), now, name),
            "orders": {p: (orders[p] or None) for p in own},
            "results": {},
            "messages": [m for m in messages if m["phase"] == self.current.phase],
        }


def game_object(
    timeline: Timeline,
    *,
    game_id: str,
    role: str,
    rules: list[str],
    status: str,
    controllers: dict[str, str],
    controlled: list[str],
    observer_level: str | None,
    messages: Sequence[dict[str, Any]],
    deadline: int,
    created: int,
    now: int,
) -> dict[str, Any]:
    """MILA's ``Game`` object (``DataGame``) for a client of ``role`` (a power, ``omniscient_type`` or
    ``observer_type``): the current board, the played phases and the messages the viewer may read."""
    gmap = timeline.gmap
    powers = sorted(gmap.powers)
    played = [timeline.phase_data(k, messages) for k in range(len(timeline.played))]
    own = [role] if role in gmap.powers else (powers if role == OMNISCIENT_TYPE else [])
    current = timeline.current_data(messages, now, own)
    st = current["state"]
    orders = current["orders"]
    out_powers = {}
    for p in powers:
        given = orders.get(p)
        out_powers[p] = {
            "abbrev": p[0],
            "adjust": [],
            "centers": st["centers"][p],
            "civil_disorder": 0,
            "controller": {str(created): controllers.get(p, "dummy")},
            "homes": st["homes"][p],
            "influence": st["influence"][p],
            "name": p,
            "order_is_set": 0 if given is None else (2 if given else 1),
            "orders": {},
            "retreats": st["retreats"][p],
            "role": p if role in gmap.powers else role,
            "tokens": [],
            "units": [u for u in st["units"][p] if not u.startswith("*")],
            "vote": "neutral",
            "wait": p not in controllers or "REAL_TIME" not in rules,
        }
    return {
        "controlled_powers": controlled,
        "daide_port": None,
        "deadline": deadline,
        "error": [],
        "game_id": game_id,
        "map_name": gmap.name,
        "message_history": {d["name"]: d["messages"] for d in played},
        "messages": [m for m in messages if m["phase"] == timeline.current.phase and not timeline.game.is_over],
        "meta_rules": [],
        "n_controls": None,
        "no_rules": [],
        "note": "",
        "observer_level": observer_level,
        "order_history": {d["name"]: d["orders"] for d in played},
        "outcome": [],
        "phase": long_phase(current["name"]),
        "phase_abbr": current["name"],
        "powers": out_powers,
        "registration_password": None,
        "result_history": {d["name"]: d["results"] for d in played},
        "role": role,
        "rules": rules,
        "state_history": {d["name"]: d["state"] for d in played},
        "status": status,
        "timestamp_created": created,
        "victory": [timeline.game.target_centers or timeline.game.rules.victory_target()],
        "win": timeline.game.target_centers or timeline.game.rules.victory_target(),
        "zobrist_hash": int(st["zobrist_hash"]),
    }
