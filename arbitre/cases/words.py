"""The outcome words a case may expect of one order, checked against the JSON interface's answer.

The DATC's own words, with their DATC meaning:

* ``succeeds`` / ``fails``: the order succeeds / fails (a void support or convoy is not "fails");
* ``given`` / ``cut``: a support that counts / that is cut (or void);
* ``available`` / ``disrupted``: a convoy that stands / that is disrupted;
* ``invalid``: a legal support or convoy that matches no order (reason ``void``);
* ``illegal``: an order the rules refuse (outcome ``illegal`` or ``invalid``);
* ``dislodged`` / ``stands`` / ``destroyed``: the ordered unit is dislodged / is not / is
  dislodged with nowhere to retreat.

Exact forms: ``=OUTCOME`` (``=invalid``: the order could not be read) and ``=OUTCOME:REASON``
(``=fails:bounced``, ``=succeeds:hit``).  ``a|b`` holds when either holds; ``!a`` when ``a`` does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WORDS = (
    "succeeds",
    "fails",
    "given",
    "cut",
    "available",
    "disrupted",
    "invalid",
    "illegal",
    "dislodged",
    "stands",
    "destroyed",
)
"""The DATC words; any other word must be an exact ``=OUTCOME[:REASON]`` form."""


RENAMED_REASONS = {"not_home": "not_a_build_site"}
"""Reason codes renamed since cases were first written (old name → new): an old case still reads right."""


def word_holds(word: str, result: Mapping[str, Any], dislodged: Mapping[str, Any] | None) -> bool:
    """Does ``word`` hold for ``result`` (one entry of the answer's ``results``)?

    ``dislodged`` is the ordered unit's entry in ``next.dislodged`` (None when it was not dislodged).
    """
    if word.startswith("!"):
        return not word_holds(word[1:], result, dislodged)
    if "|" in word:
        return any(word_holds(w, result, dislodged) for w in word.split("|"))
    outcome, reason = result.get("outcome"), result.get("reason")
    if word.startswith("="):
        want, _, want_reason = word[1:].partition(":")
        want_reason = RENAMED_REASONS.get(want_reason, want_reason)
        return outcome == want and (not want_reason or reason == want_reason)
    if word in ("succeeds", "given", "available"):
        return outcome == "succeeds"
    if word in ("fails", "cut", "disrupted"):
        return outcome == "fails" and reason != "void"
    if word == "invalid":
        return outcome == "fails" and reason == "void"
    if word == "illegal":
        return outcome in ("illegal", "invalid")
    if word == "dislodged":
        return dislodged is not None
    if word == "stands":
        return dislodged is None
    if word == "destroyed":
        return dislodged is not None and not dislodged.get("retreats")
    raise ValueError(f"unknown outcome word {word!r} (see docs/cases.md)")
