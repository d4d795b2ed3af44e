"""Take the documentation's screenshots of the game page into ``docs/images/``.

Run ``.venv/bin/python tools/screenshots.py`` (chromium: ``ARBITRE_CHROMIUM`` or Debian's ``chromium``).
It starts the demo server on a throwaway SQLite database in a thread, plays a few phases through the JSON API
(the demo's standard game to a retreat and a winter; a Colonial, a Submarines and an Espionnite game), and
shoots each page once: desktop (1366 px) or phone (390 px), light or dark theme (the page follows the
system's ``prefers-color-scheme``). Every picture is a PNG of the top of the page, scaled down, small enough
for the repository (about 150 KB at most). ``--out DIR`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbitre.server.app import make_site  # noqa: E402
from arbitre.server.demo import DEMO_PASSWORD, seed_demo  # noqa: E402
from arbitre.server.site import Settings  # noqa: E402
from tests.server.browser import chromium, chromium_path, live_server  # noqa: E402  (the browser tests' own)

PASSWORD = "password123"
COLONIAL = ["BRITAIN", "CHINA", "FRANCE", "HOLLAND", "JAPAN", "RUSSIA", "TURKEY"]
STANDARD = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
MAX_BYTES = 150_000
# name, who, game key, width, scheme: about a dozen pictures, each variant once, both widths and both themes
SHOTS = [
    ("movement-desktop-light", "france", "demo", 1366, "light"),
    ("movement-phone-light", "france", "demo", 390, "light"),
    ("movement-desktop-dark", "germany", "demo", 1366, "dark"),
    ("retreat-desktop-light", "germany", "retreat", 1366, "light"),
    ("retreat-phone-dark", "germany", "retreat", 390, "dark"),
    ("winter-desktop-dark", "germany", "winter", 1366, "dark"),
    ("winter-phone-light", "germany", "winter", 390, "light"),
    ("colonial-desktop-light", "col_china", "colonial", 1366, "light"),
    ("colonial-phone-dark", "col_china", "colonial", 390, "dark"),
    ("submarines-desktop-dark", "sub_france", "submarines", 1366, "dark"),
    ("espionnite-desktop-light", "spy_france", "espionnite", 1366, "light"),
    ("espionnite-phone-light", "spy_france", "espionnite", 390, "light"),
]


class Client:
    """A JSON API client of the running server, logged in with a bearer token."""

    def __init__(self, base: str, name: str, password: str, register: bool) -> None:
        self.c = httpx.Client(base_url=base, timeout=120)
        if register:
            r = self.c.post("/api/register", json={"name": name, "password": password})
            assert r.status_code == 201, r.text
        r = self.c.post("/api/tokens", json={"name": name, "password": password})
        assert r.status_code in (200, 201), r.text
        self.c.headers["Authorization"] = f"Bearer {r.json()['token']}"

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """Call the API; any answer but a success stops the script with its text."""
        r = self.c.request(method, path, json=body)
        if r.status_code >= 300:
            raise SystemExit(f"{method} {path}: {r.status_code} {r.text}")
        return r.json() if r.content else None


@contextmanager
def serve() -> Iterator[str]:
    """The demo server on a free port of a temporary database (the browser tests' live server): its base URL."""
    folder = tempfile.mkdtemp(prefix="arbitre-shots-")
    site = make_site(Settings(database_url=f"sqlite:///{folder}/demo.sqlite3", adjudication_pause=0.0))
    try:
        seed_demo(site)
        with live_server(site) as base:
            yield base
    finally:
        site.db.dispose()
        shutil.rmtree(folder, ignore_errors=True)


def orders(players: dict[str, Client], gid: int, given: dict[str, list[str]]) -> None:
    """Give ``given`` (power → orders); the other powers give none (their units hold)."""
    for power, lines in given.items():
        players[power].call("PUT", f"/api/games/{gid}/orders", {"orders": lines, "ready": False})


def adjudicate(master: Client, gid: int) -> None:
    """The master processes the phase at once."""
    master.call("POST", f"/api/games/{gid}/master", {"action": "adjudicate"})


def to_retreat(master: Client, players: dict[str, Client], name: str) -> int:
    """A new standard game played to its Fall 1901 retreat (France dislodges Germany's army from Burgundy)."""
    gid = int(
        master.call(
            "POST",
            "/api/games",
            {"name": name, "map": "standard", "assignment": "choice", "deadlines": {"M": 3600, "R": 900, "A": 900}},
        )["id"]
    )
    for p, client in players.items():
        client.call("POST", f"/api/games/{gid}/join", {"role": "player", "power": p})
    orders(players, gid, {"GERMANY": ["F KIE - DEN", "A MUN - BUR", "A BER - KIE"], "FRANCE": ["A PAR H", "A MAR H"]})
    adjudicate(master, gid)
    orders(
        players,
        gid,
        {"GERMANY": ["F DEN H", "A BUR H", "A KIE H"], "FRANCE": ["A MAR - BUR", "A PAR S A MAR - BUR", "F BRE - MAO"]},
    )
    adjudicate(master, gid)
    return gid


def demo_games(base: str) -> dict[str, int]:
    """The demo game, a game at a retreat and one at a winter; returns game key → id."""
    master = Client(base, "master", DEMO_PASSWORD, register=False)
    players = {p: Client(base, p.lower(), DEMO_PASSWORD, register=False) for p in STANDARD}
    games = {"demo": 1, "retreat": to_retreat(master, players, "Demo 1901")}
    # the winter: a second game played to the same retreat, then one phase further
    winter = to_retreat(master, players, "Demo winter")
    orders(players, winter, {"GERMANY": ["A BUR - MUN"]})
    adjudicate(master, winter)
    games["winter"] = winter
    # the demo game itself: France's orders are given, so the page shows them drawn
    orders(players, 1, {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]})
    return games


