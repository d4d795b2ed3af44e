"""Submarines: who learns what — one scenario per rule of the spec's "who learns what" list.

Each test plays one phase and reads the views of the powers concerned, of an
uninvolved power and of an observer (the master's view lists every event with
its audience).
"""

from __future__ import annotations

import json

from arbitre.adjudicator import SUCCEEDS, PhaseOutcome, adjudicate
from arbitre.interface import process
from arbitre.judge import Game
from arbitre.rules.events import PUBLIC
from arbitre.views import build_view, view_to_data
from arbitre.words.events import event_text, report_line_text

from .submarines_helpers import RULES, kinds, next_view, order_texts, places_seen, play, position, report, view

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def everyone_but(*powers: str) -> list[str]:
    return [p for p in (*POWERS, "observer") if p not in powers]


def test_surface_units_are_public_submerged_ones_known_to_their_owner_only() -> None:
    pos = position({"FRANCE": ["SM MAO-1", "SM BRE"], "ENGLAND": ["F LON"]})
    assert places_seen(build_view(RULES, pos, "FRANCE")) == {"MAO-1", "BRE", "LON"}
    for viewer in everyone_but("FRANCE"):
        assert places_seen(build_view(RULES, pos, viewer)) == {"BRE", "LON"}
    own = next(u for u in build_view(RULES, pos, "FRANCE").units if u.place == "MAO-1")
    assert own.hidden and own.power == "FRANCE"
    # How many units a power has is public.
    assert build_view(RULES, pos, "ENGLAND").unit_counts == {"FRANCE": 2, "ENGLAND": 1}


def test_orders_of_public_units_are_published_orders_of_submerged_ones_are_not() -> None:
    out = play({"FRANCE": ["SM MAO-1", "F BRE"]}, {"FRANCE": ["SM MAO-1 - NAO-1", "F BRE - ENG"]})
    assert order_texts(view(out, "FRANCE")) == ["F BRE - ENG", "SM MAO-1 - NAO-1"]  # sorted
    for viewer in everyone_but("FRANCE"):
        assert order_texts(view(out, viewer)) == ["F BRE - ENG"]
        assert "NAO-1" not in str(view(out, viewer))


def test_a_successful_surfacing_is_public() -> None:
    out = play({"FRANCE": ["SM MAO-1"]}, {"FRANCE": ["SM MAO-1 - MAO"]})
    for viewer in everyone_but():
        assert kinds(out, viewer) == ["submarines.surfaced"]
        assert "France's submarine surfaces in MAO" in report(out, viewer)[0]
        assert "SM MAO-1 - MAO" in order_texts(view(out, viewer))
        seen = [u for u in next_view(out, viewer).units if u.place == "MAO"]
        assert seen and seen[0].power == "FRANCE" and not seen[0].hidden


def test_a_failed_surfacing_is_told_only_to_the_surface_units_it_met() -> None:
    out = play({"FRANCE": ["SM MAO-1"], "ENGLAND": ["F MAO"], "GERMANY": ["F IRI"]}, {"FRANCE": ["SM MAO-1 - MAO"]})
    assert kinds(out, "ENGLAND") == ["submarines.unseen_bounce"]
    assert "France" not in report(out, "ENGLAND")[0] and "FRANCE" not in report(out, "ENGLAND")[0]
    for viewer in everyone_but("ENGLAND", "FRANCE"):
        assert report(out, viewer) == [] and order_texts(view(out, viewer)) == ["F MAO H", "F IRI H"]


def test_a_surface_move_bounced_by_an_unseen_submarine_is_reported_as_bounced() -> None:
    out = play(
        {"FRANCE": ["SM MAO-1"], "ENGLAND": ["F IRI"]}, {"FRANCE": ["SM MAO-1 - MAO"], "ENGLAND": ["F IRI - MAO"]}
    )
    for viewer in everyone_but("FRANCE"):
        seen = {o.text: (o.outcome, o.reason) for o in view(out, viewer).orders}
        assert seen["F IRI - MAO"] == ("fails", "bounced")
        assert "SM MAO-1 - MAO" not in seen
    assert report(out, "GERMANY") == [] and kinds(out, "ENGLAND") == ["submarines.unseen_bounce"]


