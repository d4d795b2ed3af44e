"""The house bot: every order it gives is accepted, it is deterministic for its seed, it sees only its view,
and whole games of bots play to their end on every map and rule-module mix."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from arbitre.bots import Bot, HoldBot, HouseBot, RandomBot, bot_step, make_bot, play_game
from arbitre.bots.rng import Rng, stable_hash
from arbitre.judge import DRAWN, WON, Game
from arbitre.words.events import report_line_text

from .test_submarines_property import RULES, hidden_scene

MIXES = [
    (m, r)
    for m in ("standard", "colonial")
    for r in ((), ("submarines",), ("espionnite",), ("submarines", "espionnite"))
]
FIRST_YEAR = {"standard": 1901, "colonial": 1870}


class Checked:
    """Wraps a bot: every order it gives must be accepted by the judge (checked before it is given)."""

    def __init__(self, bot: Bot, game: Game, log: list[str]) -> None:
        self.name = bot.name
        self.bot = bot
        self.game = game
        self.log = log

    def orders(self, rules: Any, view: Any, legal: Any) -> list[str]:
        out = self.bot.orders(rules, view, legal)
        rejected = self.game.check_orders(view.viewer, out)
        assert rejected == [], [(r.order_text, r.message) for r in rejected]
        self.log.extend(f"{view.phase} {view.viewer}: {o}" for o in out)
        return out

    def reaction(self, rules: Any, view: Any, legal: Any) -> str | None:
        change = self.bot.reaction(rules, view, legal)
        if change is not None:
            self.game.check_change(view.viewer, change)  # raises if not legal
            self.log.append(f"{view.phase} {view.viewer} reacts: {change}")
        return change


def _play(map_name: str, rules: tuple[str, ...], years: int, seed: int = 7) -> tuple[Game, list[str]]:
    game = Game.new(map_name, rules)
    log: list[str] = []
    bots: dict[str, Bot] = {p: Checked(HouseBot(seed), game, log) for p in game.powers()}
    play_game(game, bots, end_year=FIRST_YEAR[map_name] + years - 1)
    return game, log


@pytest.mark.parametrize(("map_name", "rules"), MIXES, ids=lambda x: x if isinstance(x, str) else "+".join(x) or "none")
def test_a_game_of_bots_plays_to_its_end_with_every_order_accepted(map_name: str, rules: tuple[str, ...]) -> None:
    years = 6 if map_name == "standard" else 3
    game, log = _play(map_name, rules, years)
    assert game.is_over and game.status in (WON, DRAWN)
    assert game.status == WON or game.phase.year == FIRST_YEAR[map_name] + years  # the end rule: draw after the cap
    kinds = {k for k in ("orders", "retreat", "build") if any(k in line for line in log)}
    assert len(game.history) >= 3 * years and log
    assert (
        any(" B" in line for line in log) and any(" - " in line for line in log) and any(" S " in line for line in log)
    )
    if "espionnite" in rules:
        assert any(": SPY " in line for line in log) and any(": COUNTERSPY " in line for line in log)
        assert any("reacts:" in line for line in log)
    if "submarines" in rules:
        assert any("SM " in line and " B" in line for line in log)  # builds submarines
    if map_name == "colonial":
        assert any(" - TSR - " in line for line in log)  # rides the railroad
    assert kinds is not None


def test_the_bot_dives_surfaces_and_torpedoes_in_a_longer_submarines_game() -> None:
    _, log = _play("standard", ("submarines",), 10, seed=3)
    moves = [line.split(": ")[1].split(" - ") for line in log if line.count(" - ") == 1 and " S " not in line]
    assert any(b.endswith("-1") and not a.endswith("-1") for a, b in moves)  # dives: SM X - X-1
    assert any(a.endswith("-1") and not b.endswith("-1") for a, b in moves)  # surfaces: SM X-1 - X
    assert any("Torp." in line for line in log)


def test_the_bot_convoys_and_uses_the_canal_in_long_games() -> None:
    _, log = _play("standard", (), 10, seed=5)
    assert any(" C A " in line for line in log) and any(" VIA" in line for line in log)
    _, log = _play("colonial", (), 8, seed=5)
    assert any(line.split(": ")[1].startswith("SC ") for line in log)


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    a, log_a = _play("standard", ("espionnite",), 3, seed=11)
    b, log_b = _play("standard", ("espionnite",), 3, seed=11)
    _c, log_c = _play("standard", ("espionnite",), 3, seed=12)
    assert log_a == log_b and a.to_data() == b.to_data()
    assert log_a != log_c


def test_the_random_numbers_are_stable_across_runs() -> None:
    assert stable_hash("x", 1) == stable_hash("x", 1) != stable_hash("x", 2)
    rng = Rng(1)
    draws = [rng.below(100) for _ in range(5)]
    assert draws == [Rng(1).below(100), *list(draws[1:])] and len(set(draws)) > 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=hidden_scene())
def test_the_bot_gives_the_same_orders_whatever_it_cannot_see(scene: Any) -> None:
    """Two games differing only in other powers' submerged submarines and pending orders: the same orders."""
    viewer, pos_a, pos_b, others_a, others_b = scene
    game = Game.new("standard", ["submarines"])
    said = []
    for pos, others in ((pos_a, others_a), (pos_b, others_b)):
        game.position = pos
        game.pending = {p: list(o) for p, o in others.items()}
        said.append(
            [
                make_bot(kind, 5).orders(RULES, game.view(viewer), game.legal_orders(viewer))
                for kind in ("house", "random", "hold")
            ]
        )
    assert said[0] == said[1]


def test_the_bot_reacts_the_same_whatever_it_cannot_see_in_espionnite() -> None:
    """In the reaction step, the other powers' orders that no spy of ours saw do not change our change."""
    reactions = []
    for other in (["A BER - KIE", "F KIE - HOL"], ["A BER H", "F KIE - DEN", "SPY PAR"]):
        game = Game.new("standard", ["espionnite"])
        game.set_orders("FRANCE", ["A PAR - BUR", "A MAR H", "F BRE H", "SPY MUN", "COUNTERSPY PAR"])
        game.set_orders("GERMANY", ["A MUN - BUR", *other])
        game.lock()
        assert game.step == "reaction"
        view = game.view("FRANCE")
        reactions.append(
            (
                [report_line_text(game.rules, line, "en") for line in view.report],
                HouseBot(1).reaction(game.rules, view, game.legal_orders("FRANCE")),
            )
        )
    assert reactions[0] == reactions[1]
    assert reactions[0][1] == "A MAR S A PAR - BUR"  # the spy saw A MUN - BUR: support the move it would bounce


def test_seats_without_a_bot_hold_and_baselines_give_accepted_orders() -> None:
    game = Game.new("standard")
    log: list[str] = []
    bots: dict[str, Bot] = {
        p: Checked(cls(i), game, log)
        for i, (p, cls) in enumerate(zip(game.powers()[:4], itertools.cycle((HoldBot, RandomBot)), strict=False))
    }
    play_game(game, bots, end_year=1903)
    assert game.status == DRAWN and all(line.split(":")[0].split()[1] in game.powers()[:4] for line in log)
    game2 = Game.new("standard")
    bot_step(game2, {"FRANCE": HouseBot(0)})
    assert sorted(game2.pending) == ["FRANCE"] and len(game2.pending["FRANCE"]) == 3


def test_make_bot_refuses_unknown_kinds() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")
