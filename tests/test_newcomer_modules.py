"""The newcomer test: small rule modules written outside the project, each one folder plus one registry line.

``tests/data/newcomer/<name>/`` holds three modules as a newcomer following
``docs/architecture.md`` would write them, each changing a different rule
point: ``no_retreats`` (whether a retreat phase is needed), ``armies_first``
(which units civil disorder removes) and ``french_belgium`` (the first owners,
on the standard map only).  Each folder has its code, its rule cases in the
case format (``cases.json``) and its French words
(``locale/fr/LC_MESSAGES/<name>.po``).  :data:`ENTRIES` are the registry lines
(the ``RuleModule(...)`` a newcomer appends to ``RULE_MODULES`` in
``arbitre/variants/registry.py``); :func:`registry_line` adds them for a test.
Nothing else changes: the cases run through the JSON interface (the case
runner) and ``arbitre adjudicate``, the words come from the folders, and no
other file of the project names the modules.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arbitre.cases import read_case_file, run_case
from arbitre.interface import adjudicate
from arbitre.variants import registry
from arbitre.variants.registry import RuleModule
from arbitre.words import translator
from arbitre.words.modules import modules_catalogue, modules_help
from tests.test_catalogs import module_problems

ROOT = Path(__file__).resolve().parent.parent
NEWCOMER = Path(__file__).resolve().parent / "data" / "newcomer"

ENTRIES = (
    RuleModule(
        "no_retreats",
        "tests.data.newcomer.no_retreats:make_no_retreats",
        "No retreats",
        "A dislodged unit is destroyed at once: no retreat phase is played.",
    ),
    RuleModule(
        "armies_first",
        "tests.data.newcomer.armies_first:make_armies_first",
        "Armies first in civil disorder",
        "A power that does not disband enough units loses its armies before its fleets.",
    ),
    RuleModule(
        "french_belgium",
        "tests.data.newcomer.french_belgium:make_french_belgium",
        "French Belgium",
        "Belgium belongs to France from the start (standard map).",
        maps=("standard",),
    ),
)
"""The registry lines of the newcomer's modules, as they would be written in ``RULE_MODULES``."""
NAMES = [entry.name for entry in ENTRIES]


def registry_line(monkeypatch: pytest.MonkeyPatch, entry: RuleModule) -> None:
    """Append ``entry`` to the registry list, as one more line of ``RULE_MODULES`` would.

    The list and the tables made from it (``MODULES``, ``REGISTRY``) are
    changed wherever they were imported, so that the judge sees what it would
    see had the line been written in the file.
    """
    before = registry.RULE_MODULES
    after = (*before, entry)
    for module in list(sys.modules.values()):
        if getattr(module, "RULE_MODULES", None) is before:
            monkeypatch.setattr(module, "RULE_MODULES", after)
    monkeypatch.setitem(registry.MODULES, entry.name, entry)
    monkeypatch.setitem(registry.REGISTRY, entry.name, entry.build)


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The three newcomer modules registered (their lines added to the registry) for one test."""
    for entry in ENTRIES:
        registry_line(monkeypatch, entry)
    # The JSON interface keeps the rule sets it made, by module names: a fresh memory for the test.
    monkeypatch.setattr(adjudicate, "_RULES", {})
    translator.cache_clear()
    registry.registered_order_kinds.cache_clear()
    yield
    translator.cache_clear()
    registry.registered_order_kinds.cache_clear()


def cases_of(name: str) -> list[dict[str, Any]]:
    """The cases in the folder of module ``name``."""
    data = read_case_file((NEWCOMER / name / "cases.json").read_text(encoding="utf-8"))
    assert len(data["source"]) > 40
    return list(data["cases"])


@pytest.mark.parametrize("name", NAMES)
def test_the_newcomer_s_cases_pass(registered: None, name: str) -> None:
    """Every case of each module passes through the case runner (the JSON interface), controls included."""
    cases = cases_of(name)
    assert len(cases) >= 3
    for case in cases:
        problems = run_case(case)
        assert not problems, f"{name} {case['id']}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", NAMES)
def test_without_the_registry_line_the_cases_fail(name: str) -> None:
    """The line is what makes the module known: without it, the module's own cases are refused."""
    own = [
        case
        for case in cases_of(name)
        if name in case["position"]["rules"] and not any("error" in step["expect"] for step in case["steps"])
    ]
    assert own and all(run_case(case) for case in own)


def test_arbitre_adjudicate_plays_a_newcomer_module(registered: None) -> None:
    """The command line plays a module added by its registry line (the request is the case's own)."""
    from arbitre.cli.main import app

    (case, *_) = cases_of("no_retreats")
    request = {**case["position"], "orders": case["steps"][0]["orders"]}
    result = CliRunner().invoke(app, ["adjudicate"], input=json.dumps(request))
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["next"]["phase"] == "F1901M"
    assert answer["next"]["units"]["GERMANY"] == ["A BUR", "A RUH"]
    assert answer["next"]["units"]["FRANCE"] == ["A PAR"] and not answer["next"].get("dislodged")


def test_the_newcomer_s_words_come_from_its_folder(registered: None) -> None:
    """Titles and descriptions in French from each module's own catalog; shown where modules are listed."""
    fr = translator("fr")
    assert fr.gettext("No retreats") == "Pas de retraite"
    assert fr.gettext("French Belgium") == "Belgique française"
    for entry in ENTRIES:
        assert module_problems(entry, "fr") == [], entry.name
    listed = {m["name"]: m for m in modules_catalogue()}
    assert listed["armies_first"]["title"] == {
        "en": "Armies first in civil disorder",
        "fr": "Les armées d'abord en désordre civil",
    }
    assert listed["french_belgium"]["maps"] == ["standard"]
    assert "french_belgium: French Belgium (maps: standard)" in modules_help()
    # French typography: a space before the colon
    assert "italian_fleet: Flotte italienne (cartes : standard)" in modules_help("fr")


def test_nothing_else_names_the_newcomer_s_modules() -> None:
    """Outside their folders and this test (their registry lines), no file of the project names them."""
    here = Path(__file__).resolve()
    found = []
    for top in ("arbitre", "docs", "tests", "scripts", "bench"):
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or path == here or NEWCOMER in path.parents:
                continue
            if path.suffix not in (".py", ".md", ".json", ".toml", ".html", ".po", ".txt", ".cfg", ""):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            found.extend(f"{path.relative_to(ROOT)}: {name}" for name in NAMES if name in text)
    assert not found, "\n".join(found)