def test_sonar_tells_each_owner_where_the_others_are_without_nationality() -> None:
    out = play(
        {"FRANCE": ["SM MAO-1"], "ENGLAND": ["SM NAO-1"], "GERMANY": ["SM NTH-1"]}, {"FRANCE": ["SM MAO-1 - IRI-1"]}
    )
    # IRI-1 touches NAO-1; NTH-1 touches neither IRI-1 nor NAO-1.
    assert report(out, "FRANCE") == ["Sonar contact: a submarine in NAO-1 (nationality unknown)."]
    assert report(out, "ENGLAND") == ["Sonar contact: a submarine in IRI-1 (nationality unknown)."]
    for viewer in everyone_but("FRANCE", "ENGLAND"):
        assert report(out, viewer) == []
    contact = [u for u in next_view(out, "FRANCE").units if u.place == "NAO-1"]
    assert contact and contact[0].power is None and contact[0].hidden
    assert next_view(out, "FRANCE").extras == {"submarines": {"contacts": {"FRANCE": ["NAO-1"]}}}
    assert next_view(out, "GERMANY").extras == {} and next_view(out, "observer").extras == {}
    # Two submarines of the same power are no contacts.
    out = play({"FRANCE": ["SM MAO-1", "SM NAO-1"]}, {})
    assert report(out, "FRANCE") == []


def test_a_decisive_upward_support_is_published_without_nationality_a_useless_one_stays_secret() -> None:
    units = {"FRANCE": ["F BRE"], "GERMANY": ["SM MAO-1"], "ENGLAND": ["F MAO"]}
    out = play(units, {"FRANCE": ["F BRE - MAO"], "GERMANY": ["SM MAO-1 S F BRE - MAO"]})
    for viewer in everyone_but():
        assert kinds(out, viewer) == ["submarines.decisive_support"]
        line = report(out, viewer)[0]
        assert "MAO-1" in line and "German" not in line and "GERMANY" not in line
    assert "SM MAO-1 S F BRE - MAO" not in order_texts(view(out, "FRANCE"))
    # Not decisive (the move fails anyway): secret.
    units = {"FRANCE": ["F BRE"], "GERMANY": ["SM MAO-1"], "ENGLAND": ["F MAO", "F IRI", "F NAO"]}
    out = play(
        units,
        {
            "FRANCE": ["F BRE - MAO"],
            "GERMANY": ["SM MAO-1 S F BRE - MAO"],
            "ENGLAND": ["F IRI S F MAO", "F NAO S F MAO"],
        },
    )
    for viewer in everyone_but("GERMANY"):
        assert report(out, viewer) == [] and "MAO-1" not in str(view(out, viewer))


def test_a_downward_support_is_published_without_the_supported_nationality() -> None:
    units = {"ENGLAND": ["SM ENG"], "FRANCE": ["SM MAO-1"]}
    out = play(units, {"ENGLAND": ["SM ENG S SM MAO-1 - ENG-1"], "FRANCE": ["SM MAO-1 - ENG-1"]})
    for viewer in everyone_but():
        assert kinds(out, viewer)[0] == "submarines.downward_support"
        line = report(out, viewer)[0]
        assert "SM ENG S SM MAO-1 - ENG-1" in line and "France" not in line
        assert "SM ENG S SM MAO-1 - ENG-1" in order_texts(view(out, viewer))


def test_depth_to_depth_supports_are_told_to_the_two_owners_only() -> None:
    units = {"ENGLAND": ["SM IRI-1"], "FRANCE": ["SM MAO-1"]}
    out = play(units, {"ENGLAND": ["SM IRI-1 S SM MAO-1 - NAO-1"], "FRANCE": ["SM MAO-1 - NAO-1"]})
    for viewer in ("ENGLAND", "FRANCE"):
        assert "submarines.depth_support" in kinds(out, viewer)
        assert "SM IRI-1 S SM MAO-1 - NAO-1" in order_texts(view(out, viewer))
    for viewer in everyone_but("ENGLAND", "FRANCE"):
        assert report(out, viewer) == [] and order_texts(view(out, viewer)) == []


