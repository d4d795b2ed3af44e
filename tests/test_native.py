"""The optional compiled core: all or nothing, never stale, and ``ARBITRE_PURE`` runs a built tree as Python.

``scripts/test`` runs the suite once as plain Python (``ARBITRE_PURE=1``) and
the engine's tests again after ``scripts/build-compiled`` with
``ARBITRE_EXPECT_COMPILED=1``; the first test checks that each run really ran
what it says.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import arbitre
from arbitre.adjudicator import PerResolution
from arbitre.native import CORE_MODULES, PURE_ENV, compiled_modules, stale_modules


def test_the_core_runs_as_asked() -> None:
    running = compiled_modules()
    if os.environ.get("ARBITRE_EXPECT_COMPILED") == "1":
        assert running == list(CORE_MODULES)
        assert arbitre.compiled()
    elif os.environ.get(PURE_ENV):
        assert running == []
        assert not arbitre.compiled()
    else:  # a tree is built whole or not at all
        assert running in ([], list(CORE_MODULES))
    assert stale_modules() == []


def test_core_modules_are_sources_of_the_package() -> None:
    for name in CORE_MODULES:
        assert importlib.util.find_spec(name) is not None, name


def test_pure_environment_loads_the_sources() -> None:
    code = "import arbitre, arbitre.adjudicator, arbitre.native as n; print(arbitre.compiled(), n.compiled_modules())"
    env = {**os.environ, PURE_ENV: "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["False", "[]"]


class _Resolver:
    """Stands for a resolver: only its identity matters."""


def test_per_resolution_keeps_each_resolution_apart() -> None:
    first, second = _Resolver(), _Resolver()
    seen: PerResolution[set[int]] = PerResolution()
    seen.setdefault(first, set()).add(1)  # type: ignore[arg-type]
    assert first in seen and second not in seen  # type: ignore[operator]
    assert seen.setdefault(second, {7}) == {7}  # type: ignore[arg-type]
    assert seen[first] == {1}  # type: ignore[index]
    seen[second] = set()  # type: ignore[index]
    assert seen[second] == set()  # type: ignore[index]
