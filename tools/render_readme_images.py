"""Render the README pictures: a standard and a Colonial game in the middle of play.

Usage: ``python tools/render_readme_images.py [--seed N] [--phases N]``.  Each game
is played with random legal orders (seeded, so the pictures can be made again),
then the game master's view of the last movement phase is drawn with its orders
and results, and written to ``docs/images/{standard,colonial}-midgame.png``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from arbitre.cli.mapview import game_view
from arbitre.judge import Game
from arbitre.render import render_svg, svg_to_png

ROOT = Path(__file__).resolve().parents[1]


def play(map_name: str, phases: int, seed: int) -> Game:
    """A game after ``phases`` phases of random legal orders, stopped right after a movement phase."""
    game = Game.new(map_name)
    rng = random.Random(seed)
    n = 0
    while not game.is_over:
        for p in game.powers_to_order():
            legal = game.legal_orders(p)
            game.set_orders(p, [rng.choice(v) for k, v in legal.items() if k != "WAIVE"])
        rec_kind = game.position.phase.kind
        game.advance()
        n += 1
        if n >= phases and rec_kind == "M":
            break
    return game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--phases", type=int, default=14)
    ap.add_argument("--maps", nargs="*", default=["standard", "colonial"])
    ap.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = ap.parse_args()
    for name in args.maps:
        game = play(name, args.phases, args.seed)
        view = game_view(game, "master", str(game.history[-1].position.phase))
        names = {a: p.name for a, p in game.rules.game_map.provinces.items()}
        svg = render_svg(view, names=names)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{name}-midgame.png").write_bytes(svg_to_png(svg))
        print(f"{name}: {view.phase}, {len(view.units)} units, {len(view.orders)} orders -> {out / (name + '-midgame.png')}")


if __name__ == "__main__":
    main()
