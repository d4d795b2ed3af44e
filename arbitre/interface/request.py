"""The request of the JSON interface read without pydantic, when it is well formed.

:class:`~arbitre.interface.schema.AdjudicationRequest` documents the request
(and the docs' schema is made from it); reading it with pydantic costs a
tenth of a second of imports at every start of ``arbitre adjudicate``.  This
reader accepts exactly the well-formed requests, with the model's fields and
defaults; on anything else it raises :class:`RequestShapeError` naming the
same first error as the model (fields in the model's order, each one's first
problem, an unknown field after every declared one).  A field it does not
know (one added to the model since) also makes it step aside: the caller then
reads the request with the model.  ``tests/test_request_reader.py`` compares
both on mutated requests and checks that both know the same fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

UNKNOWN_FIELD = "unknown field (see docs/json-interface.md for the fields)"
"""The message of a field the interface does not have."""

_NOT_STR = "Input should be a valid string"
_NOT_LIST = "Input should be a valid list"
_NOT_DICT = "Input should be a valid dictionary"
_NOT_BOOL = "Input should be a valid boolean"
_MISSING = "Field required"
_NOT_DISLODGED = "Input should be a valid dictionary or instance of DislodgedIn"
_NOT_STEP = "Input should be 'reveal' or 'resolve'"

_FIELDS = (
    "map",
    "rules",
    "options",
    "phase",
    "units",
    "dislodged",
    "supply_centers",
    "orders",
    "viewer",
    "extras",
    "step",
    "reactions",
    "order_sets",
    "order_sets_latest_known",
)
_DISLODGED_FIELDS = ("unit", "attacker_from", "retreats", "by_convoy")


class RequestShapeError(ValueError):
    """The request's structure is wrong; ``where`` is the dotted path (``units.FRANCE.0``)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(slots=True)
class Request:
    """One position with its orders, as read (the fields of ``AdjudicationRequest``)."""

    phase: str
    units: dict[str, list[str]] | None
    """``None`` when left out: the rule set's starting position (``RuleSet.starting_position``)."""
    map: str = "standard"
    rules: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    dislodged: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Each entry as ``{"unit", "attacker_from", "retreats", "by_convoy"}`` (``None``, ``None``, ``False`` when left
    out)."""
    supply_centers: dict[str, list[str]] | None = None
    orders: dict[str, list[str]] = field(default_factory=dict)
    viewer: str = "master"
    extras: dict[str, Any] = field(default_factory=dict)
    step: str | None = None
    reactions: dict[str, str] = field(default_factory=dict)
    order_sets: dict[str, list[list[str]]] = field(default_factory=dict)
    order_sets_latest_known: bool = True


def _where(*path: object) -> str:
    return ".".join(str(p) for p in path)


def _str(value: Any, *path: object) -> str:
    if type(value) is not str:
        raise RequestShapeError(_where(*path), _NOT_STR)
    return value


def _dict(value: Any, *path: object) -> dict[str, Any]:
    if type(value) is not dict:
        raise RequestShapeError(_where(*path), _NOT_DICT)
    return value


def _str_list(value: Any, *path: object) -> list[str]:
    if type(value) is not list:
        raise RequestShapeError(_where(*path), _NOT_LIST)
    for i, item in enumerate(value):
        if type(item) is not str:
            raise RequestShapeError(_where(*path, i), _NOT_STR)
    return value


def _lists_by_key(value: Any, name: str) -> dict[str, list[str]]:
    for key, items in _dict(value, name).items():
        _str_list(items, name, key)
    return value  # type: ignore[no-any-return]


def _dislodged(value: Any) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for power, entries in _dict(value, "dislodged").items():
        if type(entries) is not list:
            raise RequestShapeError(_where("dislodged", power), _NOT_LIST)
        read = []
        for i, entry in enumerate(entries):
            if type(entry) is not dict:
                raise RequestShapeError(_where("dislodged", power, i), _NOT_DISLODGED)
            if "unit" not in entry:
                raise RequestShapeError(_where("dislodged", power, i, "unit"), _MISSING)
            unit = _str(entry["unit"], "dislodged", power, i, "unit")
            attacker = entry.get("attacker_from")
            if attacker is not None:
                _str(attacker, "dislodged", power, i, "attacker_from")
            retreats = entry.get("retreats")
            if retreats is not None:
                _str_list(retreats, "dislodged", power, i, "retreats")
            by_convoy = entry.get("by_convoy", False)
            if type(by_convoy) is not bool:
                raise RequestShapeError(_where("dislodged", power, i, "by_convoy"), _NOT_BOOL)
            for key in entry:
                if key not in _DISLODGED_FIELDS:
                    raise RequestShapeError(_where("dislodged", power, i, key), UNKNOWN_FIELD)
            read.append({"unit": unit, "attacker_from": attacker, "retreats": retreats, "by_convoy": by_convoy})
        out[power] = read
    return out


def read_request(raw: dict[str, Any]) -> Request:
    """Check the structure of a decoded request object (raises :class:`RequestShapeError`)."""
    get = raw.get
    map_name = _str(get("map", "standard"), "map")
    rules = _str_list(get("rules", []), "rules")
    options = _dict(get("options", {}), "options")
    if "phase" not in raw:
        raise RequestShapeError("phase", _MISSING)
    phase = _str(raw["phase"], "phase")
    # Left out: the units of the rule set's starting position (a module's Setup is played from its start).
    units_raw = get("units")
    units = _lists_by_key(units_raw, "units") if units_raw is not None else None
    dislodged = _dislodged(get("dislodged", {}))
    centres = get("supply_centers")
    supply_centers = _lists_by_key(centres, "supply_centers") if centres is not None else None
    orders = _lists_by_key(get("orders", {}), "orders")
    viewer = _str(get("viewer", "master"), "viewer")
    extras = _dict(get("extras", {}), "extras")
    step = get("step")
    if step is not None and step not in ("reveal", "resolve"):
        raise RequestShapeError("step", _NOT_STEP)
    reactions = _dict(get("reactions", {}), "reactions")
    for power, change in reactions.items():
        _str(change, "reactions", power)
    order_sets = _dict(get("order_sets", {}), "order_sets")
    for power, sets in order_sets.items():
        if type(sets) is not list:
            raise RequestShapeError(_where("order_sets", power), _NOT_LIST)
        for i, lines in enumerate(sets):
            _str_list(lines, "order_sets", power, i)
    latest_known = get("order_sets_latest_known", True)
    if type(latest_known) is not bool:
        raise RequestShapeError("order_sets_latest_known", "Input should be a valid boolean")
    for key in raw:
        if key not in _FIELDS:
            raise RequestShapeError(key, UNKNOWN_FIELD)
    return Request(
        phase,
        units,
        map_name,
        rules,
        options,
        dislodged,
        supply_centers,
        orders,
        viewer,
        extras,
        step,
        reactions,
        order_sets,
        latest_known,
    )
