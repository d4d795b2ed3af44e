"""Every mix of rule modules on both maps plays to its end with random legal orders, and its maps are drawn.

Standard and Colonial × {Submarines, Espionnite, both}.  Each game ends by its end setting
(``Game.last_year``: a draw once the last year is played out) unless a power wins first;
every phase is adjudicated, and the board of each year is drawn for the game master and for one
power (SVG, well formed, one mark per visible unit).
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from arbitre.judge import Game
from arbitre.judge.game import DRAWN, WON
from arbitre.judge.steps import ORDERS, Accepts
from arbitre.render import render_svg
from arbitre.views import MASTER, build_view

MIXES = [
    (m, r) for m in ("standard", "colonial") for r in (("submarines",), ("espionnite",), ("submarines", "espionnite"))
]


def _play_phase(game: Game, rng: random.Random) -> None:
    if game.step == ORDERS:
        for power in game.powers_to_order():
            game.set_orders(power, [rng.choice(v) for k, v in game.legal_orders(power).items() if k != "WAIVE"])
        while game.next_step is not None:
            game.lock()
    if game.current_step.accepts == Accepts.ONE_CHANGE:
        for power in game.powers_to_order():
            choices = [
                o for k, v in game.legal_orders(power).items() if k not in ("WAIVE", "SPY", "COUNTERSPY") for o in v
            ]
            if choices and rng.random() < 0.5:
                game.set_change(power, rng.choice(choices))
    game.advance()


def _check_drawing(game: Game, viewer: str) -> None:
    view = build_view(game.rules, game.position, viewer)
    svg = render_svg(view)
    root = ET.fromstring(svg)  # well formed
    assert root.tag.endswith("svg")
    marks = [e for e in root.iter() if e.get("class", "").split()[:1] == ["unit"]]
    assert len(marks) == len(view.units), (viewer, len(marks), len(view.units))


@pytest.mark.parametrize(("map_name", "rules"), MIXES, ids=[f"{m}-{'+'.join(r)}" for m, r in MIXES])
def test_mix_plays_to_its_end_and_is_drawn(map_name: str, rules: tuple[str, ...]) -> None:
    first = 1870 if map_name == "colonial" else 1901
    game = Game.new(map_name, rules, last_year=first + 1)
    rng = random.Random(7)
    phases = 0
    while not game.is_over:
        _play_phase(game, rng)
        phases += 1
        assert phases < 40, "the game never ended"
        if game.phase.kind == "M" or game.is_over:
            _check_drawing(game, MASTER)
            _check_drawing(game, game.powers()[0])
    assert game.status in (WON, DRAWN)
    assert game.status == WON or game.phase.year == first + 2
    assert len(game.history) == phases
    # The end setting survives storage.
    assert Game.from_data(game.to_data()).last_year == first + 1
