"""A small seeded random number generator (SplitMix64), so bots never touch global randomness.

The same seed gives the same numbers on every machine and Python version; a
bot derives one generator per (seed, phase, power, step) with :func:`derive`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def stable_hash(*parts: object) -> int:
    """A 64-bit FNV-1a hash of the parts' text: stable across runs (unlike ``hash``)."""
    h = 0xCBF29CE484222325
    for part in parts:
        for byte in (str(part) + "\x1f").encode():
            h = ((h ^ byte) * 0x100000001B3) & _MASK
    return h


class Rng:
    """SplitMix64: fast, tiny, and good enough to break ties and vary play."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def below(self, n: int) -> int:
        """An integer in [0, n)."""
        return self.next64() % n if n > 0 else 0

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def derive(seed: int, *parts: object) -> Rng:
    """A generator for one decision, from the game's seed and what names the decision."""
    return Rng(stable_hash(seed, *parts))
