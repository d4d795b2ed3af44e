"""``arbitre adjudicate``, bytes to bytes: read JSON or JSON Lines, print one answer line per position.

This module is what the command runs, also when it is started through
:mod:`arbitre.cli.entry`, which comes here without importing the rest of the
command line (typer, rich, the renderer): starting up is part of what a
caller of the contract waits for.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

from arbitre.interface.adjudicate import answer_lines


def run(path: Path | None, out: BinaryIO | None = None) -> int:
    """Answer the positions of ``path`` (stdin when ``None``); the exit status: 0, 1 (an error object) or 2."""
    try:
        raw = sys.stdin.buffer.read() if path is None else path.read_bytes()
    except OSError as err:
        sys.stderr.write(f"error: cannot read {path}: {err.strerror}\n")
        return 2
    stream = out if out is not None else sys.stdout.buffer
    ok = True
    for line, answered in answer_lines(raw):  # each answer written straight to bytes
        ok &= answered
        stream.write(line)
    stream.flush()
    return 0 if ok else 1
