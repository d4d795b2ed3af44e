"""Positions to and from plain data (the JSON interface's shape), with precise errors.

``units`` are lists of ``"A PAR"`` / ``"F STP/SC"`` per power; ``dislodged``
entries are ``{"unit": "A MUN", "attacker_from": "BOH", "retreats": [...]}`` (with ``"by_convoy": true``
when the attack came by convoy);
``supply_centers`` lists each power's centres.  Every error names where it is
(``units.ENGLAND[2]``) and what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbitre.adjudicator.retreats import retreat_places
from arbitre.maps import ARMY, GameMap
from arbitre.orders import OrderError, normalize
from arbitre.rules import RuleSet
from arbitre.state import Dislodged, Phase, PhaseError, Position, Unit, make_unit


class PositionError(ValueError):
    """A position that cannot be read; ``where`` is a path such as ``units.ENGLAND[2]``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _power(rules: RuleSet, name: str, where: str) -> str:
    key = name.strip().upper()
    if key in rules.game_map.powers:
        return key
    for power, info in rules.game_map.powers.items():
        if normalize(name) in (normalize(info.display), normalize(info.display_fr), normalize(info.adjective)):
            return power
    raise PositionError(
        where, f"{name!r} is not a power of the {rules.game_map.name} map ({', '.join(rules.game_map.powers)})"
    )


class _Tables:
    """The usual spellings of one rule set's units and places, read once (through the full readers)."""

    def __init__(self, rules: RuleSet) -> None:
        gmap = rules.game_map
        self.units: dict[str, tuple[str, str]] = {}
        self.places: dict[str, str] = {}
        self.placed: dict[str, dict[str, tuple[str, Unit]]] = {}
        """power -> usual spelling -> (province, unit): the units already read, made once (a table's size)."""
        for kind, adjacency in gmap.adjacency.items():
            for place in adjacency:
                text = f"{kind} {place}"
                try:
                    self.units[text] = _read_unit(rules, text, "")
                except PositionError:
                    continue
        for place in gmap.province_of:
            try:
                self.places[place] = _read_place(rules, place, "")
            except PositionError:
                continue
        self.centres: dict[str, str] = {
            text: gmap.province_of[place]
            for text, place in self.places.items()
            if gmap.province_of[place] in gmap.supply_centers
        }
        """Usual spelling -> province, for the places of a supply centre only."""


_TABLES: dict[int, tuple[RuleSet, _Tables]] = {}


def _tables(rules: RuleSet) -> _Tables:
    """The tables of ``rules``, built the first time it reads a position."""
    hit = _TABLES.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        hit = _TABLES[id(rules)] = (rules, _Tables(rules))
    return hit[1]


def parse_unit(rules: RuleSet, text: object, where: str) -> tuple[str, str]:
    """Read ``"A PAR"`` / ``"F STP/SC"`` into (kind, place)."""
    if type(text) is str:
        known = _tables(rules).units.get(text)
        if known is not None:
            return known
    return _read_unit(rules, text, where)


def _read_unit(rules: RuleSet, text: object, where: str) -> tuple[str, str]:
    """:func:`parse_unit` through the order reader, with the error saying what is wrong."""
    if not isinstance(text, str):
        raise PositionError(where, f"a unit is written as a string like 'A PAR', not {type(text).__name__}")
    try:
        order = rules.parse(text)
    except OrderError as err:
        raise PositionError(where, f"{text!r} is not a unit: {err.message}") from err
    if order.unit is None or order.unit.kind is None or order.format() != f"{order.unit} H":
        raise PositionError(where, f"{text!r} is not a unit; write it like 'A PAR' or 'F STP/SC'")
    kind, place = order.unit.kind, order.unit.place
    gmap = rules.game_map
    prov = gmap.province_of[place]
    if kind == ARMY:
        place = prov
    if place not in gmap.adjacency.get(kind, {}):
        if gmap.provinces[prov].coasts and place == prov:
            raise PositionError(where, f"{text!r}: a fleet in {prov} must name its coast")
        raise PositionError(where, f"{text!r}: a unit of kind {kind} cannot stand in {place}")
    return kind, place


