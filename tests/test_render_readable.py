"""Readable drawings: builds and disbands drawn per unit kind, orders that were not valid drawn as errors
(never as arrows), and arrowheads kept clear of the target's province label (SVG structure)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from arbitre.judge import Game
from arbitre.render import load_geometry, render_svg
from arbitre.render.svg import _Drawing
from arbitre.rules.drawing import ARMY_SHAPE, FLEET_SHAPE
from arbitre.views import View
from arbitre.views.model import VisibleOrder, VisibleUnit

SVG = "{http://www.w3.org/2000/svg}"


def _view(orders: list[VisibleOrder], units: tuple[VisibleUnit, ...] = (), phase: str = "W1901A") -> View:
    return View(viewer="FRANCE", map_name="standard", phase=phase, units=units, owners={}, orders=tuple(orders))


def _groups(view: View) -> list[ET.Element]:
    root = ET.fromstring(render_svg(view))
    return [g for g in root.iter(f"{SVG}g") if g.get("data-kind")]


def test_a_build_is_framed_by_its_own_unit_kind_s_outline() -> None:
    view = _view(
        [
            VisibleOrder("FRANCE", "A PAR B", "build", ("PAR",), "succeeds", draw="build"),
            VisibleOrder("FRANCE", "F BRE B", "build", ("BRE",), "succeeds", draw="build"),
        ]
    )
    halos = {}
    for g in _groups(view):
        found = [p for p in g.iter(f"{SVG}path") if p.get("data-halo")]
        assert len(found) == 1, g.get("data-places")
        halos[found[0].get("data-halo")] = found[0].get("d")
        assert g.find(f"{SVG}circle[@stroke-dasharray]") is None  # no longer the same ring for every kind
    assert halos == {"A": ARMY_SHAPE.path, "F": FLEET_SHAPE.path}


def test_a_disband_is_drawn_over_its_unit_kind_s_outline() -> None:
    units = (VisibleUnit("FRANCE", "A", "PAR"), VisibleUnit("FRANCE", "F", "BRE"))
    view = _view(
        [
            VisibleOrder("FRANCE", "A PAR D", "disband", ("PAR",), "succeeds", draw="disband"),
            VisibleOrder("FRANCE", "F BRE D", "disband", ("BRE",), "succeeds", draw="disband"),
        ],
        units,
    )
    halos = {}
    for g in _groups(view):
        found = [p for p in g.iter(f"{SVG}path") if p.get("data-halo")]
        assert len(found) == 1
        halos[g.get("data-places")] = (found[0].get("data-halo"), found[0].get("d"))
        assert any("L8 8" in (p.get("d") or "") for p in g.iter(f"{SVG}path"))  # and the cross
    assert halos == {"PAR": ("A", ARMY_SHAPE.path), "BRE": ("F", FLEET_SHAPE.path)}


@pytest.mark.parametrize("outcome", ["invalid", "illegal"])
def test_an_order_that_was_not_valid_is_an_error_mark_with_its_reason_not_an_arrow(outcome: str) -> None:
    units = (VisibleUnit("FRANCE", "A", "PAR"),)
    bad = VisibleOrder(
        "FRANCE", "A PAR - MUN", "move", ("PAR", "MUN"), outcome, message="MUN is not next to PAR", draw="move"
    )
    good = VisibleOrder("FRANCE", "A PAR - BUR", "move", ("PAR", "BUR"), "succeeds", draw="move")
    (drawn,) = _groups(_view([bad], units, "S1901M"))
    assert drawn.find(f"{SVG}polygon") is None and drawn.find(f"{SVG}polyline") is None  # no arrowhead
    assert not [p for p in drawn.iter(f"{SVG}path") if " Q" in (p.get("d") or "")]  # no arrow's curve
    error = drawn.find(f"{SVG}g[@class='error']")
    assert error is not None and error.get("data-error") == outcome
    title = error.find(f"{SVG}title")
    assert title is not None and "MUN is not next to PAR" in (title.text or "")
    # a valid order of the same kind is still an arrow (the test above could fail)
    (arrow,) = _groups(_view([good], units, "S1901M"))
    assert arrow.find(f"{SVG}polygon") is not None and arrow.find(f"{SVG}g[@class='error']") is None


def test_an_invalid_order_without_a_reason_says_it_was_not_valid_in_the_reader_s_words() -> None:
    bad = VisibleOrder("FRANCE", "A PAR - MUN", "move", ("PAR", "MUN"), "invalid", draw="move")
    words = {"order not valid": "ordre non valable"}
    svg = render_svg(_view([bad], (VisibleUnit("FRANCE", "A", "PAR"),), "S1901M"), words=lambda w: words.get(w, w))
    assert "A PAR - MUN — ordre non valable" in svg


def _head_points(group: ET.Element) -> list[tuple[float, float]]:
    heads = group.findall(f"{SVG}polygon")
    assert len(heads) == 1, group.get("data-places")
    numbers = [float(n) for n in re.findall(r"-?[\d.]+", heads[0].get("points") or "")]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


@pytest.mark.parametrize("map_name", ["standard", "colonial"])
def test_no_arrowhead_covers_its_target_s_label(map_name: str) -> None:
    """Every legal move of the opening position, drawn: no arrowhead corner lies on the target's name
    (before, 17 of the 94 standard moves and 22 of the 109 Colonial ones put their head on it; then two,
    F BRE - ENG and A KYO - TOK, whose target's name lies along the whole way, were left so)."""
    game = Game.new(map_name)
    geometry = load_geometry(map_name)
    orders = []
    for power in game.powers():
        for options in game.legal_orders(power).values():
            for text in options:
                words = text.split()
                if len(words) == 4 and words[2] == "-":
                    orders.append(VisibleOrder(power, text, "move", (words[1], words[3]), "succeeds", draw="move"))
    assert len(orders) > 40
    view = View(
        viewer="master", map_name=map_name, phase="S1901M", units=game.view("master").units, owners={}, orders=()
    )
    drawing = _Drawing(view, geometry)
    checked = 0
    for order in orders:
        (group,) = _groups(
            View(viewer="master", map_name=map_name, phase="S1901M", units=view.units, owners={}, orders=(order,))
        )
        box = drawing.label_box(order.places[1])
        assert box is not None
        for x, y in _head_points(group):
            assert not (box[0] <= x <= box[2] and box[1] <= y <= box[3]), (order.text, (x, y), box)
        checked += 1
    assert checked == len(orders)


def test_a_support_points_at_the_middle_of_a_move_bent_round_its_target_s_label() -> None:
    """F BRE - ENG is bent the other way to keep its head off ENG's name: the support's line still ends on
    the move's arrow as drawn (it stops 3 short of it), not on the curve the move would have had."""
    units = (VisibleUnit("FRANCE", "F", "BRE"), VisibleUnit("FRANCE", "A", "PIC"))
    move = VisibleOrder("FRANCE", "F BRE - ENG", "move", ("BRE", "ENG"), "succeeds", draw="move")
    support = VisibleOrder("FRANCE", "A PIC S F BRE - ENG", "support", ("PIC", "BRE", "ENG"), "succeeds")
    paths = {
        g.get("data-kind"): [float(n) for n in re.findall(r"-?[\d.]+", g.find(f"{SVG}path").get("d") or "")]  # type: ignore[union-attr]
        for g in _groups(_view([move, support], units, "S1901M"))
    }
    sx, sy, cx, cy, ex, ey = paths["move"]
    drawn = [
        ((1 - t) ** 2 * sx + 2 * t * (1 - t) * cx + t * t * ex, (1 - t) ** 2 * sy + 2 * t * (1 - t) * cy + t * t * ey)
        for t in (i / 100 for i in range(101))
    ]
    end = (paths["support"][-2], paths["support"][-1])
    assert min(math.dist(end, p) for p in drawn) < 6.0  # it stops 3 short of the middle
