"""Helpers shared by the Submarines tests: a rule set, positions from plain data, one phase played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.adjudicator import OrderResult, PhaseOutcome, adjudicate
from arbitre.judge import position_from_data
from arbitre.rules import RuleSet
from arbitre.state import Position
from arbitre.variants import make_rules
from arbitre.views import View, build_view
from arbitre.words.events import report_line_text

RULES: RuleSet = make_rules("standard", ["submarines"])
"""Submarines on the standard map."""


def position(
    units: Mapping[str, Sequence[str]],
    phase: str = "S1901M",
    rules: RuleSet = RULES,
    extras: Mapping[str, object] | None = None,
) -> Position:
    """A position with ``units`` (power → ``"SM MAO-1"``…), home centres owned."""
    return position_from_data(rules, phase, units, None, None, extras)


def play(
    units: Mapping[str, Sequence[str]],
    orders: Mapping[str, Sequence[str]],
    phase: str = "S1901M",
    rules: RuleSet = RULES,
) -> PhaseOutcome:
    """Adjudicate one phase of ``units`` with ``orders``."""
    return adjudicate(rules, position(units, phase, rules), orders)


def result(outcome: PhaseOutcome, text: str) -> OrderResult:
    """The result of the order whose canonical text is ``text``."""
    found = [r for r in outcome.results if r.order_text == text]
    assert found, f"no result for {text!r} in {[r.order_text for r in outcome.results]}"
    return found[0]


def view(outcome: PhaseOutcome, viewer: str, rules: RuleSet = RULES) -> View:
    """``viewer``'s view of the adjudicated phase (orders, results, report)."""
    return build_view(rules, outcome.before, viewer, outcome)


def next_view(outcome: PhaseOutcome, viewer: str, rules: RuleSet = RULES) -> View:
    """``viewer``'s view of the position after the phase."""
    return build_view(rules, outcome.after, viewer)


def report(outcome: PhaseOutcome, viewer: str, rules: RuleSet = RULES) -> list[str]:
    """The English lines of ``viewer``'s report."""
    return [report_line_text(rules, line, "en") for line in view(outcome, viewer, rules).report]


def kinds(outcome: PhaseOutcome, viewer: str, rules: RuleSet = RULES) -> list[str]:
    """The kinds of the events in ``viewer``'s report."""
    return [line.key for line in view(outcome, viewer, rules).report]


def order_texts(v: View) -> list[str]:
    """The texts of the orders in a view."""
    return [o.text for o in v.orders]


def places_seen(v: View) -> set[str]:
    """Places of every unit in a view (sonar contacts included)."""
    return {u.place for u in v.units}
