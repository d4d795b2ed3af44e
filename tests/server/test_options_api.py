"""Rule options on the server: the options listing, the creation form's grouped choices, presets."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from arbitre.rules.options import OPTION_CHOICES, PRESETS
from arbitre.server import worker
from arbitre.server.site import Site
from arbitre.variants import MODULES, RULE_MODULES
from tests.server.conftest import POWERS, Api, start_game


def test_options_listing_groups_every_option_with_the_preference_marked(app_client: TestClient) -> None:
    data = app_client.get("/api/options").json()
    listed = {o["name"]: o for g in data["groups"] for o in g["options"]}
    assert set(listed) == set(OPTION_CHOICES)
    assert listed["convoy_paradox"]["datc"] == "4.A.2"
    assert [v["value"] for v in listed["convoy_paradox"]["values"]] == ["szykman", "all_hold", "1982", "dptg"]
    assert [v["value"] for v in listed["convoy_paradox"]["values"] if v["datc_preference"]] == ["szykman"]
    assert {p["title"] for p in data["presets"]} == {p.title for p in PRESETS.values()}


def test_api_game_with_a_preset_and_an_option(app_client: TestClient) -> None:
    master = Api(app_client, "optmaster")
    r = master.post("/api/games", {"name": "Old rules", "options": {"preset": "1982", "too_many_builds": "last"}})
    assert r.status_code == 201, r.text
    assert r.json()["options"] == {"preset": "1982", "too_many_builds": "last"}
    bad = master.post("/api/games", {"name": "Bad", "options": {"convoy_paradox": "coin"}})
    assert bad.status_code == 400 and "convoy_paradox" in bad.text


def test_creation_form_offers_the_groups_and_stores_the_choices(app_client: TestClient) -> None:
    Api(app_client, "formmaster")
    r = app_client.post(
        "/login",
        data={"name": "formmaster", "password": "password123", "csrf": _csrf(app_client, "/login")},
        follow_redirects=False,
    )
    assert r.status_code in (302, 303)
    page = app_client.get("/games/new").text
    assert 'id="rule-options"' in page and 'id="option-convoy_paradox"' in page
    assert "4.A.2" in page and "DATC preference" in page and "Avalon Hill 1982" in page
    csrf = _csrf(app_client, "/games/new")
    r = app_client.post(
        "/games/new",
        data={
            "csrf": csrf,
            "name": "Form game",
            "map": "standard",
            "preset": "2000",
            "datc_option": ["", "convoy_paradox=dptg", ""],
            "options": "",
        },
        follow_redirects=False,
    )
    assert r.status_code in (302, 303), r.text
    gid = int(r.headers["location"].rstrip("/").split("/")[-1])
    game = app_client.get(f"/api/games/{gid}").json()
    assert game["game"]["options"] == {"preset": "2000", "convoy_paradox": "dptg"}


def _csrf(client: TestClient, page: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(page).text)
    assert m
    return m.group(1)


def test_combined_order_sets_add_each_submission_to_the_earlier_ones(app_client: TestClient) -> None:
    """DATC 4.D.1 a on the server: each submission is an order set; ``combined`` joins them."""
    gid, _, players = start_game(app_client, options={"order_sets": "combined"})
    fr = players["FRANCE"]
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "F BRE - MAO"]}).status_code == 200
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["A MAR - SPA"]}).status_code == 200
    assert fr.get(f"/api/games/{gid}/orders").json()["lines"] == ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"]
    # The default (the DATC preference): the latest set replaces the earlier ones.
    gid2, _, players2 = start_game(app_client)
    fr2 = players2["FRANCE"]
    fr2.put(f"/api/games/{gid2}/orders", {"orders": ["A PAR - BUR", "F BRE - MAO"]})
    fr2.put(f"/api/games/{gid2}/orders", {"orders": ["A MAR - SPA"]})
    assert fr2.get(f"/api/games/{gid2}/orders").json()["lines"] == ["A MAR - SPA"]


def test_options_listing_describes_every_rule_module_and_map(app_client: TestClient) -> None:
    data = app_client.get("/api/options").json()
    modules = {m["name"]: m for m in data["modules"]}
    assert set(modules) == {m.name for m in RULE_MODULES}
    example = modules["any_owned_centre"]
    assert example["title"] == {"en": "Build in any owned centre", "fr": "Construire dans tout centre possédé"}
    assert example["maps"] == [] and example["options"] == []
    assert [o["name"] for o in modules["submarines"]["options"]] == ["start_submarines"]
    assert modules["colonial"]["for_map"] == "colonial" and modules["colonial"]["maps"] == ["colonial"]
    assert {"standard", "colonial"} <= set(data["maps"])


def test_creation_form_shows_each_module_s_title_and_description(app_client: TestClient) -> None:
    Api(app_client, "modmaster")
    r = app_client.post(
        "/login",
        data={"name": "modmaster", "password": "password123", "csrf": _csrf(app_client, "/login")},
        follow_redirects=False,
    )
    assert r.status_code in (302, 303)
    page = app_client.get("/games/new").text
    assert 'id="rule-any_owned_centre"' in page and "Build in any owned centre" in page
    assert "not only in its home centres" in page and "start_submarines" in page


def test_a_module_on_a_map_it_does_not_apply_to_is_refused(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = MODULES["any_owned_centre"]
    monkeypatch.setitem(MODULES, entry.name, replace(entry, maps=("standard",)))
    master = Api(app_client, "mapmaster")
    bad = master.post("/api/games", {"name": "Nowhere", "map": "colonial", "rules": ["any_owned_centre"]})
    assert bad.status_code == 400 and "does not apply to the map 'colonial'" in bad.text, bad.text
    good = master.post("/api/games", {"name": "Here", "map": "standard", "rules": ["any_owned_centre"]})
    assert good.status_code == 201, good.text


NEWCOMER_RULES = ["italian_fleet", "wings", "even_years", "capture_builds", "fifteen_centres", "declarations"]
"""Modules written by following docs/architecture.md, each one folder and one registry line."""


def test_every_module_chosen_per_game_is_offered_in_english_and_french(app_client: TestClient) -> None:
    """The creation page lists each module by its registry entry (no page names one), in the reader's words."""
    reader = Api(app_client, "newmaster")
    r = app_client.post(
        "/login",
        data={"name": "newmaster", "password": "password123", "csrf": _csrf(app_client, "/login")},
        follow_redirects=False,
    )
    assert r.status_code in (302, 303)
    english = app_client.get("/games/new").text
    assert reader.put("/api/me", {"lang": "fr"}).status_code == 200
    french = app_client.get("/games/new").text
    listed = {m["name"]: m for m in app_client.get("/api/options").json()["modules"]}
    for module in RULE_MODULES:
        if module.for_map is not None:
            continue
        assert f'id="rule-{module.name}"' in english and module.title in english, module.name
        assert listed[module.name]["title"]["fr"] in french, module.name
    assert listed["wings"]["title"] == {"en": "Wings", "fr": "Escadrilles"}
    assert listed["italian_fleet"]["maps"] == ["standard"]


