"""A rule module is one folder: general code names no module, and the guide's example needs nothing else.

* ``test_general_code_names_no_rule_module``: every Python file outside
  ``arbitre/variants/<name>/`` (the registry list aside: it is where modules
  are named) is read with :mod:`tokenize`; comments and docstrings are skipped,
  and no other token may hold a registered module's name or one of its order
  kinds' names.
* the guide's example module (``docs/architecture.md``, "Adding a rule
  module") is ``arbitre/variants/any_owned_centre``: nothing outside its folder
  names it but its registry entry and the catalog of its words, and its cases
  (its folder's ``cases.json``) are run by ``tests/test_cases.py``.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from arbitre.judge import Game
from arbitre.rules.facets import OrderRules
from arbitre.variants import RULE_MODULES, InapplicableModuleError, make_rules
from arbitre.variants.registry import MODULES, RuleModule

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "arbitre"
REGISTRY = PACKAGE / "variants" / "registry.py"
EXAMPLE = "any_owned_centre"


def _docstring_lines(source: str) -> set[int]:
    """The lines of every docstring (module, class, function) and every bare string statement."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def code_words(source: str) -> list[tuple[int, str]]:
    """Every token of ``source`` that is code: comments and docstrings left out, (line, text)."""
    skip = _docstring_lines(source)
    out: list[tuple[int, str]] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            continue
        if tok.type == tokenize.STRING and tok.start[0] in skip:
            continue
        out.append((tok.start[0], tok.string))
    return out


def module_words() -> set[str]:
    """The registered modules' names and the names of their order kinds."""
    words = {m.name for m in RULE_MODULES} | {m.for_map for m in RULE_MODULES if m.for_map}
    for module in RULE_MODULES:
        variant = module.build({})
        if isinstance(variant, OrderRules):
            words.update(kind.name for kind in variant.order_kinds())
    return words


def general_files() -> list[Path]:
    """Every Python file of the package outside a rule module's folder, and not the registry list."""
    folders = {PACKAGE / "variants" / m.name for m in RULE_MODULES}
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != REGISTRY and not any(folder in path.parents for folder in folders)
    ]


def naming(words: set[str], paths: list[Path]) -> list[str]:
    """``file:line: token`` for each code token of ``paths`` that holds one of ``words`` as a word."""
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(map(re.escape, words))) + r")(?![A-Za-z0-9_])", re.I)
    found = []
    for path in paths:
        for line, text in code_words(path.read_text(encoding="utf-8")):
            if pattern.search(text):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    return found


def test_the_scan_skips_comments_and_docstrings_only() -> None:
    source = '"""Colonial in a docstring."""\n# colonial in a comment\nx = "colonial"\ndef f():\n    """spy here."""\n'
    assert [text for _, text in code_words(source) if "olonial" in text or "spy" in text] == ['"colonial"']
    assert naming({"spy"}, [Path(__file__)]) != []  # this very file names a kind in its code: the scan can fail


def test_general_code_names_no_rule_module() -> None:
    words = module_words()
    assert {"colonial", "submarines", "espionnite", "no_convoys", "torpedo", "train_move", "spy"} <= words
    found = naming(words, general_files())
    assert not found, "general code names a rule module or its order kinds:\n" + "\n".join(found)


_WEB_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'])//[^\n]*|\{#.*?#\}|<!--.*?-->", re.S)


def test_pages_and_scripts_name_no_rule_module() -> None:
    """The site's templates, scripts and styles (their comments aside) name no module and no order kind."""
    words = module_words()
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(map(re.escape, words))) + r")(?![A-Za-z0-9_])", re.I)
    found = []
    for path in sorted((PACKAGE / "server").rglob("*")):
        if path.suffix in (".html", ".js", ".css") and path.is_file():
            text = _WEB_COMMENTS.sub("", path.read_text(encoding="utf-8"))
            found.extend(f"{path.relative_to(ROOT)}: {m.group(0)}" for m in pattern.finditer(text))
    assert _WEB_COMMENTS.sub("", "a /* spy */ b // spy\n{# spy #}<!-- spy -->") == "a  b \n"
    assert not found, "the site names a rule module or its order kinds:\n" + "\n".join(found)


def test_the_guide_s_example_is_one_folder_and_one_registry_entry() -> None:
    """Nothing outside the example's folder names it, but its registry entry (and the catalogs, for its words)."""
    folder = PACKAGE / "variants" / EXAMPLE
    assert (folder / "__init__.py").is_file() and (folder / "cases.json").is_file()
    outside = [
        path
        for path in sorted(PACKAGE.rglob("*"))
        if path.is_file() and path.suffix in (".py", ".html", ".json", ".toml") and folder not in path.parents
    ]
    assert [str(p.relative_to(ROOT)) for p in outside if EXAMPLE in p.read_text(encoding="utf-8")] == [
        "arbitre/variants/registry.py"
    ]
    entry = MODULES[EXAMPLE]
    assert entry.factory_at.startswith(f"arbitre.variants.{EXAMPLE}") and entry.title and entry.description
    guide = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", guide.split("## Adding a rule module")[1], re.S)
    # Step 1: the guide's code is the module's code, word for word.
    header = f"# arbitre/variants/{EXAMPLE}/variant.py\n"
    assert blocks[0].startswith(header) and blocks[0][len(header) :] == (folder / "variant.py").read_text("utf-8")
    # Step 2: the guide's registry entry is the registry's, word for word.
    assert blocks[1].strip() in REGISTRY.read_text(encoding="utf-8")
    assert f'"arbitre.variants.{EXAMPLE}:make_{EXAMPLE}"' in blocks[1]


