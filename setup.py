"""Wheel builds compile the core with mypyc where they can, and fall back to plain Python where they cannot.

``pip install .`` and ``pip wheel .`` run this through setuptools' build
backend (``pyproject.toml`` holds the metadata).  The core modules
(:data:`arbitre.native.CORE_MODULES`) become extension modules beside their
sources, with the manifest of the sources they were built from; where mypyc
or the C compiler fails, the wheel holds the same package as plain Python and
the build says so.  ``ARBITRE_PURE_BUILD=1`` asks for the pure wheel.
An editable install (``scripts/setup.sh``) builds nothing here: the set-up
calls ``scripts/build-compiled`` instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
GROUP = "arbitre._core"


def _say(text: str) -> None:
    print(f"arbitre: {text}", file=sys.stderr, flush=True)


def _native() -> Any:
    """arbitre/native.py of this tree, loaded on its own (it needs only the standard library)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_arbitre_native", HERE / "arbitre" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _extensions() -> list[Any]:
    """mypyc's extension modules for the core, or none (the pure build) when mypyc cannot make them."""
    if os.environ.get("ARBITRE_PURE_BUILD") or not {"bdist_wheel", "build_ext", "build", "install"} & set(sys.argv):
        return []  # metadata (egg_info), an editable install, an sdist: nothing to compile
    try:
        from mypyc.build import mypycify

        paths = [str(Path(*name.split("."))) + ".py" for name in _native().CORE_MODULES]
        return list(mypycify(paths, opt_level="3", group_name=GROUP))
    except BaseException as error:  # mypyc missing, or the type check failed: the pure build
        _say(f"pure Python build: mypyc could not compile the core ({error!r})")
        return []


class BuildCore(build_ext):
    """build_ext that falls back to the pure build when the C compiler fails, and writes the manifest."""

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:  # no compiler, no Python headers
            _say(f"pure Python build: the C compiler failed ({error!r})")
            for ext in self.extensions:
                path = Path(self.get_ext_fullpath(ext.name))
                if path.exists():
                    path.unlink()
            return
        root = Path(self.build_lib) / "arbitre"
        if self.inplace:
            root = HERE / "arbitre"
        _native().write_manifest(str(root))
        _say("compiled core built (mypyc)")


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildCore})
