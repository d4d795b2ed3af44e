"""Build, or remove, the optional compiled core: mypyc extension modules beside their sources.

    scripts/build-compiled              # compile arbitre.native.CORE_MODULES (about 20 s of CPU)
    scripts/build-compiled --if-needed  # the same, unless the build there was made from these sources
    scripts/build-compiled --clean      # remove them: the tree runs as plain Python again

The modules are listed in :data:`arbitre.native.CORE_MODULES`.  The build
needs a C compiler and the Python headers (``gcc`` and the interpreter's
``include`` folder; Debian: ``build-essential python3-dev``) and mypyc, which
comes with mypy in the ``dev`` extra.  Generated C and objects go to
``build/mypyc`` (git-ignored); the extension modules go beside their sources
(``*.so``, git-ignored), where imports pick them up, with the manifest of the
sources they were built from (``arbitre/_compiled_sources.txt``, git-ignored):
a tree whose sources no longer match it runs as plain Python, with a warning
(:func:`arbitre.native.stale_modules`).
"""

from __future__ import annotations

import argparse
import os
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This tool reads arbitre.native as plain Python: a stale build there is what it replaces, not a warning.
os.environ.setdefault("ARBITRE_PURE", "1")
GROUP = "arbitre._core"
"""mypyc's shared library for the whole group: ``arbitre/_core__mypyc.<suffix>``."""


def built_files() -> list[Path]:
    """Every extension module a build leaves in the source tree."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(p for p in (ROOT / "arbitre").rglob(f"*{suffix}"))


def clean() -> None:
    """Remove the extension modules and their manifest: the tree runs as plain Python."""
    from arbitre.native import MANIFEST

    for path in [*built_files(), ROOT / "arbitre" / MANIFEST]:
        if path.exists():
            path.unlink()
            print(f"removed {path.relative_to(ROOT)}")


def up_to_date() -> bool:
    """True when every core module is built, from the sources there now."""
    from arbitre.native import CORE_MODULES, extension_paths, stale_modules

    return len(list(extension_paths())) == len(CORE_MODULES) and not stale_modules()


def build() -> None:
    """Compile the core modules and put the extension modules beside their sources."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    from arbitre.native import CORE_MODULES, write_manifest

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
    write_manifest()
    print(f"compiled {len(CORE_MODULES)} modules: {', '.join(CORE_MODULES)}")


def main(argv: list[str] | None = None) -> int:
    """Build, or with ``--clean`` remove, the compiled core."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clean", action="store_true", help="remove the extension modules instead")
    p.add_argument("--if-needed", action="store_true", help="build only if the build there is missing or stale")
    args = p.parse_args(argv)
    if args.clean:
        clean()
    elif args.if_needed and up_to_date():
        print("compiled core up to date (built from these sources)")
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
