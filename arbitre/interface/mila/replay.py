"""MILA saved games into arbitre: replay every phase with arbitre's engine and check it against the record.

:func:`import_game` reads a saved game (``diplomacy.utils.export``'s JSON),
sets arbitre's board from the first phase's state, and for each phase gives
the recorded orders to arbitre's engine (the ``mila`` preset by default, which
rules as MILA's engine does where the DATC differs), then compares what
arbitre made of them with the next phase of the record: the phase reached, the
units, the supply centres, the units waiting to retreat, and the results (did
each move, retreat, build and disband happen; which units were dislodged).
The first disagreement raises :class:`MilaImportError` naming the phase and
the difference.  The state hash is not compared: MILA's own recorded games
carry hashes its checker refuses, and the board says more.  Press is not kept
(arbitre's game files hold none).

Anything malformed (a missing field, a power or place MILA's standard map does
not have, an order arbitre cannot read) raises the same error, saying where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.adjudicator import PhaseOutcome
from arbitre.interface.mila.notation import (
    DISBAND,
    DISLODGED,
    OK,
    adjustment_codes,
    movement_codes,
    retreat_codes,
    unit_text,
)
from arbitre.interface.mila.saved import MILA_MAP, mila_retreats
from arbitre.judge import Game
from arbitre.rules import RuleSet
from arbitre.state import MOVEMENT, RETREATS, Dislodged, Phase, PhaseError, Position, Unit

DEFAULT_OPTIONS: Mapping[str, str] = {"preset": "mila"}
"""Import rules as MILA's engine does unless told otherwise."""


