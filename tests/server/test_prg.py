"""Post/redirect/get: every page form answers ``303 See Other`` to an address that answers GET, and that
page shows once what the answer had to say (problems, the form as typed, a token shown once)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from arbitre.server.site import Site
from tests.server.conftest import Api, start_game


def _csrf(c: TestClient, path: str = "/") -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get(path).text)
    assert m, path
    return m.group(1)


def _login(c: TestClient, name: str) -> str:
    r = c.post(
        "/login", data={"name": name, "password": "password123", "csrf": _csrf(c, "/login")}, follow_redirects=False
    )
    assert r.status_code == 303
    return _csrf(c)


def _post(c: TestClient, path: str, data: dict[str, str]) -> str:
    """Post the form; it must answer 303 to a page answering GET: that page's text."""
    r = c.post(path, data=data, follow_redirects=False)
    assert r.status_code == 303, (path, r.status_code, r.text[:300])
    page = c.get(r.headers["location"])
    assert page.status_code == 200, (path, r.headers["location"], page.status_code)
    return page.text


def test_invalid_orders_redirect_to_the_game_page_which_lists_them_once(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    c = TestClient(app_client.app)
    csrf = _login(c, players["FRANCE"].name)
    r = c.post(
        f"/games/{gid}/orders",
        data={"csrf": csrf, "orders": "A PAR - MUN\nA MAR H", "phase": ""},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}"
    page = c.get(f"/games/{gid}").text
    assert 'id="rejected"' in page and "A PAR - MUN" in page.split('id="rejected"', 1)[1]
    assert 'id="rejected"' not in c.get(f"/games/{gid}").text  # shown once: a reload shows the stored orders only
    # a valid submission is a 303 with its note, as before
    assert "Orders saved." in _post(c, f"/games/{gid}/orders", {"csrf": csrf, "orders": "A PAR H", "phase": ""})


def test_form_problems_come_back_after_the_redirect(app_client: TestClient, site: Site) -> None:
    gid, master, _players = start_game(app_client)
    c = TestClient(app_client.app)
    csrf = _login(c, master.name)
    # the creation form: its problems and what was typed
    page = _post(c, "/games/new", {"csrf": csrf, "name": "Typed name", "deadline_M": "abc"})
    assert "deadline" in page and 'value="Typed name"' in page
    assert 'value="Typed name"' not in c.get("/games/new").text
    # a tournament without a name
    assert 'id="problems"' in _post(c, "/tournaments/new", {"csrf": csrf, "name": "", "last_year": "soon"})
    # a console action refused by the rules (a 400 Problem): the console shows it
    page = _post(c, f"/games/{gid}/master", {"csrf": csrf, "action": "extend", "minutes": "9" * 40})
    assert 'id="problem"' in page
    # an API token is shown once, by the account page after the redirect
    page = _post(c, "/account/tokens", {"csrf": csrf, "label": "bot"})
    token = page.split('id="new-token">', 1)[1].split("<", 1)[0]
    assert len(token) > 20 and token not in c.get("/account").text


def test_login_and_register_mistakes_redirect(app_client: TestClient, site: Site) -> None:
    Api(app_client, "prg_user")
    c = TestClient(app_client.app)
    page = _post(c, "/login", {"name": "prg_user", "password": "wrong-password", "csrf": _csrf(c, "/login")})
    assert "Wrong user name or password." in page
    page = _post(c, "/register", {"name": "prg_user", "password": "password123", "csrf": _csrf(c, "/register")})
    assert "This name is taken." in page
    # a site without e-mail refuses the reset link (a 409 Problem): the form page says why
    page = _post(c, "/password-reset", {"who": "nobody", "csrf": _csrf(c, "/password-reset")})
    assert 'id="problem"' in page and "e-mail" in page
    assert 'id="problem"' not in c.get("/password-reset").text


def test_a_flash_is_signed_and_kept_to_its_page(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    c = TestClient(app_client.app)
    csrf = _login(c, players["FRANCE"].name)
    c.post(f"/games/{gid}/orders", data={"csrf": csrf, "orders": "A PAR - MUN"}, follow_redirects=False)
    assert 'id="rejected"' not in c.get("/").text  # another page does not take it…
    assert 'id="rejected"' in c.get(f"/games/{gid}").text  # …the page it was meant for does
    forged = TestClient(app_client.app)
    _login(forged, players["GERMANY"].name)
    forged.cookies.set(
        "arbitre_flash", "eyJwYXRoIjoiLyIsImN0eCI6eyJmbGFzaF9wcm9ibGVtIjp7Im1lc3NhZ2UiOiJ4In19fQ.forged.sig"
    )
    assert 'id="problem"' not in forged.get("/").text and forged.get("/").status_code == 200
