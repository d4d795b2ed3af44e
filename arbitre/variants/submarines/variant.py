"""The Submarines rule module: the hooks it overrides, each handed to the module that owns the rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from arbitre.adjudicator import MovementRules, PhaseRules
from arbitre.maps import GameMap
from arbitre.orders import Order, OrderSyntax
from arbitre.rules import RuleSet, Variant
from arbitre.rules.events import Audience, Wording
from arbitre.rules.facets import Disclosure, EventWords, MapTransform, OrderRules, PhaseNeeds
from arbitre.rules.kinds import OrderKind, UnitKind
from arbitre.rules.steps import MovementStep, PhaseStep, ResultLike
from arbitre.state import MOVEMENT, Dislodged, Position, Unit
from arbitre.variants.submarines import disclosure, knowledge, validation
from arbitre.variants.submarines.kinds import KINDS, SUBMARINE
from arbitre.variants.submarines.layers import add_depths, is_depth
from arbitre.variants.submarines.orders import UNIT_WORDS, explain_depth
from arbitre.variants.submarines.setup import START_SUBMARINES, read_start_submarines, with_start_submarines
from arbitre.variants.submarines.torpedoes import fire_torpedoes
from arbitre.variants.submarines.words import WORDINGS


class Submarines(Variant, MapTransform, OrderRules, MovementRules, PhaseRules, PhaseNeeds, Disclosure, EventWords):
    """Submarines: a hidden layer under every sea, torpedoes, and the judge's duty of discretion.

    ``start_submarines`` is the game setting naming the starting fleets that
    begin as submarines (see :mod:`~arbitre.variants.submarines.setup`).
    """

    option_names = frozenset({START_SUBMARINES})

    name = "submarines"

    def __init__(self, start_submarines: object = None) -> None:
        self.start_submarines = start_submarines
        self._known: dict[tuple[int, str], tuple[Position, Position]] = {}

    # --- the board and the orders
    def transform_map(self, game_map: GameMap) -> GameMap:
        """Add the depths and the submarine's adjacency; make the chosen starting fleets submarines."""
        choice = read_start_submarines(self.start_submarines, game_map)
        return with_start_submarines(add_depths(game_map), choice)

    def extend_syntax(self, syntax: OrderSyntax) -> OrderSyntax:
        """Add the unit letters ``SM``/``S``/``U`` (the torpedo kinds bring their own grammar),
        and a parser that explains a depth that does not exist (``BRE-1``)."""
        return syntax.extended(unit_words=UNIT_WORDS, parsers=[explain_depth])

    def check_order(self, rules: RuleSet, position: Position, power: str, order: Order) -> Order | None:
        """Torpedoes, supports of unseen submarines, retreats as the owner knows them."""
        return validation.check_order(rules, position, power, order)

    def order_kinds(self) -> Sequence[OrderKind]:
        """Torpedoes and the supports given to them (they hold for the resolver, then fire)."""
        return KINDS

    def unit_kinds(self) -> Sequence[UnitKind]:
        """The submarine (its movement table is the one ``transform_map`` adds)."""
        return (SUBMARINE,)

    # --- after the resolver
    def after_movement(self, rules: RuleSet, step: MovementStep) -> MovementStep:
        """Fire the torpedoes, then make the phase's events and the new sonar contacts."""
        step, shots = fire_torpedoes(rules, step)
        events, contacts = disclosure.movement_events(rules, step, shots)
        return replace(step, events=step.events + tuple(events), extras=contacts.into(step.extras))

    def after_phase(self, rules: RuleSet, step: PhaseStep) -> PhaseStep:
        """Retreat and adjustment phases: surfacings by retreat and lost submarines."""
        if step.before.phase.kind == MOVEMENT:
            return step
        events = disclosure.phase_events(rules, step)
        return replace(step, events=step.events + tuple(events)) if events else step

    def needs_retreats(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        """Always: an empty retreat step gives no dislodgement in the depths away."""
        return True

    # --- what each viewer knows
    def hides_province(self, rules: RuleSet, position: Position, province: str, viewer: str) -> bool:
        """Depth places hide units, except from their owner."""
        return knowledge.hides_province(position, province, viewer)

    def known_position(self, rules: RuleSet, position: Position, power: str) -> Position:
        """The position without other powers' submerged units (remembered for the last positions asked)."""
        key = (id(position), power)
        hit = self._known.get(key)
        if hit is not None and hit[0] is position:
            return hit[1]
        known = knowledge.known_position(rules.game_map, position, power)
        if len(self._known) > 256:
            self._known.clear()
        self._known[key] = (position, known)
        return known

    def unit_audience(self, rules: RuleSet, position: Position, unit: Unit) -> Audience:
        """Submerged units are seen by their owner only."""
        return knowledge.unit_audience(unit)

    def order_audience(
        self, rules: RuleSet, before: Position, after: Position, result: ResultLike
    ) -> tuple[Audience, Audience]:
        """Orders of surface units are published; those of submerged ones are not (see disclosure)."""
        return disclosure.order_audience(rules, before, result)

    def contacts(self, rules: RuleSet, position: Position, viewer: str) -> Sequence[tuple[str, str]]:
        """The viewer's sonar contacts."""
        return knowledge.contact_units(position, viewer)

    def dislodged_view(
        self, rules: RuleSet, position: Position, dislodged: Dislodged, viewer: str
    ) -> tuple[str | None, tuple[str, ...] | None] | None:
        """The attack's origin and the retreats, as the viewer knows them."""
        return knowledge.known_retreat(rules.game_map, position, dislodged, viewer)

    def visible_extras(self, rules: RuleSet, position: Position, viewer: str) -> Mapping[str, object]:
        """The viewer's own sonar contacts."""
        return knowledge.visible_state(position, viewer)

    def event_wordings(self) -> Mapping[str, Wording]:
        """The words of every Submarines event kind."""
        return WORDINGS

    def place_is_public(self, rules: RuleSet, place: str) -> bool:
        """The depths are not."""
        return not is_depth(place)


def make_submarines(options: Mapping[str, object]) -> Submarines:
    """Factory for the registry: reads the ``start_submarines`` game setting."""
    return Submarines(options.get(START_SUBMARINES))
