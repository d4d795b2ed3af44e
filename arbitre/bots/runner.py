"""Play a game with bots in some or all seats: the loop the CLI, tests and benchmarks share.

Each bot is asked with its power's view and legal orders only.  A bot game
has one end rule besides victory: with ``end_year``, a game still running
after that year's last phase ends as a draw of the powers still in it (the
same as the players agreeing a draw).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from arbitre.bots.house import Bot
from arbitre.judge import Accepts, Game


def bot_step(game: Game, bots: Mapping[str, Bot]) -> None:
    """Give the orders of every bot seat that must act in the current step (orders, or one change)."""
    if game.current_step.accepts == Accepts.ONE_CHANGE:
        for power in sorted(bots):
            if power in game.powers_to_order():
                change = bots[power].reaction(game.rules, game.view(power), game.legal_orders(power))
                if change:
                    game.set_change(power, change)
        return
    for power in game.powers_to_order():
        if power in bots:
            game.set_orders(power, bots[power].orders(game.rules, game.view(power), game.legal_orders(power)))


def play_phase(game: Game, bots: Mapping[str, Bot]) -> None:
    """Bots order, the orders lock (when the phase declares a lock), bots change one order, the phase is adjudicated."""
    if game.current_step.accepts == Accepts.ORDERS:
        bot_step(game, bots)
        while game.next_step is not None:
            game.lock()
    if game.current_step.accepts == Accepts.ONE_CHANGE:
        bot_step(game, bots)
    game.advance()


def play_game(
    game: Game, bots: Mapping[str, Bot], end_year: int | None = None, on_phase: Callable[[Game], None] | None = None
) -> Game:
    """Play ``game`` to its end (victory, or the draw after ``end_year``); seats without a bot hold."""
    while not game.is_over:
        if end_year is not None and game.phase.year > end_year:
            game.declare_draw()
            break
        play_phase(game, bots)
        if on_phase is not None:
            on_phase(game)
    return game
