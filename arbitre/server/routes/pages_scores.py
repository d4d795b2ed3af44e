"""The creation form's length and scoring fields (the scores themselves show on the game page)."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from arbitre.judge.scoring import SYSTEMS
from arbitre.words.translate import N_

TITLES = (N_("Draw-size"), N_("Sum of squares"), N_("C-Diplo"), N_("C-Diplo 100"))
"""The scoring systems' titles, marked for the catalogs (the pages translate them)."""

FORM_DEFAULTS = {"scoring": "draw-size", "last_year": "", "target_centers": ""}
"""The fields' values on a new form."""


def _number(text: str, field: str, problems: list[str]) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 5:
        problems.append(f"{field}: {text[:20]!r} is not a whole number")
        return None
    return int(text)


async def ending_form(request: Request) -> dict[str, Any]:
    """The form's ``scoring``, ``last_year`` and ``target_centers`` as typed (``problems`` lists what is wrong)."""
    form = await request.form()
    typed = {k: str(form.get(k) or "")[:40] for k in FORM_DEFAULTS}
    problems: list[str] = []
    values = {
        "scoring": typed["scoring"] or "draw-size",
        "last_year": _number(typed["last_year"], "last_year", problems),
        "target_centers": _number(typed["target_centers"], "target_centers", problems),
    }
    return {"typed": typed, "values": values, "problems": problems}


def form_context() -> dict[str, Any]:
    """What the fields offer: the scoring systems (name → title)."""
    return {"scoring_systems": {name: s.title for name, s in SYSTEMS.items()}}
