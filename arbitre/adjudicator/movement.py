"""Movement-phase adjudication with Kruijswijk's guess-and-check resolver, over int-indexed arrays.

Every unit has exactly one (legal) order, keyed by the unit's province.  Each
order has one yes/no *decision*: a move succeeds, a support is given (not cut),
a convoy is not disrupted, a hold stands.  ``resolve(p)`` finds the decision of
the order of province ``p`` following "The Math of Adjudication" (DATC ch. 5):
when a decision depends on itself, it is guessed both ways; a cycle with two
consistent answers is settled by the backup rule — all moves of a circular
movement succeed, and in a convoy paradox the convoys in the cycle are
disrupted (Szykman rule, or every move holds with the ``all_hold`` option).

Data layout (what makes it quick): every decision gets an *index* — the orders
first, in the order given, then the extensions' virtual decisions — and every
province its map id (:attr:`~arbitre.maps.GameMap.province_id`).  The set-up
translates the orders once into lists indexed by decision (destination
province id, supporters, convoying fleets, flags such as "goes by convoy" or
"void") and lists indexed by province id (the decision of the unit standing
there, its power, the moves into it); the convoy route search walks province
bitsets.  The decisions themselves (``_resolve_i``, the strengths) read only
those lists.

The resolver knows only the standard order kinds and a dispatch table of
adjudicators by order type, so variants add order kinds without editing it.
Variants whose rules need more (passages, non-attacking competitors, decisions
of their own, a paradox rule) plug in through generic
:class:`~arbitre.adjudicator.extension.MovementExtension` objects, which speak
province names and decision keys: the public methods (:meth:`resolve`, the
strengths, :attr:`result`, :attr:`dest`, :attr:`attackers`) translate at that
boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from arbitre.adjudicator.extension import Decision, MovementExtension, OrderAdjudicator, Strength
from arbitre.maps import FLEET, GameMap
from arbitre.orders import Convoy, Hold, Move, Order, Support
from arbitre.rules.options import ConvoyParadox, RuleOptions
from arbitre.state import Unit

# Final: the compiled build reads these as C constants instead of looking them up in the module's dictionary.
UNRESOLVED: Final = 0
GUESSING: Final = 1
RESOLVED: Final = 2

# How a decision is adjudicated (MovementResolver._code).
_CUSTOM: Final = 0
_MOVE: Final = 1
_SUPPORT: Final = 2
_CONVOY: Final = 3
_HOLD: Final = 4
_OTHER: Final = 5
_UNKNOWN: Final = 6

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
        # Adjudicators of the rule modules' order types (the standard kinds are built in).
        self.adjudicators: dict[type, OrderAdjudicator] = dict(extra_adjudicators) if extra_adjudicators else {}
        self.extensions = tuple(extensions)
        # Units that cannot receive hold support (DATC 4.D.9 and 4.E.1 alternatives).
        self.unsupportable = unsupportable
        # Decisions computed by extensions: by unit province, or virtual keys of their own.
        self.custom: dict[str, Decision] = {}
        for ext in self.extensions:
            self.custom.update(ext.decisions())
        keys = list(orders)
        self.n_orders = len(keys)
        if self.custom:
            keys.extend(k for k in self.custom if k not in orders)
        self.keys: list[str] = keys
        """Decision index → its key (a unit's province, or an extension's virtual key)."""
        self._index_of: dict[str, int] | None = None
        n = len(keys)
        self._state: list[int] = [UNRESOLVED] * n
        self._result: list[bool] = [False] * n
        self._deps: list[int] = []
        self.guess_hits = 0
        # Province ids: the map's, and (copied on first use) ids of any other name an order gives.
        self._pids: dict[str, int] = game_map.province_id
        self._pnames: list[str] | tuple[str, ...] = game_map.province_names
        self._own_pids = False
        self._dest_names: dict[str, str] | None = None
        self._attacker_names: dict[str, list[str]] | None = None
        self._set_up(convoy_fleets_kinds)

    # ------------------------------------------------------------------ set-up
    @property
    def index(self) -> dict[str, int]:
        """Decision key → its index (built when first asked: the resolution itself speaks indices)."""
        found = self._index_of
        if found is None:
            found = self._index_of = {k: i for i, k in enumerate(self.keys)}
        return found

    def _pid(self, name: str) -> int:
        """The id of province ``name``; a name the map does not know gets an id of its own."""
        k = self._pids.get(name)
        if k is None:
            if not self._own_pids:
                self._pids, self._pnames, self._own_pids = dict(self._pids), list(self._pnames), True
            k = len(self._pnames)
            self._pids[name] = k
            names = self._pnames
            assert isinstance(names, list)
            names.append(name)
        return k

    def _province_of_place(self, place: str) -> int:
        """The province id of ``place`` (``STP/SC`` → id of ``STP``): a map's coasts are named ``PROV/XC``."""
        k = self.map.place_province_id.get(place)
        return k if k is not None else self._pid(place.split("/")[0])

    def _set_up(self, convoy_kinds: frozenset[str]) -> None:
        """Translate the orders into the arrays: who moves where, who supports whom, who convoys whom."""
        gmap, options, keys = self.map, self.options, self.keys
        units: dict[str, Unit] = self.units if isinstance(self.units, dict) else dict(self.units)
        n, n_orders = len(keys), self.n_orders
        order_list: list[Order | None] = list(self.orders.values())
        if n > n_orders:
            order_list.extend([None] * (n - n_orders))
        self._order = order_list
        pids = self._pids
        home = [-1] * n
        power = [""] * n
        dest = [-1] * n
        code = [_CUSTOM] * n
        attackers: dict[int, list[int]] = {}
        customs, others = self.custom, self.adjudicators
        other: dict[int, OrderAdjudicator] = {}
        decision: dict[int, Decision] = {}
        for i in range(n_orders):
            key = keys[i]
            h = pids.get(key)
            home[i] = h if h is not None else self._pid(key)
            unit = units.get(key)
            if unit is not None:
                power[i] = unit.power
            o = order_list[i]
            if isinstance(o, Move):
                d = self._province_of_place(o.target)
                dest[i] = d
                movers = attackers.get(d)
                if movers is None:
                    attackers[d] = [i]
                else:
                    movers.append(i)
            # How the decision is adjudicated: an extension's own decision, a rule module's order type, a standard kind.
            custom = customs.get(key) if customs else None
            if custom is not None:
                decision[i] = custom
                continue
            adj = others.get(type(o)) if others else None
            if adj is not None:
                code[i] = _OTHER
                other[i] = adj
            elif type(o) is Move:
                code[i] = _MOVE
            elif type(o) is Support:
                code[i] = _SUPPORT
            elif type(o) is Convoy:
                code[i] = _CONVOY
            elif type(o) is Hold:
                code[i] = _HOLD
            else:
                code[i] = _UNKNOWN
        for i in range(n_orders, n):
            decision[i] = customs[keys[i]]
        self._home, self._power, self._dest, self._attackers = home, power, dest, attackers
        self._code, self._other, self._decision = code, other, decision
        # The decision of the unit standing in each province, and its power.
        held_ids = [self._pid(prov) for prov in units]
        pids = self._pids  # copied if a unit named a province of its own
        nprov = len(self._pnames)
        at = [-1] * nprov
        for i in range(n_orders):
            at[home[i]] = i
        held = [""] * nprov
        for u, unit in enumerate(units.values()):
            held[held_ids[u]] = unit.power
        self._at, self._held = at, held
        # Extensions: units leaving by orders that are no Move, what supports name to support
        # them, moves through passages, non-attacking contenders, extra head-to-head battles.
        leaver = [d >= 0 for d in dest]
        self._odd_leavers: set[str] = set()
        support_target = dest
        self._passage: dict[int, int] = {}
        self._contenders: dict[int, list[Strength]] = {}
        extra_h2h: dict[str, str] = {}
        if self.extensions:
            index = self.index
            support_target = list(dest)
            for ext in self.extensions:
                for q in ext.leavers():
                    j = index.get(q)
                    if j is None:
                        self._odd_leavers.add(q)
                    else:
                        leaver[j] = True
                for q, target in ext.support_targets().items():
                    j = index.get(q)
                    if j is not None:
                        support_target[j] = self._pid(target)
                for q, key in ext.passages().items():
                    j = index.get(q)
                    if j is not None and dest[j] >= 0:
                        self._passage[j] = index[key]
                for prov, strengths in ext.contenders().items():
                    self._contenders.setdefault(self._pid(prov), []).extend(strengths)
                extra_h2h.update(ext.head_to_heads())
        passage = self._passage
        self._leaver = leaver
        # Convoy orders that match an army's move (void when no such move was ordered); supports.
        convoyers: dict[int, list[int]] = {}
        hold_sup: dict[int, list[int]] = {}
        move_sup: dict[int, list[int]] = {}
        void = [False] * n
        into = [-1] * n
        support_coast_ignored = options.support_coast == "ignored"
        odd_leavers, unsupportable = self._odd_leavers, self.unsupportable
        for i in range(n_orders):
            o = order_list[i]
            if isinstance(o, Convoy):
                k = pids.get(o.convoyed.province)
                a = at[k] if k is not None and k < nprov else -1
                if (
                    a >= 0
                    and dest[a] >= 0
                    and dest[a] == self._province_of_place(o.target)
                    and units[keys[i]].kind in convoy_kinds
                ):
                    fleets = convoyers.get(a)
                    if fleets is None:
                        convoyers[a] = [i]
                    else:
                        fleets.append(i)
                else:
                    void[i] = True
            elif isinstance(o, Support):
                s = o.supported.province
                k = pids.get(s)
                si = at[k] if k is not None and k < nprov else -1
                if o.target is None:
                    leaves = (si >= 0 and leaver[si]) or (bool(odd_leavers) and s in odd_leavers)
                    if k is not None and held[k] and not leaves and s not in unsupportable:
                        sups = hold_sup.get(k)
                        if sups is None:
                            hold_sup[k] = [i]
                        else:
                            sups.append(i)
                    else:
                        void[i] = True
                    continue
                t = self._province_of_place(o.target)
                into[i] = t
                if (
                    si >= 0
                    and support_target[si] == t
                    and (
                        "/" not in o.target
                        or support_coast_ignored
                        or getattr(order_list[si], "target", None) == o.target
                    )
                ):
                    sups = move_sup.get(si)
                    if sups is None:
                        move_sup[si] = [i]
                    else:
                        sups.append(i)
                else:
                    void[i] = True
        self._convoyers, self._void, self._hold_sup, self._move_sup, self._into = (
            convoyers,
            void,
            hold_sup,
            move_sup,
            into,
        )
        self._paths: dict[int, tuple[str, ...]] = {}
        if convoyers and options.convoy_path != "ignored":
            self._keep_path_convoys()
        # Which moves go by convoy (DATC 4.A.3): only an army (or a kind that asked for a convoy) may.
        by_convoy = [False] * n
        adj_rule = options.adjacent_convoy
        place_id = gmap.place_id
        for i in range(n_orders):
            d = dest[i]
            if d < 0:
                continue
            unit = units[keys[i]]
            kind: str = unit.kind
            if kind == "F":
                continue
            move = order_list[i]
            assert isinstance(move, Move)
            if kind != "A" and not move.via_convoy:
                continue
            place = place_id.get(unit.place)
            if (
                place is None
                or not gmap.reaches_province_id(kind, place, d)
                or (move.via_convoy and adj_rule != "any")
                or (
                    i in convoyers
                    and (
                        adj_rule == "any"
                        or (adj_rule in ("v3", "v2_fallback") and any(power[f] == unit.power for f in convoyers[i]))
                    )
                )
            ):
                by_convoy[i] = True
        # A move through a passage is, like a convoyed one, no head-to-head battle and needs its path.
        for i in passage:
            by_convoy[i] = True
        self._by_convoy = by_convoy
        self._fleet_bits = gmap.neighbour_bits.get(FLEET, ())
        if adj_rule == "v2_fallback":
            # DATC v2's fallback (4.A.3): an army that meant to be convoyed to a province it borders, with no
            # route of ordered convoys at all, moves over land instead.
            for i in range(n_orders):
                if by_convoy[i] and i not in passage and dest[i] >= 0 and not self._route(i, False):
                    place = place_id.get(units[keys[i]].place)
                    if place is not None and gmap.reaches_province_id(units[keys[i]].kind, place, dest[i]):
                        by_convoy[i] = False
        # A convoy for an army that goes by land is not used (but stands, DATC 6.G.2).
        if convoyers:
            for a in list(convoyers):
                if not by_convoy[a]:
                    del convoyers[a]
        # Head-to-head battles: the opponent's decision, always the unit at the mover's destination.
        h2h = [-1] * n
        for i in range(n_orders):
            d = dest[i]
            if d < 0:
                continue
            j = at[d]
            if j >= 0 and dest[j] == home[i] and not by_convoy[i] and not by_convoy[j]:
                h2h[i] = j
        for p, dname in extra_h2h.items():
            i2 = self.index.get(p)
            if i2 is not None and dest[i2] >= 0 and dest[i2] == pids.get(dname, -2) and not by_convoy[i2]:
                h2h[i2] = at[dest[i2]]
        # Brannan's rule (DATC 4.A.4 b): a convoyed army attacks from the last sea of its convoy, so a
        # unit leaving its target for that sea meets it head to head.  Unit in that sea → the army.
        brannan = [-1] * n
        brannan_army = [False] * n
        if options.convoyed_attack_origin == "brannan":
            for i in range(n):
                if not by_convoy[i] or i in passage:
                    continue
                d = dest[i]
                j = at[d]
                sea = dest[j] if j >= 0 else -1
                if sea >= 0 and any(self._pid(units[keys[f]].place.split("/")[0]) == sea for f in convoyers.get(i, ())):
                    h2h[i] = j
                    brannan[j] = i
            # A convoyed attack comes from the sea: it cuts a support against its own province.
            brannan_army = [by_convoy[i] and i not in passage for i in range(n)]
        self._h2h, self._brannan, self._brannan_army = h2h, brannan, brannan_army
        # Province ids named after the per-province arrays were sized get room in them.
        nprov = len(self._pnames)
        if len(at) < nprov:
            at.extend([-1] * (nprov - len(at)))
            held.extend([""] * (nprov - len(held)))
        self._any_route = options.multi_route_convoy == "any_route"
        self._never_bounce = options.dislodged_bounce == "never"
        self._rule_1982 = options.convoy_paradox == "1982"
        # Convoyed moves with a route of ordered convoys at all (before any convoy is judged).
        self._static_path: dict[int, bool] = {}
        for i in range(n):
            if by_convoy[i]:
                found = i in passage or self._route(i, False)
                self._static_path[i] = found
                if not found:
                    # A convoyed move with no route of ordered convoys at all matches nothing (DATC 6.D.8, 6.G.8).
                    void[i] = True
        # self_dislodge_support=via_convoy: an army ordered 'via convoy' with a route of ordered convoys is
        # helped by supports of the power it attacks (MILA's engine); otherwise they never help dislodge.
        self._own_support_helps = [False] * n
        if options.self_dislodge_support == "via_convoy":
            for i in range(n_orders):
                if self._static_path.get(i) and getattr(order_list[i], "via_convoy", False):
                    self._own_support_helps[i] = True

    # ------------------------------------------------------------------ the boundary (names)
    @property
    def result(self) -> dict[str, bool]:
        """Each decision's current value by key (a copy; final once :meth:`resolve` returned it)."""
        result = self._result
        return {k: result[i] for i, k in enumerate(self.keys)}

    @property
    def dest(self) -> dict[str, str]:
        """Mover's province → the province it moves to."""
        if self._dest_names is None:
            names = self._pnames
            self._dest_names = {self.keys[i]: names[d] for i, d in enumerate(self._dest) if d >= 0}
        return self._dest_names

    @property
    def attackers(self) -> dict[str, list[str]]:
        """Province → the provinces of the units moving into it."""
        if self._attacker_names is None:
            names, keys = self._pnames, self.keys
            self._attacker_names = {names[d]: [keys[i] for i in movers] for d, movers in self._attackers.items()}
        return self._attacker_names

    @property
    def leavers(self) -> set[str]:
        """Provinces whose unit leaves when its decision succeeds (movers, and the extensions' leavers)."""
        return {k for i, k in enumerate(self.keys) if self._leaver[i]} | self._odd_leavers

    @property
    def by_convoy(self) -> set[str]:
        """Provinces of the moves that go by convoy (or through a passage)."""
        return {k for i, k in enumerate(self.keys) if self._by_convoy[i]}

    @property
    def void(self) -> set[str]:
        """Provinces of the orders that match nothing (a support or convoy of no such move, a move with no route)."""
        return {k for i, k in enumerate(self.keys) if self._void[i]}

    def resolve(self, p: str) -> bool:
        """The decision of the order of province ``p``, or of an extension's virtual key (guess-and-check)."""
        return self._resolve_i(self.index[p])

    def supports(self, p: str) -> int:
        """How many supports the move (or extension order) of ``p`` gets, not cut."""
        i = self.index.get(p)
        return 0 if i is None else self._count(self._move_sup.get(i), "")

    def vacated(self, p: str) -> bool:
        """Did the unit of ``p`` leave its province (a successful move, or an extension's leaver)?"""
        i = self.index.get(p)
        if i is None or not self._leaver[i]:
            return p in self._odd_leavers and self.resolve(p)
        return self._resolve_i(i)

    def attack_strength(self, p: str) -> int:
        """Attack strength of the move of ``p`` (DATC 5.B)."""
        return self._attack(self.index[p])

    def hold_strength(self, d: str) -> int:
        """Hold strength of province ``d``."""
        k = self._pids.get(d)
        if k is None:
            custom = self._custom_strength("hold", d) if self.extensions else None
            return 0 if custom is None else custom
        return self._hold(k)

    def defend_strength(self, p: str) -> int:
        """Defend strength of the move of ``p`` in a head-to-head battle."""
        i = self.index.get(p)
        if i is None:
            custom = self._custom_strength("defend", p) if self.extensions else None
            return 1 if custom is None else custom
        return self._defend(i)

    def prevent_strength(self, p: str) -> int:
        """Prevent strength of the move of ``p`` against other moves to its target."""
        return self._prevent(self.index[p])

    def move_succeeds(self, p: str, *, contenders: bool = True) -> bool:
        """Does the move of ``p`` succeed?  ``contenders=False``: as if no extension contender were there."""
        return self._move_succeeds(self.index[p], contenders)

    def has_path(self, p: str) -> bool:
        """Does the convoyed move of ``p`` have an undisrupted route (or its passage open)?"""
        return self._has_path(self.index[p])

    # ------------------------------------------------------------------ resolver
    def _resolve_i(self, i: int) -> bool:
        """The decision of index ``i`` (guess-and-check)."""
        state = self._state[i]
        if state == RESOLVED:
            return self._result[i]
        deps = self._deps
        if state == GUESSING:
            # Count every use of a guess: a decision that used none is final.
            self.guess_hits += 1
            if i not in deps:
                deps.append(i)
            return self._result[i]
        old = len(deps)
        old_hits = self.guess_hits
        self._result[i] = False
        self._state[i] = GUESSING
        first = self._adjudicate(i)
        if self.guess_hits == old_hits:
            if self._state[i] != RESOLVED:
                self._result[i] = first
                self._state[i] = RESOLVED
            return first
        if i not in deps[old:]:
            # Depends on somebody else's guess: report, stay open.
            if i not in deps:
                deps.append(i)
            self._result[i] = first
            return first
        # i heads a cycle: try the other guess.
        self._forget(old)
        self._result[i] = True
        self._state[i] = GUESSING
        second = self._adjudicate(i)
        if first == second:
            self._forget(old)
            self._result[i] = first
            self._state[i] = RESOLVED
            return first
        self._backup_rule(old, paradox=first)
        return self._resolve_i(i)

    def _forget(self, old: int) -> None:
        state = self._state
        for q in self._deps[old:]:
            state[q] = UNRESOLVED
        del self._deps[old:]

    def _backup_rule(self, old: int, paradox: bool = False) -> None:
        """Settle a cycle with two consistent resolutions, or none (``paradox``)."""
        cycle = self._deps[old:]
        del self._deps[old:]
        orders = self._order
        settled: dict[int, bool] = {}
        if self.extensions:
            names = [self.keys[q] for q in cycle]
            for ext in self.extensions:
                for key, value in ext.settle_paradox(self, names, paradox).items():
                    settled[self.index[key]] = value
        convoy_paradox = any(isinstance(orders[q], Convoy) for q in cycle)
        if not (settled or convoy_paradox or any(isinstance(orders[q], Move) for q in cycle)):
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
            cycle = cycle + [
                a for a, fleets in self._convoyers.items() if a not in in_cycle and in_cycle.intersection(fleets)
            ]
        for q in cycle:
            order = orders[q]
            if q in settled:
                continue
            if convoy_paradox:
                if isinstance(order, Convoy) and rule in ("szykman", "1982"):
                    self._settle(q, False)  # the 1982 rule leaves no paradox; Szykman backs it up
                elif isinstance(order, Move) and rule == "all_hold":
                    self._settle(q, False)
                else:
                    self._state[q] = UNRESOLVED
            elif settled:
                self._state[q] = UNRESOLVED  # decided again from the extensions' settlement
            elif isinstance(order, Move):
                self._settle(q, True)  # circular movement: everybody moves
            else:
                self._state[q] = UNRESOLVED

    def _all_convoys_fail_is_consistent(self, cycle: list[int]) -> bool:
        """DPTG (DATC 4.A.2): is "every convoy of the paradox is disrupted" a resolution of the rules?

        The convoys are settled as disrupted, every other order of the cycle is
        judged again, and each convoy must then really be disrupted.  The
        resolver's state is put back as it was, whatever the answer.
        """
        saved_state, saved_result = list(self._state), list(self._result)
        saved_deps, saved_hits = list(self._deps), self.guess_hits
        convoys = [q for q in cycle if isinstance(self._order[q], Convoy)]
        for q in cycle:
            if q in convoys:
                self._settle(q, False)
            else:
                self._state[q] = UNRESOLVED
        consistent = not any(self._adjudicate(q) for q in convoys)
        self._state, self._result = saved_state, saved_result
        self._deps[:] = saved_deps
        self.guess_hits = saved_hits
        return consistent

    def _settle(self, q: int, value: bool) -> None:
        self._result[q] = value
        self._state[q] = RESOLVED

    def _adjudicate(self, i: int) -> bool:
        code = self._code[i]
        if code == _MOVE:
            return self._move_succeeds(i, True)
        if code == _SUPPORT:
            return self._adjudicate_support(i)
        if code == _CONVOY:
            return self._adjudicate_convoy(i)
        if code == _HOLD:
            return True
        if code == _CUSTOM:
            return self._decision[i](self)
        if code == _OTHER:
            return self._other[i](self, self.keys[i])
        raise KeyError(type(self._order[i]))  # an order type nobody adjudicates

    # ------------------------------------------------------------------ strengths
    def _count(self, supporters: list[int] | None, exclude_power: str) -> int:
        """How many of ``supporters`` give their support (not those of ``exclude_power``, if one is named)."""
        n = 0
        if supporters:
            power = self._power
            for s in supporters:
                if exclude_power and power[s] == exclude_power:
                    continue
                if self._resolve_i(s):
                    n += 1
        return n

    def _custom_strength(self, kind: str, p: str) -> int | None:
        for ext in self.extensions:
            value = ext.strength(self, kind, p)
            if value is not None:
                return value
        return None

    def _attack(self, i: int) -> int:
        """Attack strength of the move of decision ``i`` (DATC 5.B)."""
        if self.extensions:
            custom = self._custom_strength("attack", self.keys[i])
            if custom is not None:
                return custom
        if self._by_convoy[i] and not self._has_path(i):
            return 0
        d = self._dest[i]
        held = self._held[d]
        sups = self._move_sup.get(i)
        if not held:
            return 1 + self._count(sups, "")
        j = self._at[d]
        if j >= 0 and self._leaver[j] and self._h2h[i] < 0 and self._resolve_i(j):
            return 1 + self._count(sups, "")
        if held == self._power[i]:
            return 0
        return 1 + self._count(sups, "" if self._own_support_helps[i] else held)

    def _hold(self, d: int) -> int:
        """Hold strength of province id ``d``."""
        if self.extensions:
            custom = self._custom_strength("hold", self._pnames[d])
            if custom is not None:
                return custom
        if not self._held[d]:
            return 0
        j = self._at[d]
        if j >= 0 and self._leaver[j]:
            return 0 if self._resolve_i(j) else 1
        return 1 + self._count(self._hold_sup.get(d), "")

    def _defend(self, i: int) -> int:
        """Defend strength of the move of decision ``i`` in a head-to-head battle."""
        if self.extensions:
            custom = self._custom_strength("defend", self.keys[i])
            if custom is not None:
                return custom
        return 1 + self._count(self._move_sup.get(i), "")

    def _prevent(self, i: int) -> int:
        """Prevent strength of the move of decision ``i`` against other moves to its target."""
        if self.extensions:
            custom = self._custom_strength("prevent", self.keys[i])
            if custom is not None:
                return custom
        if self._by_convoy[i] and not self._has_path(i):
            return 0
        opponent = self._h2h[i]
        if opponent < 0:
            opponent = self._brannan[i]
        if opponent >= 0 and self._resolve_i(opponent):
            return 0
        if self._never_bounce:
            # DATC 4.A.7 a: dislodged by a unit from its own target, it has no effect there.
            back = self._at[self._dest[i]]
            if back >= 0 and self._dest[back] >= 0 and self._dest[back] == self._home[i] and self._resolve_i(back):
                return 0
        return 1 + self._count(self._move_sup.get(i), "")

    # ------------------------------------------------------------------ convoys
    def _keep_path_convoys(self) -> None:
        """DATC 4.A.6 b/c: a move with a written path is convoyed only by the fleets of its path.

        With ``required``, a move that names no path is convoyed by nobody.
        """
        required = self.options.convoy_path == "required"
        convoyers, keys, units = self._convoyers, self.keys, self.units
        for i in range(self.n_orders):
            if self._dest[i] < 0:
                continue
            path: tuple[str, ...] = getattr(self._order[i], "path", ())
            if path:
                self._paths[i] = path
                kept = [f for f in convoyers.get(i, ()) if units[keys[f]].place.split("/")[0] in path]
                if kept:
                    convoyers[i] = kept
                else:
                    convoyers.pop(i, None)
            elif required:
                convoyers.pop(i, None)

    def _route(self, i: int, check: bool) -> bool:
        """Is there a chain of convoying fleets from decision ``i``'s province to its target?

        With ``check``, every fleet of the chain must also succeed (its decision is resolved).
        """
        fleets = self._convoyers.get(i)
        if not fleets:
            return False
        path = self._paths.get(i) if self._paths else None
        if path is not None:
            # A written path is the one route: every sea of it must hold a fleet convoying the army.
            at = {self.units[self.keys[f]].place.split("/")[0]: f for f in fleets}
            return all(sea in at and (not check or self._resolve_i(at[sea])) for sea in path)
        # Each fleet: the bitset of the provinces around it, and the bit of its own province.
        around = [self._fleet_around(f) for f in fleets]
        own = [1 << self._home[f] for f in fleets]
        start = 1 << self._home[i]
        target = 1 << self._dest[i]
        frontier = [k for k in range(len(fleets)) if around[k] & start and (not check or self._resolve_i(fleets[k]))]
        seen = set(frontier)
        while frontier:
            k = frontier.pop()
            near = around[k]
            if near & target:
                return True
            for g in range(len(fleets)):
                if g not in seen and own[g] & near and (not check or self._resolve_i(fleets[g])):
                    seen.add(g)
                    frontier.append(g)
        return False

    def _fleet_around(self, f: int) -> int:
        """Bitset of the provinces a fleet's place borders (as a fleet moves), for the route search."""
        place = self.map.place_id.get(self.units[self.keys[f]].place)
        bits = self._fleet_bits
        return bits[place] if place is not None and place < len(bits) else 0

    def _has_path(self, i: int) -> bool:
        """Does the convoyed move of decision ``i`` have an undisrupted route (or its passage open)?"""
        if self._passage:
            passage = self._passage.get(i)
            if passage is not None:
                return self._resolve_i(passage)
        if not self._static_path.get(i, False):
            return False
        if self._any_route:
            return all(self._resolve_i(f) for f in self._convoyers[i])
        return self._route(i, True)

    # ------------------------------------------------------------------ order kinds
    def _move_succeeds(self, i: int, contenders: bool) -> bool:
        """Does the move of decision ``i`` succeed?  ``contenders=False``: as if no extension contender were there."""
        if self._by_convoy[i] and not self._has_path(i):
            return False
        d = self._dest[i]
        attack = self._attack(i)
        if attack == 0:
            return False
        for q in self._attackers[d]:
            if q != i and attack <= self._prevent(q):
                return False
        if contenders and self._contenders:
            for strength in self._contenders.get(d, ()):
                if attack <= strength(self):
                    return False
        opponent = self._h2h[i]
        if opponent >= 0:
            return attack > self._defend(opponent)
        army = self._brannan[i]
        if army >= 0 and attack <= self._defend(army):
            return False  # Brannan: the army coming out of this sea meets the move head to head
        return attack > self._hold(d)

    def _adjudicate_support(self, i: int) -> bool:
        if self._void[i]:
            return False
        into = self._into[i]
        power = self._power[i]
        home, powers, by_convoy = self._home, self._power, self._by_convoy
        for a in self._attackers.get(home[i], ()):
            if home[a] == into and not (self._brannan_army[a] and self._has_path(a)):
                if self._resolve_i(a):
                    return False  # dislodged by the unit it supports against
                continue
            if powers[a] == power:
                continue
            if by_convoy[a] and not self._has_path(a):
                continue
            if self._rule_1982 and by_convoy[a] and self._1982_protects(i):
                continue
            return False
        return True

    def _1982_protects(self, i: int) -> bool:
        """The 1982 rule (DATC 4.A.2): a support of an action in a sea holding a convoying fleet.

        "Convoying fleet" is read as a fleet whose convoy order matches an army's move.
        """
        order = self._order[i]
        assert isinstance(order, Support)
        sea = (order.target or order.supported.place).split("/")[0]
        if not self.map.provinces[sea].is_sea:
            return False
        units, keys = self.units, self.keys
        return any(sea == units[keys[f]].place.split("/")[0] for fleets in self._convoyers.values() for f in fleets)

    def _adjudicate_convoy(self, i: int) -> bool:
        if self._void[i]:
            return False
        return all(not self._resolve_i(a) for a in self._attackers.get(self._home[i], ()))

    # ------------------------------------------------------------------ answers
    def resolve_all(self) -> None:
        """Resolve every order (and every extension decision)."""
        for i in range(len(self.keys)):
            self._resolve_i(i)

    def dislodged_by(self) -> dict[str, str]:
        """Province of each dislodged unit → province its attacker came from."""
        out: dict[str, str] = {}
        for d, origins in self._attackers.items():
            if not self._held[d]:
                continue
            j = self._at[d]
            if j >= 0 and self._leaver[j] and self._resolve_i(j):
                continue
            for a in origins:
                if self._resolve_i(a):
                    out[self._pnames[d]] = self.keys[a]
        return out

    def standoffs(self) -> frozenset[str]:
        """Provinces left empty by a standoff: no move in succeeded, and some move in bounced.

        A move without a route, or one beaten in a head-to-head battle, does not
        contest the province (DATC 6.F.7, 6.H.9).
        """
        out = set()
        for d, origins in self._attackers.items():
            if any(self._resolve_i(a) for a in origins):
                continue
            if not any(self._prevent(a) > 0 for a in origins):
                continue
            j = self._at[d]
            occupied = bool(self._held[d]) and not (j >= 0 and self._leaver[j] and self._resolve_i(j))
            if not occupied:
                out.add(self._pnames[d])
        return frozenset(out)