def test_newcomer_modules_play_on_the_site_with_bots(app_client: TestClient, site: Site) -> None:
    """A game of seven house bots with six newcomer modules: Italy's fleet in Venice, the declarations step
    before each phase's moves, no winter in 1901, wings built in 1902 and drawn with their own outline and
    words; the same modules on Colonial are refused."""
    master = Api(app_client, f"gm{uuid.uuid4().hex[:6]}")
    refused = master.post("/api/games", {"name": "Nowhere", "map": "colonial", "rules": ["italian_fleet"]})
    assert refused.status_code == 400 and "applies to: standard" in refused.text, refused.text
    r = master.post("/api/games", {"name": "Newcomer", "assignment": "choice", "rules": NEWCOMER_RULES})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for power in POWERS:
        assert master.post(f"/api/games/{gid}/bots", {"power": power}).status_code == 200
    state = master.get(f"/api/games/{gid}").json()
    units = {(u["power"], u["kind"], u["place"]) for u in state["view"]["units"]}
    assert ("ITALY", "F", "VEN") in units and state["view"]["owners"]["TUN"] == "ITALY"
    assert state["game"]["step"] == "orders" and state["game"]["deadlines"]["moves"] == 12 * 3600
    for _ in range(16):
        worker.tick(site)
    history = master.get(f"/api/games/{gid}/history").json()
    phases = [h["phase"] for h in history]
    assert "W1901A" not in phases and "W1902A" in phases, phases
    now = master.get(f"/api/games/{gid}").json()["view"]
    assert any(u["kind"] == "W" for u in now["units"]), now["units"]
    svg = master.get(f"/games/{gid}/map.svg").text
    assert 'data-unit="W ' in svg and "M0 -10 L12 7 L0 2 L-12 7 Z" in svg and "(wing)</title>" in svg
