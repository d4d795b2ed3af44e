"""The private reports of a lock (what a rule module's ``on_lock`` revealed) as one viewer may read them.

The events of a lock name their audience when they are created; here they go
through the same gate as every other event
(:func:`arbitre.rules.events.can_see`): a power reads its own reports, the
game master all of them (with their audience), an observer only public ones.
:func:`arbitre.views.build_view` takes the same events with ``events=`` for a
whole view of the step after the lock.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbitre.rules.events import MASTER, EventLike, can_see
from arbitre.views.model import ReportLine


def reveal_report(events: Iterable[object], viewer: str) -> tuple[ReportLine, ...]:
    """The report lines of the lock that ``viewer`` may read, in the order the events were made."""
    return tuple(
        ReportLine(e.kind, dict(e.data), tuple(sorted(e.audience)) if viewer == MASTER else ())
        for e in events
        if isinstance(e, EventLike) and can_see(e.audience, viewer)
    )


def reveal_by_power(events: Iterable[object], viewer: str) -> dict[str, tuple[ReportLine, ...]]:
    """The lock's reports that ``viewer`` may read, grouped by the power each was told to."""
    out: dict[str, list[ReportLine]] = {}
    for line in reveal_report(events, viewer):
        for power in line.audience or (viewer,):
            out.setdefault(power, []).append(ReportLine(line.key, line.data))
    return {p: tuple(lines) for p, lines in sorted(out.items())}
