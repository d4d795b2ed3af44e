"""The optional compiled core: which modules mypyc compiles, and which of them this process runs compiled.

``scripts/build-compiled`` compiles :data:`CORE_MODULES` with mypyc into
extension modules placed beside their sources (``arbitre/state.cpython-311-….so``
next to ``arbitre/state.py``, and one shared library ``arbitre/_core__mypyc…``).
Python's import system prefers an extension module to the source of the same
name, so a built tree runs compiled and a tree without the files (a wheel from
PyPI, a fresh clone, ``scripts/build-compiled --clean``) runs the same sources
as plain Python, with the same answers.  ``ARBITRE_PURE=1`` in the environment
makes a built tree run pure too (checked once, when :mod:`arbitre` is
imported).  :func:`arbitre.compiled` says which is running, and
:func:`build_status` (``arbitre --version``) says why.

A build never runs stale: it writes :data:`MANIFEST` beside the package, the
size, time and CRC-32 of every compiled source.  When :mod:`arbitre` is
imported and the extension modules are there, :func:`stale_modules` compares
the sources with it (a hash only when a file's time changed); if any source
differs, or the manifest is missing, the process warns once and runs every
core module from its sources, as with ``ARBITRE_PURE``.  ``scripts/setup.sh``
and ``scripts/build-compiled --if-needed`` rebuild.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from types import ModuleType

CORE_MODULES: tuple[str, ...] = (
    "arbitre.maps.model",
    "arbitre.state",
    "arbitre.orders.model",
    "arbitre.orders.names",
    "arbitre.orders.parser",
    "arbitre.rules.legality",
    "arbitre.rules.order_ids",
    "arbitre.rules.legal_tables",
    "arbitre.rules.legal_orders",
    "arbitre.rules.ruleset",
    "arbitre.adjudicator.extension",
    "arbitre.adjudicator.intake",
    "arbitre.adjudicator.movement",
    "arbitre.adjudicator.phases",
    "arbitre.adjudicator.results",
    "arbitre.adjudicator.retreats",
    "arbitre.judge.codec",
    "arbitre.views.build",
    "arbitre.interface.text",
    "arbitre.interface.answer",
    "arbitre.interface.request",
    "arbitre.interface.adjudicate",
)
"""The modules the compiled build compiles: the pure core a phase's adjudication runs through.

The last six are the path of a JSON contract request (``arbitre adjudicate``):
read, checked, made a position, adjudicated and written back without an
interpreted frame in the common case.  Not compiled: the rule modules (they
subclass :class:`~arbitre.orders.Order` and
:class:`~arbitre.adjudicator.MovementExtension`, which allow interpreted
subclasses), the order errors (exception classes with class-level ``kind``),
the options' enums, the views' model, the judge (but its position codec) and
the rest of the edge."""

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


MANIFEST = "_compiled_sources.txt"
"""The build's record of its sources, in the ``arbitre`` folder: one line ``module size mtime_ns crc32``."""

_ROOT = os.path.dirname(os.path.abspath(__file__))
_STALE: list[str] = []
"""The stale modules found when :mod:`arbitre` was imported (the process then runs them from their sources)."""


def source_path(name: str, root: str = _ROOT) -> str:
    """The source file of core module ``name`` under the ``arbitre`` folder ``root`` (nothing imported)."""
    return os.path.join(root, *name.split(".")[1:]) + ".py"


def extension_paths(root: str = _ROOT) -> Iterator[str]:
    """The extension modules of core modules present under ``root`` (nothing imported)."""
    for name in CORE_MODULES:
        base = source_path(name, root)[: -len(".py")]
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if os.path.exists(base + suffix):
                yield base + suffix
                break


def _digest(path: str) -> str:
    """CRC-32 of the file: it tells an edited source from the built one (zlib is loaded already; hashlib is not)."""
    import zlib

    with open(path, "rb") as f:
        return f"{zlib.crc32(f.read()):08x}"


def manifest_lines(root: str = _ROOT) -> list[str]:
    """The lines of :data:`MANIFEST` for the sources under ``root`` as they are now (written by a build)."""
    out = []
    for name in CORE_MODULES:
        path = source_path(name, root)
        st = os.stat(path)
        out.append(f"{name} {st.st_size} {st.st_mtime_ns} {_digest(path)}")
    return out


def write_manifest(root: str = _ROOT) -> None:
    """Record the compiled sources under ``root`` (called by every build, after it compiled them)."""
    with open(os.path.join(root, MANIFEST), "w", encoding="ascii") as f:
        f.write("\n".join(manifest_lines(root)) + "\n")


def stale_modules(root: str = _ROOT) -> list[str]:
    """Core modules whose extension module was not built from the source beside it (none when nothing is built).

    Every core module is stale when the manifest is missing or names other
    modules (a build from before the manifest, or :data:`CORE_MODULES` changed)."""
    if next(extension_paths(root), None) is None:
        return []
    recorded: dict[str, tuple[int, int, str]] = {}
    try:
        with open(os.path.join(root, MANIFEST), encoding="ascii") as f:
            for line in f:
                name, size, mtime, digest = line.split()
                recorded[name] = (int(size), int(mtime), digest)
    except (OSError, ValueError):
        return list(CORE_MODULES)
    if set(recorded) != set(CORE_MODULES) or len(list(extension_paths(root))) != len(CORE_MODULES):
        return list(CORE_MODULES)
    out = []
    for module in CORE_MODULES:
        was_size, was_mtime, was_digest = recorded[module]
        path = source_path(module, root)
        try:
            st = os.stat(path)
        except OSError:
            out.append(module)
            continue
        if st.st_size != was_size or (st.st_mtime_ns != was_mtime and _digest(path) != was_digest):
            out.append(module)
    return out


def check_build() -> None:
    """At import of :mod:`arbitre`: run the sources, with one warning, if the build is stale."""
    stale = stale_modules()
    if stale:
        _STALE[:] = stale
        warnings.warn(
            f"arbitre: the compiled core was not built from these sources ({', '.join(stale[:3])}"
            f"{', …' if len(stale) > 3 else ''} changed); running plain Python. "
            "Rebuild with ./scripts/build-compiled (or pip install . again).",
            RuntimeWarning,
            stacklevel=3,
        )
        prefer_sources()


def build_status() -> str:
    """Which core this process runs, and why: ``compiled (mypyc)`` or ``pure Python (reason)``."""
    running = compiled_modules()
    if len(running) == len(CORE_MODULES):
        return "compiled (mypyc)"
    if _STALE:
        return "pure Python (the compiled build is stale: scripts/build-compiled rebuilds it)"
    if os.environ.get(PURE_ENV) and next(extension_paths(), None) is not None:
        return f"pure Python ({PURE_ENV} is set)"
    if running:
        return f"partly compiled ({len(running)} of {len(CORE_MODULES)} core modules)"
    return "pure Python (no compiled build: scripts/build-compiled makes one, with a C compiler)"


def _origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:
        return None
    return spec.origin if spec is not None else None


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
