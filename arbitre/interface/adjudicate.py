"""The JSON interface: one request object in, one outcome (or error) object out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import FunctionType
from typing import TYPE_CHECKING, Any, Final, TypeVar

import orjson

from arbitre.adjudicator import PhaseOutcome, adjudicate
from arbitre.adjudicator.intake import OrderInput
from arbitre.interface.answer import outcome_line
from arbitre.interface.request import Request, RequestShapeError, read_request
from arbitre.interface.steps import StepRequestError, resolve_orders, reveal_step
from arbitre.interface.text import JsonSyntaxError, TextError, check_tree, dump_line, loads
from arbitre.judge import PositionError, position_from_data
from arbitre.maps import UnknownMapError
from arbitre.rules import RuleSet
from arbitre.rules.order_sets import combine_order_sets
from arbitre.state import Position
from arbitre.variants import InapplicableModuleError, UnknownVariantError, make_rules
from arbitre.views import (
    MASTER,
    build_view,
    check_viewer,
    next_position_data,
    public_results_data,
    report_data,
    results_data,
)

T = TypeVar("T")


class RequestError(ValueError):
    """A request that cannot be processed; ``where`` says which part of it."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message

    def to_data(self) -> dict[str, Any]:
        """The ``{"error": {...}}`` object of the interface."""
        return {"error": {"where": self.where, "message": self.message}}


if TYPE_CHECKING:
    from pydantic import ValidationError

    from arbitre.interface.schema import AdjudicationRequest


def _pydantic_error(err: ValidationError) -> RequestError:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown field (see docs/json-interface.md for the fields)"
    return RequestError(where, msg)


def parse_request(raw: Any) -> AdjudicationRequest:
    """Validate the structure of a decoded JSON request into the documented pydantic model."""
    from pydantic import ValidationError

    from arbitre.interface.schema import AdjudicationRequest

    if not isinstance(raw, dict):
        raise RequestError("(top level)", "expected a JSON object describing one position")
    try:
        return AdjudicationRequest.model_validate(raw)
    except ValidationError as err:
        raise _pydantic_error(err) from err


def _read(raw: Any) -> Request:
    """:func:`parse_request` without pydantic (faster to start); the model itself words every refusal."""
    if not isinstance(raw, dict):
        raise RequestError("(top level)", "expected a JSON object describing one position")
    try:
        return read_request(raw)
    except RequestShapeError:
        # The model is the reference: it words the refusal (or reads what this reader did not).
        model = parse_request(raw)
    fields = {name: getattr(model, name) for name in Request.__dataclass_fields__}
    fields["dislodged"] = {p: [d.model_dump() for d in ds] for p, ds in model.dislodged.items()}
    return Request(**fields)


_RULES: dict[tuple[str, tuple[str, ...], bytes], RuleSet] = {}
"""Rule sets already made, by (map, rule modules, options): their memos of parsed and checked orders
then serve every later position of a batch."""


def _rules(req: Request) -> RuleSet:
    """The rule set of a request, made once per (map, rule modules, options)."""
    try:
        key = (req.map, tuple(req.rules), orjson.dumps(req.options, option=orjson.OPT_SORT_KEYS))
    except TypeError:  # options that are not plain JSON data: not remembered
        return make_rules(req.map, req.rules, req.options)
    rules = _RULES.get(key)
    if rules is None:
        rules = make_rules(req.map, req.rules, req.options)
        if len(_RULES) >= 64:
            _RULES.clear()
        _RULES[key] = rules
    return rules


ORDER_LINES = ("orders",)
"""The fields whose lines are orders: a control character in one makes that order's result (invalid), not an
error of the whole request."""


def process(raw: Any) -> dict[str, Any]:
    """Adjudicate one decoded request and return the outcome object (raises RequestError)."""
    try:
        check_tree(raw, lines=ORDER_LINES)
    except TextError as err:
        raise RequestError(err.where, err.message) from err
    return _process(raw)


def _process(raw: Any) -> dict[str, Any]:
    """:func:`process` of a request already checked by :func:`~arbitre.interface.text.check_tree`."""
    done = _adjudicated(raw)
    if isinstance(done, dict):
        return done
    return _outcome_data(*done)


