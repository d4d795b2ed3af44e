"""The game page's new answers: the per-unit legal-order list, the live check in the reaction step, the
last-phase board and its results in words; each built from the reader's own view only (hidden-state tests:
two games differ only in what the reader may not see, and the reader's answers are byte-identical)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from arbitre.server.wording import MSGIDS, result_text
from tests.server.conftest import POWERS, Api, start_game


def scrub(text: str, gid: int) -> str:
    """An answer with its game id and per-visit tokens set aside."""
    text = re.sub(rf"/games/{gid}(?=\D)", "/games/ID", text).replace(f'data-game="{gid}"', 'data-game="ID"')
    text = re.sub(r'"id":\d+', '"id":ID', text)
    text = re.sub(r'name="csrf" value="[0-9a-f]+"', "", text)
    return re.sub(r'data-csrf="[0-9a-f]+"', "", text)


def answers(api: Api, gid: int) -> dict[str, str]:
    """The new answers a player reads: the legal list, the game page, the current map."""
    paths = [f"/api/games/{gid}/legal", f"/games/{gid}", f"/api/games/{gid}"]
    return {re.sub(r"\d+", "ID", p): f"{api.get(p).status_code} {scrub(api.get(p).text, gid)}" for p in paths}


def test_legal_list_is_per_unit_and_for_players_only(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    legal = players["FRANCE"].get(f"/api/games/{gid}/legal").json()
    assert legal["step"] == "orders" and legal["one_line"] is False
    assert set(legal["legal"]) == {"BRE", "MAR", "PAR"}
    assert "A PAR - BUR" in legal["legal"]["PAR"]
    assert master.get(f"/api/games/{gid}/legal").status_code == 403


def test_reaction_step_legal_list_and_check_agree_with_the_server(app_client: TestClient) -> None:
    pytest.importorskip("arbitre.variants.espionnite")
    gid, _, players = start_game(app_client, rules=["espionnite"], deadlines={"M": 3600, "reaction": 600})
    fr = players["FRANCE"]
    fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "SPY MUN"]})
    for p in POWERS:
        players[p].put(f"/api/games/{gid}/orders", {"ready": True})
    legal = fr.get(f"/api/games/{gid}/legal").json()
    assert legal["step"] == "reaction" and legal["one_line"] is True
    assert "SPY" not in legal["legal"]  # a spy is no change the reaction step accepts
    # every listed change is accepted by the check, and the check refuses what the server refuses
    for options in legal["legal"].values():
        assert fr.post(f"/api/games/{gid}/check", {"orders": options[:1]}).json()["errors"] == []
    two = ["A PAR - PIC", "F BRE - MAO"]
    assert fr.post(f"/api/games/{gid}/check", {"orders": two}).json()["errors"]
    assert fr.put(f"/api/games/{gid}/orders", {"orders": two}).json()["rejected"]
    assert fr.post(f"/api/games/{gid}/check", {"orders": ["SPY LON"]}).json()["errors"]
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["SPY LON"]}).json()["rejected"]


def test_new_answers_do_not_depend_on_another_power_s_secret_orders(app_client: TestClient) -> None:
    """Espionnite: Germany's locked orders differ between two games; France (spying on England) and Italy
    read the same legal list, game page and last phase in both, before and after the adjudication."""
    pytest.importorskip("arbitre.variants.espionnite")
    master = Api(app_client, "hsmaster")
    players = {p: Api(app_client, f"hs_{p.lower()}") for p in POWERS}
    games = []
    for german in (["A MUN - TYR"], ["A MUN H"]):
        r = master.post(
            "/api/games",
            {"name": "HS", "rules": ["espionnite"], "assignment": "choice", "deadlines": {"M": 3600, "reaction": 600}},
        )
        gid = r.json()["id"]
        for p in POWERS:
            assert players[p].post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200
        players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "SPY LON"]})
        players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": german})
        for p in POWERS:
            players[p].put(f"/api/games/{gid}/orders", {"ready": True})
        games.append(gid)
    a, b = games
    for who in ("FRANCE", "ITALY"):  # in the reaction step
        assert answers(players[who], a) == answers(players[who], b), who
    for gid in games:  # Germany's order is adjudicated now, but the last phase shows what each reader may see
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    fa, fb = answers(players["FRANCE"], a), answers(players["FRANCE"], b)
    assert fa.keys() == fb.keys()
    assert "Last phase" in fa["/games/ID"]


def test_results_in_words() -> None:
    view = {
        "orders": [
            {
                "power": "GERMANY",
                "text": "A MUN - BUR",
                "kind": "move",
                "places": ["MUN", "BUR"],
                "outcome": "fails",
                "reason": "bounced",
            },
            {
                "power": "FRANCE",
                "text": "A PAR - BUR",
                "kind": "move",
                "places": ["PAR", "BUR"],
                "outcome": "fails",
                "reason": "bounced",
            },
            {
                "power": "AUSTRIA",
                "text": "A VIE S A BUD - GAL",
                "kind": "support",
                "places": ["VIE", "BUD", "GAL"],
                "outcome": "fails",
                "reason": "cut",
            },
            {
                "power": "RUSSIA",
                "text": "A BOH - VIE",
                "kind": "move",
                "places": ["BOH", "VIE"],
                "outcome": "fails",
                "reason": "bounced",
            },
            {
                "power": "ITALY",
                "text": "A TYR - BOH",
                "kind": "move",
                "places": ["TYR", "BOH"],
                "outcome": "succeeds",
                "reason": None,
            },
            {
                "power": "RUSSIA",
                "text": "A BOH H",
                "kind": "hold",
                "places": ["BOH"],
                "outcome": "fails",
                "reason": "dislodged",
            },
        ],
        "dislodged": [],
    }
    after = {
        "dislodged": [
            {
                "unit": {"power": "RUSSIA", "kind": "A", "place": "BOH"},
                "attacker_from": "TYR",
                "retreats": ["GAL", "SIL"],
            }
        ]
    }
    o = view["orders"]
    assert result_text(o[0], view, str) == "bounced with A PAR"
    assert result_text(o[2], view, str) == "support cut by A BOH"
    assert result_text(o[5], view, str, after) == "dislodged by A TYR, retreats: GAL, SIL"
    assert result_text(o[4], view, str) == "succeeds"
    assert "{units}" in " ".join(MSGIDS)
    french = {"bounced with {units}": "rebondit contre {units}"}
    assert result_text(o[0], view, lambda s: french.get(s, s)) == "rebondit contre A PAR"
