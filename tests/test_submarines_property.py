"""Property tests: changing only what a power may not see changes nothing that power can read.

1. Before adjudication: moving other powers' submerged submarines around (and
   changing other powers' pending orders) leaves a power's view, the verdict
   and words of every order check, and its list of legal orders byte-identical.
2. After adjudication, through the JSON interface: moving other powers'
   submerged submarines inside a quiet zone of the depths, and changing their
   orders, leaves a power's (and an observer's) whole answer byte-identical —
   results, report and ``next`` — when none of the power's units is near
   enough to learn anything by the rules (sonar, attacks, torpedoes).

Views are compared as JSON text.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.adjudicator import adjudicate
from arbitre.interface import process
from arbitre.judge import Game
from arbitre.state import Position
from arbitre.variants.submarines import SUB, is_depth
from arbitre.views import build_view, view_to_data

from .submarines_helpers import RULES, position

GMAP = RULES.game_map
POWERS = sorted(GMAP.powers)
DEPTHS = sorted(p for p in GMAP.provinces if is_depth(p))
START = {power: list(info.start_units) for power, info in GMAP.powers.items()}


def _dump(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)


# ---------------------------------------------------------------------- 1. before adjudication
def _order_pool(own_places: Sequence[str]) -> list[str]:
    """Orders a power might write about depth places, its own units and others'."""
    pool: list[str] = []
    for d in DEPTHS:
        pool += [
            f"SM {d} H",
            f"SM {d} - {sorted(GMAP.neighbours(SUB, d))[0]}",
            f"SM {d} Torp. {d[:-2]}",
            f"F LON S SM {d}",
            f"SPY {d}",
        ]
        for mine in own_places:
            pool += [
                f"SM {mine} S SM {d}",
                f"SM {mine} S SM {d} - {d[:-2]}",
                f"SM {mine} - {d}",
                f"SM {mine} S SM {d} Torp. {d[:-2]}",
            ]
    return pool


@st.composite
def hidden_scene(draw: st.DrawFn) -> tuple[str, Position, Position, dict[str, list[str]], dict[str, list[str]]]:
    """A viewer, two positions differing only in other powers' submerged submarines, two sets of others' orders."""
    viewer = draw(st.sampled_from(POWERS))
    own = draw(st.lists(st.sampled_from(DEPTHS), max_size=2, unique=True))
    free = [d for d in DEPTHS if d not in own]
    owners = draw(st.lists(st.sampled_from([p for p in POWERS if p != viewer]), min_size=1, max_size=4))
    a = draw(st.lists(st.sampled_from(free), min_size=len(owners), max_size=len(owners), unique=True))
    b = draw(st.lists(st.sampled_from(free), min_size=len(owners), max_size=len(owners), unique=True))
    pool = _order_pool(own)
    positions = []
    pendings = []
    for places in (a, b):
        units = {p: list(u) for p, u in START.items()}
        units[viewer] = units[viewer] + [f"SM {d}" for d in own]
        for power, place in zip(owners, places, strict=True):
            units[power].append(f"SM {place}")
        positions.append(position(units))
        pendings.append({p: draw(st.lists(st.sampled_from(pool), max_size=3)) for p in set(owners)})
    return viewer, positions[0], positions[1], pendings[0], pendings[1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=hidden_scene(), data=st.data())
def test_a_power_reads_the_same_whatever_it_cannot_see(scene: Any, data: st.DataObject) -> None:
    viewer, pos_a, pos_b, others_a, others_b = scene
    own = [u.place for u in pos_a.units.values() if u.power == viewer and is_depth(u.place)]
    mine = data.draw(st.lists(st.sampled_from(_order_pool(own)), max_size=6), label="viewer's orders")
    game = Game.new("standard", ["submarines"])
    read: list[str] = []
    for pos, others in ((pos_a, others_a), (pos_b, others_b)):
        game.position = pos
        pending = {**others, viewer: mine}
        checks = [(r.text, r.outcome, r.reason, r.message) for o in mine for r in game.check_orders(viewer, [o])]
        for _, _, _, message in checks:
            assert not any(p in (message or "") for p in POWERS if p != viewer) or "belongs to" in (message or "")
        read.append(
            _dump(
                [
                    view_to_data(build_view(RULES, pos, viewer, pending=pending)),
                    view_to_data(build_view(RULES, pos, "observer", pending=pending)),
                    checks,
                    game.legal_orders(viewer),
                ]
            )
        )
    assert read[0] == read[1]


