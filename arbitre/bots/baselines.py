"""Two baseline players for the strength benchmark: one that holds, one that plays random legal orders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.bots.adjust import owed_builds
from arbitre.bots.board import BotBoard
from arbitre.bots.movement import unit_keys
from arbitre.bots.rng import derive
from arbitre.rules import RuleSet
from arbitre.views import View


class HoldBot:
    """Holds every unit, disbands what must retreat, builds on its first free home centres."""

    name = "hold"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def orders(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> list[str]:
        """Holds (movement), disbands (retreats), the first builds or disbands owed (adjustments)."""
        kind = view.phase[-1]
        if kind == "M":
            return [
                next(o for o in opts if o.endswith(" H"))
                for _, opts in sorted(legal.items())
                if any(o.endswith(" H") for o in opts)
            ]
        if kind == "R":
            return [opts[-1] for _, opts in sorted(legal.items()) if opts]
        owed = owed_builds(BotBoard.of(rules, view))
        if owed > 0:
            return [opts[0] for k, opts in sorted(legal.items()) if k != "WAIVE" and opts][:owed]
        return [opts[0] for _, opts in sorted(legal.items()) if opts][:-owed] if owed < 0 else []

    def reaction(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> str | None:
        """Never changes anything."""
        return None


class RandomBot:
    """Plays a random legal order for every unit (seeded); builds and disbands at random."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def orders(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> list[str]:
        """One random legal order per key (builds: as many as owed, on random centres)."""
        rng = derive(self.seed, view.phase, view.viewer, "random")
        if view.phase[-1] == "A":
            owed = owed_builds(BotBoard.of(rules, view))
            keys = [k for k in sorted(legal) if k != "WAIVE" and legal[k]]
            picked = rng.shuffled(keys)[: abs(owed)]
            return sorted(rng.choice(legal[k]) for k in picked)
        parsed = BotBoard.of(rules, view).parse_legal(legal)
        return [rng.choice(parsed[k])[0] for k in unit_keys(parsed)]

    def reaction(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> str | None:
        """Never changes anything."""
        return None
