#!/usr/bin/env bash
# Create .venv and install arbitre with the extras named in $ARBITRE_EXTRAS (default: all but bench).
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
