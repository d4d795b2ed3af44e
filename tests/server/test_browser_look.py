"""The look of the game page in chromium, at 1366 px and 390 px, in English and French: the map beside the
orders on a desktop and first on a phone, the map's order menu where the finger is, your units as large
buttons that give orders, a zoom bar that covers nothing of the map, the dark theme of the system, text
contrast of both themes and the map in them, the keyboard on the unit buttons, and post/redirect/get after an
invalid submission (the live update goes on)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import box_lines, login, new_game, open_now, shot

COLONIAL = ["BRITAIN", "CHINA", "FRANCE", "HOLLAND", "JAPAN", "RUSSIA", "TURKEY"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
WORDS = {  # the catalog's words for the controls the layout test uses
    "en": {
        "submit": "Submit orders",
        "zoom_in": "Zoom in",
        "whole": "Whole map",
        "rejected": "Some orders are not valid; they are kept and will fail:",
    },
    "fr": {
        "submit": "Envoyer les ordres",
        "zoom_in": "Agrandir",
        "whole": "Carte entière",
        "rejected": "Certains ordres ne sont pas valables ; ils sont gardés et échoueront :",
    },
}
PAIRS = [
    ("text", "bg"),
    ("text", "surface"),
    ("muted", "bg"),
    ("muted", "surface"),
    ("link", "bg"),
    ("link", "surface"),
    ("accent-text", "accent"),
    ("bar-text", "bar"),
    ("bad", "surface"),
    ("ok", "surface"),
    ("warn", "surface"),
    ("text", "ok-bg"),
    ("text", "bad-bg"),
    ("text", "warn-bg"),
]
"""Text and background colours of the stylesheet that must reach 4.5:1 in each theme."""


def box(page: Any, selector: str) -> dict[str, float]:
    """The element's rectangle in the viewport."""
    rect: dict[str, float] = page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.left, y: r.top, w: r.width, h: r.height}; }",
        selector,
    )
    return rect


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Do the two rectangles share any area?"""
    return (
        a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]
    )


def tap_point(page: Any, place: str) -> dict[str, float]:
    """Scroll ``place``'s unit into the middle of the screen; where it is drawn, in the viewport."""
    point: dict[str, float] = page.evaluate(
        """(p) => {
        const svg = document.querySelector('#map svg');
        const e = [...svg.querySelectorAll('[data-place][data-x]')].find((e) => e.dataset.place === p);
        const at = () => { const m = svg.getScreenCTM(); return {x: m.a * (+e.dataset.x) + m.e, y: m.d * (+e.dataset.y) + m.f}; };
        window.scrollBy(0, at().y - window.innerHeight / 2);
        return at();
    }""",
        place,
    )
    return point


