"""The Suez Canal: permissions, moves through the canal, and how they are adjudicated.

A fleet may move directly between the canal's two seas (Mediterranean and Red
Sea, which are not adjacent on the map) only with the permission of the power
whose unit is in Egypt; with nobody in Egypt the canal is closed.  Permission
orders: ``SC F MED - RED`` or ``SUEZ F MED``.  Nothing may support, convoy or
fight a head-to-head battle across the canal: supports and convoys follow the
map's borders, and a move through the canal is, for the resolver, a move
through a *passage* (like a convoyed move: no head-to-head battle, no effect
while the passage is closed).

Who may give permission, whether the Egypt holder's own fleets pass without
one, and the paradox rule depend on the rule set
(:class:`~arbitre.variants.colonial.rulesets.ColonialRules`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.adjudicator.extension import CustomResult, Decision, MovementExtension, PerResolution, ResolverView
from arbitre.adjudicator.results import FAILS, ILLEGAL, SUCCEEDS, OrderResult
from arbitre.maps import GameMap
from arbitre.orders import Hold, IllegalOrder, Move, Order, Support, UnitRef
from arbitre.rules.legality import illegal, own_unit
from arbitre.state import MOVEMENT, Position
from arbitre.variants.colonial.board import ColonialBoard
from arbitre.variants.colonial.orders import SuezPermission
from arbitre.variants.colonial.rulesets import WHOLE_TURN, ColonialRules

RULE = "Suez Canal (rule 9.3)"
"""How error messages name the rule."""


# ---------------------------------------------------------------------- legality
def may_pass(game_map: GameMap, board: ColonialBoard, kind: str) -> bool:
    """May a unit of this kind on a canal sea pass the canal?

    Fleets, and every kind a rule module makes a fleet at the surface (a surfaced submarine
    is a fleet for every rule: the map's convoying kinds).  A submerged unit is never on a
    canal sea (it is under it), so it never passes.
    """
    return kind == board.canal_kind or kind in game_map.convoy_kinds


def check_permission(
    game_map: GameMap, board: ColonialBoard, position: Position, power: str, order: SuezPermission
) -> SuezPermission:
    """Validate a permission; return it in normal form or raise :class:`IllegalOrder` naming the rule."""
    if position.phase.kind != MOVEMENT:
        raise illegal(order, f"{RULE}: permissions are given in movement phases", "wrong_phase")
    holder = position.units.get(board.egypt)
    if holder is None or holder.power != power:
        who = "nobody holds it" if holder is None else f"{holder.power} holds it"
        raise illegal(
            order,
            f"{RULE}: only the power with a unit in {board.egypt} may let a fleet through the canal, and {who}",
            "suez_not_egypt",
        )
    if order.withdraws:
        return order  # SC NONE: no permission this turn (Espionnite: the change that withdraws one)
    sea = order.fleet.province
    if sea not in board.canal_seas:
        raise illegal(order, f"{RULE}: a permission names a fleet in {' or '.join(board.canal_seas)}", "suez_not_canal")
    fleet = position.units.get(sea)
    if fleet is None or not may_pass(game_map, board, fleet.kind):
        raise illegal(order, f"{RULE}: there is no fleet in {sea} to let through the canal", "suez_no_fleet")
    target = game_map.province_of.get(order.target, order.target)
    if target != board.other_sea(sea):
        raise illegal(order, f"{RULE}: the canal leads from {sea} to {board.other_sea(sea)}", "suez_direction")
    return SuezPermission(None, UnitRef(fleet.kind, fleet.place), target)


def _is_crossing(game_map: GameMap, board: ColonialBoard, place: str, target: str) -> bool:
    a, b = game_map.province_of.get(place, place), game_map.province_of.get(target, target)
    return a != b and a in board.canal_seas and b in board.canal_seas


def check_canal_move(
    game_map: GameMap, board: ColonialBoard, position: Position, power: str, order: Move
) -> Move | None:
    """Accept ``F MED - RED`` (a move through the canal), or return ``None`` for any other move."""
    if position.phase.kind != MOVEMENT or order.unit is None or order.via_convoy:
        return None
    if not _is_crossing(game_map, board, order.unit.place, order.target):
        return None
    unit = own_unit(position, power, order.unit, order)
    if not may_pass(game_map, board, unit.kind):
        return None
    return Move(UnitRef(unit.kind, unit.place), game_map.province_of[order.target], False)


def check_canal_support(
    game_map: GameMap, board: ColonialBoard, position: Position, power: str, order: Support
) -> Support | None:
    """Accept a support of a move through the canal (``F ERI S F MED - RED``), or return ``None``.

    The supporter must reach the destination by the map's borders: no support
    *across* the canal (``F MED S F X - RED`` stays illegal).
    """
    if position.phase.kind != MOVEMENT or order.unit is None or order.target is None:
        return None
    supported = position.units.get(order.supported.province)
    if (
        supported is None
        or not may_pass(game_map, board, supported.kind)
        or not _is_crossing(game_map, board, supported.place, order.target)
    ):
        return None
    unit = own_unit(position, power, order.unit, order)
    target = game_map.province_of[order.target]
    if not game_map.can_reach_province(unit.kind, unit.place, target):
        raise illegal(
            order,
            f"{unit} cannot reach {target}, so cannot support a move there ({RULE}: no support across the canal)",
            "cannot_reach",
        )
    return Support(UnitRef(unit.kind, unit.place), UnitRef(supported.kind, supported.place), target)


def one_permission_per_turn(orders: Sequence[Order]) -> list[tuple[Order, IllegalOrder]]:
    """Refuse every permission when a power gives more than one different permission in a turn."""
    permissions = list(dict.fromkeys(o for o in orders if isinstance(o, SuezPermission)))
    if len(permissions) < 2:
        return []
    return [(o, _second_permission_error(o, permissions)) for o in permissions]


def _second_permission_error(order: Order, permissions: Sequence[Order]) -> IllegalOrder:
    listed = ", ".join(p.format() for p in permissions[:-1]) + f" and {permissions[-1].format()}"
    return illegal(order, f"{RULE}: one permission per turn; {listed} are all refused", "suez_one_per_turn")


def canal_legal_orders(game_map: GameMap, board: ColonialBoard, position: Position, power: str) -> dict[str, list[str]]:
    """Canal moves of ``power``'s fleets, supports of canal moves, and permissions (under the key ``SUEZ``)."""
    if position.phase.kind != MOVEMENT:
        return {}
    fleets = [
        (sea, position.units[sea])
        for sea in board.canal_seas
        if sea in position.units and may_pass(game_map, board, position.units[sea].kind)
    ]
    out: dict[str, list[str]] = {}
    for sea, fleet in fleets:
        other = board.other_sea(sea)
        if fleet.power == power:
            out.setdefault(fleet.place, []).append(f"{fleet} - {other}")
        for prov, unit in sorted(position.units.items()):
            if (
                unit.power == power
                and prov not in (sea, other)
                and game_map.can_reach_province(unit.kind, unit.place, other)
            ):
                out.setdefault(unit.place, []).append(f"{unit} S {fleet} - {other}")
    holder = position.units.get(board.egypt)
    if holder is not None and holder.power == power:
        permissions = [f"SC {fleet} - {board.other_sea(sea)}" for sea, fleet in fleets]
        if permissions:
            out["SUEZ"] = permissions
    return out


# ---------------------------------------------------------------------- adjudication
class CanalExtension(MovementExtension):
    """Who passes the canal this turn, and the results of the permissions."""

    def __init__(
        self,
        game_map: GameMap,
        board: ColonialBoard,
        rules: ColonialRules,
        position: Position,
        orders: Mapping[str, Order],
        whole_orders: Sequence[tuple[str, str, Order]],
    ) -> None:
        self.board = board
        self.rules = rules
        self.key = f"{board.egypt}~canal"
        self._forced_closed: PerResolution[bool] = PerResolution()  # resolutions where a paradox closed it
        holder_unit = position.units.get(board.egypt)
        self.holder = holder_unit.power if holder_unit is not None else None
        crossings = {
            p: o
            for p, o in orders.items()
            if isinstance(o, Move) and o.unit is not None and _is_crossing(game_map, board, o.unit.place, o.target)
        }
        # Permissions: at most one, from the power in Egypt.
        given = [(power, text, o) for power, text, o in whole_orders if isinstance(o, SuezPermission)]
        distinct = list(dict.fromkeys(o for _, _, o in given))
        self.permission_results: list[tuple[str, str, Order, str | None, str | None]] = []
        permission: SuezPermission | None = None
        for power, text, o in given:
            if len(distinct) > 1:
                err = _second_permission_error(o, distinct)
                self.permission_results.append((power, text, o, err.reason, err.message))
            elif power != self.holder:
                self.permission_results.append(
                    (
                        power,
                        text,
                        o,
                        "suez_not_egypt",
                        f"{RULE}: only the power with a unit in {board.egypt} may let a fleet through the canal",
                    )
                )
            else:
                assert isinstance(o, SuezPermission)
                permission = None if o.withdraws else o
                self.permission_results.append((power, text, o, None, None))
        if permission is not None:
            permitted = {
                p for p, o in crossings.items() if o.unit is not None and o.unit.province == permission.fleet.province
            }
            self.why_closed = f"{RULE}: the permission this turn is for {permission.fleet}"
        elif rules.suez_implicit and self.holder is not None:
            claimants = {p for p in crossings if position.units[p].power == self.holder}
            permitted = claimants if len(claimants) == 1 else set()
            self.why_closed = (
                f"{RULE}: two fleets of {self.holder} claimed the canal; only one may pass"
                if len(claimants) > 1
                else f"{RULE}: no permission from {self.holder}, who holds {board.egypt}"
            )
        else:
            permitted = set()
            self.why_closed = (
                f"{RULE}: nobody holds {board.egypt}: the canal is closed"
                if self.holder is None
                else f"{RULE}: no permission from {self.holder}, who holds {board.egypt}"
            )
        self.permitted = permitted
        self.closed = {p: o for p, o in crossings.items() if p not in permitted}

    # ------------------------------------------------------------------ extension points
    def resolver_orders(self) -> Mapping[str, Order]:
        """A fleet that may not pass holds, as far as the resolver knows (its supports then match nothing)."""
        return {p: Hold(o.unit) for p, o in self.closed.items()}

    def decisions(self) -> Mapping[str, Decision]:
        """Is the canal open this turn?"""
        return {self.key: self._open}

    def passages(self) -> Mapping[str, str]:
        """Permitted moves through the canal need it open."""
        return dict.fromkeys(self.permitted, self.key)

    def settle_paradox(self, resolver: ResolverView, cycle: Sequence[str], paradox: bool) -> Mapping[str, bool]:
        """Avalon Hill: in a paradox involving the canal, the canal move fails and has no effect."""
        if not self.rules.suez_paradox_rule or self.key not in cycle:
            return {}
        self._forced_closed[resolver] = True
        return {self.key: False}

    def result(self, resolver: ResolverView, province: str, order: Order) -> CustomResult | None:
        """A fleet that could not pass fails, saying why."""
        if province in self.closed:
            return (FAILS, "suez_closed", self.why_closed)
        if province in self.permitted and not resolver.resolve(self.key):
            return (
                FAILS,
                "suez_closed",
                f"{RULE}: {self.board.egypt} was not held for the whole turn"
                if resolver not in self._forced_closed
                else f"{RULE}: a paradox through the canal closes it",
            )
        return None

    def extra_results(self, resolver: ResolverView) -> Sequence[OrderResult]:
        """The permissions: given (succeeds), lost with Egypt (fails), or refused (illegal)."""
        out = []
        for power, text, order, reason, message in self.permission_results:
            if reason is not None:
                out.append(OrderResult(power, text, order, ILLEGAL, reason, message))
            elif resolver.resolve(self.key):
                out.append(OrderResult(power, text, order, SUCCEEDS, None, None))
            else:
                out.append(
                    OrderResult(
                        power,
                        text,
                        order,
                        FAILS,
                        "suez_egypt_lost",
                        f"{RULE}: {self.board.egypt} was not held for the whole turn",
                    )
                )
        return out

    # ------------------------------------------------------------------ the decision
    def _open(self, resolver: ResolverView) -> bool:
        if resolver in self._forced_closed:
            return False
        if self.rules.suez_permission != WHOLE_TURN:
            return True
        egypt = self.board.egypt
        if egypt not in resolver.units or resolver.vacated(egypt):
            return False
        return not any(resolver.resolve(a) for a in resolver.attackers.get(egypt, ()))


def canal_extensions(
    game_map: GameMap,
    board: ColonialBoard,
    rules: ColonialRules,
    position: Position,
    orders: Mapping[str, Order],
    whole_orders: Sequence[tuple[str, str, Order]],
) -> list[MovementExtension]:
    """The canal's extension for this turn, when some order concerns it."""
    concerned = any(isinstance(o, SuezPermission) for _, _, o in whole_orders) or any(
        isinstance(o, Move) and o.unit is not None and _is_crossing(game_map, board, o.unit.place, o.target)
        for o in orders.values()
    )
    return [CanalExtension(game_map, board, rules, position, orders, whole_orders)] if concerned else []
