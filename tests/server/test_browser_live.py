"""Pages update themselves from the event stream: a second browser sees the processed phase with no reload.

France orders and switches to ready in its browser; the last ready switch
processes the phase.  England's orders given from elsewhere show as "partly" in the others' players tables at
once.  Germany's page, open all along in another browser, shows
the new phase, its board and its orders form without being reloaded (a value
put in its window survives), and so do the master's console and a message
arriving for France.  Screenshots go to the git-ignored ``test-artifacts``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from arbitre.server import security
from arbitre.server.site import Site
from tests.server.browser import browser, live_server, show_now
from tests.server.conftest import POWERS, Api

ARTIFACTS = Path(os.environ.get("ARBITRE_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))
PASSWORD = "password123"


def shot(page: Any, name: str) -> None:
    """A screenshot of the page under the artifacts folder."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-{name}.png"), full_page=True)


def log_in(b: Any, base: str, name: str, width: int = 1200) -> Any:
    """A new browser context logged in as ``name``; returns its page."""
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the strict policy forbids
    page = b.new_context(locale="en-US", viewport={"width": width, "height": 900}, bypass_csp=True).new_page()
    page.goto(base + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("#nav-account")
    return page


def mark(page: Any) -> None:
    """Put a value in the window: it survives live updates and disappears with any reload."""
    page.evaluate("window.__sameDocument = 'yes'")


def not_reloaded(page: Any) -> bool:
    """Is the page still the document :func:`mark` marked?"""
    return bool(page.evaluate("window.__sameDocument === 'yes'"))


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_second_browser_sees_the_processed_phase_without_a_reload(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(security, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    with live_server(site) as base, browser() as b, httpx.Client(base_url=base, timeout=30) as client:
        master = Api(client, "live_master", PASSWORD)  # type: ignore[arg-type]
        players = {p: Api(client, f"live_{p.lower()}", PASSWORD) for p in POWERS}  # type: ignore[arg-type]
        gid = master.post("/api/games", {"name": "Live", "assignment": "choice", "press": "full"}).json()["id"]
        for p in POWERS:
            assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200

        germany = log_in(b, base, "live_germany")
        germany.goto(f"{base}/games/{gid}")
        germany.wait_for_selector("#live[data-since]", state="attached")
        console = log_in(b, base, "live_master")
        console.goto(f"{base}/games/{gid}/master")
        france = log_in(b, base, "live_france")
        france.goto(f"{base}/games/{gid}")
        phone = log_in(b, base, "live_italy", width=390)
        phone.goto(f"{base}/games/{gid}")
        for page in (germany, console, france, phone):
            mark(page)
            page.wait_for_function(
                "document.getElementById('live') && document.getElementById('live').dataset.state === 'open'"
            )
        shot(germany, "1-germany-before")

        # Germany switches to ready from another device (its bot): its page ticks the box, the console shows it
        assert (
            players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - RUH"], "ready": True}).status_code
            == 200
        )
        germany.wait_for_function("document.getElementById('ready').checked")
        console.wait_for_function("document.querySelector('#all-orders').innerText.includes('A MUN - RUH')")
        shot(console, "2-console-ready")

        # England gives some of its orders from another device, not ready: the others' players tables say
        # "partly" at once (the orders state, nothing more), with no reload, on a desktop and on a phone
        assert players["ENGLAND"].put(f"/api/games/{gid}/orders", {"orders": ["F LON - NTH"]}).status_code == 200
        england_given = "document.querySelector('#roster tr[data-power=ENGLAND] .given').textContent === '%s'"
        for page in (germany, phone):
            page.wait_for_function(england_given % "partly")
            assert not_reloaded(page)
        assert "LON - NTH" not in germany.content() + phone.content()

        # a message for France shows up on its page
        assert (
            players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "Channel?"}).status_code
            == 201
        )
        france.wait_for_selector("#live-note a")
        assert "New message from England" in france.inner_text("#live-note")
        shot(france, "3-france-message")

        # everyone else ready; France gives its orders in its browser and is the last to be ready
        for p in POWERS:
            if p not in ("FRANCE", "GERMANY"):
                assert players[p].put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200
        france.fill("#orders", "A PAR - BUR")
        france.check("#ready")
        france.click("#submit-orders")

        for page in (germany, console, phone):
            page.wait_for_function("document.getElementById('phase').dataset.phase === 'F1901M'")
            assert not_reloaded(page)
        show_now(germany)  # the updated page opens on the phase just played
        germany.wait_for_selector("#orders-form")
        assert not germany.is_checked("#ready")  # the new phase's switch
        assert "Fall 1901, movement" in germany.inner_text("#orders-section h2")
        assert "now Fall 1901, movement" in germany.inner_text("#live-note")
        shot(germany, "4-germany-after")
        shot(phone, "5-phone-after")
        shot(console, "6-console-after")

        # the page's scripts work again after the update: the live check of the orders box answers
        germany.fill("#orders", "A RUH - MUN")
        germany.wait_for_selector("#check .ok")
        assert not_reloaded(germany)

        # the clock: a pause shows at once
        assert master.post(f"/api/games/{gid}/master", {"action": "pause"}).status_code == 200
        germany.wait_for_function("document.getElementById('status').textContent.trim() === 'paused'")
        assert not_reloaded(germany)
        assert germany.input_value("#orders") == "A RUH - MUN"  # a light update keeps what is being typed
        shot(germany, "7-germany-paused")
