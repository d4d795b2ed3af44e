"""The compiled core: built by the set-up where gcc is, all or nothing, never run stale, ``ARBITRE_PURE`` runs Python.

``scripts/setup.sh`` builds the compiled core where a C compiler is present;
``scripts/test`` runs the suite once as plain Python (``ARBITRE_PURE=1``) and
the engine's tests again on that build with ``ARBITRE_EXPECT_COMPILED=1``; the
first test checks that each run really ran what it says.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import arbitre
from arbitre.adjudicator import PerResolution
from arbitre.native import (
    CORE_MODULES,
    MANIFEST,
    PURE_ENV,
    compiled_modules,
    extension_paths,
    source_path,
    stale_modules,
    write_manifest,
)

PACKAGE = Path(arbitre.__file__).parent


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


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (PURE_ENV, "PYTHONWARNINGS")}
    return {**env, **extra}


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler: scripts/setup.sh makes the pure build")
def test_setup_built_the_compiled_core_and_runs_it() -> None:
    # scripts/setup.sh (the README's set-up) compiles the core where gcc is, from the sources there now.
    assert len(list(extension_paths())) == len(CORE_MODULES), "run ./scripts/setup.sh (or ./scripts/build-compiled)"
    assert stale_modules() == [], "the sources changed since the build: ./scripts/build-compiled --if-needed"
    code = "import arbitre, arbitre.adjudicator; print(arbitre.compiled())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), check=True)
    assert done.stdout.split() == ["True"]
    assert done.stderr == ""
    version = subprocess.run(
        [sys.executable, "-m", "arbitre.cli.entry", "--version"], capture_output=True, text=True, env=_env(), check=True
    )
    assert version.stdout == f"arbitre {arbitre.__version__}, core: compiled (mypyc)\n"


def _fake_build(tmp_path: Path) -> Path:
    """A copy of the package whose core has stand-in extension modules (not loadable) and a manifest of its sources."""
    root = tmp_path / "arbitre"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__", "*.so", MANIFEST))
    for name in CORE_MODULES:
        Path(source_path(name, str(root))[: -len(".py")] + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(
            b"not a shared object: importing it fails"
        )
    write_manifest(str(root))
    return root


RUN_FAKE = (
    "import arbitre, arbitre.adjudicator, arbitre.native as n;"
    "print(arbitre.compiled(), len(n.stale_modules()), n.build_status(), sep='|')"
)


def test_a_build_older_than_its_sources_is_not_run(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    assert stale_modules(str(root)) == []
    source = Path(source_path("arbitre.state", str(root)))
    source.write_text(source.read_text() + "\n# edited after the build\n")
    assert stale_modules(str(root)) == ["arbitre.state"]
    done = subprocess.run(
        [sys.executable, "-c", RUN_FAKE],
        capture_output=True,
        text=True,
        env=_env(PYTHONPATH=str(tmp_path)),
        cwd=tmp_path,
    )
    # The stand-in extension modules would fail to import: the process ran every core module from its sources.
    assert done.returncode == 0, done.stderr
    compiled, stale, status = done.stdout.strip().split("|")
    assert (compiled, stale) == ("False", "1")
    assert "stale" in status
    assert "RuntimeWarning" in done.stderr and "arbitre.state" in done.stderr and "running plain Python" in done.stderr


def test_an_edit_that_keeps_the_size_and_a_touch_that_keeps_the_text(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    source = Path(source_path("arbitre.orders.parser", str(root)))
    text = source.read_text()
    os.utime(source, ns=(0, 10**18))  # time changed, text the same: still fresh
    assert stale_modules(str(root)) == []
    source.write_text(text[:-1] + "#")  # the same size, other text
    assert len(source.read_bytes()) == len(text.encode())
    assert stale_modules(str(root)) == ["arbitre.orders.parser"]


def test_a_build_without_manifest_is_stale(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    (root / MANIFEST).unlink()
    assert stale_modules(str(root)) == list(CORE_MODULES)
    done = subprocess.run(
        [sys.executable, "-c", RUN_FAKE],
        capture_output=True,
        text=True,
        env=_env(PYTHONPATH=str(tmp_path)),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"False|{len(CORE_MODULES)}|")


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
