"""The map's integer tables say exactly what its tables by name say, for every map and every transformed map."""

from __future__ import annotations

from itertools import combinations

import pytest

from arbitre.maps import GameMap, load_map
from arbitre.maps.loader import available_maps
from arbitre.variants import make_rules
from arbitre.variants.registry import MAP_VARIANTS, REGISTRY


def _maps() -> list[tuple[str, GameMap]]:
    """Every map as loaded, and as every rule module (alone and in pairs) transforms it."""
    out = [(name, load_map(name)) for name in available_maps()]
    modules = sorted(REGISTRY)
    sets = [(m,) for m in modules] + list(combinations(modules, 2))
    for name in available_maps():
        for chosen in sets:
            try:
                rules = make_rules(name, chosen)
            except ValueError:
                continue  # a combination the registry refuses is no map to check
            out.append((f"{name}+{'+'.join(chosen)}", rules.game_map))
    return out


MAPS = _maps()


def _bits(mask: int) -> set[int]:
    return {k for k in range(mask.bit_length()) if (mask >> k) & 1}


def test_every_registered_rule_module_and_map_variant_is_covered() -> None:
    labels = {label for label, _ in MAPS}
    assert {m for m in REGISTRY if not any(m in label.split("+") for label in labels)} == set()
    assert set(MAP_VARIANTS) <= {label.split("+")[0] for label in labels}


@pytest.mark.parametrize(("label", "gmap"), MAPS, ids=[label for label, _ in MAPS])
def test_ids_number_the_names(label: str, gmap: GameMap) -> None:
    assert list(gmap.place_names) == sorted(gmap.places)
    assert all(gmap.place_names[i] == p for p, i in gmap.place_id.items())
    assert len(gmap.place_id) == len(gmap.place_names)
    assert set(gmap.province_id) == set(gmap.province_of.values()) | set(gmap.provinces)
    assert all(gmap.province_names[i] == p for p, i in gmap.province_id.items())
    for place, i in gmap.place_id.items():
        assert gmap.province_names[gmap.province_of_id[i]] == gmap.province_of[place]
        assert gmap.place_province_id[place] == gmap.province_id[gmap.province_of[place]]


@pytest.mark.parametrize(("label", "gmap"), MAPS, ids=[label for label, _ in MAPS])
def test_int_adjacency_equals_adjacency_by_name(label: str, gmap: GameMap) -> None:
    assert set(gmap.adjacency_ids) == set(gmap.adjacency) == set(gmap.neighbour_bits)
    for kind, table in gmap.adjacency.items():
        ids, bits = gmap.adjacency_ids[kind], gmap.neighbour_bits[kind]
        assert len(ids) == len(bits) == len(gmap.place_names)
        assert {gmap.place_names[i] for i in _bits(gmap.kind_place_bits[kind])} == set(table)
        for i, place in enumerate(gmap.place_names):
            assert {gmap.place_names[j] for j in ids[i]} == set(table.get(place, ()))
            by_name = gmap.province_neighbours[kind].get(place, frozenset())
            assert {gmap.province_names[k] for k in _bits(bits[i])} == set(by_name)
            for prov, k in gmap.province_id.items():
                assert gmap.reaches_province_id(kind, i, k) == gmap.can_reach_province(kind, place, prov)
    assert not gmap.reaches_province_id("no such kind", 0, 0)


@pytest.mark.parametrize(("label", "gmap"), MAPS, ids=[label for label, _ in MAPS])
def test_sea_and_centre_bits(label: str, gmap: GameMap) -> None:
    assert {gmap.province_names[k] for k in _bits(gmap.sea_bits)} == set(gmap.seas)
    assert {gmap.province_names[k] for k in _bits(gmap.centre_bits)} == set(gmap.supply_centers)


@pytest.mark.parametrize(("label", "gmap"), MAPS, ids=[label for label, _ in MAPS])
def test_a_place_names_its_province_before_the_slash(label: str, gmap: GameMap) -> None:
    # The resolver reads a target's province id from place_province_id, where the rules split "PROV/XC".
    for place in gmap.places:
        assert gmap.province_of[place] == place.split("/")[0]
