"""The JSON of every API answer in one canonical form: sorted keys, UTF-8, no NaN.

Used as the app's default response class, so every route (new ones too)
answers with keys in an order that depends only on what the answer holds,
never on the order of the engine's internal lists.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse


class CanonicalJSONResponse(JSONResponse):
    """``JSONResponse`` with sorted keys (and non-finite numbers refused)."""

    def render(self, content: Any) -> bytes:
        """The canonical JSON bytes of ``content``."""
        return json.dumps(content, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")).encode(
            "utf-8"
        )
