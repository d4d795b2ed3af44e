"""Movement-phase adjudication with Kruijswijk's guess-and-check resolver.

Every unit has exactly one (legal) order, keyed by the unit's province.  Each
order has one yes/no *decision*: a move succeeds, a support is given (not cut),
a convoy is not disrupted, a hold stands.  ``resolve(p)`` finds the decision of
the order of province ``p`` following "The Math of Adjudication" (DATC ch. 5):
when a decision depends on itself, it is guessed both ways; a cycle with two
consistent answers is settled by the backup rule — all moves of a circular
movement succeed, and in a convoy paradox the convoys in the cycle are
disrupted (Szykman rule, or every move holds with the ``all_hold`` option).

The resolver knows only the standard order kinds and a dispatch table of
adjudicators by order type, so variants add order kinds without editing it.
Variants whose rules need more (passages, non-attacking competitors, decisions
of their own, a paradox rule) plug in through generic
:class:`~arbitre.adjudicator.extension.MovementExtension` objects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from arbitre.adjudicator.extension import MovementExtension, OrderAdjudicator
from arbitre.maps import FLEET, GameMap
from arbitre.orders import Convoy, Hold, Move, Order, Support
from arbitre.rules.options import ConvoyParadox, RuleOptions
from arbitre.state import Unit

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2

Adjudicator = Callable[["MovementResolver", str], bool]


class MovementResolver:
    """Resolves one movement phase.  Build it, then read :meth:`resolve` per province."""

    def __init__(
        self,
        game_map: GameMap,
        units: Mapping[str, Unit],
        orders: Mapping[str, Order],
        options: RuleOptions,
        extra_adjudicators: Mapping[type, OrderAdjudicator] | None = None,
        convoy_fleets_kinds: frozenset[str] = frozenset({FLEET}),
        extensions: Sequence[MovementExtension] = (),
        unsupportable: frozenset[str] = frozenset(),
    ) -> None:
        self.map = game_map
        self.units = units
        self.orders = orders
        self.options = options
        self.adjudicators: dict[type, Adjudicator] = {
            Move: MovementResolver._adjudicate_move,
            Support: MovementResolver._adjudicate_support,
            Convoy: MovementResolver._adjudicate_convoy,
            Hold: MovementResolver._adjudicate_hold,
        }
        if extra_adjudicators:
            self.adjudicators.update(extra_adjudicators)
        self.extensions = tuple(extensions)
        # Units that cannot receive hold support (DATC 4.D.9 and 4.E.1 alternatives).
        self.unsupportable = unsupportable
        # Decisions computed by extensions: by unit province, or virtual keys of their own.
        self.custom: dict[str, Callable[[MovementResolver], bool]] = {}
        for ext in self.extensions:
            self.custom.update(ext.decisions())
        keys = list(orders) + [k for k in self.custom if k not in orders]
        self.state: dict[str, int] = dict.fromkeys(keys, UNRESOLVED)
        self.result: dict[str, bool] = dict.fromkeys(keys, False)
        self.deps: list[str] = []
        self.guess_hits = 0
        self._index(convoy_fleets_kinds)

    # ------------------------------------------------------------------ set-up
    def _index(self, convoy_kinds: frozenset[str]) -> None:
        """Precompute who moves where, who supports whom, who convoys whom."""
        units, orders = self.units, self.orders
        self.dest: dict[str, str] = {}
        self.attackers: dict[str, list[str]] = {}
        for p, o in orders.items():
            if isinstance(o, Move):
                d = o.target.split("/")[0]
                self.dest[p] = d
                self.attackers.setdefault(d, []).append(p)
        # Extensions: units leaving by orders that are no Move, what supports name to support
        # them, moves through passages, non-attacking contenders, extra head-to-head battles.
        self.leavers: set[str] = set(self.dest)
        self.support_targets: dict[str, str] = dict(self.dest)
        self.passages: dict[str, str] = {}
        self.contenders: dict[str, list[Callable[[MovementResolver], int]]] = {}
        extra_h2h: dict[str, str] = {}
        for ext in self.extensions:
            self.leavers.update(ext.leavers())
            self.support_targets.update(ext.support_targets())
            self.passages.update((q, key) for q, key in ext.passages().items() if q in self.dest)
            for prov, strengths in ext.contenders().items():
                self.contenders.setdefault(prov, []).extend(strengths)
            extra_h2h.update(ext.head_to_heads())
        # Convoy orders that match an army's move (void when no such move was ordered).
        self.convoyers: dict[str, list[str]] = {}
        self.void: set[str] = set()
        for p, o in orders.items():
            if isinstance(o, Convoy):
                a = o.convoyed.province
                if self.dest.get(a) == o.target.split("/")[0] and units[p].kind in convoy_kinds:
                    self.convoyers.setdefault(a, []).append(p)
                else:
                    self.void.add(p)
        self.paths: dict[str, tuple[str, ...]] = {}
        if self.options.convoy_path != "ignored":
            self._keep_path_convoys()
        # Which moves go by convoy (DATC 4.A.3).
        self.by_convoy: set[str] = set()
        adj_rule = self.options.adjacent_convoy
        for p, d in self.dest.items():
            unit = units[p]
            move = orders[p]
            assert isinstance(move, Move)
            if unit.kind == FLEET or (unit.kind not in ("A",) and not move.via_convoy):
                continue
            if (
                not self.map.can_reach_province(unit.kind, unit.place, d)
                or (move.via_convoy and adj_rule != "any")
                or (
                    p in self.convoyers
                    and (
                        adj_rule == "any"
                        or (adj_rule == "v3" and any(units[f].power == unit.power for f in self.convoyers[p]))
                    )
                )
            ):
                self.by_convoy.add(p)
        # A move through a passage is, like a convoyed one, no head-to-head battle and needs its path.
        self.by_convoy.update(self.passages)
        # A convoy for an army that goes by land is not used (but stands, DATC 6.G.2).
        for a in list(self.convoyers):
            if a not in self.by_convoy:
                del self.convoyers[a]
        self.head_to_head: dict[str, str] = {}
        for p, d in self.dest.items():
            if self.dest.get(d) == p and p not in self.by_convoy and d not in self.by_convoy:
                self.head_to_head[p] = d
        for p, d in extra_h2h.items():
            if self.dest.get(p) == d and p not in self.by_convoy:
                self.head_to_head[p] = d
        # Brannan's rule (DATC 4.A.4 b): a convoyed army attacks from the last sea of its convoy, so a
        # unit leaving its target for that sea meets it head to head.  Unit in that sea → the army.
        self.brannan: dict[str, str] = {}
        self.brannan_armies: set[str] = set()
        if self.options.convoyed_attack_origin == "brannan":
            for p in self.by_convoy:
                if p in self.passages:
                    continue
                d = self.dest[p]
                sea = self.dest.get(d)
                if sea is not None and any(self.units[f].place.split("/")[0] == sea for f in self.convoyers.get(p, ())):
                    self.head_to_head[p] = d
                    self.brannan[d] = p
            # A convoyed attack comes from the sea: it cuts a support against its own province.
            self.brannan_armies = {p for p in self.by_convoy if p not in self.passages}
        # Supports.
        self.hold_supports: dict[str, list[str]] = {}
        self.move_supports: dict[str, list[str]] = {}
        for p, o in orders.items():
            if not isinstance(o, Support):
                continue
            s = o.supported.province
            if o.target is None:
                if s in units and s not in self.leavers and s not in self.unsupportable:
                    self.hold_supports.setdefault(s, []).append(p)
                else:
                    self.void.add(p)
            elif self.support_targets.get(s) == o.target.split("/")[0] and (
                "/" not in o.target
                or self.options.support_coast == "ignored"
                or getattr(orders[s], "target", None) == o.target
            ):
                self.move_supports.setdefault(s, []).append(p)
            else:
                self.void.add(p)
        self.static_path: dict[str, bool] = {p: p in self.passages or self._route(p, None) for p in self.by_convoy}
        # A convoyed move with no route of ordered convoys at all matches nothing (DATC 6.D.8, 6.G.8).
        self.void.update(p for p, ok in self.static_path.items() if not ok)

    # ------------------------------------------------------------------ resolver
    def resolve(self, p: str) -> bool:
        """The decision of the order of province ``p`` (guess-and-check)."""
        state = self.state[p]
        if state == RESOLVED:
            return self.result[p]
        deps = self.deps
        if state == GUESSING:
            # Count every use of a guess: a decision that used none is final.
            self.guess_hits += 1
            if p not in deps:
                deps.append(p)
            return self.result[p]
        old = len(deps)
        old_hits = self.guess_hits
        self.result[p] = False
        self.state[p] = GUESSING
        first = self._adjudicate(p)
        if self.guess_hits == old_hits:
            if self.state[p] != RESOLVED:
                self.result[p] = first
                self.state[p] = RESOLVED
            return first
        if p not in deps[old:]:
            # Depends on somebody else's guess: report, stay open.
            if p not in deps:
                deps.append(p)
            self.result[p] = first
            return first
        # p heads a cycle: try the other guess.
        self._forget(old)
        self.result[p] = True
        self.state[p] = GUESSING
        second = self._adjudicate(p)
        if first == second:
            self._forget(old)
            self.result[p] = first
            self.state[p] = RESOLVED
            return first
        self._backup_rule(old, paradox=first)
        return self.resolve(p)

    def _forget(self, old: int) -> None:
        for q in self.deps[old:]:
            self.state[q] = UNRESOLVED
        del self.deps[old:]

    def _backup_rule(self, old: int, paradox: bool = False) -> None:
        """Settle a cycle with two consistent resolutions, or none (``paradox``)."""
        cycle = self.deps[old:]
        del self.deps[old:]
        orders = self.orders
        settled: dict[str, bool] = {}
        for ext in self.extensions:
            settled.update(ext.settle_paradox(self, cycle, paradox))
        convoy_paradox = any(isinstance(orders.get(q), Convoy) for q in cycle)
        if not (settled or convoy_paradox or any(isinstance(orders.get(q), Move) for q in cycle)):
            settled = dict.fromkeys(cycle, False)  # only extension decisions: they fail (never loop)
        for q, value in settled.items():
            self._settle(q, value)
        rule = self.options.convoy_paradox
        if convoy_paradox and not settled and rule == ConvoyParadox.DPTG:
            consistent = not paradox and self._all_convoys_fail_is_consistent(cycle)
            rule = ConvoyParadox.SZYKMAN if consistent else ConvoyParadox.ALL_HOLD
        if convoy_paradox and not settled and rule == "all_hold":
            # The convoyed armies carried by a convoy of the paradox are moves of the paradox too.
            in_cycle = set(cycle)
            cycle = cycle + [a for a, fleets in self.convoyers.items() if a not in in_cycle and in_cycle & set(fleets)]
        for q in cycle:
            order = orders.get(q)
            if q in settled:
                continue
            if convoy_paradox:
                if isinstance(order, Convoy) and rule in ("szykman", "1982"):
                    self._settle(q, False)  # the 1982 rule leaves no paradox; Szykman backs it up
                elif isinstance(order, Move) and rule == "all_hold":
                    self._settle(q, False)
                else:
                    self.state[q] = UNRESOLVED
            elif settled:
                self.state[q] = UNRESOLVED  # decided again from the extensions' settlement
            elif isinstance(order, Move):
                self._settle(q, True)  # circular movement: everybody moves
            else:
                self.state[q] = UNRESOLVED

    def _all_convoys_fail_is_consistent(self, cycle: list[str]) -> bool:
        """DPTG (DATC 4.A.2): is "every convoy of the paradox is disrupted" a resolution of the rules?

        The convoys are settled as disrupted, every other order of the cycle is
        judged again, and each convoy must then really be disrupted.  The
        resolver's state is put back as it was, whatever the answer.
        """
        saved = dict(self.state), dict(self.result), list(self.deps), self.guess_hits
        convoys = [q for q in cycle if isinstance(self.orders.get(q), Convoy)]
        for q in cycle:
            if q in convoys:
                self._settle(q, False)
            else:
                self.state[q] = UNRESOLVED
        consistent = not any(self._adjudicate(q) for q in convoys)
        self.state, self.result = saved[0], saved[1]
        self.deps[:] = saved[2]
        self.guess_hits = saved[3]
        return consistent

    def _settle(self, q: str, value: bool) -> None:
        self.result[q] = value
        self.state[q] = RESOLVED

    def _adjudicate(self, p: str) -> bool:
        custom = self.custom.get(p) if self.custom else None
        if custom is not None:
            return custom(self)
        return self.adjudicators[type(self.orders[p])](self, p)

    # ------------------------------------------------------------------ strengths
    def _count(self, supporters: list[str] | None, exclude_power: str | None = None) -> int:
        n = 0
        if supporters:
            for s in supporters:
                if exclude_power is not None and self.units[s].power == exclude_power:
                    continue
                if self.resolve(s):
                    n += 1
        return n

    def supports(self, p: str) -> int:
        """How many supports the move (or extension order) of ``p`` gets, not cut."""
        return self._count(self.move_supports.get(p))

    def vacated(self, p: str) -> bool:
        """Did the unit of ``p`` leave its province (a successful move, or an extension's leaver)?"""
        return p in self.leavers and self.resolve(p)

    def _custom_strength(self, kind: str, p: str) -> int | None:
        for ext in self.extensions:
            value = ext.strength(self, kind, p)
            if value is not None:
                return value
        return None

    def attack_strength(self, p: str) -> int:
        """Attack strength of the move of ``p`` (DATC 5.B)."""
        if self.extensions:
            custom = self._custom_strength("attack", p)
            if custom is not None:
                return custom
        if p in self.by_convoy and not self.has_path(p):
            return 0
        d = self.dest[p]
        target = self.units.get(d)
        sups = self.move_supports.get(p)
        if target is None or (d in self.leavers and self.head_to_head.get(p) != d and self.resolve(d)):
            return 1 + self._count(sups)
        if target.power == self.units[p].power:
            return 0
        return 1 + self._count(sups, exclude_power=target.power)

    def hold_strength(self, d: str) -> int:
        """Hold strength of province ``d``."""
        if self.extensions:
            custom = self._custom_strength("hold", d)
            if custom is not None:
                return custom
        if d not in self.units:
            return 0
        if d in self.leavers:
            return 0 if self.resolve(d) else 1
        return 1 + self._count(self.hold_supports.get(d))

    def defend_strength(self, p: str) -> int:
        """Defend strength of the move of ``p`` in a head-to-head battle."""
        if self.extensions:
            custom = self._custom_strength("defend", p)
            if custom is not None:
                return custom
        return 1 + self._count(self.move_supports.get(p))

    def prevent_strength(self, p: str) -> int:
        """Prevent strength of the move of ``p`` against other moves to its target."""
        if self.extensions:
            custom = self._custom_strength("prevent", p)
            if custom is not None:
                return custom
        if p in self.by_convoy and not self.has_path(p):
            return 0
        opponent = self.head_to_head.get(p) or self.brannan.get(p)
        if opponent is not None and self.resolve(opponent):
            return 0
        if self.options.dislodged_bounce == "never":
            # DATC 4.A.7 a: dislodged by a unit from its own target, it has no effect there.
            back = self.dest[p]
            if self.dest.get(back) == p.split("/")[0] and self.resolve(back):
                return 0
        return 1 + self._count(self.move_supports.get(p))

    # ------------------------------------------------------------------ convoys
    def _keep_path_convoys(self) -> None:
        """DATC 4.A.6 b/c: a move with a written path is convoyed only by the fleets of its path.

        With ``required``, a move that names no path is convoyed by nobody.
        """
        for p in self.dest:
            path = getattr(self.orders[p], "path", ())
            if path:
                self.paths[p] = path
                kept = [f for f in self.convoyers.get(p, ()) if self.units[f].place.split("/")[0] in path]
                if kept:
                    self.convoyers[p] = kept
                else:
                    self.convoyers.pop(p, None)
            elif self.options.convoy_path == "required":
                self.convoyers.pop(p, None)

    def _route(self, p: str, check: Callable[[str], bool] | None) -> bool:
        """Is there a chain of convoying fleets from ``p`` to its target?"""
        fleets = self.convoyers.get(p)
        if not fleets:
            return False
        path = self.paths.get(p) if self.paths else None
        if path is not None:
            # A written path is the one route: every sea of it must hold a fleet convoying the army.
            at = {self.units[f].place.split("/")[0]: f for f in fleets}
            return all(sea in at and (check is None or check(at[sea])) for sea in path)
        nb = self.map.province_neighbours[FLEET]
        d = self.dest[p]
        places = {self.units[f].place: f for f in fleets}
        frontier = [f for f in fleets if p in nb[self.units[f].place] and (check is None or check(f))]
        seen = set(frontier)
        while frontier:
            f = frontier.pop()
            around = nb[self.units[f].place]
            if d in around:
                return True
            for place, g in places.items():
                if g not in seen and self.map.province_of[place] in around and (check is None or check(g)):
                    seen.add(g)
                    frontier.append(g)
        return False

    def has_path(self, p: str) -> bool:
        """Does the convoyed move of ``p`` have an undisrupted route (or its passage open)?"""
        passage = self.passages.get(p) if self.passages else None
        if passage is not None:
            return self.resolve(passage)
        if not self.static_path.get(p, False):
            return False
        if self.options.multi_route_convoy == "any_route":
            return all(self.resolve(f) for f in self.convoyers[p])
        return self._route(p, self.resolve)

    # ------------------------------------------------------------------ order kinds
    def _adjudicate_hold(self, p: str) -> bool:
        return True

    def _adjudicate_move(self, p: str) -> bool:
        return self.move_succeeds(p)

    def move_succeeds(self, p: str, *, contenders: bool = True) -> bool:
        """Does the move of ``p`` succeed?  ``contenders=False``: as if no extension contender were there."""
        if p in self.by_convoy and not self.has_path(p):
            return False
        d = self.dest[p]
        attack = self.attack_strength(p)
        if attack == 0:
            return False
        for q in self.attackers[d]:
            if q != p and attack <= self.prevent_strength(q):
                return False
        if contenders and self.contenders:
            for strength in self.contenders.get(d, ()):
                if attack <= strength(self):
                    return False
        if self.head_to_head.get(p) == d:
            return attack > self.defend_strength(d)
        army = self.brannan.get(p) if self.brannan else None
        if army is not None and attack <= self.defend_strength(army):
            return False  # Brannan: the army coming out of this sea meets the move head to head
        return attack > self.hold_strength(d)

    def _adjudicate_support(self, p: str) -> bool:
        if p in self.void:
            return False
        order = self.orders[p]
        assert isinstance(order, Support)
        into = order.target.split("/")[0] if order.target is not None else None
        power = self.units[p].power
        for a in self.attackers.get(p, ()):
            if a == into and not (a in self.brannan_armies and self.has_path(a)):
                if self.resolve(a):
                    return False  # dislodged by the unit it supports against
                continue
            if self.units[a].power == power:
                continue
            if a in self.by_convoy and not self.has_path(a):
                continue
            if self.options.convoy_paradox == "1982" and a in self.by_convoy and self._1982_protects(order):
                continue
            return False
        return True

    def _1982_protects(self, order: Support) -> bool:
        """The 1982 rule (DATC 4.A.2): a support of an action in a sea holding a convoying fleet.

        "Convoying fleet" is read as a fleet whose convoy order matches an army's move.
        """
        sea = (order.target or order.supported.place).split("/")[0]
        if not self.map.provinces[sea].is_sea:
            return False
        return any(sea == self.units[f].place.split("/")[0] for fleets in self.convoyers.values() for f in fleets)

    def _adjudicate_convoy(self, p: str) -> bool:
        if p in self.void:
            return False
        return all(not self.resolve(a) for a in self.attackers.get(p, ()))

    # ------------------------------------------------------------------ answers
    def resolve_all(self) -> None:
        """Resolve every order (and every extension decision)."""
        for p in list(self.state):
            self.resolve(p)

    def dislodged_by(self) -> dict[str, str]:
        """Province of each dislodged unit → province its attacker came from."""
        out: dict[str, str] = {}
        for d, origins in self.attackers.items():
            if d not in self.units:
                continue
            if d in self.leavers and self.resolve(d):
                continue
            for a in origins:
                if self.resolve(a):
                    out[d] = a
        return out

    def standoffs(self) -> frozenset[str]:
        """Provinces left empty by a standoff: no move in succeeded, and some move in bounced.

        A move without a route, or one beaten in a head-to-head battle, does not
        contest the province (DATC 6.F.7, 6.H.9).
        """
        out = set()
        for d, origins in self.attackers.items():
            if any(self.resolve(a) for a in origins):
                continue
            if not any(self.prevent_strength(a) > 0 for a in origins):
                continue
            occupied = d in self.units and not (d in self.leavers and self.resolve(d))
            if not occupied:
                out.add(d)
        return frozenset(out)
