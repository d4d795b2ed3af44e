"""The demo: on an empty database, seven players and a master in a running standard game."""

from __future__ import annotations

from sqlalchemy import func, select

from arbitre.life.forming import GameSettings, create_game, join
from arbitre.server.security import hash_password
from arbitre.server.site import Site
from arbitre.store.accounts import create_user
from arbitre.store.models import PLAYER, User

DEMO_PASSWORD = "diplomacy"
"""Password of every demo account."""
DEMO_MASTER = "master"
"""User name of the demo game's master."""
DEMO_PLAYERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
"""User names of the demo players; each holds the power of the same name."""


def seed_demo(site: Site) -> bool:
    """Create the demo accounts and game when there are no users yet; returns True if it did."""
    now = site.now()
    with site.db.writing() as s:
        if s.scalar(select(func.count()).select_from(User)):
            return False
        hashed = hash_password(DEMO_PASSWORD)
        master = create_user(s, DEMO_MASTER, hashed, "en", now)
        row = create_game(
            s, master, GameSettings(name="Demo", assignment="choice", deadlines={"M": 3600, "R": 900, "A": 900}), now
        )
        powers = site.referee.game(s, row).powers()
        for name in DEMO_PLAYERS:
            user = create_user(s, name, hashed, "en", now)
            join(s, row, user, PLAYER, powers, name.upper())
        site.referee.maybe_start(s, row, now)
    return True