def french(page: Any) -> None:
    """Switch the reader's language to French with the header's button."""
    page.click("#switch-lang")
    page.wait_for_selector("html[lang=fr]")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_layout_menu_unit_buttons_and_zoom_at_both_widths(site: Site, clock: ManualClock, lang: str) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, _bots = new_game(base, f"look{lang}")
        page = login(b, base, f"look{lang}_france", width=1366, height=900)
        if lang == "fr":
            french(page)
        # desktop: the order column beside the map, both starting in the first screen
        open_now(page, base, gid)
        board, orders = box(page, "#map"), box(page, "#orders-section")
        assert orders["x"] >= board["x"] + board["w"] - 1 and orders["y"] < board["y"] + board["h"]
        assert board["y"] < 900 / 2 and orders["y"] < 900 / 2
        assert not overlap(box(page, ".zoom"), board)
        words = WORDS[lang]
        assert page.inner_text("#submit-orders") == words["submit"]
        assert page.get_attribute(".zoom-in", "aria-label") == words["zoom_in"]
        assert page.inner_text(".zoom-reset") == words["whole"]
        shot(page, f"look-{lang}-desktop")
        # phone: the map first, in the first screen, the orders under it
        page.set_viewport_size(PHONE)
        open_now(page, base, gid)
        board, orders = box(page, "#map"), box(page, "#orders-section")
        assert board["y"] + board["h"] <= orders["y"] and board["y"] < PHONE["height"] / 2, (board, orders)
        assert board["w"] >= 370  # the width of the screen
        assert not overlap(box(page, ".zoom"), board)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing sideways
        # a tap on a unit: the menu opens next to the finger, inside the screen
        point = tap_point(page, "PAR")
        page.mouse.click(point["x"], point["y"])
        page.wait_for_selector("#map-menu.floating button")
        menu = box(page, "#map-menu")
        assert menu["x"] >= 0 and menu["x"] + menu["w"] <= PHONE["width"]
        assert menu["y"] >= 0 and menu["y"] + menu["h"] <= PHONE["height"], (menu, point)
        near_x = max(menu["x"] - point["x"], 0, point["x"] - (menu["x"] + menu["w"]))
        near_y = max(menu["y"] - point["y"], 0, point["y"] - (menu["y"] + menu["h"]))
        assert near_x <= 40 and near_y <= 120, (menu, point)
        # …and covers none of the places that may be clicked next (Burgundy, Picardy, Gascony…)
        for place in ("BUR", "PIC", "GAS", "BRE"):
            at = page.evaluate(
                "(p) => { const svg = document.querySelector('#map svg'); const m = svg.getScreenCTM();"
                " const e = [...svg.querySelectorAll('[data-place][data-x]')].find((e) => e.dataset.place === p);"
                " return document.elementFromPoint(m.a * (+e.dataset.x) + m.e, m.d * (+e.dataset.y) + m.f)"
                ".closest('#map') !== null; }",
                place,
            )
            assert at, place
        shot(page, f"look-{lang}-phone-menu")
        page.keyboard.press("Escape")
        # the units as buttons at least 40 px tall: Marseilles' button gives a support order
        buttons = page.query_selector_all("#unit-buttons button")
        assert sorted(x.get_attribute("data-key") for x in buttons) == ["BRE", "MAR", "PAR"]
        assert all(x.bounding_box()["height"] >= 40 for x in buttons)
        page.click("#unit-buttons button[data-key=MAR]")
        page.wait_for_selector("#map-menu button.menu-order")
        menu = box(page, "#map-menu")
        assert menu["y"] >= 0 and menu["y"] + menu["h"] <= PHONE["height"]
        assert all(x.bounding_box()["height"] >= 40 for x in page.query_selector_all("#map-menu button"))
        page.click("#map-menu button.menu-order:text-is('A MAR S A PAR - BUR')")
        assert box_lines(page) == ["A MAR S A PAR - BUR"]
        shot(page, f"look-{lang}-phone-units")
        # the keyboard: a unit's button takes the focus and Enter opens its choices
        page.focus("#unit-buttons button[data-key=PAR]")
        page.keyboard.press("Enter")
        page.wait_for_selector("#map-menu button.menu-order")
        page.keyboard.press("Escape")
        # post/redirect/get and the dark theme: English on the phone, French on the desktop (each language and
        # each width once, with no second game)
        if lang == "fr":
            page.set_viewport_size(DESKTOP)
        # post/redirect/get: an invalid submission lands on a page that answers GET, whose live update goes on
        page.fill("#orders", "A PAR - MUN")
        page.click("#submit-orders")
        page.wait_for_selector("#rejected")
        assert page.url.split("?")[0] == f"{base}/games/{gid}"
        assert "A PAR - MUN" in page.inner_text("#rejected")
        assert page.inner_text("#rejected p") == words["rejected"]
        assert page.request.get(page.url).status == 200  # the address the page sits at answers GET
        page.wait_for_selector("#live[data-since]", state="attached")
        page.wait_for_function("document.getElementById('live').dataset.state === 'open'")
        r = master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"})
        assert r.status_code == 200, r.text
        page.wait_for_function("document.getElementById('phase').dataset.phase === 'F1901M'")
        page.reload()  # a reload asks nothing and posts nothing
        assert "F1901M" in page.get_attribute("#phase", "data-phase")
        # the dark theme: the map follows it, and the text keeps its contrast
        page.emulate_media(color_scheme="dark")
        open_now(page, base, gid)
        assert page.inner_text("#submit-orders") == words["submit"]
        sea = page.evaluate("getComputedStyle(document.querySelector('#map svg .m-sea')).fill")
        assert luminance(rgb(sea)) < 0.1, sea
        background, (sea_l, land_l) = check_contrast(page, "dark")
        assert background < 0.05 and max(sea_l, land_l) < 0.15
        where = "phone" if lang == "en" else "desktop"
        shot(page, f"look-{lang}-{where}-dark")
        page.click("#show-last")  # the last phase's map, an image: its own style follows the theme too
        page.wait_for_function(
            "(() => { const i = document.querySelector('#last img'); return i && i.complete && i.naturalWidth > 0; })()"
        )
        shot(page, f"look-{lang}-{where}-dark-last")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_colonial_zoom_bar_covers_nothing_of_the_map(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, _bots = new_game(base, "lookcol", "colonial", powers=COLONIAL)
        page = login(b, base, "lookcol_russia", width=390, height=844)
        open_now(page, base, gid)
        board = box(page, "#map")
        assert not overlap(box(page, ".zoom"), board)
        # Vladivostok, in the map's top right corner, is under no control
        vla = tap_point(page, "VLA")
        hit = page.evaluate("(p) => document.elementFromPoint(p.x, p.y).closest('#map') !== null", vla)
        assert hit
        shot(page, "look-colonial-phone")


def check_contrast(page: Any, scheme: str) -> tuple[float, tuple[float, float]]:
    """Assert the contrast of the page's colours, its body and its map in the theme shown; return the luminance of
    the body's background and of the map's sea and land."""
    values = page.evaluate(
        "(names) => { const s = getComputedStyle(document.documentElement);"
        " return Object.fromEntries(names.map((n) => [n, s.getPropertyValue('--' + n).trim()])); }",
        sorted({n for pair in PAIRS for n in pair}),
    )
    for fg, bg in PAIRS:
        assert contrast(values[fg], values[bg]) >= 4.5, (scheme, fg, bg, values[fg], values[bg])
    # the page itself uses them: body text on the body's background
    body = page.evaluate(
        "(() => { const s = getComputedStyle(document.body); return [s.color, s.backgroundColor]; })()"
    )
    assert contrast(rgb(body[0]), rgb(body[1])) >= 4.5
    # the map follows the theme: its sea and land, its labels on their halo and on the land
    page.wait_for_selector("#map svg .m-sea", state="attached")
    paint = page.evaluate(
        "(() => { const f = (s, p) => getComputedStyle(document.querySelector('#map svg ' + s))[p];"
        " return {sea: f('.m-sea', 'fill'), land: f('.m-land', 'fill'), ink: f('#labels .m-ink', 'fill'),"
        " halo: f('#labels .m-halo', 'stroke'), legend: f('.m-legend', 'fill'),"
        " title: f('#map-legend .m-ink', 'fill')}; })()"
    )
    colours = {k: rgb(v) for k, v in paint.items()}
    assert contrast(colours["ink"], colours["halo"]) >= 4.5, (scheme, colours)
    assert contrast(colours["ink"], colours["land"]) >= 4.5, (scheme, colours)
    assert contrast(colours["title"], colours["legend"]) >= 4.5, (scheme, colours)
    return luminance(rgb(body[1])), (luminance(colours["sea"]), luminance(colours["land"]))


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_dark_theme_and_contrast_of_both_themes(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, _bots = new_game(base, "lookdark")
        # under the site's own Content-Security-Policy, as a player's browser: the map's style must be allowed
        page = login(b, base, "lookdark_france", width=1366, height=900, bypass_csp=False)
        backgrounds, maps = {}, {}
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            open_now(page, base, gid)
            backgrounds[scheme], maps[scheme] = check_contrast(page, scheme)
            shot(page, f"look-theme-{scheme}")
        assert backgrounds["light"] > 0.7 and backgrounds["dark"] < 0.05
        assert min(maps["light"]) > 0.5 and max(maps["dark"]) < 0.15, maps


def rgb(css: str) -> str:
    """``rgb(1, 2, 3)`` → ``#010203``."""
    parts = [int(float(p)) for p in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]
    return "#" + "".join(f"{p:02x}" for p in parts)


def luminance(colour: str) -> float:
    """Relative luminance of ``#rrggbb`` (WCAG 2)."""
    out = []
    for i in (1, 3, 5):
        c = int(colour[i : i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