def test_the_example_changes_the_build_sites_everywhere() -> None:
    """One method (``build_sites``) serves the legality, the legal-order list and whether winter is played."""
    rules = make_rules("standard", [EXAMPLE])
    game = Game.new("standard", [EXAMPLE])
    position = game.position
    owners = {**position.owners, "BEL": "FRANCE"}
    assert "BEL" in rules.build_sites("FRANCE", position.__class__(position.map_name, position.phase, {}, owners))
    assert "BEL" not in make_rules("standard").build_sites("FRANCE", position)


def test_a_module_on_a_map_it_does_not_apply_to_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    only = RuleModule(EXAMPLE, MODULES[EXAMPLE].factory_at, "t", "d", maps=("standard",))
    monkeypatch.setitem(MODULES, EXAMPLE, only)
    make_rules("standard", [EXAMPLE])
    with pytest.raises(InapplicableModuleError, match=r"does not apply to the map 'colonial'.*standard"):
        make_rules("colonial", [EXAMPLE])


def test_every_module_lists_the_options_it_reads() -> None:
    for module in RULE_MODULES:
        assert module.title and module.description, module.name
        assert {o.name for o in module.options} == set(module.build({}).option_names), module.name


def test_new_help_lists_the_maps_and_modules_from_the_registry() -> None:
    from typer.testing import CliRunner

    from arbitre.cli.main import app

    result = CliRunner().invoke(app, ["new", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for module in RULE_MODULES:
        if module.for_map is None:
            assert module.name in text and module.title in text, module.name
    assert "colonial" in text and "start_submarines" in text
    # A module's maps are shown as they are written (the help goes through rich, whose markup eats "[…]").
    for module in RULE_MODULES:
        if module.for_map is None and module.maps:
            assert f"{module.name}: {module.title} (maps: {', '.join(module.maps)})" in text, module.name
    assert any(m.maps and m.for_map is None for m in RULE_MODULES)


NEWCOMER_MODULES = ("capture_builds", "italian_fleet", "even_years", "fifteen_centres", "wings", "declarations")
"""Modules written by following the guide literally, one per rule point (build sites, the start, whether a phase
is played, the victory count, a unit kind, a step of the phase); each needed its folder and its registry entry
(and the general fixes noted in the issue's closing note), nothing else."""


def _registry_entries() -> dict[str, str]:
    """The source of each ``RuleModule(...)`` entry of ``RULE_MODULES``, by module name."""
    source = REGISTRY.read_text(encoding="utf-8")
    entries: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleModule" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                entries[first.value] = ast.get_source_segment(source, node) or ""
    return entries


def _names(pattern: re.Pattern[str], path: Path) -> bool:
    """Does ``path`` name what ``pattern`` finds: in code for Python (comments and docstrings aside), anywhere
    in other files (templates, data, catalogs)?"""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        return any(pattern.search(token) for _, token in code_words(text))
    return pattern.search(text) is not None


@pytest.mark.parametrize("name", [EXAMPLE, "no_convoys", *NEWCOMER_MODULES])
def test_a_module_is_its_folder_and_one_registry_entry(name: str) -> None:
    """The files the module owns are its folder's; no other file of the package names it (in code, data,
    templates, scripts, styles or catalogs), but the registry list, in exactly one entry naming its factory."""
    folder = PACKAGE / "variants" / name
    owned = sorted(
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )
    assert "__init__.py" in owned and "variant.py" in owned, owned
    pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
    outside = [
        str(path.relative_to(ROOT))
        for path in sorted(PACKAGE.rglob("*"))
        if path.is_file()
        and folder not in path.parents
        and path.suffix in (".py", ".html", ".js", ".css", ".json", ".toml", ".po", ".pot", ".txt", ".cfg")
        and _names(pattern, path)
    ]
    assert outside == ["arbitre/variants/registry.py"], outside
    source = REGISTRY.read_text(encoding="utf-8")
    entry = _registry_entries()[name]
    assert len(pattern.findall(source)) == len(pattern.findall(entry)), "the registry names it outside its entry"
    assert f'"arbitre.variants.{name}:make_{name}"' in entry
    # Its code names no other module (the import-linter contract keeps it from importing one).
    assert not naming({m.name for m in RULE_MODULES if m.name != name}, sorted(folder.rglob("*.py")))


@pytest.mark.parametrize("name", list(NEWCOMER_MODULES))
def test_a_newcomer_module_brings_its_own_cases_run_by_the_suite(name: str) -> None:
    """Its cases are its folder's ``cases.json``, in the case format, with a case without the module (a control)."""
    from tests.test_cases import CASE_PATHS, FILES

    assert CASE_PATHS[name] == PACKAGE / "variants" / name / "cases.json"
    cases = FILES[name]["cases"]
    assert len(cases) >= 3
    assert any(name in case["position"]["rules"] for case in cases)
    assert any(name not in case["position"]["rules"] for case in cases), "no control case"