def test_a_torpedo_hit_is_told_to_everyone_with_the_firing_place_and_never_the_firing_power() -> None:
    out = play({"GERMANY": ["SM MAO-1"], "FRANCE": ["F MAO"]}, {"GERMANY": ["SM MAO-1 Torp. MAO"]})
    for viewer in everyone_but():
        assert kinds(out, viewer) == ["submarines.torpedo_hit"]
        line = view(out, viewer).report[0]
        en, fr = report_line_text(RULES, line, "en"), report_line_text(RULES, line, "fr")
        assert "MAO-1" in en and "German" not in en + fr and "Allemagne" not in fr and "GERMANY" not in str(line)
    assert order_texts(view(out, "FRANCE")) == ["F MAO H"]  # the torpedo order itself stays secret
    # A hit on a submerged unit does not name its power either.
    out = play({"GERMANY": ["SM MAO-1"], "FRANCE": ["F MAO"]}, {"FRANCE": ["F MAO Torp. MAO-1"]})
    line = report(out, "ITALY")[0]
    assert line == "A torpedo fired from MAO hit a submarine in MAO-1."


def test_a_torpedo_miss_is_told_only_next_to_the_target_sea() -> None:
    units = {"GERMANY": ["SM MAO-1"], "FRANCE": ["A GAS"], "ENGLAND": ["SM NAO-1"], "ITALY": ["F ROM"]}
    out = play(units, {"GERMANY": ["SM MAO-1 Torp. MAO"]})
    told = ["GERMANY", "FRANCE", "ENGLAND"]  # the firer; an army in Gascony; a submarine in the next depths
    for viewer in told:
        assert "submarines.torpedo_miss" in kinds(out, viewer)
    miss = next(line for line in report(out, "FRANCE") if "torpedo" in line)
    assert miss == "A torpedo fired from MAO-1 at MAO missed." and "German" not in miss
    for viewer in everyone_but(*told):
        assert report(out, viewer) == []
    # From the surface, the firing unit and its power are named.
    out = play(
        {"FRANCE": ["F MAO"], "SPAIN_FREE": []} if False else {"FRANCE": ["F MAO"], "ITALY": ["F ROM"]},
        {"FRANCE": ["F MAO Torp. MAO-1"]},
    )
    assert report(out, "FRANCE") == ["France's F MAO fired a torpedo at MAO-1 and missed."]
    assert report(out, "ITALY") == []


def test_an_attack_in_the_depths_tells_the_attacker_the_nationality_and_the_defender_nothing() -> None:
    units = {"ENGLAND": ["SM IRI-1", "SM ENG-1"], "FRANCE": ["SM MAO-1"]}
    out = play(units, {"ENGLAND": ["SM IRI-1 - MAO-1", "SM ENG-1 S SM IRI-1 - MAO-1"]})
    assert "Your SM IRI-1 attacked a submarine of France in MAO-1." in report(out, "ENGLAND")
    assert "submarines.depth_attack" not in kinds(out, "FRANCE")
    mine = next_view(out, "FRANCE").dislodged[0]
    assert mine.unit.place == "MAO-1" and mine.attacker_from is None  # not where the attack came from
    assert "IRI-1" in (mine.retreats or ())  # offered, as an unseen place (it would fail)
    for viewer in everyone_but("ENGLAND", "FRANCE"):
        assert report(out, viewer) == [] and next_view(out, viewer).dislodged == ()
    # A miss tells the nationality too.
    out = play({"ENGLAND": ["SM IRI-1"], "FRANCE": ["SM MAO-1"]}, {"ENGLAND": ["SM IRI-1 - MAO-1"]})
    assert "Your SM IRI-1 attacked a submarine of France in MAO-1." in report(out, "ENGLAND")


def test_a_lost_submarine_is_public_without_place_or_culprit() -> None:
    units = {"ENGLAND": ["SM IRI-1", "SM ENG-1"], "FRANCE": ["SM MAO-1"]}
    out = play(units, {"ENGLAND": ["SM IRI-1 - MAO-1", "SM ENG-1 S SM IRI-1 - MAO-1"]})
    retreat = adjudicate(RULES, out.after, {"FRANCE": ["SM MAO-1 D"]})
    for viewer in everyone_but():
        lines = [
            report_line_text(RULES, line, "en") for line in build_view(RULES, retreat.before, viewer, retreat).report
        ]
        assert lines == ["France lost a submarine."]
    assert order_texts(build_view(RULES, retreat.before, "ITALY", retreat)) == []
    assert order_texts(build_view(RULES, retreat.before, "FRANCE", retreat)) == ["SM MAO-1 D"]