def _starting_data(rules: RuleSet) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The units and owned centres of ``rules.starting_position()``, as a request writes them."""
    start = rules.starting_position()
    units: dict[str, list[str]] = {}
    for unit in start.units.values():
        units.setdefault(unit.power, []).append(f"{unit.kind} {unit.place}")
    centres: dict[str, list[str]] = {}
    for centre, power in start.owners.items():
        centres.setdefault(power, []).append(centre)
    return units, centres


def _adjudicated(raw: Any) -> dict[str, Any] | tuple[RuleSet, Position, PhaseOutcome, str]:
    """Read and adjudicate one checked request: (rules, position, outcome, viewer), or the whole answer
    when the request asks for a step's reveal (raises RequestError)."""
    req = _read(raw)
    try:
        rules = _rules(req)
    # Each clause names its exception apart: the compiled build types a name by its first clause.
    except UnknownMapError as no_map:
        raise RequestError("map", str(no_map)) from no_map
    except (UnknownVariantError, InapplicableModuleError) as no_module:
        raise RequestError("rules", str(no_module)) from no_module
    except ValueError as bad_options:
        raise RequestError("options", str(bad_options)) from bad_options
    try:
        units, supply_centers = req.units, req.supply_centers
        if units is None:
            # Left out: the rule set's starting position (its units, and its owners unless given).
            units, start_centres = _starting_data(rules)
            supply_centers = start_centres if supply_centers is None else supply_centers
        position = position_from_data(
            rules,
            req.phase,
            units,
            supply_centers,
            req.dislodged,
            req.extras,
        )
    except PositionError as bad_position:
        raise RequestError(bad_position.where, bad_position.message) from bad_position
    for power in req.orders:
        if power.upper() not in rules.game_map.powers:
            raise RequestError(f"orders.{power}", f"{power!r} is not a power of the {req.map} map")
    orders = {p.upper(): o for p, o in req.orders.items()}
    for power, sets in req.order_sets.items():
        if power.upper() not in rules.game_map.powers:
            raise RequestError(f"order_sets.{power}", f"{power!r} is not a power of the {req.map} map")
        if power.upper() in orders:
            raise RequestError(
                f"order_sets.{power}", "a power's orders are given in 'orders' or in 'order_sets', not both"
            )
        orders[power.upper()] = combine_order_sets(
            rules.options, position, power.upper(), sets, latest_known=req.order_sets_latest_known
        )
    try:
        if req.step == "reveal":
            return reveal_step(rules, position, orders, req.viewer)
        # Lock-step orders are never adjudicated; "resolve" also applies each power's one change.  Without
        # rule modules or reactions there are neither: the orders are adjudicated as given.
        final: Mapping[str, Sequence[OrderInput]] = (
            orders
            if not rules.variants and not req.reactions
            else resolve_orders(rules, position, orders, req.reactions)
        )
    except StepRequestError as bad_step:
        raise _private_error(bad_step.where, bad_step.message, req.viewer) from bad_step
    try:
        viewer = check_viewer(rules, req.viewer)
    except ValueError as bad_viewer:
        raise RequestError("viewer", str(bad_viewer)) from bad_viewer
    return rules, position, adjudicate(rules, position, final), viewer


def _outcome_data(rules: RuleSet, position: Position, outcome: PhaseOutcome, viewer: str) -> dict[str, Any]:
    """The outcome object of an adjudicated phase, as ``viewer`` may see it."""
    out: dict[str, Any] = {"phase": str(position.phase)}
    if viewer != MASTER:
        out["viewer"] = viewer
    public = public_results_data(rules, outcome, viewer)
    if public is not None:  # nothing hidden and nothing reported: the view's results, written directly
        out.update(results=public, next=next_position_data(rules, outcome.after, viewer), report=[])
        return out
    # Everything printed comes from the viewer's views (the master's holds everything).  The words of
    # reports are imported only here: the standard rules report nothing, and start-up counts.
    from arbitre.words.events import report_words

    seen = build_view(rules, position, viewer, outcome)
    out.update(
        results=results_data(seen),
        next=next_position_data(rules, outcome.after, viewer),
        report=report_data(seen, lambda line: report_words(rules, line)),
    )
    return out


def _private_error(where: str, message: str, viewer: str) -> RequestError:
    """An error about one power's private data (its reaction, its orders) in words only that power (or the
    master) may read; anyone else learns only that this power's entry was refused."""
    head, _, rest = where.partition(".")
    power = rest.split(".")[0].split("[")[0].upper()
    asked = viewer.strip().upper()
    if head in ("reactions", "orders") and power and asked not in ("MASTER", power):
        return RequestError(f"{head}.{power}", f"{power}'s entry was refused (the reason is told to {power} only)")
    return RequestError(where, message)


def process_text(text: str) -> list[tuple[dict[str, Any], bool]]:
    """Process a JSON document or JSON Lines text: a list of (output object, ok) per position.

    JSON Lines are split on ``\\n`` only (a JSON string may hold U+2028, U+0085 or a
    form feed) and answered line by line: a bad line costs only its own answer.
    """
    return _answers(text, _answer, _error_data)