def position_from_data(
    rules: RuleSet,
    phase: str,
    units: Mapping[str, Any],
    supply_centers: Mapping[str, Any] | None,
    dislodged: Mapping[str, Any] | None = None,
    extras: Mapping[str, object] | None = None,
) -> Position:
    """Build a :class:`Position` from the interface's plain data, checking everything."""
    gmap = rules.game_map
    try:
        ph = Phase.parse(phase)
    except PhaseError as err:
        raise PositionError("phase", str(err)) from err
    tables = _tables(rules)
    unit_table, place_table, centre_table = tables.units, tables.places, tables.centres
    province_of, centres = gmap.province_of, gmap.supply_centers
    placed: dict[str, Unit] = {}
    powers = gmap.powers
    for pname, ulist in units.items():
        # A power's id as written (the usual case) is itself; any other spelling is read by _power.
        power = pname if pname in powers else _power(rules, pname, f"units.{pname}")
        if not isinstance(ulist, list):
            raise PositionError(f"units.{pname}", "expected a list of units like ['A PAR', 'F BRE']")
        read = tables.placed.get(power)
        if read is None:
            read = tables.placed[power] = {}
        for i, text in enumerate(ulist):
            hit = read.get(text) if type(text) is str else None
            if hit is None:
                # The usual spelling is looked up; the error's words are made only when one is needed.
                known = unit_table.get(text) if type(text) is str else None
                kind, place = known if known is not None else parse_unit(rules, text, f"units.{pname}[{i}]")
                hit = (province_of[place], make_unit(power, kind, place))
                if known is not None:
                    read[text] = hit
            prov, unit = hit
            if prov in placed:
                where = f"units.{pname}[{i}]"
                raise PositionError(where, f"{prov} already holds {placed[prov]} of {placed[prov].power}")
            placed[prov] = unit
    owners: dict[str, str] = {}
    if supply_centers is None:
        owners = rules.initial_owners()
    else:
        for pname, clist in supply_centers.items():
            power = pname if pname in powers else _power(rules, pname, f"supply_centers.{pname}")
            if not isinstance(clist, list):
                raise PositionError(f"supply_centers.{pname}", "expected a list of centres like ['PAR', 'BRE']")
            for i, text in enumerate(clist):
                listed = centre_table.get(text) if type(text) is str else None
                if listed is not None:
                    # A centre written as usual: the table says it is one; refused only when another power has it.
                    held = owners.get(listed)
                    if held is None or held == power:
                        owners[listed] = power
                        continue
                centre = place_table.get(text) if type(text) is str else None
                prov = (
                    province_of[centre]
                    if centre is not None
                    else _province(rules, text, f"supply_centers.{pname}[{i}]")
                )
                if prov not in centres or owners.get(prov, power) != power:
                    where = f"supply_centers.{pname}[{i}]"
                    if prov not in centres:
                        raise PositionError(where, f"{prov} is not a supply centre")
                    raise PositionError(where, f"{prov} is already listed for {owners[prov]}")
                owners[prov] = power
    out_dislodged: dict[str, Dislodged] = {}
    where_of: dict[str, str] = {}
    for pname, dlist in (dislodged or {}).items():
        power = _power(rules, pname, f"dislodged.{pname}")
        if not isinstance(dlist, list):
            raise PositionError(f"dislodged.{pname}", "expected a list of {'unit': 'A MUN', 'attacker_from': 'BOH'}")
        for i, entry in enumerate(dlist):
            where = f"dislodged.{pname}[{i}]"
            if not isinstance(entry, dict) or "unit" not in entry:
                raise PositionError(where, "expected an object with 'unit' (and 'attacker_from', 'retreats')")
            kind, place = parse_unit(rules, entry["unit"], where + ".unit")
            prov = gmap.province_of[place]
            if prov in out_dislodged:
                raise PositionError(where, f"two dislodged units in {prov}")
            attacker = entry.get("attacker_from")
            attacker_prov = _province(rules, attacker, where + ".attacker_from") if attacker else None
            retreats = entry.get("retreats")
            if retreats is not None:
                if not isinstance(retreats, list):
                    raise PositionError(where + ".retreats", "expected a list of places")
                retreats = tuple(_place(rules, r, f"{where}.retreats[{j}]") for j, r in enumerate(retreats))
            by_convoy = entry.get("by_convoy", False)
            if type(by_convoy) is not bool:
                raise PositionError(where + ".by_convoy", "expected true or false")
            if by_convoy and attacker_prov is None:
                raise PositionError(
                    where + ".by_convoy", "an attack by convoy names where it came from (attacker_from)"
                )
            out_dislodged[prov] = Dislodged(make_unit(power, kind, place), attacker_prov, retreats, by_convoy)
            where_of[prov] = where
    if out_dislodged and ph.kind != "R":
        raise PositionError("dislodged", f"dislodged units only exist in a retreat phase, not {ph}")
    _check_dislodged(rules, placed, out_dislodged, where_of)
    return Position(gmap.name, ph, placed, owners, out_dislodged, dict(extras or {}))


