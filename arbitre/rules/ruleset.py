"""The rule set a game carries: its map, its options and its rule modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TypeVar

from arbitre.maps import GameMap
from arbitre.orders import (
    STANDARD_SYNTAX,
    Convoy,
    Hold,
    IllegalOrder,
    InvalidOrder,
    Order,
    OrderSyntax,
    Support,
    parse_order,
)
from arbitre.orders.parser import strip_coasts
from arbitre.rules.disclosure import known_position
from arbitre.rules.disorder import standard_removal_order
from arbitre.rules.facets import Builds, CivilDisorder, MapTransform, OrderRules, PhaseNeeds, Setup, StepRules, Victory
from arbitre.rules.kinds import INVALID, STANDARD_KINDS, STANDARD_UNIT_KINDS, OrderKind, UnitKind
from arbitre.rules.legality import (
    BOARD_LOOKUPS,
    NOT_A_HOME_CENTRE,
    check_adjustment_order,
    check_movement_order,
    check_retreat_order,
)
from arbitre.rules.options import RuleOptions
from arbitre.rules.order_ids import OrderTable
from arbitre.rules.phase_steps import ORDERS_STEP, Step
from arbitre.rules.variant import Variant
from arbitre.state import ADJUSTMENTS, MOVEMENT, Phase, Position, Unit, make_unit

F = TypeVar("F")


@dataclass(frozen=True, eq=False)
class RuleSet:
    """Map + options + variants.  Build one with :func:`arbitre.rules.make_rules`.

    ``game_map`` is the map after every variant's ``transform_map``;
    ``syntax`` is the order grammar after every variant's ``extend_syntax``.

    Every point a rule module may change is one method here, which asks the
    modules implementing its facet (:mod:`arbitre.rules.facets`) and nothing
    else asks: :meth:`build_sites`, :meth:`initial_owners`,
    :meth:`starting_position`, :meth:`needs_retreats`,
    :meth:`needs_adjustments`, :meth:`civil_disorder_removals`, :meth:`build_site_refusal`,
    :meth:`build_center_counts`,
    :meth:`build_centers`, :meth:`victory_centers`, :meth:`victory_target`, :attr:`unit_kinds` (their
    movement tables are :attr:`game_map`'s), :attr:`kinds` and
    :meth:`phase_steps`.  With no module implementing a facet, its method is
    the standard rule and costs one dictionary lookup more.
    """

    game_map: GameMap
    options: RuleOptions = RuleOptions()
    variants: tuple[Variant, ...] = ()
    syntax: OrderSyntax = STANDARD_SYNTAX
    settings: Mapping[str, object] = field(default_factory=dict)
    _parsed: dict[str, Order] = field(default_factory=dict, init=False, repr=False, compare=False)
    _checked: dict[tuple[object, ...], Order | IllegalOrder] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _facets: dict[type, tuple[object, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _kinds: dict[type, OrderKind] = field(default_factory=dict, init=False, repr=False, compare=False)
    _withdrawn: list[dict[type, str]] = field(default_factory=list, init=False, repr=False, compare=False)
    _unit_kinds: dict[str, UnitKind] = field(default_factory=dict, init=False, repr=False, compare=False)
    _tables: list[OrderTable] = field(default_factory=list, init=False, repr=False, compare=False)

    def implementing(self, facet: type[F]) -> tuple[F, ...]:
        """The rule modules in play that implement ``facet`` (a protocol of :mod:`arbitre.rules.facets`…).

        Computed once per rule set, so a facet nobody implements costs one
        dictionary lookup where it is asked.
        """
        found = self._facets.get(facet)
        if found is None:
            found = self._facets[facet] = tuple(v for v in self.variants if isinstance(v, facet))
        return found  # type: ignore[return-value]

    @property
    def kinds(self) -> dict[type, OrderKind]:
        """Every order kind of this game (standard and the modules'), by order class."""
        if not self._kinds:
            self._kinds.update((k.order_type, k) for k in STANDARD_KINDS)
            for module in self.implementing(OrderRules):
                self._kinds.update((k.order_type, k) for k in module.order_kinds())
        return self._kinds

    @property
    def withdrawn(self) -> dict[type, str]:
        """Order classes some module takes out of this game → the name of that module."""
        if not self._withdrawn:
            names = {name: v.name for v in self.variants if isinstance(v, OrderRules) for name in v.withdrawn_kinds()}
            self._withdrawn.append({k.order_type: names[k.name] for k in self.kinds.values() if k.name in names})
        return self._withdrawn[0]

    def province_of_order(self, order: Order) -> str | None:
        """The province of the unit ``order`` belongs to: its unit's, or the one its kind names for a
        whole-power order given with a unit (``None``: a whole-power order of no unit)."""
        if order.unit is not None:
            return self.game_map.province_of.get(order.unit.place, order.unit.place)
        belongs = self.kind_of(order).belongs_to
        return belongs(self, order) if belongs is not None else None

    def kind_of(self, order: Order | None) -> OrderKind:
        """The declaration of ``order``'s kind (:data:`~arbitre.rules.kinds.INVALID` for ``None``)."""
        if order is None:
            return INVALID
        kind = self.kinds.get(type(order))
        if kind is None:
            raise TypeError(f"{type(order).__name__} is no order kind of this game: declare it in order_kinds()")
        return kind

    @property
    def variant_names(self) -> tuple[str, ...]:
        """Names of the rule modules in play."""
        return tuple(v.name for v in self.variants)

    def variant(self, name: str) -> Variant | None:
        """The rule module called ``name``, if it is in play."""
        for v in self.variants:
            if v.name == name:
                return v
        return None

    def parse(self, text: str) -> Order:
        """Parse an order with this game's grammar (raises InvalidOrder/AmbiguousOrder).

        Orders are immutable values, so readings are remembered: bots repeat the
        same order texts millions of times.
        """
        order = self._parsed.get(text)
        if order is None:
            try:
                order = parse_order(text, self.game_map, self.syntax)
            except InvalidOrder as err:
                if err.reason != "unknown_coast" or self.options.irrelevant_coast != "ignored":
                    raise
                # DATC 4.B.6: a coast the province does not have is ignored.
                order = parse_order(strip_coasts(text), self.game_map, self.syntax)
            if len(self._parsed) > 200_000:
                self._parsed.clear()
            self._parsed[text] = order
        return order

    def check(
        self,
        position: Position,
        power: str,
        order: Order,
        retreat_options: dict[str, tuple[str, ...]] | None = None,
        text: str | None = None,
    ) -> Order:
        """Validate an order of ``power`` in ``position``; return its normal form or raise IllegalOrder.

        ``text`` is the order as written, when known: it only speeds up the check.
        The order is judged on what ``power`` knows of the position
        (:func:`~arbitre.rules.disclosure.known_position`), so the verdict and its
        words never depend on a unit the power cannot see.
        """
        if self.variants:
            position = known_position(self, position, power)
            declared = self.kinds.get(type(order))
            if declared is not None:
                withdrawn_by = self.withdrawn.get(type(order))
                if withdrawn_by is not None:
                    raise IllegalOrder(
                        f"{declared.name} orders are not allowed in this game (rule module {withdrawn_by})",
                        text=order.format(),
                        reason="kind_withdrawn",
                    )
                if declared.check is not None:
                    return declared.check(self, position, power, order)
            for v in self.implementing(OrderRules):
                checked = v.check_order(self, position, power, order)
                if checked is not None:
                    return checked
        kind = position.phase.kind
        if kind == MOVEMENT:
            return self._check_movement(position, power, order, text)
        if kind == ADJUSTMENTS:
            return check_adjustment_order(
                self.game_map,
                position,
                power,
                order,
                self.build_sites(power, position),
                options=self.options,
                refusal=self.build_site_refusal(power),
            )
        return check_retreat_order(self.game_map, position, power, order, retreat_options or {})

    @property
    def order_table(self) -> OrderTable:
        """This rule set's movement orders by id, with what their words alone decide (:mod:`arbitre.rules.order_ids`).

        Built from :attr:`game_map` (the map after every module's transformation, so a module's
        movement tables count) and :attr:`options`, and filled as orders are read.
        """
        if not self._tables:
            self._tables.append(OrderTable(self.game_map, self.options))
        return self._tables[0]

    def _check_movement(self, position: Position, power: str, order: Order, text: str | None) -> Order:
        """Standard movement legality: the order table's verdict, else the reference checks, remembered
        when they depend only on the units named.

        The order table (:attr:`order_table`) vouches for the common orders with
        a few lookups in the position.  Otherwise the verdict on ``A PAR S A MAR -
        BUR`` depends on the order, the power and the two units; only convoy
        routes look at the rest of the board, and those verdicts are never remembered.
        """
        static = self.order_table.get(text if text is not None else order, order)
        if static is not None:
            fast = static.check(position.units, power)
            if fast is not None:
                return fast
        if isinstance(order, (Convoy, Hold)) or order.unit is None:
            # Holds are cheaper to check than to look up; convoys depend on the whole board.
            return check_movement_order(self.game_map, position, power, order, self.options)
        units = position.units
        supported: object = None
        if isinstance(order, Support):
            other = units.get(order.supported.province)
            supported = other
            if other is not None and order.nationality is None and self.options.missing_nationality == "valid":
                # The supported unit's power counts only where nationality does (check_nationality):
                # otherwise its kind and place decide, and the verdict is shared by every power's unit there.
                supported = (other.kind, other.place)
        # Orders hash slowly (a frozen dataclass rehashes its fields); their text is a cheap key.
        key = (text if text is not None else order, power, units.get(order.unit.province), supported)
        known = self._checked.get(key)
        if known is not None:
            if isinstance(known, IllegalOrder):
                raise type(known)(known.message, text=known.text, reason=known.reason)
            return known
        before = BOARD_LOOKUPS.count
        try:
            verdict: Order | IllegalOrder = check_movement_order(self.game_map, position, power, order, self.options)
        except IllegalOrder as err:
            verdict = err
        if BOARD_LOOKUPS.count == before:
            if len(self._checked) > 200_000:
                self._checked.clear()
            self._checked[key] = verdict
        if isinstance(verdict, IllegalOrder):
            raise verdict
        return verdict

    def build_center_counts(self, position: Position) -> dict[str, int]:
        """Centres counting towards builds, for every power at once."""
        counts = dict.fromkeys(self.game_map.powers, 0)
        variants = self.implementing(Victory)
        if not variants:
            for p in position.owners.values():
                n = counts.get(p)
                if n is not None:
                    counts[p] = n + 1
            return counts
        for c, p in position.owners.items():
            if p in counts and all(v.counts_for_builds(p, c, position) for v in variants):
                counts[p] += 1
        return counts

    def build_centers(self, power: str, position: Position) -> int:
        """How many centres count towards ``power``'s builds."""
        return sum(
            1
            for c, p in position.owners.items()
            if p == power and all(v.counts_for_builds(power, c, position) for v in self.implementing(Victory))
        )

    def victory_centers(self, power: str, position: Position) -> int:
        """How many centres count towards ``power``'s victory."""
        return sum(
            1
            for c, p in position.owners.items()
            if p == power and all(v.counts_for_victory(power, c, position) for v in self.implementing(Victory))
        )

    # ------------------------------------------------------------------ rule points
    @property
    def unit_kinds(self) -> dict[str, UnitKind]:
        """Every unit kind of this game (standard and the modules'), by letter; each moves by the map's table."""
        if not self._unit_kinds:
            self._unit_kinds.update((k.letter, k) for k in STANDARD_UNIT_KINDS)
            for module in self.implementing(MapTransform):
                self._unit_kinds.update((k.letter, k) for k in module.unit_kinds())
        return self._unit_kinds

    def victory_target(self) -> int:
        """How many counting centres (:meth:`victory_centers`) win the game: the map's number, unless a
        module says otherwise (:class:`~arbitre.rules.facets.Victory`); a game's own end setting overrides it."""
        target = self.game_map.victory_centers
        for v in self.implementing(Victory):
            target = v.victory_target(self, target)
        return target

    def build_sites(self, power: str, position: Position) -> tuple[str, ...]:
        """The provinces where ``power`` may build (if it owns them and they are empty): its home centres,
        unless a module says otherwise (:class:`~arbitre.rules.facets.Builds`)."""
        sites = self.game_map.home_centers(power)
        for v in self.implementing(Builds):
            sites = v.build_sites(self, power, position, sites)
        return sites

    def build_site_refusal(self, power: str) -> str:
        """The words refusing a build outside :meth:`build_sites` (reason ``not_a_build_site``; ``{place}`` and
        ``{power}`` fields): the standard rule's, unless a module says otherwise (:class:`~arbitre.rules.facets.Builds`)."""
        words = NOT_A_HOME_CENTRE
        for v in self.implementing(Builds):
            words = v.build_site_refusal(self, power, words)
        return words

    def initial_owners(self) -> dict[str, str]:
        """Centre → owner at the start of a game (and of a position given without owners): the home centres,
        unless a module says otherwise (:class:`~arbitre.rules.facets.Setup`)."""
        owners: Mapping[str, str] = {h: p for p, info in self.game_map.powers.items() for h in info.homes}
        for v in self.implementing(Setup):
            owners = v.initial_owners(self, owners)
        return dict(owners)

    def starting_position(self) -> Position:
        """The position a new game starts from: the map's start units and first phase, the
        :meth:`initial_owners`, unless a module says otherwise (:class:`~arbitre.rules.facets.Setup`)."""
        gmap = self.game_map
        units: dict[str, Unit] = {}
        for power, info in gmap.powers.items():
            for text in info.start_units:
                kind, place = text.split()
                units[gmap.province_of[place]] = make_unit(power, kind, place)
        position = Position(gmap.name, Phase.parse(gmap.first_phase), units, self.initial_owners())
        for v in self.implementing(Setup):
            position = v.starting_position(self, position)
        return position

    def needs_retreats(self, position: Position, dislodged: bool) -> bool:
        """Does a retreat phase follow the movement phase of ``position``?  ``dislodged``: was a unit
        dislodged (the standard answer); a module may hold one anyway (:class:`~arbitre.rules.facets.PhaseNeeds`)."""
        needed = dislodged
        for v in self.implementing(PhaseNeeds):
            needed = v.needs_retreats(self, position, needed)
        return needed

    def needs_adjustments(self, position: Position) -> bool:
        """Is the winter adjustment phase of ``position`` played: a power owes a disband, or owes a build and
        has a free build site (:meth:`build_sites`)?  A module may say otherwise (:class:`~arbitre.rules.facets.PhaseNeeds`)."""
        needed = False
        counts = self.build_center_counts(position)
        for unit in position.units.values():
            if unit.power in counts:
                counts[unit.power] -= 1
        movable = bool(self.implementing(Builds))
        for power, owed in counts.items():
            if owed < 0:
                needed = True
                break
            if owed > 0:
                sites = self.build_sites(power, position) if movable else self.game_map.home_centers(power)
                if any(position.owners.get(h) == power and h not in position.units for h in sites):
                    needed = True
                    break
        for v in self.implementing(PhaseNeeds):
            needed = v.needs_adjustments(self, position, needed)
        return needed

    def civil_disorder_removals(
        self, position: Position, power: str, count: int, exclude: AbstractSet[str] = frozenset()
    ) -> list[Unit]:
        """The ``count`` units of ``power`` (none in ``exclude``, the provinces it disbanded) removed when it
        gives too few disbands: the standard order (:mod:`arbitre.rules.disorder`, by option), unless a module
        says otherwise (:class:`~arbitre.rules.facets.CivilDisorder`)."""
        units: Sequence[Unit] = standard_removal_order(self.game_map, self.options, position, power, exclude)
        for v in self.implementing(CivilDisorder):
            units = v.removal_order(self, position, power, units)
        return list(units)[:count]

    def phase_steps(self, position: Position) -> tuple[Step, ...]:
        """The steps of the phase of ``position`` (:mod:`arbitre.rules.phase_steps`): the first module that
        declares some decides (:class:`~arbitre.rules.facets.StepRules`); with none, one ``orders`` step."""
        for v in self.implementing(StepRules):
            steps = tuple(v.phase_steps(self, position))
            if steps:
                return steps
        return (ORDERS_STEP,)