def test_a_submerged_retreat_to_an_impossible_unseen_place_fails_and_the_submarine_is_lost() -> None:
    units = {"ENGLAND": ["SM IRI-1", "SM ENG-1"], "FRANCE": ["SM MAO-1"]}
    out = play(units, {"ENGLAND": ["SM IRI-1 - MAO-1", "SM ENG-1 S SM IRI-1 - MAO-1"]})
    game_rules = RULES
    # IRI-1 is where the attack came from: France cannot know it, so the order is accepted, and fails.
    assert [
        r for r in adjudicate(game_rules, out.after, {"FRANCE": ["SM MAO-1 R IRI-1"]}).results if r.outcome == "illegal"
    ] == []
    retreat = adjudicate(game_rules, out.after, {"FRANCE": ["SM MAO-1 R IRI-1"]})
    assert [(r.outcome, r.reason) for r in retreat.results] == [("fails", "bounced")]
    assert "France lost a submarine." in [
        event_text(RULES, e.kind, e.data, "en")  # type: ignore[attr-defined]
        for e in retreat.events
    ]
    ok = adjudicate(game_rules, out.after, {"FRANCE": ["SM MAO-1 R NAO-1"]})
    assert [r.outcome for r in ok.results] == [SUCCEEDS] and ok.events == ()


def test_the_master_view_lists_every_event_with_its_audience() -> None:
    units = {"GERMANY": ["SM MAO-1"], "FRANCE": ["F MAO"], "ENGLAND": ["SM ENG", "SM NAO-1"]}
    out = play(units, {"GERMANY": ["SM MAO-1 Torp. MAO"], "FRANCE": ["F MAO - POR"], "ENGLAND": ["SM ENG - MAO"]})
    master = view(out, "master")
    assert [(line.key, line.audience) for line in master.report] == [  # canonical (sorted) order
        ("submarines.sonar", ("ENGLAND",)),
        ("submarines.sonar", ("GERMANY",)),
        ("submarines.torpedo_hit", (PUBLIC,)),
    ]
    assert len(master.orders) == len(out.results)
    assert all(line.audience == () for line in view(out, "ENGLAND").report)


def test_order_checks_judge_unseen_places_as_empty_and_name_no_hidden_unit() -> None:
    hidden = position({"FRANCE": ["SM NAO-1", "A PAR"], "ENGLAND": ["SM IRI-1", "F LON"]})
    empty = position({"FRANCE": ["SM NAO-1", "A PAR"], "ENGLAND": ["F LON"]})
    game = Game.new("standard", ["submarines"])
    orders = [
        "SM IRI-1 - ENG-1",
        "SM IRI-1 H",
        "SM NAO-1 S SM IRI-1 - MAO-1",
        "SM NAO-1 S SM IRI-1",
        "SM NAO-1 - IRI-1",
        "SM IRI-1 D",
        "F LON - PAR",
        "A PAR S SM IRI-1",
    ]
    answers = []
    for pos in (hidden, empty):
        game.position = pos
        answers.append(
            [(r.text, r.outcome, r.reason, r.message) for o in orders for r in game.check_orders("FRANCE", [o])]
        )
    assert answers[0] == answers[1]
    refused = {t: m for t, _, _, m in answers[0]}
    assert refused["SM IRI-1 - ENG-1"] == "there is no unit in IRI-1"
    assert "SM NAO-1 S SM IRI-1 - MAO-1" not in refused  # a support of an unseen place: accepted either way
    assert all("ENGLAND" not in (m or "") or "LON" in (m or "") for m in refused.values())
    game.position = hidden
    listed_hidden = game.legal_orders("FRANCE")
    game.position = empty
    assert game.legal_orders("FRANCE") == listed_hidden


def test_the_outcome_of_a_support_of_an_unseen_unit_is_told_to_nobody() -> None:
    # Whether the support is void would tell whether a submarine is in IRI-1.
    for units in ({"FRANCE": ["SM NAO-1"], "ENGLAND": ["SM IRI-1"]}, {"FRANCE": ["SM NAO-1"]}):
        out = play(units, {"FRANCE": ["SM NAO-1 S SM IRI-1"]})
        mine = next(o for o in view(out, "FRANCE").orders if o.text == "SM NAO-1 S SM IRI-1")
        assert (mine.outcome, mine.reason) == (None, None)


# ---------------------------------------------------------------------- public results of surface supports
SURFACE_FIGHT = {"FRANCE": ["F BRE", "F MAO"], "ENGLAND": ["F LON", "F IRI"], "ITALY": ["F NAP"]}


def _outcomes(out: PhaseOutcome, viewer: str) -> dict[str, tuple[str | None, str | None]]:
    return {o.text: (o.outcome, o.reason) for o in view(out, viewer).orders}


