"""Maps drawn end to end from real games: Game → set_orders → advance → view → SVG.

Every order kind of every rule module is played in a real game and must be
drawn on the map made from a viewer's view, in the drawing style its kind
declares (the picture names both: ``data-kind`` and ``data-draw``).  No view is
built by hand here.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from arbitre.judge import Game
from arbitre.render import load_geometry, render_svg
from arbitre.views import View

SVG = "{http://www.w3.org/2000/svg}"


def drawn(view: View) -> list[ET.Element]:
    """The order groups of the map of ``view`` (the SVG must be well formed)."""
    root = ET.fromstring(render_svg(view))
    return [g for g in root.iter(f"{SVG}g") if g.get("data-kind")]


def of_kind(view: View, kind: str, places: str | None = None) -> ET.Element:
    """The one drawn order of ``kind`` (on ``places``, space-separated, when given)."""
    found = [g for g in drawn(view) if g.get("data-kind") == kind and places in (None, g.get("data-places"))]
    assert len(found) == 1, (kind, places, [(g.get("data-kind"), g.get("data-places")) for g in drawn(view)])
    return found[0]


def has_shape(group: ET.Element, *tags: str) -> bool:
    """Does the drawn order hold at least one of these SVG shapes (beyond its title)?"""
    return any(group.find(f"{SVG}{tag}") is not None for tag in tags)


def play(game: Game, orders: dict[str, list[str]]) -> int:
    """Give ``orders``, adjudicate, and return the index of the phase just played (the history entry)."""
    for power, texts in orders.items():
        assert game.set_orders(power, texts) == [], (power, texts)
    game.advance()
    return len(game.history) - 1


def to_movement(game: Game) -> None:
    """Adjudicate phases with no orders until a movement phase."""
    while game.phase.kind != "M":
        game.advance()


def test_standard_kinds_from_a_real_game() -> None:
    game = Game.new("standard")
    spring = play(
        game,
        {
            "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE H"],
            "GERMANY": ["A MUN - RUH", "F KIE - HOL", "A BER - MUN"],
            "ENGLAND": ["F LON - NTH", "A LVP - YOR"],
            "RUSSIA": ["A WAR - GAL"],
            "ITALY": ["A VEN - TYR"],
        },
    )
    fall = play(
        game,
        {
            "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "F HOL H"],
            "FRANCE": ["A BUR H", "A MAR - BUR"],
            "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"],
            "AUSTRIA": ["A BUD - GAL", "A VIE S A BUD - GAL"],
        },
    )
    retreats = play(game, {"FRANCE": ["A BUR R PIC"], "RUSSIA": ["A GAL D"]})
    assert game.phase.kind == "A"
    winter = play(game, {"GERMANY": ["F KIE B"], "ENGLAND": ["WAIVE"]})

    view = game.phase_view(spring, "master")
    move = of_kind(view, "move", "PAR BUR")
    assert move.get("data-draw") == "move" and has_shape(move, "polygon")  # an arrowhead
    assert of_kind(view, "support", "MAR PAR BUR").get("data-draw") == "support"
    assert has_shape(of_kind(view, "hold", "BRE"), "circle")

    view = game.phase_view(fall, "master")
    failed = of_kind(view, "move", "MAR BUR")
    assert not has_shape(failed, "polygon") and has_shape(failed, "line")  # a bar, no arrowhead
    convoy = of_kind(view, "convoy", "NTH YOR NWY")
    assert convoy.get("data-draw") == "convoy" and has_shape(convoy, "path")
    assert of_kind(view, "move", "YOR NWY") is not None

    view = game.phase_view(retreats, "master")
    assert has_shape(of_kind(view, "retreat", "BUR PIC"), "path")
    assert has_shape(of_kind(view, "disband", "GAL"), "line", "path")  # a cross

    view = game.phase_view(winter, "master")
    build = of_kind(view, "build", "KIE")
    assert "Germany F KIE" in ET.tostring(build, encoding="unicode")
    waive = of_kind(view, "waive")
    assert waive.get("data-draw") == "none" and not has_shape(waive, "path", "line", "circle")


def colonial_game() -> tuple[Game, int, int]:
    """A Colonial game: a Russian train move in 1870, a Turkish fleet through Suez with permission in 1871."""
    game = Game.new("colonial")
    train = play(game, {"TURKEY": ["A ANG - SYR", "F CON - MED"], "RUSSIA": ["A MOS - TSR - KRA"]})
    play(game, {"TURKEY": ["A SYR - EGY"]})
    to_movement(game)
    suez = play(game, {"TURKEY": ["A EGY H", "F MED - RED", "SC F MED - RED"]})
    return game, train, suez


def test_colonial_train_moves_and_suez_passages_are_drawn() -> None:
    game, train_phase, suez_phase = colonial_game()
    (order,) = [o for o in game.phase_view(train_phase, "CHINA").orders if o.kind == "train_move"]
    assert (order.outcome, order.final_place) == ("succeeds", "KRA")  # where the train really stopped
    for viewer in ("master", "RUSSIA", "CHINA"):
        train = of_kind(game.phase_view(train_phase, viewer), "train_move", "MOS KRA")
        assert "stroke-dasharray" not in ET.tostring(train.findall(f"{SVG}polyline")[1], encoding="unicode")
        assert train.get("data-draw") == "railway"
        # Along the railway: MOS-PRM-OMS-KRA, one polyline point per station.
        assert len(train.findall(f"{SVG}polyline")[0].get("points", "").split()) == 4
    for viewer in ("master", "TURKEY", "BRITAIN"):
        view = game.phase_view(suez_phase, viewer)
        permission = of_kind(view, "suez_permission", "MED RED")
        assert permission.get("data-draw") == "canal" and has_shape(permission, "polyline")
        passage = of_kind(view, "move", "MED RED")
        # A move between the two seas of a canal is drawn through it.
        assert has_shape(passage, "polyline") and "canal" in ET.tostring(passage, encoding="unicode")


def submarines_game() -> tuple[Game, int, int]:
    """England's starting fleet in London is a submarine: it submerges in 1901 and fires in 1902."""
    game = Game.new("standard", ["submarines"], {"start_submarines": {"ENGLAND": ["LON"]}})
    play(game, {"ENGLAND": ["SM LON - ENG"]})
    to_movement(game)
    submerge = play(game, {"ENGLAND": ["SM ENG - ENG-1"], "FRANCE": ["F BRE - ENG"]})
    to_movement(game)
    torpedo = play(game, {"ENGLAND": ["SM ENG-1 Torp. ENG", "F EDI S SM ENG-1 Torp. ENG"]})
    return game, submerge, torpedo


