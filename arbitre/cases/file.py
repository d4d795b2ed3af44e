"""Reading a case file: the header, and a light check of every case's shape."""

from __future__ import annotations

import json
from typing import Any

CASE_FORMAT = "arbitre-cases/1"
"""The value of a case file's ``format`` field."""

_CASE_KEYS = {"id", "title", "note", "position", "steps"}
_STEP_KEYS = {"step", "orders", "order_sets", "order_sets_latest_known", "reactions", "expect", "views"}
STEP_NAMES = ("adjudicate", "reveal", "resolve")
"""The step names a case may use: the JSON interface's (``reveal``/``resolve``) and a plain phase."""


class CaseFileError(ValueError):
    """A case file that does not follow docs/cases.md; the message says where."""


def _check_case(case: Any, where: str) -> None:
    if not isinstance(case, dict) or not {"id", "position", "steps"} <= set(case):
        raise CaseFileError(f"{where}: a case needs id, position and steps")
    unknown = set(case) - _CASE_KEYS
    if unknown:
        raise CaseFileError(f"{where} ({case['id']}): unknown fields {sorted(unknown)}")
    if not case["steps"]:
        raise CaseFileError(f"{where} ({case['id']}): no steps")
    for n, step in enumerate(case["steps"]):
        if not isinstance(step, dict) or step.get("step") not in STEP_NAMES or set(step) - _STEP_KEYS:
            raise CaseFileError(
                f"{where} ({case['id']}): steps[{n}] must be one of {STEP_NAMES} with fields among {sorted(_STEP_KEYS)}"
            )


def read_case_file(text: str) -> dict[str, Any]:
    """Decode and check a case file: ``{"format", "source", "cases": [...]}``."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != CASE_FORMAT:
        raise CaseFileError(f"not a case file: the format field must be {CASE_FORMAT!r}")
    if not isinstance(data.get("source"), str) or not data["source"]:
        raise CaseFileError("a case file names its source in its 'source' field")
    cases = data.get("cases")
    if not isinstance(cases, list) or not cases:
        raise CaseFileError("a case file has a non-empty 'cases' list")
    ids = [c.get("id") if isinstance(c, dict) else None for c in cases]
    if len(set(ids)) != len(ids):
        raise CaseFileError("case ids must be unique within a file")
    for n, case in enumerate(cases):
        _check_case(case, f"cases[{n}]")
    return data
