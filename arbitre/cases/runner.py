"""Play one case, step by step, through the JSON interface and collect what differs from its expectations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbitre.cases.expect import check_answer
from arbitre.interface import RequestError, process
from arbitre.judge.codec import position_from_data
from arbitre.variants import make_rules

_GAME_KEYS = ("map", "rules", "options")


def _request(state: Mapping[str, Any], step: Mapping[str, Any], orders: Any) -> dict[str, Any]:
    request = dict(state)
    if orders:
        request["orders"] = orders
    if step["step"] in ("reveal", "resolve"):
        request["step"] = step["step"]
    if step.get("reactions"):
        request["reactions"] = step["reactions"]
    for key in ("order_sets", "order_sets_latest_known"):
        if key in step:
            request[key] = step[key]  # several order sets of a power (DATC 4.D.1, 4.D.2)
    return request


def winners(request: Mapping[str, Any], answer: Mapping[str, Any]) -> list[str]:
    """The powers whose centres reach the victory target after the phase, as the rule set counts them
    (``RuleSet.victory_centers`` against ``RuleSet.victory_target``), by name."""
    rules = make_rules(request.get("map", "standard"), request.get("rules", []), request.get("options", {}))
    after = answer["next"]
    position = position_from_data(rules, after["phase"], after.get("units", {}), after.get("supply_centers", {}))
    target = rules.victory_target()
    return sorted(p for p in rules.game_map.powers if rules.victory_centers(p, position) >= target)


def _ask(request: dict[str, Any], expect: Mapping[str, Any], where: str) -> tuple[dict[str, Any] | None, list[str]]:
    """One answer and its problems; an expected error is checked by its ``where``."""
    try:
        answer = process(request)
    except RequestError as err:
        want = expect.get("error")
        if want is not None and (not isinstance(want, Mapping) or want.get("where") in (None, err.where)):
            return None, []
        return None, [f"{where}: refused at {err.where}: {err.message}"]
    if "error" in expect:
        return answer, [f"{where}: expected an error at {expect['error']}, got an answer"]
    problems = [f"{where}: {p}" for p in check_answer(answer, expect)]
    if "winners" in expect and (got := winners(request, answer)) != sorted(expect["winners"]):
        problems.append(f"{where}: winners: expected {sorted(expect['winners'])!r}, got {got!r}")
    return answer, problems


def run_case(case: Mapping[str, Any]) -> list[str]:
    """Every difference between the case's expectations and the engine's answers (empty: it passes).

    The position is the request of the first step; each ``adjudicate`` or ``resolve`` step goes on
    from the master's ``next``.  ``views`` re-asks the same request as each named viewer.
    """
    state = dict(case["position"])
    problems: list[str] = []
    locked: Any = None
    for n, step in enumerate(case["steps"]):
        name = step["step"]
        orders = step.get("orders", locked if name == "resolve" else None)
        request = _request(state, step, orders)
        answer, found = _ask(request, step.get("expect", {}), f"step {n + 1} ({name})")
        problems.extend(found)
        for viewer, expect in step.get("views", {}).items():
            problems.extend(_ask(dict(request, viewer=viewer), expect, f"step {n + 1} ({name}) as {viewer}")[1])
        if answer is None:
            break
        if name == "reveal":
            locked = orders
        else:
            state = {k: state[k] for k in _GAME_KEYS if k in state}
            state.update(answer["next"])
            locked = None
    return problems
