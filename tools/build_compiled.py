"""Build, or remove, the optional compiled core: mypyc extension modules beside their sources.

    scripts/build-compiled            # compile arbitre.native.CORE_MODULES (about 20 s of CPU)
    scripts/build-compiled --clean    # remove them: the tree runs as plain Python again

The modules are listed in :data:`arbitre.native.CORE_MODULES`.  The build
needs a C compiler and the Python headers (``gcc`` and the interpreter's
``include`` folder; Debian: ``build-essential python3-dev``) and mypyc, which
comes with mypy in the ``dev`` extra.  Generated C and objects go to
``build/mypyc`` (git-ignored); the extension modules go beside their sources
(``*.so``, git-ignored), where imports pick them up.
"""

from __future__ import annotations

import argparse
import os
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUP = "arbitre._core"
"""mypyc's shared library for the whole group: ``arbitre/_core__mypyc.<suffix>``."""


def built_files() -> list[Path]:
    """Every extension module a build leaves in the source tree."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(p for p in (ROOT / "arbitre").rglob(f"*{suffix}"))


def clean() -> None:
    """Remove the extension modules: the tree runs as plain Python."""
    for path in built_files():
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")


def build() -> None:
    """Compile the core modules and put the extension modules beside their sources."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    from arbitre.native import CORE_MODULES

    clean()
    os.chdir(ROOT)
    paths = [name.replace(".", "/") + ".py" for name in CORE_MODULES]
    # Distribution rather than setup(): setup() would read pyproject.toml as this package's metadata.
    dist = Distribution(
        {
            "name": "arbitre-compiled",
            "ext_modules": mypycify(paths, opt_level="3", group_name=GROUP),
            "script_args": ["build_ext", "--inplace", "--build-temp", "build/mypyc", "--quiet"],
        }
    )
    dist.parse_command_line()
    dist.run_commands()
    # setuptools copies an unchanged module's file with its old time; arbitre.native.stale_modules()
    # compares these times with the sources', so every file of this build gets the build's time.
    for path in built_files():
        path.touch()
    print(f"compiled {len(CORE_MODULES)} modules: {', '.join(CORE_MODULES)}")


def main(argv: list[str] | None = None) -> int:
    """Build, or with ``--clean`` remove, the compiled core."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clean", action="store_true", help="remove the extension modules instead")
    args = p.parse_args(argv)
    if args.clean:
        clean()
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
