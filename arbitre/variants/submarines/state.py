"""The variant's state in ``Position.extras["submarines"]``, as plain JSON-ready data.

```
{"contacts": {"FRANCE": ["MAO-1"]}}   # sonar contacts told to each power after the last movement phase
```

Everything else the variant needs is in the position itself.  The master's
``next.extras`` carries all of it; a player's carries only its own contacts.
Parts of the wrong shape in input are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

KEY = "submarines"
"""The key of this variant's state in ``Position.extras``."""


@dataclass(frozen=True)
class SubState:
    """Sonar contacts by power: places where it was told a submarine stands, nationality unknown."""

    contacts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, extras: Mapping[str, object]) -> SubState:
        """Read the state from a position's extras (missing or malformed parts read as empty)."""
        raw = extras.get(KEY)
        if not isinstance(raw, Mapping):
            return cls()
        contacts: dict[str, tuple[str, ...]] = {}
        raw_contacts = raw.get("contacts")
        if isinstance(raw_contacts, Mapping):
            for power, places in raw_contacts.items():
                if isinstance(power, str) and isinstance(places, list | tuple):
                    contacts[power] = tuple(p for p in places if isinstance(p, str))
        return cls(contacts)

    def to_data(self) -> dict[str, object]:
        """Plain data (empty parts left out)."""
        contacts = {p: list(c) for p, c in sorted(self.contacts.items()) if c}
        return {"contacts": contacts} if contacts else {}

    def into(self, extras: Mapping[str, object]) -> dict[str, object]:
        """``extras`` with this state in place of the old one."""
        out = {k: v for k, v in extras.items() if k != KEY}
        data = self.to_data()
        if data:
            out[KEY] = data
        return out