# ---------------------------------------------------------------------- 2. after adjudication
def _distances(start: str) -> dict[str, int]:
    links: dict[str, set[str]] = {}
    for table in GMAP.province_neighbours.values():
        for place, near in table.items():
            prov = GMAP.province_of[place]
            links.setdefault(prov, set()).update(near)
            for n in near:
                links.setdefault(n, set()).add(prov)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        for q in links.get(p, ()):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def _hidden_orders(draw: st.DrawFn, placed: Mapping[str, str]) -> dict[str, list[str]]:
    """Orders for submerged submarines that stay in the depths: hold, move, or support each other there."""
    out: dict[str, list[str]] = {}
    for place, power in placed.items():
        depth_moves = sorted(n for n in GMAP.neighbours(SUB, place) if is_depth(n))
        choices = [f"SM {place} H"] + [f"SM {place} - {n}" for n in depth_moves]
        choices += [f"SM {place} S SM {other}" for other in placed if other in depth_moves]
        out.setdefault(power, []).append(draw(st.sampled_from(choices)))
    return out


@st.composite
def quiet_scene(draw: st.DrawFn) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Two requests differing only in submerged submarines of other powers inside a quiet zone."""
    centre = draw(st.sampled_from(DEPTHS))
    zone = [centre, *sorted(n for n in GMAP.neighbours(SUB, centre) if is_depth(n))]
    far = {p for p, d in _distances(centre).items() if d >= 5}
    viewer = draw(st.sampled_from(POWERS))
    units: dict[str, list[str]] = {}
    for power, start in START.items():
        kept = [u for u in start if GMAP.province_of[u.split()[1]] in far]
        units[power] = draw(st.lists(st.sampled_from(kept), unique=True)) if kept else []
    far_depths = [d for d in DEPTHS if d in far]
    if far_depths:
        units[viewer] += [f"SM {d}" for d in draw(st.lists(st.sampled_from(far_depths), max_size=2, unique=True))]
    owners = draw(st.lists(st.sampled_from([p for p in POWERS if p != viewer]), min_size=1, max_size=min(3, len(zone))))
    visible_orders: dict[str, list[str]] = {}
    game = Game.new("standard", ["submarines"])
    game.position = position(units)
    for power in POWERS:
        options = game.legal_orders(power)
        visible_orders[power] = [draw(st.sampled_from(sorted(v))) for _, v in sorted(options.items())]
    requests = []
    for _ in range(2):
        places = draw(st.lists(st.sampled_from(zone), min_size=len(owners), max_size=len(owners), unique=True))
        placed = dict(zip(places, owners, strict=True))
        with_hidden = {p: list(u) for p, u in units.items()}
        for place, power in placed.items():
            with_hidden[power].append(f"SM {place}")
        hidden = _hidden_orders(draw, placed)
        orders = {p: visible_orders[p] + hidden.get(p, []) for p in POWERS}
        requests.append({"rules": ["submarines"], "phase": "F1901M", "units": with_hidden, "orders": orders})
    return viewer, requests[0], requests[1]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=quiet_scene())
def test_outcomes_read_the_same_whatever_happens_out_of_sight(scene: Any) -> None:
    viewer, request_a, request_b = scene
    read = []
    for request in (request_a, request_b):
        pos = position(request["units"], request["phase"])
        outcome = adjudicate(RULES, pos, request["orders"])
        read.append(
            _dump(
                [view_to_data(build_view(RULES, pos, who, outcome)) for who in (viewer, "observer")]
                + [view_to_data(build_view(RULES, outcome.after, who)) for who in (viewer, "observer")]
            )
        )
    assert read[0] == read[1]
    for who in (viewer, "observer"):
        answer_a = process({**request_a, "viewer": who})
        answer_b = process({**request_b, "viewer": who})
        assert _dump(answer_a) == _dump(answer_b)
        # The answer is valid input again.
        again = process({**answer_a["next"], "rules": ["submarines"], "viewer": who})
        assert again["phase"] == answer_a["next"]["phase"]
