"""Orders of a movement phase: each unit picks a destination by value, then supports and convoys.

The order of play follows DumbBot's outline: units are taken in a random
(seeded) order; each takes its most valuable destination that no unit of ours
has taken, sometimes the next best when it is close (so the bot is not
predictable); a unit that stays where it is then supports a move of ours into
a contested province, or a threatened unit of ours, when such a support is
legal; idle fleets convoy an army when the route is all ours and the convoy
is worth more than what the army would do otherwise.  Every order comes from
the legal-order list, so every order is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbitre.bots.board import BotBoard
from arbitre.bots.rng import Rng
from arbitre.bots.values import AUTUMN, SPRING, place_values
from arbitre.orders import Order

CLOSE = 0.85
"""A destination worth at least this share of the best one may be taken instead (with ALTERNATIVE odds)."""
ALTERNATIVE = 0.35
CAPTURE = 3.0
"""In autumn a unit on a centre it does not own values staying this many times more."""


@dataclass(slots=True)
class Choice:
    """One candidate order of one unit: ``kind`` its kind's name, ``moves``/``strikes``/``once`` its declared
    effect (:class:`~arbitre.rules.kinds.Effect`: it takes the unit to ``dest``, it strikes, once a phase)."""

    text: str
    order: Order
    kind: str
    dest: str
    value: float
    moves: bool = False
    strikes: bool = False
    once: bool = False


def unit_keys(parsed: Mapping[str, Sequence[tuple[str, Order]]]) -> list[str]:
    """The keys of the legal-order list that are units (not whole-power orders such as spies)."""
    return sorted(k for k, opts in parsed.items() if opts and all(o.unit is not None for _, o in opts))


def _choices(
    board: BotBoard, values: Mapping[str, Mapping[str, float]], options: Sequence[tuple[str, Order]], capture: bool
) -> list[Choice]:
    out: list[Choice] = []
    for text, order in options:
        declared = board.rules.kind_of(order)
        kind = declared.name
        assert order.unit is not None
        unit_kind = order.unit.kind or "A"
        table = values.get(unit_kind, {})
        here = order.unit.place
        if kind == "hold":
            value = table.get(here, 0.0)
            if (
                capture
                and board.province(here) in board.gmap.supply_centers
                and board.owner(board.province(here)) != board.me
            ):
                value = abs(value) * CAPTURE + 1.0  # standing on a centre we do not own in autumn: take it
            out.append(Choice(text, order, kind, board.province(here), value))
        elif declared.effect.moves:
            if getattr(order, "via_convoy", False):
                continue  # convoys are arranged afterwards, with our own fleets only
            target = str(getattr(order, "target", ""))
            effect = declared.effect
            out.append(
                Choice(
                    text, order, kind, board.province(target), table.get(target, 0.0), True, once=effect.once_per_phase
                )
            )
        elif declared.effect.strikes:
            target = board.province(str(getattr(order, "target", "")))
            seen = board.units.get(target)
            if seen is not None and seen[0] != board.me:
                hold = table.get(here, 0.0)
                out.append(Choice(text, order, kind, board.province(here), abs(hold) * 1.25 + 1.0, strikes=True))
    out.sort(key=lambda c: (-c.value, c.text))
    return out


def _pick_order(cands: list[Choice], rng: Rng) -> list[Choice]:
    """The candidates in the order the unit will try them: best first, sometimes a close second."""
    i = 0
    while (
        i + 1 < len(cands)
        and cands[i + 1].value > 0
        and cands[i + 1].value >= CLOSE * cands[i].value
        and rng.random() < ALTERNATIVE
    ):
        i += 1
    return [cands[i], *cands[:i], *cands[i + 1 :]]


def movement_orders(board: BotBoard, parsed: Mapping[str, Sequence[tuple[str, Order]]], rng: Rng) -> dict[str, Choice]:
    """Unit key → the order chosen for it."""
    autumn = not board.view.phase.startswith("S")
    weights = AUTUMN if autumn else SPRING
    values = place_values(board, weights)
    keys = unit_keys(parsed)
    home = {k: board.province(k) for k in keys}
    chosen: dict[str, Choice] = {}
    claimed: dict[str, str] = {}
    for key in rng.shuffled(keys):
        cands = _choices(board, values, parsed[key], autumn)
        if not cands:
            continue
        for cand in _pick_order(cands, rng):
            if cand.dest in claimed:
                continue
            if cand.moves and _swaps(cand, key, home, chosen):
                continue
            if cand.once and any(c.kind == cand.kind for c in chosen.values()):
                continue
            chosen[key] = cand
            claimed[cand.dest] = key
            break
        else:
            holds = [c for c in cands if c.kind == "hold"]
            if holds:
                chosen[key] = holds[0]
    _arrange_convoys(board, values, parsed, chosen, claimed, home)
    _arrange_supports(board, parsed, chosen, home)
    return dict(sorted(chosen.items()))


def _swaps(cand: Choice, key: str, home: Mapping[str, str], chosen: Mapping[str, Choice]) -> bool:
    """Would this move swap places with a unit of ours (two moves that only bounce)?"""
    return any(home[other] == cand.dest and c.moves and c.dest == home[key] for other, c in chosen.items())


def _arrange_convoys(
    board: BotBoard,
    values: Mapping[str, Mapping[str, float]],
    parsed: Mapping[str, Sequence[tuple[str, Order]]],
    chosen: dict[str, Choice],
    claimed: dict[str, str],
    home: Mapping[str, str],
) -> None:
    """Let idle fleets of ours convoy an army along a route made only of them, when it is worth it."""
    idle_fleets = {k for k, c in chosen.items() if c.kind == "hold" and home[k] in board.gmap.seas}
    if not idle_fleets:
        return
    for key in sorted(chosen):
        current = chosen[key]
        for text, order in parsed[key]:
            if board.kind(order) != "move" or not getattr(order, "via_convoy", False):
                continue
            target = board.province(str(getattr(order, "target", "")))
            if target in claimed and claimed[target] != key:
                continue
            value = values.get("A", {}).get(target, 0.0)
            if value <= current.value:
                continue
            route = _own_route(board, parsed, idle_fleets, key, order, target)
            if route is None:
                continue
            if claimed.get(current.dest) == key:
                del claimed[current.dest]
            chosen[key] = Choice(text, order, "move", target, value, moves=True)
            claimed[target] = key
            for fleet_key, convoy_text, convoy in route:
                chosen[fleet_key] = Choice(convoy_text, convoy, "convoy", home[fleet_key], 0.0)
                idle_fleets.discard(fleet_key)
            break


def _own_route(
    board: BotBoard,
    parsed: Mapping[str, Sequence[tuple[str, Order]]],
    fleets: set[str],
    army_key: str,
    move: Order,
    target: str,
) -> list[tuple[str, str, Order]] | None:
    """Our idle fleets that can carry the army to ``target`` by themselves, or ``None``."""
    assert move.unit is not None
    wanted = f" C {move.unit} - "
    usable: dict[str, tuple[str, str, Order]] = {}
    for fk in sorted(fleets):
        for text, order in parsed[fk]:
            if (
                board.kind(order) == "convoy"
                and wanted in text
                and board.province(str(getattr(order, "target", ""))) == target
            ):
                usable[board.province(fk)] = (fk, text, order)
                break
    if not usable:
        return None
    nb = board.gmap.province_neighbours.get("F", {})
    start = board.province(army_key)
    frontier = sorted(s for s in usable if start in nb.get(s, ()))
    parent: dict[str, str | None] = dict.fromkeys(frontier)
    while frontier:
        sea = frontier.pop(0)
        if target in nb.get(sea, ()):
            path: list[str] = []
            node: str | None = sea
            while node is not None:
                path.append(node)
                node = parent[node]
            return [usable[s] for s in path]
        for nxt in sorted(nb.get(sea, ())):
            if nxt in usable and nxt not in parent:
                parent[nxt] = sea
                frontier.append(nxt)
    return None


def _arrange_supports(
    board: BotBoard,
    parsed: Mapping[str, Sequence[tuple[str, Order]]],
    chosen: dict[str, Choice],
    home: Mapping[str, str],
) -> None:
    """Turn holds into supports of our contested moves or of our threatened units."""
    threatened = _threatened(board)
    wanted: list[tuple[float, str, tuple[str, str | None]]] = []  # (value, supported key, (from, to))
    for key, c in chosen.items():
        if c.kind == "move" and (c.dest in threatened or _foreign(board, c.dest)):
            wanted.append((c.value, key, (home[key], c.dest)))
        elif (c.kind in ("hold", "convoy") or c.strikes) and home[key] in threatened:
            wanted.append((abs(c.value), key, (home[key], None)))
    if not wanted:
        return
    wanted.sort(key=lambda w: (-w[0], w[1]))
    for key in sorted(chosen):
        c = chosen[key]
        if c.kind != "hold":
            continue
        supports: dict[tuple[str, str | None], tuple[str, Order]] = {}
        for text, order in parsed[key]:
            if board.kind(order) == "support":
                ref = getattr(order, "supported", None)
                target = getattr(order, "target", None)
                if ref is not None:
                    supports[(board.province(ref.place), board.province(target) if target else None)] = (text, order)
        for _, target_key, what in wanted:
            if target_key != key and what in supports:
                text, order = supports[what]
                chosen[key] = Choice(text, order, "support", c.dest, c.value)
                break


def _threatened(board: BotBoard) -> set[str]:
    """Provinces a foreign unit we see could move into next."""
    out: set[str] = set()
    nb = board.gmap.province_neighbours
    for _prov, (power, kind, place) in board.units.items():
        if power != board.me:
            out.update(nb.get(kind, {}).get(place, ()))
    return out


def _foreign(board: BotBoard, province: str) -> bool:
    seen = board.units.get(province)
    return seen is not None and seen[0] != board.me
