"""Light pages in a real browser (English at 1366 px, French at 390 px): the game page fetches its map when shown and ordering by
clicks works on it, previews have their own high-contrast style, the map is fetched once and then cached,
and History fetches only the phase it shows."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from arbitre.words.phases import phase_namer
from tests.server.browser import browser, live_server
from tests.server.mapclick import box_lines, login, new_game, order_by_clicks, shot

MAP_SIZES = """() => performance.getEntriesByType('resource')
    .filter((e) => e.name.includes('/map.svg'))
    .map((e) => ({name: e.name, transfer: e.transferSize, body: e.decodedBodySize}))"""


FIRST = {"en": "Spring 1901, movement", "fr": "Printemps 1901, mouvements"}
"""The first phase's name in the History replay, in the catalog's words."""


def _maps(requests: list[str]) -> list[str]:
    return [url for url in requests if "/map.svg" in url]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("lang", "width"), [("en", 1366), ("fr", 390)])
def test_the_map_is_fetched_when_shown_cached_and_clickable(
    site: Site, clock: ManualClock, lang: str, width: int
) -> None:
    with live_server(site) as base, browser() as b:
        gid, master, bots = new_game(base, f"wt{width}")
        assert bots["FRANCE"].c.put("/api/me", json={"lang": lang}).status_code == 200
        fr = login(b, base, f"wt{width}_france", width=width, height=844 if width < 500 else 1000)
        requests: list[str] = []
        fr.on("request", lambda r: requests.append(r.url))
        answer = fr.goto(f"{base}/games/{gid}")
        assert answer is not None and "<svg" not in answer.text()  # the page is light: its map comes apart
        assert answer.header_value("content-encoding") in ("gzip", "br")
        fr.wait_for_selector("#map svg")
        assert fr.get_attribute("html", "lang") == lang
        assert len(_maps(requests)) == 1 and "as=FRANCE" in _maps(requests)[0]
        assert fr.locator("#map-units").count() == 1  # the map's own layers renamed off the page's ids

        # ordering by clicks works on the fetched map; the preview is black on white, not France's blue
        order_by_clicks(fr, ["PAR", "BUR"])
        assert box_lines(fr) == ["A PAR - BUR"]
        strokes = fr.eval_on_selector_all("#previews .preview path", "ps => ps.map((p) => p.getAttribute('stroke'))")
        assert strokes == ["#FFFFFF", "#111111"]
        shot(fr, f"weight-{lang}-{width}-preview")

        # a reload shows the same map without fetching it again (a cache hit or a 304)
        first: list[dict[str, Any]] = fr.evaluate(MAP_SIZES)
        assert first and first[0]["transfer"] > 10_000
        # what the browser fetched, compressed: the page and its map under 200 KB together
        page_bytes = fr.evaluate("performance.getEntriesByType('navigation')[0].transferSize")
        assert page_bytes > 0 and page_bytes + first[0]["transfer"] < 200_000, (page_bytes, first)
        fr.reload()
        fr.wait_for_selector("#map svg")
        again: list[dict[str, Any]] = fr.evaluate(MAP_SIZES)
        assert again and again[0]["name"] == first[0]["name"] and again[0]["transfer"] < 2_000, again

        # History: two played phases, one fetched at a time
        for _ in range(2):
            assert master.c.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200
        # the open game page follows both phases live (its map fetched anew, its last results' lazy map
        # /history/n loaded when near the view); only the History page's own requests are counted, once
        # the game page has caught up (a late live update would swap the History page and its replay)
        now = phase_namer(lang)(master.c.get(f"/api/games/{gid}").json()["game"]["phase"])
        fr.wait_for_function("(n) => document.querySelector('#board h2').textContent.includes(n)", arg=now)
        fr.goto("about:blank")
        requests.clear()
        fr.goto(f"{base}/games/{gid}/history")
        fr.wait_for_function("document.getElementById('replay-frame').complete")
        assert fr.inner_text("#replay .replay-phase") == FIRST[lang]
        shown = _maps(requests)
        assert len(shown) == 1 and "/history/0/map.svg" in shown[0], shown
        fr.eval_on_selector("#replay-at", "s => { s.value = '1'; s.dispatchEvent(new Event('input')); }")
        fr.wait_for_function("document.getElementById('replay-frame').src.includes('/history/1/')")
        fr.wait_for_function("document.getElementById('replay-frame').complete")
        assert [u.split("/history/")[1].split("/")[0] for u in _maps(requests)] == ["0", "1"]
        shot(fr, f"weight-{lang}-{width}-history")
