"""Declared steps and event words in a real browser, in French: the new-game form offers a deadline per
declared step, and a spy report reads in the catalog's French on its power's page only."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.test_browser_variants import POWERS, login, new_game

SCREENS = Path(__file__).resolve().parents[2] / "var" / "screens"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_steps_and_reports_in_french(site: Site, clock: ManualClock) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "mots", ["espionnite"])
        for name in ("FRANCE", "GERMANY"):
            assert bots[name].c.put("/api/me", json={"lang": "fr"}).status_code == 200
        fr = login(b, base, "mots_france")
        fr.set_viewport_size({"width": 390, "height": 900})
        fr.goto(f"{base}/games/new")
        label = fr.inner_text("label:has(#deadline-reaction)")
        assert "Étape de réaction" in label
        fr.screenshot(path=str(SCREENS / "new-game-fr-390.png"), full_page=True)
        bots["FRANCE"].c.put(f"/api/games/{gid}/orders", json={"orders": ["A PAR - BUR", "SPY MUN"]})
        bots["GERMANY"].c.put(f"/api/games/{gid}/orders", json={"orders": ["A MUN - BUR"]})
        for p in POWERS:
            assert bots[p].c.put(f"/api/games/{gid}/orders", json={"ready": True}).status_code == 200
        fr.goto(f"{base}/games/{gid}")
        assert fr.inner_text("#step") == "réaction"
        assert "Votre espion a observé l'unité A MUN (Allemagne) : son ordre est A MUN - BUR." in fr.inner_text(
            "#reveal"
        )
        fr.screenshot(path=str(SCREENS / "reveal-fr-390.png"), full_page=True)
        de = login(b, base, "mots_germany")
        de.goto(f"{base}/games/{gid}")
        assert "A MUN - BUR" not in de.inner_text("#reveal") and "espion" not in de.inner_text("#reveal")
        # the JSON API gives the same words, built from the line's data
        state = bots["FRANCE"].c.get(f"/api/games/{gid}").json()
        line = state["reveal"][0]
        assert line["key"] == "espionnite.spy_succeeded" and line["data"]["target"] == "MUN"
        assert line["en"] == "Your spy watched Germany's A MUN: its order is A MUN - BUR."
