"""Variants in a real browser: a Submarines game whose pages never show another power a submerged unit,
and an Espionnite game going through the reveal and the reaction step."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
PASSWORD = "password123"


class Bot:
    """An API client of the live server."""

    def __init__(self, base: str, name: str) -> None:
        self.name = name
        self.c = httpx.Client(base_url=base, timeout=60)
        assert self.c.post("/api/register", json={"name": name, "password": PASSWORD}).status_code == 201
        token = self.c.post("/api/tokens", json={"name": name, "password": PASSWORD}).json()["token"]
        self.c.headers["Authorization"] = f"Bearer {token}"


def new_game(
    base: str, tag: str, rules: list[str], options: dict[str, Any] | None = None
) -> tuple[int, Bot, dict[str, Bot]]:
    master = Bot(base, f"{tag}_gm")
    r = master.c.post(
        "/api/games",
        json={
            "name": tag,
            "rules": rules,
            "options": options or {},
            "assignment": "choice",
            "deadlines": {"M": 3600, "reaction": 600},
        },
    )
    gid = r.json()["id"]
    bots = {}
    for p in POWERS:
        bots[p] = Bot(base, f"{tag}_{p.lower()}")
        assert bots[p].c.post(f"/api/games/{gid}/join", json={"role": "player", "power": p}).status_code == 200
    return gid, master, bots


def login(b: Any, base: str, name: str) -> Any:
    page = b.new_context().new_page()
    page.goto(base + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("#nav-account")
    return page


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_submarines_pages_hide_foreign_submerged_units(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, "subs", ["submarines"], {"start_submarines": "FRANCE:BRE"})
        watcher = Bot(base, "subs_watcher")
        watcher.c.post(f"/api/games/{gid}/join", json={"role": "observer"})

        def play(orders: dict[str, list[str]]) -> None:
            for p, lines in orders.items():
                assert bots[p].c.put(f"/api/games/{gid}/orders", json={"orders": lines}).json()["rejected"] == []
            assert master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200

        # France's submarine sails, dives, then moves in the depths (via the order form in the browser)
        play({"FRANCE": ["SM BRE - MAO"]})
        play({})
        play({"FRANCE": ["SM MAO - MAO-1"]})
        play({})
        fr = login(b, base, "subs_france")
        fr.goto(f"{base}/games/{gid}")
        fr.click("#show-now")
        fr.fill("#orders", "SM MAO-1 - IRI-1")
        fr.wait_for_selector("#check .ok")
        fr.click("#submit-orders")
        fr.wait_for_selector("#note")
        play({})
        fr.goto(f"{base}/games/{gid}")
        assert "IRI-1" in fr.inner_text("#units")
        secret = "IRI-1"
        for name in [f"subs_{p.lower()}" for p in POWERS if p != "FRANCE"] + ["subs_watcher"]:
            page = login(b, base, name)
            urls = [f"{base}/games/{gid}", f"{base}/games/{gid}/history", f"{base}/games/{gid}/messages"]
            urls += [f"{base}/games/{gid}/history/{i}" for i in range(5)]
            for url in urls:
                page.goto(url)
                assert secret not in page.content(), (name, url)
                img = page.query_selector("#map")
                if img is not None:
                    src = img.get_attribute("src") or img.get_attribute("data-src")
                    svg = page.request.get(base + src).text()
                    assert secret not in svg, (name, url)
            api = httpx.Client(base_url=base, cookies={c["name"]: c["value"] for c in page.context.cookies()})
            for path in (f"/api/games/{gid}", f"/api/games/{gid}/history/4", f"/api/games/{gid}/messages"):
                assert secret not in api.get(path).text, (name, path)
            page.context.close()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_espionnite_reveal_and_reaction_in_the_browser(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "spy", ["espionnite"])
        fr = login(b, base, "spy_france")
        de = login(b, base, "spy_germany")
        fr.goto(f"{base}/games/{gid}")
        fr.fill("#orders", "A PAR - BUR\nSPY MUN")
        fr.wait_for_selector("#check .ok")
        fr.check("#ready")
        fr.click("#submit-orders")
        fr.wait_for_selector("#note")
        de.goto(f"{base}/games/{gid}")
        de.fill("#orders", "A MUN - BUR")
        de.wait_for_selector("#check .ok")
        de.check("#ready")
        de.click("#submit-orders")
        de.wait_for_selector("#note")
        for p in POWERS:
            if p not in ("FRANCE", "GERMANY"):
                bots[p].c.put(f"/api/games/{gid}/orders", json={"ready": True})
        # the reveal: France's spy report, on France's page only
        fr.goto(f"{base}/games/{gid}")
        assert fr.inner_text("#step") == "reaction"
        assert "A MUN - BUR" in fr.inner_text("#reveal")
        assert "A PAR - BUR" in fr.inner_text("#locked")
        de.goto(f"{base}/games/{gid}")
        assert "A MUN - BUR" not in de.inner_text("#reveal")
        # the reaction: France changes one order
        fr.fill("#orders", "A PAR - PIC")
        fr.wait_for_selector("#check .ok")
        fr.check("#ready")
        fr.click("#submit-orders")
        fr.wait_for_selector("#note")
        for p in POWERS:
            if p != "FRANCE":
                bots[p].c.put(f"/api/games/{gid}/orders", json={"ready": True})
        fr.goto(f"{base}/games/{gid}")
        assert fr.get_attribute("#phase", "data-phase") == "F1901M" and fr.inner_text("#step") == "orders"
        fr.goto(f"{base}/games/{gid}/history/0")
        results = fr.inner_text("#results")
        assert "A PAR - PIC" in results and "A MUN - BUR" in results
