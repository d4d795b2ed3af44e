"""The Trans-Siberian Railroad: which train orders are legal, and how a train move is adjudicated.

Only a Russian army standing on a station may ride the railroad, to any other
station, in one move; one train move per turn (two train orders: both are
refused and both units hold); never in a retreat.  Supports count only at the
target station.  A train never dislodges a unit and never cuts a support; a
blocked train stops in the farthest station where it may end its move, or stays
home with ordinary hold strength.

The adjudication plugs into the generic resolver through a
:class:`~arbitre.adjudicator.extension.MovementExtension`: the train's order is
a decision of its own ("the army left home"), the train competes for each
station as a non-attacking *contender*, and, under the Avalon Hill rules, each
leg of the journey is a virtual decision so that a paradox through the train
can be found and settled by the rule set's paradox rule.  The two ways of
judging the stations (:data:`~arbitre.variants.colonial.rulesets.LOOKAHEAD` and
:data:`~arbitre.variants.colonial.rulesets.STATION_BY_STATION`) are described
on :class:`~arbitre.variants.colonial.rulesets.ColonialRules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from arbitre.adjudicator.extension import (
    CustomResult,
    Decision,
    MovementExtension,
    PerResolution,
    ResolverView,
    Strength,
)
from arbitre.adjudicator.results import FAILS, ILLEGAL, PARTIAL, SUCCEEDS
from arbitre.maps import GameMap
from arbitre.orders import Hold, IllegalOrder, Move, Order, Support, UnitRef
from arbitre.rules.legality import illegal, own_unit
from arbitre.state import MOVEMENT, RETREATS, Position
from arbitre.variants.colonial.board import ColonialBoard
from arbitre.variants.colonial.orders import TrainMove
from arbitre.variants.colonial.rulesets import LOOKAHEAD, ColonialRules

RULE = "Trans-Siberian Railroad"
"""How error messages name the rule."""

STOP_REASONS: dict[str, str] = {
    "tsr_station_held": "a unit stays in the station",
    "tsr_station_contested": "another unit took or contested the station",
    "tsr_line_center": "a line supply centre owned by another power stops the train (9.241)",
    "tsr_paradox": "the paradox rule stopped this leg (9.25)",
}
"""Why a train stops part-way: the reason codes of a ``partial`` result, in words."""


# ---------------------------------------------------------------------- legality
def check_train_move(board: ColonialBoard, position: Position, power: str, order: TrainMove) -> TrainMove:
    """Validate a train move; return it in normal form or raise :class:`IllegalOrder` naming the rule."""
    kind = position.phase.kind
    if kind == RETREATS:
        raise illegal(order, f"{RULE}: the railroad cannot be used in a retreat", "tsr_retreat")
    if kind != MOVEMENT or order.unit is None:
        raise illegal(order, f"{RULE}: train moves are movement-phase orders", "wrong_phase")
    unit = own_unit(position, power, order.unit, order)
    if unit.power != board.rail_power:
        raise illegal(
            order,
            f"{RULE} (rule 9.21): only {board.rail_power.title()} may use the railroad, "
            f"and {unit} belongs to {unit.power}",
            "tsr_not_russian",
        )
    if unit.kind != board.rail_kind:
        raise illegal(order, f"{RULE}: only armies ride the railroad, and {unit} is not an army", "tsr_not_army")
    if unit.place not in board.stations:
        raise illegal(order, f"{RULE}: {unit} is not on a station ({', '.join(board.stations)})", "tsr_not_on_line")
    if order.target not in board.stations:
        raise illegal(
            order, f"{RULE}: {order.target} is not a station ({', '.join(board.stations)})", "tsr_target_off_line"
        )
    if order.target == unit.place:
        raise illegal(order, f"{RULE}: the train must go to another station", "own_province")
    ref = UnitRef(unit.kind, unit.place)
    return order if order.unit == ref else TrainMove(ref, order.target)


def check_train_support(
    game_map: GameMap, board: ColonialBoard, position: Position, power: str, order: Support
) -> Support | None:
    """Validate a support of a (possible) train move, or return ``None`` if it is no such support.

    ``A IRK S A MOS - VLA`` supports a Russian army on a station moving to
    another station; the supporter must be able to reach the target, as for
    any support.  A support the standard rules accept is left to them.
    """
    if position.phase.kind != MOVEMENT or order.unit is None or order.target is None:
        return None
    supported = position.units.get(order.supported.province)
    target = game_map.province_of.get(order.target, order.target)
    if (
        supported is None
        or supported.power != board.rail_power
        or supported.kind != board.rail_kind
        or supported.place not in board.stations
        or target not in board.stations
        or target == supported.place
        or game_map.can_reach_province(supported.kind, supported.place, target)
    ):
        return None
    unit = own_unit(position, power, order.unit, order)
    here = game_map.province_of[unit.place]
    if here == supported.place:
        raise illegal(order, "a unit cannot support itself", "self_support")
    if here == target:
        raise illegal(order, "a unit cannot support a move into its own province", "own_province")
    if not game_map.can_reach_province(unit.kind, unit.place, target):
        raise illegal(order, f"{unit} cannot reach {target}, so cannot support a move there", "cannot_reach")
    return Support(UnitRef(unit.kind, unit.place), UnitRef(supported.kind, supported.place), target)


def one_train_per_turn(orders: Sequence[Order]) -> list[tuple[Order, IllegalOrder]]:
    """Refuse every train move when a power gives more than one (both units then hold)."""
    trains = list(dict.fromkeys(o for o in orders if isinstance(o, TrainMove)))
    if len(trains) < 2:
        return []
    return [(o, _second_train_error(o, trains)) for o in trains]


def _second_train_error(order: Order, trains: Sequence[Order]) -> IllegalOrder:
    listed = ", ".join(t.format() for t in trains[:-1]) + f" and {trains[-1].format()}"
    both = "both" if len(trains) == 2 else "all"
    return illegal(
        order, f"{RULE}: one train move per turn; {listed} are refused and {both} armies hold", "tsr_one_per_turn"
    )


def train_legal_orders(game_map: GameMap, board: ColonialBoard, position: Position, power: str) -> dict[str, list[str]]:
    """Train moves of ``power``'s armies on the line, and its units' supports of possible train moves."""
    if position.phase.kind != MOVEMENT:
        return {}
    riders = sorted(
        (
            u
            for u in position.units.values()
            if u.power == board.rail_power and u.kind == board.rail_kind and u.place in board.stations
        ),
        key=lambda u: u.place,
    )
    out: dict[str, list[str]] = {}
    for rider in riders:
        if rider.power == power:
            out.setdefault(rider.place, []).extend(f"{rider} - TSR - {s}" for s in board.stations if s != rider.place)
    for prov, unit in sorted(position.units.items()):
        if unit.power != power:
            continue
        for rider in riders:
            if rider.place == prov:
                continue
            for s in board.stations:
                if (
                    s in (rider.place, prov)
                    or game_map.can_reach_province(rider.kind, rider.place, s)
                    or not game_map.can_reach_province(unit.kind, unit.place, s)
                ):
                    continue
                out.setdefault(unit.place, []).append(f"{unit} S {rider} - {s}")
    return out


# ---------------------------------------------------------------------- adjudication
class RefusedTrains(MovementExtension):
    """Two or more train moves in one turn: the resolver sees holds, the results say why."""

    def __init__(self, trains: Mapping[str, TrainMove]) -> None:
        self.trains = dict(trains)
        self.errors = {p: _second_train_error(o, list(self.trains.values())) for p, o in self.trains.items()}

    def resolver_orders(self) -> Mapping[str, Order]:
        """Each refused train's army holds (and may be supported to hold)."""
        return {p: Hold(o.unit) for p, o in self.trains.items()}

    def result(self, resolver: ResolverView, province: str, order: Order) -> CustomResult | None:
        """Refused, naming the one-train rule."""
        err = self.errors.get(province)
        return None if err is None else (ILLEGAL, err.reason, err.message)


