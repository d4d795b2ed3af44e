"""The interface's own request reader agrees with the documented pydantic model on every request."""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from arbitre.interface.adjudicate import RequestError, _read, parse_request
from arbitre.interface.request import Request, RequestShapeError, read_request
from arbitre.interface.schema import AdjudicationRequest

CORPUS = Path(__file__).parent / "data" / "contract_corpus.jsonl.gz"
ODD_VALUES: list[Any] = [None, True, 0, 7, 1.5, "", "x", "reveal", [], ["A PAR"], [1], {}, {"a": 1}, {"a": ["b"]}]
NAMES = ["map", "rules", "options", "phase", "units", "dislodged", "supply_centers", "orders", "viewer", "extras"]
NAMES += ["step", "reactions", "unit", "attacker_from", "retreats", "zzz", ""]


def _requests() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        requests = [json.loads(line)["request"] for line in f]
    with_dislodged = [r for r in requests if r.get("dislodged")]
    return requests[::40] + with_dislodged[:20]


def _containers(value: Any, out: list[Any]) -> list[Any]:
    if isinstance(value, dict | list):
        out.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, out)
    return out


def _mutate(rng: random.Random, request: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(request)
    for _ in range(rng.randint(1, 3)):
        target = rng.choice(_containers(bad, []))
        if isinstance(target, dict):
            choice = rng.random()
            if choice < 0.4 or not target:
                target[rng.choice(NAMES)] = copy.deepcopy(rng.choice(ODD_VALUES))
            elif choice < 0.7:
                del target[rng.choice(list(target))]
            else:
                target[rng.choice(list(target))] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif target:
            target[rng.randrange(len(target))] = copy.deepcopy(rng.choice(ODD_VALUES))
        else:
            target.append(copy.deepcopy(rng.choice(ODD_VALUES)))
    return bad


def _answer(read: Any, raw: Any) -> tuple[str, str] | None:
    try:
        read(raw)
    except (RequestError, RequestShapeError) as err:
        return err.where or "(top level)", err.message
    return None


def _own(raw: Any) -> Any:
    """The reader alone (no fall-back to the model), as the interface calls it on an object."""
    if not isinstance(raw, dict):
        raise RequestError("(top level)", "expected a JSON object describing one position")
    return read_request(raw)


@pytest.mark.parametrize("seed", range(4))
def test_same_first_error_as_pydantic(seed: int) -> None:
    rng = random.Random(seed)
    refused = 0
    for request in _requests():
        assert _answer(_read, request) is None is _answer(parse_request, request)
        for _ in range(25):
            bad = _mutate(rng, request)
            expected = _answer(parse_request, bad)
            assert _answer(_own, bad) == expected, bad
            assert _answer(_read, bad) == expected, bad
            refused += expected is not None
    assert refused > 500


def test_the_reader_knows_every_field_of_the_model() -> None:
    # A field added to AdjudicationRequest must be added to Request and read_request too.
    assert set(Request.__dataclass_fields__) == set(AdjudicationRequest.model_fields)


def test_same_values_as_pydantic() -> None:
    for request in _requests():
        ours, theirs = _read(request), parse_request(request)
        for name in AdjudicationRequest.model_fields:
            value = getattr(theirs, name)
            if name == "dislodged":
                value = {p: [d.model_dump() for d in ds] for p, ds in value.items()}
            assert getattr(ours, name) == value, name