def test_submarines_submerging_and_torpedoes_are_drawn() -> None:
    game, submerge, torpedo = submarines_game()
    dive = of_kind(game.phase_view(submerge, "ENGLAND"), "move", "ENG ENG-1")
    assert dive.get("data-draw") == "move" and has_shape(dive, "path")
    view = game.phase_view(torpedo, "ENGLAND")
    shot = of_kind(view, "torpedo", "ENG-1 ENG")
    assert shot.get("data-draw") == "torpedo"
    assert "torpedo hit" in ET.tostring(shot, encoding="unicode")
    support = of_kind(view, "torpedo_support", "EDI ENG-1 ENG")
    assert support.get("data-draw") == "support" and has_shape(support, "path")
    # The outsider's map shows neither the submerged unit nor its torpedo (the support is public).
    france = game.phase_view(torpedo, "FRANCE")
    assert [g.get("data-kind") for g in drawn(france) if "ENG-1" in (g.get("data-places") or "")] == ["torpedo_support"]
    assert "England SM ENG-1" not in render_svg(france)
    assert "England SM ENG-1 (submarine, submerged)" in render_svg(game.phase_view(torpedo, "ENGLAND"))


def test_outsider_map_holds_nothing_hidden() -> None:
    game, _submerge, _ = submarines_game()
    geo = load_geometry("standard")
    x, y = geo.provinces["ENG"].depth or (0.0, 0.0)
    after = game.view("FRANCE")  # the submarine is still submerged in ENG-1
    svg = render_svg(after, geo)
    assert "submerged" not in svg and f"translate({x:g} {y:g})" not in svg
    assert render_svg(after, geo) == svg  # the drawing depends on the view only
    assert f"translate({x:g} {y:g})" in render_svg(game.view("ENGLAND"), geo)
    assert "England SM ENG-1 (submarine, submerged)" in render_svg(game.view("master"), geo)


def test_espionnite_spies_and_a_reaction_change_are_drawn() -> None:
    game = Game.new("standard", ["espionnite"])
    assert game.set_orders("FRANCE", ["A PAR - BUR", "SPY MUN", "COUNTERSPY MAR"]) == []
    assert game.set_orders("GERMANY", ["A MUN - BUR", "SPY PAR"]) == []
    game.lock()
    game.set_change("GERMANY", "A MUN - RUH")
    france = game.view("FRANCE")
    spy = of_kind(france, "spy", "MUN")
    assert spy.get("data-draw") == "spy" and has_shape(spy, "path", "circle")
    guard = of_kind(france, "counter_spy", "MAR")
    assert guard.get("data-draw") == "guard" and has_shape(guard, "path")
    germany = game.view("GERMANY")
    assert has_shape(of_kind(germany, "move", "MUN RUH"), "path")  # the change, drawn
    assert not [g for g in drawn(germany) if g.get("data-places") == "MUN BUR"]  # the order it replaced
    assert "SPY MUN" not in render_svg(germany)  # France's spy is France's own
    played = play(game, {})
    assert has_shape(of_kind(game.phase_view(played, "master"), "move", "MUN RUH"), "path")


def test_a_module_s_declaration_is_drawn_from_its_kind_s_data() -> None:
    """The declarations module's pennant: a mark over the declared province, in the declaring power's colour,
    shown to that power only until the lock; its title in the reader's words."""
    game = Game.new("standard", ["declarations"])
    assert game.set_orders("FRANCE", ["DECLARE BUR", "A PAR - BUR"]) == []
    flag = of_kind(game.view("FRANCE"), "declaration", "BUR")
    assert flag.get("data-draw") == "declaration" and has_shape(flag, "path")
    assert "DECLARE BUR" not in render_svg(game.view("GERMANY"))
    french = render_svg(game.view("FRANCE"), words=lambda w: {"declared": "annoncé"}.get(w, w))
    assert "<title>annoncé</title>" in french
