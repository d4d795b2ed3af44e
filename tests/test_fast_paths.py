"""Fast paths give the answers of the general code they shortcut."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.judge import position_from_data
from arbitre.orders import OrderError
from arbitre.rules.kinds import _general_places, standard_places
from arbitre.variants import make_rules
from arbitre.views import build as view_build
from arbitre.views import (
    build_view,
    next_position_data,
    position_data,
    public_results_data,
    results_data,
    view_to_data,
)

CORPUS = Path(__file__).parent / "data" / "contract_corpus.jsonl.gz"


def _plain_requests(limit: int) -> list[dict[str, Any]]:
    """Requests of the corpus with no rule module (the fast paths' case) that are answered."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        entries = [json.loads(line) for line in f]
    out = [
        e["request"]
        for e in entries
        if e["ok"] and not e["request"].get("rules") and e["request"].get("map", "standard") == "standard"
    ]
    return out[:limit]


REQUESTS = _plain_requests(120)


def test_standard_places_read_like_the_general_reading() -> None:
    rules = make_rules("standard")
    seen = 0
    for req in REQUESTS:
        for texts in req.get("orders", {}).values():
            for text in texts:
                try:
                    order = rules.parse(text)
                except OrderError:
                    continue
                assert standard_places(order) == _general_places(order), text
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize("viewer", ["master", "FRANCE", "observer"])
def test_public_views_equal_the_general_views(viewer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = make_rules("standard")
    cases = []
    for req in REQUESTS:
        position = position_from_data(
            rules, req["phase"], req["units"], req["supply_centers"], req.get("dislodged"), req.get("extras")
        )
        outcome = adjudicate(rules, position, {p.upper(): o for p, o in req.get("orders", {}).items()})
        cases.append((position, outcome))
    fast = [
        (view_to_data(build_view(rules, p, viewer, o)), next_position_data(rules, o.after, viewer)) for p, o in cases
    ]
    fast_results = [public_results_data(rules, o, viewer) for _, o in cases]
    monkeypatch.setattr(view_build, "_hides_nothing", lambda _rules: False)
    general = [
        (view_to_data(build_view(rules, p, viewer, o)), position_data(build_view(rules, o.after, viewer)))
        for p, o in cases
    ]
    assert fast == general
    general_results = [results_data(build_view(rules, p, viewer, o)) for p, o in cases]
    assert fast_results == general_results
    assert any(r and any("message" in e for e in r) for r in fast_results) == (viewer != "observer")
    assert any(f[0]["dislodged"] for f in fast)
