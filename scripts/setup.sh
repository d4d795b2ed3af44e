#!/usr/bin/env bash
# Create .venv, install arbitre with the extras named in $ARBITRE_EXTRAS (default: all but bench), and build
# the compiled core (mypyc) where a C compiler is present; the pure Python build is the fallback, announced.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${ARBITRE_EXTRAS:-server,render,dev}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# requirements/lock.txt pins every package to the versions the suite passed with (refresh: scripts/lock).
.venv/bin/python -m pip install --quiet -c requirements/lock.txt -e ".[${extras}]"
# Compile the gettext catalogs (arbitre/locale/*/LC_MESSAGES/arbitre.po → .mo); see docs/translations.md.
PYBABEL=.venv/bin/pybabel ./scripts/update-catalogs compile
# The compiled core (tools/build_compiled.py): same answers, 2–3× faster. ARBITRE_SETUP_PURE=1 skips it.
if [ -n "${ARBITRE_SETUP_PURE:-}" ]; then
  echo "arbitre: pure Python build (ARBITRE_SETUP_PURE is set; ./scripts/build-compiled compiles the core)"
elif ! command -v "${CC:-gcc}" >/dev/null 2>&1 && ! command -v cc >/dev/null 2>&1; then
  echo "arbitre: pure Python build — no C compiler found (install gcc and python3-dev, then ./scripts/build-compiled)"
else
  # mypyc comes with mypy (the dev extra); install it for the build when the extras left it out.
  .venv/bin/python -c "import mypyc" 2>/dev/null || .venv/bin/python -m pip install --quiet -c requirements/lock.txt mypy
  mkdir -p build
  if ./scripts/build-compiled --if-needed > build/setup-compiled.log 2>&1; then
    echo "arbitre: compiled core built (mypyc): $(.venv/bin/python -c 'from arbitre.native import build_status; print(build_status())')"
  else
    tail -15 build/setup-compiled.log >&2 || true
    ./scripts/build-compiled --clean >/dev/null 2>&1 || true
    echo "arbitre: pure Python build — the compiled core failed to build (log above; build/setup-compiled.log)"
  fi
fi
