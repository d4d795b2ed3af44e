"""The JSON interface: one request object in, one outcome (or error) object out."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from arbitre.adjudicator import adjudicate
from arbitre.interface.schema import AdjudicationRequest
from arbitre.interface.steps import StepRequestError, resolve_orders, reveal_step
from arbitre.judge import PositionError, position_from_data
from arbitre.maps import UnknownMapError
from arbitre.variants import UnknownVariantError, make_rules
from arbitre.views import MASTER, build_view, check_viewer, position_data, report_data, results_data
from arbitre.words.events import report_words


class RequestError(ValueError):
    """A request that cannot be processed; ``where`` says which part of it."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message

    def to_data(self) -> dict[str, Any]:
        """The ``{"error": {...}}`` object of the interface."""
        return {"error": {"where": self.where, "message": self.message}}


def _pydantic_error(err: ValidationError) -> RequestError:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown field (see docs/json-interface.md for the fields)"
    return RequestError(where, msg)


def parse_request(raw: Any) -> AdjudicationRequest:
    """Validate the structure of a decoded JSON request."""
    if not isinstance(raw, dict):
        raise RequestError("(top level)", "expected a JSON object describing one position")
    try:
        return AdjudicationRequest.model_validate(raw)
    except ValidationError as err:
        raise _pydantic_error(err) from err


def process(raw: Any) -> dict[str, Any]:
    """Adjudicate one decoded request and return the outcome object (raises RequestError)."""
    req = parse_request(raw)
    try:
        rules = make_rules(req.map, req.rules, req.options)
    except UnknownMapError as err:
        raise RequestError("map", str(err)) from err
    except UnknownVariantError as err:
        raise RequestError("rules", str(err)) from err
    except ValueError as err:
        raise RequestError("options", str(err)) from err
    try:
        position = position_from_data(
            rules, req.phase, req.units, req.supply_centers,
            {p: [d.model_dump() for d in ds] for p, ds in req.dislodged.items()},
            req.extras,
        )
    except PositionError as err:
        raise RequestError(err.where, err.message) from err
    for power in req.orders:
        if power.upper() not in rules.game_map.powers:
            raise RequestError(f"orders.{power}", f"{power!r} is not a power of the {req.map} map")
    orders = {p.upper(): o for p, o in req.orders.items()}
    try:
        if req.step == "reveal":
            return reveal_step(rules, position, orders, req.viewer)
        # Lock-step orders are never adjudicated; "resolve" also applies each power's one change.
        final = resolve_orders(rules, position, orders, req.reactions)
    except StepRequestError as err:
        raise RequestError(err.where, err.message) from err
    try:
        viewer = check_viewer(rules, req.viewer)
    except ValueError as err:
        raise RequestError("viewer", str(err)) from err
    outcome = adjudicate(rules, position, final)
    # Everything printed comes from the viewer's views (the master's holds everything).
    seen = build_view(rules, position, viewer, outcome)
    out: dict[str, Any] = {"phase": str(position.phase)}
    if viewer != MASTER:
        out["viewer"] = viewer
    out.update(results=results_data(seen), next=position_data(build_view(rules, outcome.after, viewer)),
               report=report_data(seen, lambda line: report_words(rules, line)))
    return out


def process_text(text: str) -> list[tuple[dict[str, Any], bool]]:
    """Process a JSON document or JSON Lines text: a list of (output object, ok) per position."""
    stripped = text.strip()
    if not stripped:
        return [(RequestError("(input)", "no JSON was given").to_data(), False)]
    try:
        docs: list[tuple[int, Any]] = [(0, json.loads(stripped))]
    except json.JSONDecodeError:
        docs = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                docs.append((n, json.loads(line)))
            except json.JSONDecodeError as err:
                docs.append((n, _BadLine(f"line {n}, column {err.colno}: {err.msg}")))
    out: list[tuple[dict[str, Any], bool]] = []
    for _, doc in docs:
        if isinstance(doc, _BadLine):
            out.append((RequestError("(json)", doc.message).to_data(), False))
            continue
        try:
            out.append((process(doc), True))
        except RequestError as err:
            out.append((err.to_data(), False))
    return out


class _BadLine:
    def __init__(self, message: str) -> None:
        self.message = message