def variant_game(
    base: str, tag: str, map_name: str, rules: list[str], powers: list[str], options: dict[str, str]
) -> int:
    """A running game of a variant whose players are API clients named ``{tag}_{power}``; one phase played."""
    master = Client(base, f"{tag}_gm", PASSWORD, register=True)
    body = {
        "name": tag.capitalize(),
        "map": map_name,
        "rules": rules,
        "options": options,
        "assignment": "choice",
        "deadlines": {"M": 3600, "R": 3600, "A": 3600, "reaction": 600},
    }
    gid = int(master.call("POST", "/api/games", body)["id"])
    for p in powers:
        Client(base, f"{tag}_{p.lower()}", PASSWORD, register=True).call(
            "POST", f"/api/games/{gid}/join", {"role": "player", "power": p}
        )
    return gid


def shrink(png: bytes) -> bytes:
    """The picture as a PNG of at most ``MAX_BYTES``: scaled down, then reduced to a palette if needed."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = b""
    for scale in (0.75, 0.6, 0.5, 0.4):
        small = image.resize((int(image.width * scale), int(image.height * scale)), Image.Resampling.LANCZOS)
        for colours in (256, 128, 64):
            buf = io.BytesIO()
            small.quantize(colours, method=Image.Quantize.MEDIANCUT).save(buf, "PNG", optimize=True)
            out = buf.getvalue()
            if len(out) <= MAX_BYTES:
                return out
    return out


def shoot(page: Page, base: str, gid: int, path: Path, width: int) -> None:
    """The game page's "now" board, the top of the page (a phone: one and a half screens)."""
    page.goto(f"{base}/games/{gid}")
    button = page.query_selector("#show-now")
    if button is not None and button.get_attribute("aria-pressed") != "true":
        button.click()
    page.wait_for_selector("#now .map svg", timeout=60_000)  # the map is fetched after the page loads
    page.wait_for_timeout(400)  # the live check and previews settle
    height = 1100 if width < 600 else 900
    png = page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height}, full_page=True)
    path.write_bytes(shrink(png))


def main() -> None:
    """Start the server, play the games, take the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder of the pictures")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = chromium_path()
    if not path:
        raise SystemExit("chromium not found (set ARBITRE_CHROMIUM)")
    with serve() as base, chromium(path) as browser:
        games = demo_games(base)
        games["colonial"] = variant_game(base, "col", "colonial", [], COLONIAL, {})
        games["submarines"] = variant_game(
            base, "sub", "standard", ["submarines"], STANDARD, {"start_submarines": "FRANCE:BRE"}
        )
        games["espionnite"] = variant_game(base, "spy", "standard", ["espionnite"], STANDARD, {})
        passwords = dict.fromkeys(("france", "germany"), DEMO_PASSWORD)
        for name, who, key, width, scheme in SHOTS:
            context = browser.new_context(
                viewport={"width": width, "height": 1100 if width < 600 else 900},
                color_scheme=scheme,
                locale="en-GB",
                timezone_id="Europe/Paris",
                device_scale_factor=1,
            )
            page = context.new_page()
            page.goto(base + "/login")
            page.fill("#name", who)
            page.fill("#password", passwords.get(who, PASSWORD))
            page.click("#submit")
            page.wait_for_selector("#nav-account")
            target = args.out / f"{name}.png"
            shoot(page, base, games[key], target, width)
            print(
                f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: {target.stat().st_size} bytes"
            )
            context.close()


if __name__ == "__main__":
    main()
