"""Helpers for the map-ordering browser tests: API players, a browser page per player, clicks on places."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
PASSWORD = "password123"
ARTIFACTS = Path(os.environ.get("ARBITRE_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))


class Bot:
    """An API client of the live server (a player or master who does not use the browser)."""

    def __init__(self, base: str, name: str) -> None:
        self.name = name
        self.c = httpx.Client(base_url=base, timeout=60)
        assert self.c.post("/api/register", json={"name": name, "password": PASSWORD}).status_code == 201
        token = self.c.post("/api/tokens", json={"name": name, "password": PASSWORD}).json()["token"]
        self.c.headers["Authorization"] = f"Bearer {token}"


def new_game(
    base: str,
    tag: str,
    map_name: str = "standard",
    rules: list[str] | None = None,
    options: dict[str, Any] | None = None,
    powers: list[str] | None = None,
) -> tuple[int, Bot, dict[str, Bot]]:
    """A running game whose players are API bots named ``{tag}_{power}``; returns (id, master, bots)."""
    master = Bot(base, f"{tag}_gm")
    r = master.c.post(
        "/api/games",
        json={
            "name": tag,
            "map": map_name,
            "rules": rules or [],
            "options": options or {},
            "assignment": "choice",
            "deadlines": {"M": 3600, "R": 3600, "A": 3600, "reaction": 600},
        },
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    bots = {}
    for p in powers or POWERS:
        bots[p] = Bot(base, f"{tag}_{p.lower()}")
        r = bots[p].c.post(f"/api/games/{gid}/join", json={"role": "player", "power": p})
        assert r.status_code == 200, r.text
    return gid, master, bots


def register(page: Any, base: str, name: str) -> None:
    """Register ``name`` through the page's form (the page is then logged in)."""
    page.goto(base + "/register")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("#nav-account")


def shoot_both(page: Any, folder: Path, name: str) -> None:
    """Save full-page screenshots of ``page`` at its width and at a 390 px phone width (then restore it)."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    width = page.viewport_size["width"] if page.viewport_size else 1280
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(folder / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size({"width": width, "height": 900})


def login(b: Any, base: str, name: str, width: int = 1280, height: int = 1100, bypass_csp: bool = True) -> Any:
    """A new browser page logged in as ``name`` (``bypass_csp=False``: under the site's own Content-Security-Policy,
    as a player's browser; then ``wait_for_function`` cannot be used)."""
    page = b.new_context(
        viewport={"width": width, "height": height}, locale="en-GB", timezone_id="Europe/Paris", bypass_csp=bypass_csp
    ).new_page()  # wait_for_function evaluates strings, which the CSP forbids
    page.goto(base + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("#nav-account")
    return page


def open_now(page: Any, base: str, gid: int) -> None:
    """The game page on its "now" board (the switch is shown once a phase was played)."""
    page.goto(f"{base}/games/{gid}")
    if page.query_selector("#show-now"):
        page.click("#show-now")
    page.wait_for_selector("#map svg")


def tap(page: Any, place: str) -> None:
    """Click (tap) where the unit of ``place`` is drawn on the live map, as a person would."""
    page.wait_for_selector("#map svg")  # the map is fetched after the page loads (mapfetch.js)
    point = page.evaluate(
        """(p) => {
        const svg = document.querySelector('#map svg');
        const e = [...svg.querySelectorAll('[data-place][data-x]')].find((e) => e.dataset.place === p);
        if (!e) return null;
        svg.scrollIntoView({block: 'nearest'});
        const m = svg.getScreenCTM();
        const x = m.a * (+e.dataset.x) + m.e, y = m.d * (+e.dataset.y) + m.f;
        if (y < 0 || y > window.innerHeight) { window.scrollBy(0, y - window.innerHeight / 2); }
        const m2 = svg.getScreenCTM();
        return {x: m2.a * (+e.dataset.x) + m2.e, y: m2.d * (+e.dataset.y) + m2.f};
    }""",
        place,
    )
    assert point is not None, f"{place} is not on the map"
    page.mouse.click(point["x"], point["y"])


def choose(page: Any, order: str) -> None:
    """Pick ``order`` in the map's menu (when the clicks leave several orders)."""
    page.click(f"#map-menu button.menu-order:text-is('{order}')")


def order_by_clicks(page: Any, places: list[str], order: str | None = None) -> None:
    """Click ``places`` in turn; then pick ``order`` from the menu if it was not added at once."""
    for p in places:
        tap(page, p)
    if order is not None and page.query_selector("#map-menu button.menu-order"):
        choose(page, order)


def box_lines(page: Any) -> list[str]:
    """The lines of the order box."""
    text: str = page.input_value("#orders")
    return [line.strip() for line in text.splitlines() if line.strip()]


def submit(page: Any, ready: bool = True) -> None:
    """Wait for the live check to approve, tick ready, and submit the form."""
    page.wait_for_selector("#check .ok")
    if ready:
        page.check("#ready")
    page.click("#submit-orders")
    page.wait_for_selector("#note")


def shot(page: Any, name: str) -> None:
    """Save a screenshot under the git-ignored artifacts folder."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