def test_the_outcome_of_a_surface_support_is_public() -> None:
    # Spec: orders of units public at the start of the phase are published with their results.
    out = play(SURFACE_FIGHT, {"FRANCE": ["F MAO S F BRE - ENG", "F BRE - ENG"], "ENGLAND": ["F LON - ENG"]})
    for viewer in everyone_but():
        assert _outcomes(out, viewer)["F MAO S F BRE - ENG"] == (SUCCEEDS, None)
    cut = play(
        SURFACE_FIGHT, {"FRANCE": ["F MAO S F BRE - ENG", "F BRE - ENG"], "ENGLAND": ["F LON - ENG", "F IRI - MAO"]}
    )
    for viewer in everyone_but():
        assert _outcomes(cut, viewer)["F MAO S F BRE - ENG"] == ("fails", "cut")
        assert _outcomes(cut, viewer)["F BRE - ENG"] == ("fails", "bounced")


def test_a_support_cut_by_an_unseen_submarine_reads_cut_and_names_nothing() -> None:
    units = {**SURFACE_FIGHT, "GERMANY": ["SM MAO-1"]}
    out = play(
        units,
        {"FRANCE": ["F MAO S F BRE - ENG", "F BRE - ENG"], "ENGLAND": ["F LON - ENG"], "GERMANY": ["SM MAO-1 - MAO"]},
    )
    for viewer in everyone_but("GERMANY"):
        mine = next(o for o in view(out, viewer).orders if o.text == "F MAO S F BRE - ENG")
        assert (mine.outcome, mine.reason) == ("fails", "cut")
        assert "GERMANY" not in str(mine) and "MAO-1" not in str(view(out, viewer).orders)


def test_a_support_from_the_depths_keeps_its_outcome_secret() -> None:
    out = play(
        {"FRANCE": ["F BRE", "SM ENG-1"], "ENGLAND": ["F LON"]},
        {"FRANCE": ["SM ENG-1 S F BRE - ENG", "F BRE - ENG"], "ENGLAND": ["F LON - ENG"]},
    )
    assert _outcomes(out, "FRANCE")["SM ENG-1 S F BRE - ENG"] == (SUCCEEDS, None)
    for viewer in everyone_but("FRANCE"):
        assert "SM ENG-1 S F BRE - ENG" not in _outcomes(out, viewer)


def test_public_results_read_the_same_whatever_the_depths_hold() -> None:
    # Hidden-state pairs: only submerged units of other powers (and their orders) differ.
    orders = {
        "FRANCE": ["F MAO S F BRE - ENG", "F BRE - ENG"],
        "ENGLAND": ["F LON - ENG", "F IRI H"],
        "ITALY": ["F NAP - TYS"],
    }
    # (How many units a power has is public: each side gives Turkey and Russia one submarine.)
    secret_sides = [
        ({"TURKEY": ["SM AEG-1"], "RUSSIA": ["SM BAR-1"]}, {}),
        ({"TURKEY": ["SM ION-1"], "RUSSIA": ["SM BAR-1"]}, {"TURKEY": ["SM ION-1 - TYS-1"]}),
        ({"TURKEY": ["SM ION-1"], "RUSSIA": ["SM NTH-1"]}, {"TURKEY": ["SM ION-1 H"], "RUSSIA": ["SM NTH-1 - NWG-1"]}),
    ]
    for viewer in ("ENGLAND", "ITALY", "GERMANY", "observer"):
        seen_py, seen_json = [], []
        for units, secret in secret_sides:
            request = {
                "rules": ["submarines"],
                "phase": "S1901M",
                "units": {**SURFACE_FIGHT, **units},
                "orders": {**orders, **secret},
            }
            out = play(request["units"], request["orders"])  # type: ignore[arg-type]
            seen_py.append(json.dumps(view_to_data(view(out, viewer)), sort_keys=True))
            seen_json.append(json.dumps(process({**request, "viewer": viewer}), sort_keys=True))
        assert len(set(seen_py)) == 1 and len(set(seen_json)) == 1
        results = {r["order"]: (r["outcome"], r["reason"]) for r in json.loads(seen_json[0])["results"]}
        assert results["F MAO S F BRE - ENG"] == (SUCCEEDS, None)
        assert results["F NAP - TYS"] == (SUCCEEDS, None)
        assert _outcomes(play(SURFACE_FIGHT, orders), viewer)["F MAO S F BRE - ENG"] == (SUCCEEDS, None)