def _check_dislodged(
    rules: RuleSet, placed: Mapping[str, Unit], dislodged: Mapping[str, Dislodged], wheres: Mapping[str, str]
) -> None:
    """A dislodged unit is consistent with the board: its own power does not stand in its province, its
    attacker came from elsewhere, and a given retreat list names only places the rules allow."""
    if not dislodged:
        return
    gmap = rules.game_map
    occupied = set(placed)
    for prov, d in dislodged.items():
        where = wheres[prov]
        standing = placed.get(prov)
        if standing is not None and standing.power == d.unit.power:
            raise PositionError(
                where, f"{standing} of {standing.power} stands in {prov}: a unit is not dislodged by its own power"
            )
        if d.attacker_from == prov:
            raise PositionError(where + ".attacker_from", "the attack came from another province")
        if d.retreats is None:
            continue
        # The attacker's origin is open only when the resolution carried the attack by convoy (DATC 4.A.5,
        # 6.H.11): the position says so with ``by_convoy``, as the ``next`` of that phase printed it.
        convoyed = d.by_convoy and rules.options.retreat_to_convoy_origin == "allowed"
        allowed = set(retreat_places(gmap, d.unit, d.attacker_from, occupied, frozenset(), convoyed))
        seen: set[str] = set()
        for j, place in enumerate(d.retreats):
            if place not in allowed:
                if d.attacker_from is not None and gmap.province_of.get(place) == d.attacker_from:
                    raise PositionError(
                        f"{where}.retreats[{j}]",
                        f"{d.unit} cannot retreat to {place}: the attack came from there, and not by convoy "
                        '(an attack by convoy is marked "by_convoy": true)',
                    )
                raise PositionError(
                    f"{where}.retreats[{j}]",
                    f"{d.unit} cannot retreat to {place}: it is occupied, not adjacent, or where the attack came from",
                )
            if place in seen:
                raise PositionError(f"{where}.retreats[{j}]", f"{place} is listed twice")
            seen.add(place)


def _place(rules: RuleSet, text: object, where: str) -> str:
    if type(text) is str:
        known = _tables(rules).places.get(text)
        if known is not None:
            return known
    return _read_place(rules, text, where)


def _read_place(rules: RuleSet, text: object, where: str) -> str:
    """A place read through the order reader (``"<text> H"``), with the error saying what is wrong."""
    if not isinstance(text, str):
        raise PositionError(where, "expected a place name")
    try:
        order = rules.parse(f"{text} H")
    except OrderError as err:
        raise PositionError(where, f"{text!r} is not a place: {err.message}") from err
    assert order.unit is not None
    return order.unit.place


def _province(rules: RuleSet, text: object, where: str) -> str:
    return rules.game_map.province_of[_place(rules, text, where)]


def position_to_data(position: Position, game_map: GameMap) -> dict[str, Any]:
    """The plain-data form of a position (phase, units, dislodged, supply_centers)."""
    units: dict[str, list[str]] = {}
    for unit in sorted(position.units.values(), key=lambda u: (u.power, u.place)):
        units.setdefault(unit.power, []).append(str(unit))
    centers: dict[str, list[str]] = {}
    for center, power in sorted(position.owners.items()):
        centers.setdefault(power, []).append(center)
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(position.dislodged.values(), key=lambda d: d.unit.place):
        dislodged.setdefault(d.unit.power, []).append(
            {
                "unit": str(d.unit),
                "attacker_from": d.attacker_from,
                "retreats": list(d.retreats) if d.retreats is not None else None,
                **({"by_convoy": True} if d.by_convoy else {}),
            }
        )
    out: dict[str, Any] = {"phase": str(position.phase), "units": units, "supply_centers": centers}
    if dislodged:
        out["dislodged"] = dislodged
    return out
