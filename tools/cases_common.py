"""Pieces shared by the case converters (tools/convert_*.py): the file header and writing a case file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CASES = ROOT / "tests" / "cases"
FORMAT = "arbitre-cases/1"


def write_case_file(name: str, source: str, cases: list[dict[str, Any]], notes: str = "") -> Path:
    """Write ``tests/cases/<name>.json`` in the format of docs/cases.md; one case per block of lines."""
    header: dict[str, Any] = {"format": FORMAT, "source": source}
    if notes:
        header["notes"] = notes
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in header.items()]
    lines.append(' "cases": [')
    body = [" " + json.dumps(case, ensure_ascii=False, separators=(", ", ": ")) for case in cases]
    lines.append(",\n".join(body))
    lines.append(" ]")
    lines.append("}")
    path = CASES / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