class MilaImportError(ValueError):
    """A saved game that is malformed, or whose replay by arbitre disagrees with the record.

    ``where`` names the place (``phases[3] F1901M: units of FRANCE``), ``message`` the difference.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _need(data: object, key: str, kind: type, where: str) -> Any:
    if not isinstance(data, dict):
        raise MilaImportError(where, f"expected an object, found {type(data).__name__}")
    if key not in data:
        raise MilaImportError(where, f"missing {key!r}")
    value = data[key]
    if not isinstance(value, kind):
        raise MilaImportError(f"{where}.{key}", f"expected {kind.__name__}, found {type(value).__name__}")
    return value


def _unit(rules: RuleSet, text: object, power: str, where: str) -> Unit:
    gmap = rules.game_map
    if not isinstance(text, str) or len(text.split()) != 2:
        raise MilaImportError(where, f"a unit is written 'A PAR' or 'F STP/SC', not {text!r}")
    kind, place = text.upper().split()
    if kind not in ("A", "F") or place not in gmap.province_of:
        raise MilaImportError(where, f"{text!r} is no unit of the standard map")
    if place not in gmap.adjacency.get(kind, {}):
        raise MilaImportError(where, f"a {'fleet' if kind == 'F' else 'army'} cannot stand on {place}")
    return Unit(power, kind, place)


def read_state(rules: RuleSet, state: object, where: str) -> Position:
    """The board of a recorded ``state`` (units, centres, units waiting to retreat with their places)."""
    gmap = rules.game_map
    name = _need(state, "name", str, where)
    try:
        phase = Phase.parse(name)
    except PhaseError as exc:
        raise MilaImportError(f"{where}.name", str(exc)) from None
    units: dict[str, Unit] = {}
    dislodged: dict[str, Dislodged] = {}
    retreats = state.get("retreats", {}) if isinstance(state, dict) else {}
    for power, texts in _need(state, "units", dict, where).items():
        if power not in gmap.powers:
            raise MilaImportError(f"{where}.units", f"{power!r} is not a power of the standard map")
        if not isinstance(texts, list):
            raise MilaImportError(f"{where}.units.{power}", "expected a list of units")
        for k, text in enumerate(texts):
            at = f"{where}.units.{power}[{k}]"
            waiting = isinstance(text, str) and text.startswith("*")
            unit = _unit(rules, text[1:] if waiting else text, power, at)
            prov = gmap.province_of[unit.place]
            table = dislodged if waiting else units
            if prov in table:
                raise MilaImportError(at, f"two units in {prov}")
            if waiting:
                places = (retreats.get(power) or {}).get(unit_text(unit)) if isinstance(retreats, dict) else None
                if places is not None and (
                    not isinstance(places, list) or any(p not in gmap.province_of for p in places)
                ):
                    raise MilaImportError(f"{where}.retreats.{power}", f"bad retreat places {places!r}")
                dislodged[prov] = Dislodged(unit, None, tuple(places) if places is not None else None)
            else:
                units[prov] = unit
    owners: dict[str, str] = {}
    for power, centres in _need(state, "centers", dict, where).items():
        if power not in gmap.powers or not isinstance(centres, list):
            raise MilaImportError(f"{where}.centers", f"bad entry {power!r}")
        for c in centres:
            if c not in gmap.supply_centers:
                raise MilaImportError(f"{where}.centers.{power}", f"{c!r} is not a supply centre")
            if c in owners:
                raise MilaImportError(f"{where}.centers.{power}", f"{c} is owned twice")
            owners[c] = power
    return Position(MILA_MAP, phase, units, owners, dislodged)


def _board(
    position: Position, kept: Mapping[str, Dislodged]
) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
    units: dict[str, set[str]] = {}
    for u in position.units.values():
        units.setdefault(u.power, set()).add(unit_text(u))
    waiting: dict[str, set[str]] = {}
    for d in kept.values():
        waiting.setdefault(d.unit.power, set()).add(unit_text(d.unit))
    centres: dict[str, set[str]] = {}
    for c, p in position.owners.items():
        centres.setdefault(p, set()).add(c)
    return units, waiting, centres


def _compare_boards(
    mine: Position, kept: Mapping[str, Dislodged], recorded: Position, where: str, completed: bool
) -> None:
    if not completed and mine.phase != recorded.phase:
        raise MilaImportError(where, f"arbitre reaches {mine.phase}, the record {recorded.phase}")
    for what, a, b in zip(
        ("units", "units waiting to retreat", "supply centres"),
        _board(mine, kept),
        _board(recorded, recorded.dislodged),
        strict=True,
    ):
        if completed and what == "units waiting to retreat":
            continue
        for power in sorted(set(a) | set(b)):
            ours, theirs = a.get(power, set()), b.get(power, set())
            if ours != theirs:
                raise MilaImportError(
                    where,
                    f"{what} of {power}: only after arbitre {sorted(ours - theirs)}, "
                    f"only in the record {sorted(theirs - ours)}",
                )


def _failed(codes: Sequence[str]) -> bool:
    """Did the order fail (MILA writes why: bounce, void, no convoy, disrupted; dislodged says nothing of it)?"""
    return any(c not in (OK, DISLODGED) for c in codes)


def _done(codes: Sequence[str]) -> bool:
    return all(c == OK for c in codes)


def _compare_results(
    outcome: PhaseOutcome,
    kept: Mapping[str, Dislodged],
    recorded: object,
    where: str,
    orders: Mapping[str, Sequence[str]],
) -> None:
    """The results that say what happened: each unit dislodged or not, each move, retreat, build, disband done or not.

    MILA's wording of a failed support or convoy (``void``, ``no convoy``, ``cut``) is not compared: its board
    effect is.
    """
    if not isinstance(recorded, dict):
        raise MilaImportError(f"{where}.results", "expected an object")
    kind = outcome.before.phase.kind
    if kind == MOVEMENT:
        ours = movement_codes(outcome)
        movers = {t.split(" - ")[0] for texts in orders.values() for t in texts if " - " in t and " S " not in t}
        for unit, codes in ours.items():
            theirs = recorded.get(unit)
            if theirs is None:
                continue
            if not isinstance(theirs, list):
                raise MilaImportError(f"{where}.results.{unit}", "expected a list of codes")
            if (DISLODGED in codes) != (DISLODGED in theirs):
                raise MilaImportError(where, f"{unit}: arbitre {codes}, the record {theirs} (dislodged)")
            if unit in movers and _failed(codes) != _failed(theirs):
                raise MilaImportError(where, f"{unit}: arbitre {codes}, the record {theirs} (the move)")
    elif kind == RETREATS:
        ours = retreat_codes(outcome, kept)
        for unit, codes in ours.items():
            theirs = recorded.get(unit)
            if isinstance(theirs, list) and (DISBAND in codes) != (DISBAND in theirs):
                raise MilaImportError(where, f"{unit}: arbitre {codes}, the record {theirs}")
    else:
        ours = adjustment_codes(outcome)
        for unit, codes in ours.items():
            theirs = recorded.get(unit)
            # MILA adds ``disband`` to a unit it still holds as dislodged from an earlier phase (a wording
            # of its own: the board says whether the unit went).
            if isinstance(theirs, list) and theirs and _done(codes) != _done([c for c in theirs if c != DISBAND]):
                raise MilaImportError(where, f"{unit}: arbitre {codes}, the record {theirs}")


def _orders(rules: RuleSet, phase: object, where: str) -> dict[str, list[str]]:
    raw = phase.get("orders", {}) if isinstance(phase, dict) else {}
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise MilaImportError(f"{where}.orders", "expected an object")
    out: dict[str, list[str]] = {}
    for power, texts in raw.items():
        if power not in rules.game_map.powers:
            raise MilaImportError(f"{where}.orders", f"{power!r} is not a power of the standard map")
        if texts is None:
            continue
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise MilaImportError(f"{where}.orders.{power}", "expected a list of order texts")
        out[power] = list(texts)
    return out


def import_game(saved: object, options: Mapping[str, str] | None = None) -> Game:
    """Replay a MILA saved game with arbitre's engine; the game, or :class:`MilaImportError` at the first difference.

    ``options`` are arbitre's rule options (default: the ``mila`` preset; a bad option raises ``ValueError``).
    """
    game = Game.new(MILA_MAP, options=dict(DEFAULT_OPTIONS if options is None else options))
    where = ["the saved game"]
    try:
        return _replay(game, saved, where)
    except MilaImportError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        # A shape the checks above did not foresee: still an error that says where.
        raise MilaImportError(where[0], f"cannot be read ({type(exc).__name__}: {exc})") from None


def _replay(game: Game, saved: object, where_now: list[str]) -> Game:
    if not isinstance(saved, dict):
        raise MilaImportError("the saved game", f"expected a JSON object, found {type(saved).__name__}")
    map_name = saved.get("map", MILA_MAP)
    if map_name != MILA_MAP:
        raise MilaImportError("map", f"only MILA's standard map can be imported, not {map_name!r}")
    phases = _need(saved, "phases", list, "the saved game")
    if not phases:
        raise MilaImportError("phases", "the game has no phase")
    rules = game.rules
    first = f"phases[0] {phases[0].get('name') if isinstance(phases[0], dict) else ''}".rstrip()
    game.position = read_state(rules, _need(phases[0], "state", dict, first), f"{first}.state")
    kept: dict[str, Dislodged] = dict(game.position.dislodged)
    for i, phase in enumerate(phases[:-1]):
        where = f"phases[{i}] {game.phase}"
        where_now[0] = where
        if not isinstance(phase, dict):
            raise MilaImportError(where, f"expected an object, found {type(phase).__name__}")
        orders = _orders(rules, phase, where)
        for power, texts in orders.items():
            rejected = game.set_orders(power, texts)
            if rejected:
                r = rejected[0]
                raise MilaImportError(f"{where}.orders.{power}", f"arbitre refuses {r.text!r}: {r.message or r.reason}")
        try:
            outcome = game.advance()
        except RuntimeError as exc:
            raise MilaImportError(where, f"the record goes on after the game ended ({exc})") from None
        _compare_results(outcome, kept, phase.get("results", {}), where, orders)
        kept = mila_retreats(rules, outcome) if outcome.before.phase.kind == MOVEMENT else {}
        if game.position.phase.kind == RETREATS and not kept:
            game.advance()  # MILA removes units with nowhere to go and skips the retreat phase
        nxt = phases[i + 1]
        name = nxt.get("name") if isinstance(nxt, dict) else None
        next_where = f"phases[{i + 1}] {name}"
        state = _need(nxt, "state", dict, next_where)
        completed = name == "COMPLETED"
        if completed:
            state = {**state, "name": str(game.phase)}
        recorded = read_state(rules, state, f"{next_where}.state")
        _compare_boards(game.position, kept, recorded, next_where, completed)
        if completed and i + 1 != len(phases) - 1:
            raise MilaImportError(next_where, "phases follow the end of the game")
    return game