def _answers(
    text: str, answer: Callable[[str, str], tuple[T, bool]], error: Callable[[RequestError], T]
) -> list[tuple[T, bool]]:
    """:func:`process_text` with ``answer`` for each document and ``error`` for the input's own errors."""
    lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not lines:
        return [(error(RequestError("(input)", "no JSON was given")), False)]
    if len(lines) > 1 and not _one_document(text, lines):
        return [answer(line, f"line {n}") for n, line in lines]
    return [answer(text, "(json)")]


def process_bytes(raw: bytes) -> list[tuple[dict[str, Any], bool]]:
    """Like :func:`process_text`, from bytes: a line that is not UTF-8 costs only its own answer."""
    return _by_line(raw, _answer, _error_data)


STRAIGHT: Final = not isinstance(outcome_line, FunctionType)
"""Write common outcomes straight to bytes: when the writer (:mod:`arbitre.interface.answer`) runs
compiled.  As plain Python, building the answer objects and dumping them with orjson is faster."""


def answer_lines(raw: bytes, straight: bool | None = None) -> list[tuple[bytes, bool]]:
    """What ``arbitre adjudicate`` prints for ``raw``: :func:`process_bytes`'s answers, each as its line
    (:func:`~arbitre.interface.text.dump_line`); with ``straight`` (by default :data:`STRAIGHT`) the
    common outcomes are written straight to bytes, the same bytes."""
    write = STRAIGHT if straight is None else straight
    return _by_line(raw, _answer_line if write else _answer_dumped, _error_line)


def _error_data(error: RequestError) -> dict[str, Any]:
    return error.to_data()


def _error_line(error: RequestError) -> bytes:
    return dump_line(error.to_data())


def _by_line(
    raw: bytes, answer: Callable[[str, str], tuple[T, bool]], error: Callable[[RequestError], T]
) -> list[tuple[T, bool]]:
    """Answer a JSON document or JSON Lines given as bytes (see :func:`process_text`) with ``answer``."""
    try:
        return _answers(raw.decode("utf-8"), answer, error)
    except UnicodeDecodeError as err:
        lines = [(n, line) for n, line in enumerate(raw.split(b"\n"), 1) if line.strip()]
        if len(lines) <= 1:
            return [(error(RequestError("(input)", f"not UTF-8 text (byte {err.start + 1})")), False)]
    out: list[tuple[T, bool]] = []
    for n, line in lines:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as bad:
            out.append((error(RequestError(f"line {n}", f"not UTF-8 text (byte {bad.start + 1})")), False))
            continue
        out.append(answer(text, f"line {n}"))
    return out


def _one_document(text: str, lines: list[tuple[int, str]]) -> bool:
    """Is a text of several lines one (pretty-printed) document rather than JSON Lines?

    It is JSON Lines when it is not one valid document and at least one line
    holds a whole object by itself.
    """
    try:
        loads(text, lines=ORDER_LINES)
    except TextError:
        return not any(_is_object(line) for _, line in lines)
    return True


def _is_object(line: str) -> bool:
    stripped = line.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return False
    try:
        loads(stripped, lines=ORDER_LINES)
    except JsonSyntaxError:
        return False
    except TextError:
        return True  # a whole object breaking a limit: still a line of its own
    return True


def _answer(text: str, where: str) -> tuple[dict[str, Any], bool]:
    """The answer to one JSON document: its outcome, or the error object saying where."""
    try:
        doc = loads(text, where, lines=ORDER_LINES)  # checks the whole tree
        return _process(doc), True
    except TextError as bad_text:
        failure = RequestError(bad_text.where, bad_text.message)
    except RequestError as refused:  # named apart: the compiled build types a name by its first clause
        failure = refused
    return _located(failure, where).to_data(), False


def _answer_dumped(text: str, where: str) -> tuple[bytes, bool]:
    """:func:`_answer` as the line printed for it."""
    answer, ok = _answer(text, where)
    return dump_line(answer), ok


def _answer_line(text: str, where: str) -> tuple[bytes, bool]:
    """:func:`_answer` as the line printed for it; an outcome nothing hides is written straight to bytes."""
    try:
        doc = loads(text, where, lines=ORDER_LINES)  # checks the whole tree
        done = _adjudicated(doc)
        if isinstance(done, dict):
            return dump_line(done), True
        line = outcome_line(*done)
        return (line if line is not None else dump_line(_outcome_data(*done))), True
    except TextError as bad_text:
        failure = RequestError(bad_text.where, bad_text.message)
    except RequestError as refused:  # named apart: the compiled build types a name by its first clause
        failure = refused
    return dump_line(_located(failure, where).to_data()), False


def _located(failure: RequestError, where: str) -> RequestError:
    """``failure`` with the line it is about named first (in JSON Lines)."""
    if where != "(json)" and not failure.where.startswith(where):
        return RequestError(f"{where}: {failure.where}", failure.message)
    return failure
