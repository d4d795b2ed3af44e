"""In a real browser: a game started with six bot seats and one person is played to a phase with retreats;
the person opens a sandbox, adjudicates, steps back, branches, and shares a read-only link.

Screenshots go to ``var/screenshots/bots/`` (git-ignored), desktop and phone (390 px) widths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitre.server import worker
from arbitre.server.site import Site
from tests.server.browser import browser, live_server, show_now
from tests.server.mapclick import register, shoot_both

BOTS = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots" / "bots"


def shoot(page: Any, name: str) -> None:
    shoot_both(page, SHOTS, name)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_six_bots_one_person_to_a_retreat_then_a_sandbox(site: Site) -> None:
    with live_server(site) as base, browser() as b:
        gm = b.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
        me = b.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
        register(gm, base, "bot_master")
        register(me, base, "bot_human")
        gm.goto(base + "/games/new")
        gm.fill("#game-name", "Six bots and me")
        gm.select_option("#assignment", "choice")
        gm.click("#create")
        gm.wait_for_selector("#waiting")
        gid = int(gm.url.rstrip("/").split("/")[-1].split("?")[0])
        # the master gives six empty seats to the house bot
        for power in BOTS:
            gm.goto(f"{base}/games/{gid}/master")
            gm.select_option("#bot-power", power)
            gm.click("#bot-seat")
            gm.wait_for_selector("#note")
        assert all(gm.query_selector(f"#bot-list .bot-seat[data-power={p}]") for p in BOTS)
        me.goto(f"{base}/games/{gid}")
        me.select_option("#join-power", "FRANCE")
        me.click("#join")
        me.wait_for_selector("#you")
        assert me.inner_text("#status") == "active"
        assert len(me.query_selector_all("#bots .bot-seat")) == 6 and "bot" in me.inner_text("#roster")
        shoot(me, "01-game-with-bot-seats")

        # play: the bots act in the deadline worker, France holds and says it is ready, until a retreat phase
        seen_retreat = None
        for _ in range(40):
            worker.tick(site)
            me.goto(f"{base}/games/{gid}")
            current = me.get_attribute("#phase", "data-phase") or ""
            if current.endswith("R") and me.query_selector("#dislodged"):
                seen_retreat = current
                break
            if me.query_selector("#orders-form"):
                show_now(me)
                me.fill("#orders", "")
                # "I am ready" submits what the box shows (here: nothing, so every unit holds)
                with me.expect_response(lambda r: r.url.endswith("/orders") and r.request.method == "PUT") as answer:
                    me.check("#ready")
                assert answer.value.ok, answer.value.text()
                me.goto(f"{base}/games/{gid}")
                current = me.get_attribute("#phase", "data-phase") or ""
                if current.endswith("R") and me.query_selector("#dislodged"):
                    seen_retreat = current
                    break
        assert seen_retreat, "no retreat phase in 40 steps"
        assert me.inner_text("#dislodged")
        shoot(me, "02-retreat-phase")
        gm.goto(f"{base}/games/{gid}/master")
        shoot(gm, "03-master-console")

        # a sandbox from France's view of the retreat phase
        me.click("#open-sandbox")
        me.wait_for_selector("#sandbox-orders")
        assert me.get_attribute("#sandbox-phase", "data-phase") == seen_retreat
        me.fill("#sandbox-orders-text", "")
        me.click("#adjudicate")
        me.wait_for_selector("#note")
        after = me.get_attribute("#sandbox-phase", "data-phase")
        assert after != seen_retreat
        me.click("#step-back")
        me.wait_for_selector("#step-forward:not([disabled])")
        assert (
            me.get_attribute("#sandbox-phase", "data-phase") == seen_retreat
            and me.query_selector("#results") is not None
        )
        shoot(me, "04-sandbox-stepped-back")
        me.click("#branch")
        me.wait_for_selector("#parent-link")
        assert me.get_attribute("#sandbox-phase", "data-phase") == seen_retreat
        me.fill("#sandbox-orders-text", "")
        me.click("#adjudicate")
        me.wait_for_selector("#note")
        share = me.get_attribute("#share-link", "href")
        shoot(me, "05-branch")

        # the shared link, read by someone not logged in: read-only
        guest = b.new_context(locale="en-US").new_page()
        guest.goto(base + str(share))
        guest.wait_for_selector("#read-only")
        assert guest.query_selector("#sandbox-orders") is None and guest.query_selector("#step-back") is None
        assert guest.get_attribute("#sandbox-phase", "data-phase") == me.get_attribute("#sandbox-phase", "data-phase")
        shoot(guest, "06-shared-read-only")
