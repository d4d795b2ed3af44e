"""The two Colonial rule sets, and every difference between them, in one object.

A game picks its rule set with the option ``"colonial"``:

* ``"vdiplomacy"`` (the default) — the rules as vDiplomacy plays them (variant
  version 2.2, the seed's main text);
* ``"avalon-hill"`` — the published rules with the Avalon Hill errata and
  clarifications of 6 March 1996 (the seed's Annexe 1), read the way the DATC reads them.

Nothing else in :mod:`arbitre.variants.colonial` tests the rule set's name:
the railroad and canal modules read the fields of :class:`ColonialRules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

RULESET_OPTION = "colonial"
"""Game option choosing the rule set: ``"vdiplomacy"`` (default) or ``"avalon-hill"``."""

LINE_CENTERS_OPTION = "colonial_line_centers"
"""Game option ``"on"``/``"off"``: the 9.241 line-centre exception under ``vdiplomacy`` (off by default)."""

LOOKAHEAD = "lookahead"
"""Railroad adjudication of vDiplomacy 2.2: each station is judged by look-aheads made as if the train were absent."""
STATION_BY_STATION = "station_by_station"
"""Railroad adjudication of the Avalon Hill rules: the train meets each station's real outcome in turn."""

START_OF_TURN = "start_of_turn"
"""Suez: the power with a unit in Egypt at the start of the turn may give permission, whatever that unit does."""
WHOLE_TURN = "whole_turn"
"""Suez: the unit in Egypt must hold Egypt for the whole turn (not leave it, not be dislodged)."""


@dataclass(frozen=True)
class ColonialRules:
    """One Colonial rule set.  Each field is one point where the two rule sets differ.

    ``tsr_model`` — how the Trans-Siberian Railroad is adjudicated:

    * :data:`LOOKAHEAD` (vDiplomacy 2.2): Russian units never block the line; a
      foreign unit blocks its station when it holds, supports or convoys there,
      moves along the line to a neighbouring station, or would enter the station
      as if the train were absent (a unit kept out only by a unit that fails to
      leave still blocks); a foreign unit leaving the line sideways leaves its
      station open for passing; the train bounces entrants only at the first
      blocked station (and at its target, with its supports).
    * :data:`STATION_BY_STATION` (Avalon Hill): at each station the train meets
      the station's real outcome: it passes an emptied station or a Russian unit
      that stays, is blocked by a foreign unit that stays (even dislodged), and
      contests every unit moving in — Russian ones too — with strength 1, or 1
      plus its supports at the target.

    ``tsr_russian_swap`` — on the first leg, a Russian unit coming the other way
    may swap places with the train (vDiplomacy), or fights it head-on (Avalon
    Hill): neither can dislodge the other, so both fail and the train stays home.

    ``tsr_head_on_supported`` — on the first leg, a foreign unit coming the other
    way fights the train head-on; the train defends with its supports when that
    first station is its target (Avalon Hill) or with strength 1 (vDiplomacy).

    ``tsr_line_centers`` — 9.241 exception: a line supply centre (Moscow, Omsk,
    Vladivostok) owned by another power stops the train there unless a Russian
    unit stays there (Avalon Hill always; vDiplomacy only with the game option
    :data:`LINE_CENTERS_OPTION`).

    ``tsr_paradox_rule`` — when the train's progress depends on itself, the last
    leg inside the paradox fails but still bounces (Avalon Hill); otherwise
    the general paradox rules settle it (vDiplomacy).

    ``suez_permission`` — who may let a fleet through the canal:
    :data:`START_OF_TURN` (vDiplomacy) or :data:`WHOLE_TURN` (Avalon Hill).

    ``suez_implicit`` — the power in Egypt lets its own fleets through without an
    order, one fleet per turn, unless it gives an explicit permission (Avalon Hill).

    ``suez_paradox_rule`` — in a paradox involving the canal, the canal move
    fails and has no effect on its destination (Avalon Hill's extension of the
    Szykman rule); otherwise the general paradox rules settle it.
    """

    name: str
    tsr_model: str
    tsr_russian_swap: bool
    tsr_head_on_supported: bool
    tsr_line_centers: bool
    tsr_paradox_rule: bool
    suez_permission: str
    suez_implicit: bool
    suez_paradox_rule: bool


VDIPLOMACY = ColonialRules(
    name="vdiplomacy",
    tsr_model=LOOKAHEAD,
    tsr_russian_swap=True,
    tsr_head_on_supported=False,
    tsr_line_centers=False,
    tsr_paradox_rule=False,
    suez_permission=START_OF_TURN,
    suez_implicit=False,
    suez_paradox_rule=False,
)
"""vDiplomacy's Colonial, version 2.2 (the default)."""

AVALON_HILL = ColonialRules(
    name="avalon-hill",
    tsr_model=STATION_BY_STATION,
    tsr_russian_swap=False,
    tsr_head_on_supported=True,
    tsr_line_centers=True,
    tsr_paradox_rule=True,
    suez_permission=WHOLE_TURN,
    suez_implicit=True,
    suez_paradox_rule=True,
)
"""The published rules with the Avalon Hill errata and clarifications, as the DATC reads them."""

RULESETS: dict[str, ColonialRules] = {r.name: r for r in (VDIPLOMACY, AVALON_HILL)}
"""Rule sets by the name the ``colonial`` option gives."""

_ON = frozenset({"on", "true", "yes", "1", "oui"})
_OFF = frozenset({"off", "false", "no", "0", "non"})


def rules_from_options(options: Mapping[str, object]) -> ColonialRules:
    """The rule set a game's options choose (``{"colonial": "avalon-hill"}``); ``vdiplomacy`` by default.

    Raises :class:`ValueError` naming the choices for an unknown rule set or
    line-centre setting.
    """
    name = str(options.get(RULESET_OPTION, VDIPLOMACY.name)).strip().lower()
    if name not in RULESETS:
        raise ValueError(f"option {RULESET_OPTION!r} must be one of {', '.join(RULESETS)}, not {name!r}")
    chosen = RULESETS[name]
    if LINE_CENTERS_OPTION in options:
        raw = options[LINE_CENTERS_OPTION]
        text = ("on" if raw else "off") if isinstance(raw, bool) else str(raw).strip().lower()
        if text not in _ON | _OFF:
            raise ValueError(f"option {LINE_CENTERS_OPTION!r} must be 'on' or 'off', not {raw!r}")
        wanted = text in _ON
        if chosen.tsr_line_centers and not wanted:
            raise ValueError(f"the {chosen.name} rule set always applies the line-centre rule (9.241)")
        chosen = replace(chosen, tsr_line_centers=wanted)
    return chosen
