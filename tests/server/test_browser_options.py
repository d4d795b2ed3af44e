"""The game-creation page's disputed-rule options in a real browser, at desktop and phone width.

Every DATC chapter-4 option is offered in its group with the DATC preference marked; choices made
in the form are the game's options; the page does not overflow a 390 px wide screen.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.options import OPTIONS
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import login, new_game, shot


def _open_groups(page: Any) -> None:
    for summary in page.query_selector_all("#rule-options details.option-group > summary"):
        summary.click()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_creation_page_offers_every_option_grouped_and_stores_the_choices(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        new_game(base, "optform", powers=[])
        page = login(b, base, "optform_gm")
        page.goto(base + "/games/new")
        _open_groups(page)
        for spec in OPTIONS:
            select = page.locator(f"#option-{spec.name}")
            assert select.is_visible(), spec.name
            marked = [
                o.get_attribute("value")
                for o in select.locator("option").all()
                if "★ DATC preference" in o.inner_text()
            ]
            assert marked == [f"{spec.name}={spec.default}"], (spec.name, marked)
        groups = page.locator("#rule-options summary").all_inner_texts()
        assert any("4.A" in g for g in groups) and any("4.D" in g for g in groups)
        page.locator("#rule-options").scroll_into_view_if_needed()
        shot(page, "options-01-creation-desktop")
        page.fill("#game-name", "Path game")
        page.select_option("#option-convoy_path", "convoy_path=required")
        page.select_option("#option-missing_nationality", "missing_nationality=invalid")
        page.select_option("#option-order_sets", "order_sets=combined")
        page.click("#create")
        page.wait_for_url(f"{base}/games/*")
        gid = int(page.url.rstrip("/").split("/")[-1])
        game = page.request.get(f"{base}/api/games/{gid}").json()["game"]
        assert game["options"] == {
            "convoy_path": "required",
            "missing_nationality": "invalid",
            "order_sets": "combined",
        }
        # Phone width: the groups open, nothing wider than the screen.
        phone = login(b, base, "optform_gm", width=390, height=844)
        phone.goto(base + "/games/new")
        _open_groups(phone)
        phone.locator("#option-convoy_path").scroll_into_view_if_needed()
        shot(phone, "options-02-creation-390")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        for spec in OPTIONS:
            box = phone.locator(f"#option-{spec.name}").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (spec.name, box)