class TrainExtension(MovementExtension):
    """The adjudication of one train move (see the module's docstring and :class:`ColonialRules`)."""

    def __init__(
        self,
        game_map: GameMap,
        board: ColonialBoard,
        rules: ColonialRules,
        position: Position,
        orders: Mapping[str, Order],
        origin: str,
        order: TrainMove,
    ) -> None:
        self.map = game_map
        self.board = board
        self.rules = rules
        self.position = position
        self.origin = origin
        self.power = position.units[origin].power
        self.target = order.target
        self.route = board.route(origin, order.target)
        self.last = len(self.route) - 1
        self.keys = tuple(f"{origin}~TSR~{s}" for s in self.route)
        # Per resolution (a variant may resolve the phase again): legs failed by the paradox rule, end station.
        self._forced: PerResolution[set[int]] = PerResolution()
        self._ends: PerResolution[str | None] = PerResolution()
        first = self.route[0]
        occupant = position.units.get(first)
        move = orders.get(first)
        coming = (
            occupant is not None
            and isinstance(move, Move)
            and not move.via_convoy
            and game_map.province_of[move.target] == origin
            and game_map.can_reach_province(occupant.kind, occupant.place, origin)
        )
        self.head_on_foreign = coming and occupant is not None and occupant.power != self.power
        self.head_on_russian = coming and not self.head_on_foreign and not rules.tsr_russian_swap
        # A head-on battle on the first leg, which the train cannot win into the first station: a foreign
        # unit it beats is not dislodged and stays (9.23 (3)), and a unit of its own power neither yields
        # nor swaps (a unit never dislodges one of its own power).  Either way the train stays home.
        self.head_on = self.head_on_foreign or self.head_on_russian
        self.lookahead = rules.tsr_model == LOOKAHEAD

    # ------------------------------------------------------------------ extension points
    def decisions(self) -> Mapping[str, Decision]:
        """The train's own decision (did the army leave?) and, station by station, one per leg."""
        out: dict[str, Decision] = {self.origin: self._decide}
        if not self.lookahead:
            for k in range(1, len(self.route)):
                out[self.keys[k]] = partial(self._leg, k)
        return out

    def leavers(self) -> Sequence[str]:
        """The army leaves home when its decision succeeds."""
        return (self.origin,)

    def support_targets(self) -> Mapping[str, str]:
        """Supports name the target station."""
        return {self.origin: self.target}

    def contenders(self) -> Mapping[str, Sequence[Strength]]:
        """The train competes for every station of its route."""
        contest: Callable[[int, ResolverView], int] = (
            self._contest_lookahead if self.lookahead else self._contest_stations
        )
        return {s: [partial(contest, k)] for k, s in enumerate(self.route)}

    def head_to_heads(self) -> Mapping[str, str]:
        """A unit coming the other way on the first leg fights the train head-on (or, Russian, cannot swap)."""
        if self.head_on_foreign or self.head_on_russian:
            return {self.route[0]: self.origin}
        return {}

    def strength(self, resolver: ResolverView, kind: str, province: str) -> int | None:
        """The train's defend strength in a head-on battle on its first leg."""
        if province != self.origin or kind != "defend":
            return None
        if self.rules.tsr_head_on_supported and self.last == 0:
            return 1 + resolver.supports(self.origin)
        return 1

    def settle_paradox(self, resolver: ResolverView, cycle: Sequence[str], paradox: bool) -> Mapping[str, bool]:
        """Avalon Hill: the last leg inside the paradox fails, but still bounces the units it meets."""
        if not self.rules.tsr_paradox_rule:
            return {}
        legs = [k for k in range(1, len(self.route)) if self.keys[k] in cycle]
        if not legs:
            return {}
        k = max(legs)
        self.forced(resolver).add(k)
        return {self.keys[k]: False}

    def relocations(self, resolver: ResolverView) -> Mapping[str, str]:
        """The army ends in the station where the train stopped."""
        end = self.end_station(resolver)
        return {} if end is None else {self.origin: end}

    def result(self, resolver: ResolverView, province: str, order: Order) -> CustomResult | None:
        """Succeeds at the target; fails, saying where the train stopped or why it stayed, otherwise."""
        if province != self.origin:
            return None
        end = self.end_station(resolver)
        if end == self.target:
            return (SUCCEEDS, None, None)
        if end is not None:
            code, station = self.why_stopped(resolver)
            return (
                PARTIAL,
                code,
                f"{RULE}: the train stopped in {self.map.place_name(end)} ({end}), short of "
                f"{self.target}: {STOP_REASONS[code]} in {station}",
            )
        if any(resolver.resolve(a) for a in resolver.attackers.get(self.origin, ())):
            return (FAILS, "dislodged", f"{RULE}: the train stayed in {self.origin} and was dislodged there")
        if self.head_on:
            return (FAILS, "bounced", f"{RULE}: a head-on battle on the first leg stopped the train")
        return (
            FAILS,
            "tsr_blocked",
            f"{RULE}: the train could neither reach {self.target} nor stop at a "
            f"station on its way; it stayed in {self.origin}",
        )

    def why_stopped(self, resolver: ResolverView) -> tuple[str, str]:
        """Why a train that left home did not reach its target: (reason code, the station that stopped it)."""
        for k in range(1, self.last + 1):
            if not self._passable(resolver, k):
                break
        else:
            k = self.last
        station = self.route[k]
        if not self.lookahead and k in self.forced(resolver):
            return "tsr_paradox", station
        if self._line_center_closed(resolver, k):
            return "tsr_line_center", station
        occ = self._occupant(k)
        if occ is not None and (self._stays(resolver, occ) or (self._foreign(occ) and occ in resolver.dest)):
            return "tsr_station_held", station
        return "tsr_station_contested", station

    def _passable(self, resolver: ResolverView, k: int) -> bool:
        """Does the train get past (or, at the target, into) station ``k``?"""
        if self.lookahead:
            return self._final_lookahead(resolver) if k == self.last else self._pass_lookahead(resolver, k)
        if k == self.last:
            occ = self._occupant(k)
            return self._got(resolver, k) and (occ is None or resolver.vacated(occ))
        return self._got(resolver, k) and not self._line_center_closed(resolver, k)

    def end_station(self, resolver: ResolverView) -> str | None:
        """Where the army ends after the resolution (``None``: it stayed home)."""
        if resolver not in self._ends:
            self._ends[resolver] = self._end_of_journey(resolver) if resolver.result.get(self.origin) else None
        return self._ends[resolver]

    def forced(self, resolver: ResolverView) -> set[int]:
        """Legs (by index) that the paradox rule failed in this resolution; they still bounce."""
        return self._forced.setdefault(resolver, set())

    # ------------------------------------------------------------------ shared helpers
    def _occupant(self, k: int) -> str | None:
        s = self.route[k]
        return s if s in self.position.units else None

    def _foreign(self, province: str) -> bool:
        return self.position.units[province].power != self.power

    def _stays(self, resolver: ResolverView, province: str) -> bool:
        return not resolver.vacated(province)

    def _line_center_closed(self, resolver: ResolverView, k: int) -> bool:
        """9.241: a line centre owned by another power stops the train, unless a Russian unit stays there."""
        if not self.rules.tsr_line_centers:
            return False
        s = self.route[k]
        owner = self.position.owners.get(s)
        if s not in self.board.line_centers or owner is None or owner == self.power:
            return False
        occ = self._occupant(k)
        return not (occ is not None and not self._foreign(occ) and self._stays(resolver, occ))

    def _decide(self, resolver: ResolverView) -> bool:
        return self._end_of_journey(resolver) is not None

    def _end_of_journey(self, resolver: ResolverView) -> str | None:
        if self.head_on:
            return None
        if self.lookahead:
            if self._final_lookahead(resolver):
                return self.target
            for k in range(self.last - 1, -1, -1):
                if self._may_stop_lookahead(resolver, k):
                    return self.route[k]
            return None
        for k in range(self.last, -1, -1):
            occ = self._occupant(k)
            if self._got(resolver, k) and (occ is None or resolver.vacated(occ)):
                return self.route[k]
        return None

    # ------------------------------------------------------------------ vDiplomacy: look-aheads
    def _reach(self, resolver: ResolverView, k: int) -> bool:
        return k == 0 or self._pass_lookahead(resolver, k - 1)

    def _along_line(self, resolver: ResolverView, province: str) -> bool:
        dest = resolver.dest.get(province)
        return dest is not None and dest in self.board.station_neighbours(province)

    def _pass_lookahead(self, resolver: ResolverView, k: int) -> bool:
        """The train runs through station ``k``."""
        if not self._reach(resolver, k):
            return False
        occ = self._occupant(k)
        if occ is not None and self._foreign(occ) and (occ not in resolver.dest or self._along_line(resolver, occ)):
            return False  # it holds, supports or convoys there, or moves along the line
        entrants = resolver.attackers.get(self.route[k], ())
        if any(self._foreign(e) and self._would_enter(resolver, e, k) for e in entrants):
            return False
        return not self._line_center_closed(resolver, k)

    def _would_enter(self, resolver: ResolverView, e: str, k: int) -> bool:
        """Would ``e`` enter station ``k`` if the train were not there?  (A failed chain still blocks.)"""
        attack = resolver.attack_strength(e)
        if attack <= 0:
            return False
        occ = self._occupant(k)
        if occ is not None and occ not in resolver.dest and attack <= resolver.hold_strength(self.route[k]):
            return False
        return all(attack > resolver.prevent_strength(q) for q in resolver.attackers[self.route[k]] if q != e)

    def _may_stop_lookahead(self, resolver: ResolverView, k: int) -> bool:
        """The train may end at station ``k``: reached, left empty, nobody trying to enter."""
        if not self._reach(resolver, k):
            return False
        occ = self._occupant(k)
        if occ is not None and (self._stays(resolver, occ) or (self._foreign(occ) and self._along_line(resolver, occ))):
            return False
        return not resolver.attackers.get(self.route[k])

    def _final_lookahead(self, resolver: ResolverView) -> bool:
        if not self._reach(resolver, self.last):
            return False
        occ = self._occupant(self.last)
        if occ is not None and (self._stays(resolver, occ) or (self._foreign(occ) and self._along_line(resolver, occ))):
            return False
        strength = 1 + resolver.supports(self.origin)
        return all(strength > resolver.prevent_strength(e) for e in resolver.attackers.get(self.target, ()))

    def _contest_lookahead(self, k: int, resolver: ResolverView) -> int:
        if self.head_on_foreign:
            # The train is an ordinary one-step move with strength 1; beaten head-on, it contests nothing.
            return 0 if k != 0 or resolver.resolve(self.route[0]) else 1
        if k == self.last:
            return 1 + resolver.supports(self.origin) if self._reach(resolver, k) else 0
        return 1 if self._reach(resolver, k) and not self._pass_lookahead(resolver, k) else 0

    # ------------------------------------------------------------------ Avalon Hill: station by station
    def _arrive(self, resolver: ResolverView, k: int) -> bool:
        if k == 0:
            return not self.head_on
        return resolver.resolve(self.keys[k])

    def _leg(self, k: int, resolver: ResolverView) -> bool:
        """Virtual decision: the train arrives at station ``k`` (``k`` ≥ 1)."""
        if k in self.forced(resolver):
            return False
        return self._got(resolver, k - 1) and not self._line_center_closed(resolver, k - 1)

    def _strength(self, resolver: ResolverView, k: int) -> int:
        return 1 + resolver.supports(self.origin) if k == self.last else 1

    def _got(self, resolver: ResolverView, k: int) -> bool:
        """The train gets through (or may end at) station ``k``: not blocked, not bounced there."""
        if not self._arrive(resolver, k):
            return False
        entrants = resolver.attackers.get(self.route[k], ())
        occ = self._occupant(k)
        if occ is not None and self._stays(resolver, occ):
            if self._foreign(occ):
                return False  # 9.23 (3): a foreign unit that stays blocks, even supported against
            if any(resolver.resolve(e) for e in entrants):
                return False  # the Russian unit there was dislodged: the station is taken
        strength = self._strength(resolver, k)
        for e in entrants:
            if resolver.move_succeeds(e, contenders=False) and resolver.attack_strength(e) >= strength:
                return False  # a rival takes the station, or both bounce
        return True

    def _contest_stations(self, k: int, resolver: ResolverView) -> int:
        if not (k in self.forced(resolver) or self._arrive(resolver, k)):
            return 0
        occ = self._occupant(k)
        if k != self.last and occ is not None and self._foreign(occ) and self._stays(resolver, occ):
            return 0  # blocked on its way: the train does not contest the station
        # At its target the train's attack fails on a foreign unit that stays (9.23 (3)), but like any
        # failed move it still bounces a third unit no stronger than it (so it can prevent a dislodgement).
        return self._strength(resolver, k)


def train_extensions(
    game_map: GameMap, board: ColonialBoard, rules: ColonialRules, position: Position, orders: Mapping[str, Order]
) -> list[MovementExtension]:
    """The extension adjudicating this turn's train move (or refusing several)."""
    trains = {p: o for p, o in orders.items() if isinstance(o, TrainMove)}
    if not trains:
        return []
    if len(trains) > 1:
        return [RefusedTrains(trains)]
    origin, order = next(iter(trains.items()))
    return [TrainExtension(game_map, board, rules, position, orders, origin, order)]
