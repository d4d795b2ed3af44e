"""Extension points of one movement adjudication, for variant rules that need more than order types.

The resolver (:mod:`arbitre.adjudicator.movement`) knows only the standard
order kinds.  A variant whose rules go further — a passage that opens only
with somebody's permission, a unit that travels several provinces and competes
for each, a paradox rule of its own — gives each movement phase one or more
:class:`MovementExtension` objects (``Variant.movement_extensions``).  Every
method's default is the standard game, so an extension overrides only what it
changes; the resolver and :func:`~arbitre.adjudicator.adjudicate_movement` ask
each extension in turn.  The extension points are generic: none names a
variant, a province or a power.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from arbitre.adjudicator.results import OrderResult
from arbitre.orders import Order
from arbitre.state import Unit


class ResolverView(Protocol):
    """What a rule module may read of the movement resolver: never its mutable state.

    The resolver (:class:`~arbitre.adjudicator.movement.MovementResolver`)
    satisfies this protocol; extensions and order-kind adjudicators are given
    it typed as this read-only view.  ``resolve`` decides a decision (a unit's
    province or a virtual key) and may guess through cycles; the strengths are
    the DATC's.
    """

    @property
    def units(self) -> Mapping[str, Unit]:
        """The units on the board before the phase, by province."""
        ...

    @property
    def orders(self) -> Mapping[str, Order]:
        """The orders the resolver adjudicates, by unit province."""
        ...

    @property
    def result(self) -> Mapping[str, bool]:
        """Each decision's current value (final once :meth:`resolve` returned it)."""
        ...

    @property
    def dest(self) -> Mapping[str, str]:
        """Mover's province → the province it moves to."""
        ...

    @property
    def attackers(self) -> Mapping[str, Sequence[str]]:
        """Province → the provinces of the units moving into it."""
        ...

    def resolve(self, p: str) -> bool:
        """Decide the decision ``p`` (a unit's province or an extension's virtual key)."""
        ...

    def supports(self, p: str) -> int:
        """How many supports the move (or extension order) of ``p`` gets, not cut."""
        ...

    def vacated(self, p: str) -> bool:
        """Did the unit of ``p`` leave its province?"""
        ...

    def attack_strength(self, p: str) -> int:
        """The attack strength of the move of ``p``."""
        ...

    def hold_strength(self, d: str) -> int:
        """The hold strength of province ``d``."""
        ...

    def defend_strength(self, p: str) -> int:
        """The defend strength of the move of ``p`` (in a head-to-head battle)."""
        ...

    def prevent_strength(self, p: str) -> int:
        """The prevent strength of the move of ``p``."""
        ...

    def move_succeeds(self, p: str, *, contenders: bool = True) -> bool:
        """Does the move of ``p`` succeed (``contenders=False``: as if no extension contender were there)?"""
        ...


Decision = Callable[[ResolverView], bool]
"""A yes/no decision computed from the resolver (it may call ``resolver.resolve``)."""

Strength = Callable[[ResolverView], int]
"""A strength computed from the resolver."""

OrderAdjudicator = Callable[[ResolverView, str], bool]
"""Adjudicates the order of the unit in a province (an order kind's adjudication role in the resolver)."""

CustomResult = tuple[str, str | None, str | None]
"""(outcome, reason code, message) of an order, as in :class:`~arbitre.adjudicator.results.OrderResult`."""


