"""Notifications and account security in a real browser: the bell, the list, the settings form, the password change.

Screenshots (also at phone width, 390 px) go to the git-ignored ``test-artifacts``.
"""

from __future__ import annotations

import pytest

from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.browser import browser, live_server
from tests.server.mapclick import login, new_game, shot


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_bell_the_list_the_settings_and_the_password(site: Site, clock: ManualClock) -> None:
    with live_server(site) as base, browser() as b:
        gid, _master, bots = new_game(base, "bell")
        page = login(b, base, "bell_france")
        assert page.inner_text("#unread") == "1"  # the game started
        r = bots["ENGLAND"].c.post(f"/api/games/{gid}/messages", json={"to": "FRANCE", "body": "Shall we?"})
        assert r.status_code == 201
        page.goto(base + "/notifications")
        assert page.inner_text("#unread") == "2"
        items = page.locator("#notifications li.unread")
        assert items.count() == 2
        assert "Shall we?" in items.first.inner_text() and "England" in items.first.inner_text()
        shot(page, "notify-01-list")
        page.click("#mark-read")
        page.wait_for_selector("#note")
        assert page.query_selector("#unread") is None and page.locator("#notifications li.read").count() == 2
        # the settings form: an address, a time zone, a reminder, and press e-mails off
        page.goto(base + "/account")
        page.fill("#notify-email", "france@example.org")
        page.fill("#notify-zone", "Europe/Paris")
        page.fill("#notify-remind", "90")
        page.uncheck('input[value="email:message"]')
        shot(page, "notify-02-settings")
        page.click("#notify-save")
        page.wait_for_selector("#note")
        saved = bots["FRANCE"].c.get("/api/me/notifications").json()
        assert saved["email"] == "france@example.org" and saved["time_zone"] == "Europe/Paris"
        assert saved["remind_minutes"] == 90 and saved["off"] == ["email:message"]
        assert not page.is_checked('input[value="email:message"]') and page.is_checked('input[value="site:message"]')
        # the webhook: its secret is shown once, and it can be removed
        page.fill("#webhook-url", "https://1.1.1.1/arbitre-hook")
        page.click("#webhook-save")
        page.wait_for_selector("#webhook-secret")
        secret = page.inner_text("#webhook-secret")
        assert len(secret) >= 32 and bots["FRANCE"].c.get("/api/me/notifications").json()["webhook"].endswith("-hook")
        shot(page, "notify-02b-webhook")
        page.goto(base + "/account")
        assert secret not in page.content()
        page.click("#webhook-remove")
        page.wait_for_selector("#note")
        assert bots["FRANCE"].c.get("/api/me/notifications").json()["webhook"] == ""
        # at phone width
        phone = login(b, base, "bell_france", width=390, height=844)
        phone.goto(base + "/notifications")
        shot(phone, "notify-03-list-phone")
        phone.goto(base + "/account#notify")
        shot(phone, "notify-04-settings-phone")
        # a password change on the account page ends the other browser's session
        page.fill("#current-password", "password123")
        page.fill("#new-password", "changed-pass-1")
        page.click("#change-password")
        page.wait_for_selector("#note")
        phone.goto(base + "/account")
        assert phone.url.startswith(base + "/login")  # logged out there
        page.goto(base + "/account")
        assert page.url == base + "/account"  # still logged in here
