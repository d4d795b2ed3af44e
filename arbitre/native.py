"""The optional compiled core: which modules mypyc compiles, and which of them this process runs compiled.

``scripts/build-compiled`` compiles :data:`CORE_MODULES` with mypyc into
extension modules placed beside their sources (``arbitre/state.cpython-311-….so``
next to ``arbitre/state.py``, and one shared library ``arbitre/_core__mypyc…``).
Python's import system prefers an extension module to the source of the same
name, so a built tree runs compiled and a tree without the files (a wheel from
PyPI, a fresh clone, ``scripts/build-compiled --clean``) runs the same sources
as plain Python, with the same answers.  ``ARBITRE_PURE=1`` in the environment
makes a built tree run pure too (checked once, when :mod:`arbitre` is
imported).  :func:`arbitre.compiled` says which is running.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

CORE_MODULES: tuple[str, ...] = (
    "arbitre.maps.model",
    "arbitre.state",
    "arbitre.orders.model",
    "arbitre.orders.names",
    "arbitre.orders.parser",
    "arbitre.rules.legality",
    "arbitre.rules.order_ids",
    "arbitre.rules.legal_orders",
    "arbitre.rules.ruleset",
    "arbitre.adjudicator.extension",
    "arbitre.adjudicator.intake",
    "arbitre.adjudicator.movement",
    "arbitre.adjudicator.phases",
    "arbitre.adjudicator.results",
    "arbitre.adjudicator.retreats",
)
"""The modules the compiled build compiles: the pure core a phase's adjudication runs through.

Not compiled: the rule modules (they subclass :class:`~arbitre.orders.Order`
and :class:`~arbitre.adjudicator.MovementExtension`, which allow interpreted
subclasses), the order errors (exception classes with class-level ``kind``),
the options' enums, views, the judge and everything at the edge."""

PURE_ENV = "ARBITRE_PURE"
"""Environment variable: set (non-empty) to run a built tree as plain Python."""


def compiled_modules() -> list[str]:
    """The core modules this process runs (or would import) from an extension module."""
    out = []
    for name in CORE_MODULES:
        module = sys.modules.get(name)
        origin = getattr(module, "__file__", None) if module is not None else _origin(name)
        if origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            out.append(name)
    return out


def stale_modules() -> list[str]:
    """Core modules whose extension module is older than their source (rebuild, or clean, the build)."""
    out = []
    for name in CORE_MODULES:
        ext = _beside(name, importlib.machinery.EXTENSION_SUFFIXES)
        src = _beside(name, importlib.machinery.SOURCE_SUFFIXES)
        if ext is not None and src is not None and os.path.getmtime(ext) < os.path.getmtime(src):
            out.append(name)
    return out


def _origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:
        return None
    return spec.origin if spec is not None else None


def _beside(name: str, suffixes: Sequence[str]) -> str | None:
    """The file of module ``name`` with one of ``suffixes`` in its package's folder, if there is one."""
    package, _, leaf = name.rpartition(".")
    folder = os.path.dirname(_package_file(package))
    for suffix in suffixes:
        path = os.path.join(folder, leaf + suffix)
        if os.path.exists(path):
            return path
    return None


def _package_file(package: str) -> str:
    module: ModuleType = sys.modules[package] if package in sys.modules else importlib.import_module(package)
    assert module.__file__ is not None
    return module.__file__


class _SourcesFirst:
    """A finder that loads the core modules from their sources even where an extension module sits beside them."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in CORE_MODULES or not path:
            return None
        for folder in path:
            finder = importlib.machinery.FileFinder(
                folder, (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
            )
            spec = finder.find_spec(name, target)
            if spec is not None:
                return spec
        return None


def prefer_sources() -> None:
    """Load the core from its sources from now on (``ARBITRE_PURE``); modules already imported stay as they are."""
    if not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())