@mypyc_attr(allow_interpreted_subclasses=True)  # rule modules subclass it (compiled build)
class MovementExtension:
    """A variant's hooks into one movement phase.  Every default keeps the standard rules."""

    # ------------------------------------------------------------------ before the resolution
    def resolver_orders(self) -> Mapping[str, Order]:
        """Orders the resolver sees instead of the given ones, by unit province.  Default: none.

        The phase's results still show the orders as given; :meth:`result` says
        how they went (an impossible move can be shown to the resolver as a hold).
        """
        return {}

    def decisions(self) -> Mapping[str, Decision]:
        """Decisions this extension computes itself.  Default: none.

        A key that is a unit's province replaces the adjudicator of that unit's
        order; any other key is a decision of its own (a *virtual* decision),
        guessed and checked like the others, so that cycles through it are found.
        """
        return {}

    def leavers(self) -> Iterable[str]:
        """Provinces whose unit leaves when its decision succeeds, although its order is no Move.

        Such a unit has hold strength 0 once it left, 1 otherwise, and is never
        dislodged after leaving.  Default: none (every Move is a leaver anyway).
        """
        return ()

    def support_targets(self) -> Mapping[str, str]:
        """Province of a unit whose order is no Move → the province a support must name to support it.

        Matching supports are counted by :meth:`ResolverView.supports`.  Default: none.
        """
        return {}

    def passages(self) -> Mapping[str, str]:
        """Moves that need an open passage besides a border: mover's province → decision key.

        Such a move is treated like a convoyed one: no head-to-head battle, and
        while the passage (a decision of :meth:`decisions`) is closed it has no
        strength, does not cut supports and fails.  Default: none.
        """
        return {}

    def contenders(self) -> Mapping[str, Sequence[Strength]]:
        """Competitors for a province that are not attacks: province → their prevent strengths.

        Every move into the province must beat each of them, as it must beat
        the prevent strength of the other moves there; they never cut a support
        and never dislodge.  Default: none.
        """
        return {}

    def head_to_heads(self) -> Mapping[str, str]:
        """Extra head-to-head battles: mover's province → province of the unit it faces (no Move).

        The mover must then beat that unit's defend strength, cannot swap with
        it and cannot dislodge a unit of its own power.  Default: none.
        """
        return {}

    def strength(self, resolver: ResolverView, kind: str, province: str) -> int | None:
        """A strength of ``province``'s order (``attack``, ``hold``, ``defend``, ``prevent``), or ``None``.

        ``None`` keeps the standard strength.  Default: always ``None``.
        """
        return None

    def settle_paradox(self, resolver: ResolverView, cycle: Sequence[str], paradox: bool) -> Mapping[str, bool]:
        """Settle a cycle of decisions that guessing could not decide; return the decisions settled.

        ``paradox`` is true when no resolution is consistent, false when two
        are.  When any extension settles a decision, the resolver settles those
        and decides the rest of the cycle again; when none does, the standard
        backup rule applies (Szykman for convoys, else circular movement).
        Default: settles nothing.
        """
        return {}

    # ------------------------------------------------------------------ after the resolution
    def result(self, resolver: ResolverView, province: str, order: Order) -> CustomResult | None:
        """The result of the order (as given) of the unit in ``province``, or ``None`` for the standard one."""
        return None

    def relocations(self, resolver: ResolverView) -> Mapping[str, str]:
        """Units moved by an order that is no Move: unit's province → place where the unit ends.

        Only leavers whose decision succeeded are asked about.  Default: none.
        """
        return {}

    def extra_results(self, resolver: ResolverView) -> Sequence[OrderResult]:
        """Results of the variant's orders that name no unit (whole-power orders).  Default: none."""
        return ()


V = TypeVar("V")


class PerResolution(Generic[V]):
    """What an extension learns in each resolution of its phase, found by the resolver's identity.

    A variant may resolve a phase again; what one resolution taught must not
    leak into another.  The resolvers are held, not weakly referenced (a
    compiled resolver takes no weak references), for as long as the extension,
    which lives for one phase's adjudication.
    """

    __slots__ = ("_by_id",)

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[ResolverView, V]] = {}

    def __contains__(self, resolver: ResolverView) -> bool:
        return id(resolver) in self._by_id

    def __getitem__(self, resolver: ResolverView) -> V:
        return self._by_id[id(resolver)][1]

    def __setitem__(self, resolver: ResolverView, value: V) -> None:
        self._by_id[id(resolver)] = (resolver, value)

    def setdefault(self, resolver: ResolverView, value: V) -> V:
        """The value kept for ``resolver``; ``value``, kept, when there is none yet."""
        entry = self._by_id.get(id(resolver))
        if entry is None:
            self._by_id[id(resolver)] = (resolver, value)
            return value
        return entry[1]
