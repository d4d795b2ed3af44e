"""Every point of the Submarines rules that is a choice of ours, in one place.

The spec (``shared/spec/submarines.md``) marks some points **decision**; a
few more had to be settled to write the judge.  Each is a named constant the
code reads (or, where the rule follows from the data, a constant that says
so), and each is explained to players in ``docs/variants/submarines.md``.
"""

from __future__ import annotations

# --- decisions of the spec
START_FLEETS_MAY_BE_SUBMARINES = True
"""Any of a power's starting fleets may start as a submarine (game setting ``start_submarines``; default none)."""

VERTICAL_MOVE_IS_ATTACK = True
"""Submerging and surfacing are ordinary moves: into an occupied place they attack, bounce or dislodge.
(It follows from the vertical link being an ordinary adjacency; nothing else implements it.)"""

FLEETS_SUPPORT_INTO_DEPTHS = False
"""A fleet cannot support into the depths: it could not move there (it has no depth adjacency)."""

DISLODGED_UNIT_FIRES = False
"""A firing unit dislodged by the ordinary moves of the phase does not fire."""

TORPEDO_CUTS_SUPPORT = False
"""A torpedo acts after the supports, so it cuts none (it is not a move: the resolver never sees it as one)."""

RETREAT_STEP_ALWAYS = True
"""A retreat phase follows every movement phase, so that a dislodgement in the depths is not given away."""

# --- points the spec leaves open, settled here
TORPEDOES_SIMULTANEOUS = True
"""All torpedoes of a phase fire at once: a unit hit by a torpedo still fires its own."""

HIT_WITH_NO_ROOM_IS_DESTROYED = True
"""A unit torpedoed in a province whose first occupant was dislodged by an ordinary attack in the same
phase has no room to retreat from (a province holds one retreating unit): it is destroyed at once."""

UNSEEN_PLACES_JUDGED_AS_EMPTY = True
"""An order naming a place its power cannot see is judged from what the power sees: a support of a unit
there is accepted when the geometry allows (its outcome is then told to nobody but the game master, since
it would tell whether the unit is there), and a retreat there is accepted and fails if it is impossible in
fact (occupied, the attacker's origin, or a standoff)."""
