"""Build the renderer's board geometry: ``arbitre/render/geometry/{standard,colonial}.json``.

Usage (from the repository root)::

    python tools/build_render_geometry.py standard      # or: colonial, all

The method is described in ``tools/render_geometry/engine.py``; the anchor points and their
sources are in ``tools/render_geometry/standard_places.py`` and ``colonial_places.py``.
The standard map's land/sea mask is cached in ``tools/render_geometry/standard_landmask.txt``;
to sample it again (after changing the frame or the cell size) install ``numpy`` and
``global-land-mask`` and pass ``--sample-mask``.

The build fails when the drawing would mislead: every adjacency of the map data must be a
shared border or a declared crossing, and no two provinces that are not adjacent may share a
border (the growing rule makes the latter impossible; it is checked again on the polygons).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "render_geometry"))

import engine  # noqa: E402

OUT = ROOT / "arbitre" / "render" / "geometry"
SHARED = ROOT.parent / "shared"

UNIT_R = 9.0  # unit icon radius the renderer uses
LABEL_R = 10.0  # half-diagonal of a three-letter label at the renderer's font size
SC_R = 4.5


# --------------------------------------------------------------------------- map data
def load_map_data(name: str) -> dict:
    """The package's map file, or for Colonial the shared facts with the spec's edits."""
    path = ROOT / "arbitre" / "maps" / "data" / f"{name}.json"
    if path.exists():
        raw = json.loads(path.read_text(encoding="utf-8"))
        return {
            "provinces": {a: {"type": p["type"], "coasts": p.get("coasts", []),
                              "supply_center": p["supply_center"], "name": p["name"]}
                          for a, p in raw["provinces"].items()},
            "adjacency": raw["adjacency"],
            "extra": raw.get("extra", {}),
            "source": f"arbitre/maps/data/{name}.json",
        }
    if name != "colonial":
        raise SystemExit(f"no map data for {name}")
    raw = json.loads((SHARED / "maps" / "colonial" / "colonial.mila.json").read_text(encoding="utf-8"))
    army = {k: set(v) for k, v in raw["army_adjacency"].items()}
    fleet = {k: set(v) for k, v in raw["fleet_adjacency"].items()}
    # ../shared/spec/colonial.md: add AKI-TOK (armies and fleets) and CON-BLA (fleets), drop DAV-MID.
    for a, b in (("AKI", "TOK"),):
        army.setdefault(a, set()).add(b)
        army.setdefault(b, set()).add(a)
    for a, b in (("AKI", "TOK"), ("CON", "BLA")):
        fleet.setdefault(a, set()).add(b)
        fleet.setdefault(b, set()).add(a)
    fleet["DAV"].discard("MID")
    fleet["MID"].discard("DAV")
    provs = {}
    for a, p in raw["provinces"].items():
        provs[a] = {"type": p["type"], "coasts": p.get("coasts", []), "supply_center": p["supply_center"],
                    "name": p["name"]}
    return {"provinces": provs, "adjacency": {"A": {k: sorted(v) for k, v in army.items()},
                                              "F": {k: sorted(v) for k, v in fleet.items()}},
            "source": "shared/maps/colonial/colonial.mila.json with the edits of shared/spec/colonial.md"}


def province_pairs(data: dict) -> set[frozenset[str]]:
    """Province-level adjacency (armies or fleets, coasts folded)."""
    pairs: set[frozenset[str]] = set()
    for table in data["adjacency"].values():
        for place, ns in table.items():
            for n in ns:
                a, b = place.split("/")[0], n.split("/")[0]
                if a != b:
                    pairs.add(frozenset((a, b)))
    return pairs


# --------------------------------------------------------------------------- standard
def standard_board(data: dict, sample_mask: bool) -> tuple[engine.Board, str]:
    import standard_places as sp

    cell = 2.0
    width, height = sp.WIDTH, sp.HEIGHT
    cols, rows = int(width / cell), int(height / cell)
    mask_path = HERE / "render_geometry" / "standard_landmask.txt"
    mask = None
    if not sample_mask and mask_path.exists():
        lines = mask_path.read_text().splitlines()
        header = lines[0].split()
        if header[1:] == [str(cols), str(rows), str(cell)]:
            mask = [_rle_decode(line, cols) for line in lines[1:]]
    if mask is None:
        mask = _sample_mask(cols, rows, cell, sp.from_canvas)
        body = "\n".join(_rle_encode(r) for r in mask)
        mask_path.write_text(f"# {cols} {rows} {cell}\n{body}\n")
    seeds, anchors = {}, {}
    for prov, items in sp.PLACES.items():
        shapes = []
        for item in items:
            pts = item if isinstance(item, list) else [item]
            shapes.append([sp.to_canvas(lat, lon) for lat, lon in pts])
        seeds[prov] = shapes
        anchors[prov] = shapes[0][0]
    board = _board_from_data("standard", data, width, height, cell, seeds, anchors)
    board.mask = mask
    board.crossings = list(sp.CROSSINGS)
    source = ("Anchors: real-world latitude/longitude of the places (tools/render_geometry/standard_places.py), "
              "Lambert conformal conic projection (ours). Coastline guide: GLOBE 30-arc-second land mask "
              "(NOAA NGDC, public domain) via the global-land-mask package. Shapes: our own region growing "
              "(tools/render_geometry/engine.py).")
    return board, source


def _sample_mask(cols: int, rows: int, cell: float, from_canvas) -> list[list[int]]:
    import numpy as np
    from global_land_mask import globe

    lats = np.zeros((rows, cols))
    lons = np.zeros((rows, cols))
    for y in range(rows):
        for x in range(cols):
            la, lo = from_canvas((x + 0.5) * cell, (y + 0.5) * cell)
            lats[y, x], lons[y, x] = la, lo
    land = globe.is_land(lats, lons)
    return [[1 if v else 0 for v in row] for row in land.tolist()]


def _rle_encode(row: list[int]) -> str:
    out, cur, n = [], row[0], 0
    for v in row:
        if v == cur:
            n += 1
        else:
            out.append(f"{cur}{n}")
            cur, n = v, 1
    out.append(f"{cur}{n}")
    return " ".join(out)


def _rle_decode(line: str, cols: int) -> list[int]:
    row: list[int] = []
    for tok in line.split():
        row.extend([int(tok[0])] * int(tok[1:]))
    assert len(row) == cols
    return row


# --------------------------------------------------------------------------- colonial
def colonial_board(data: dict, sample_mask: bool) -> tuple[engine.Board, str]:
    import colonial_places as cp

    cell = 2.5
    seeds, anchors = {}, {}
    for prov, items in cp.seeds().items():
        seeds[prov] = items
        anchors[prov] = items[0][0]
    board = _board_from_data("colonial", data, cp.WIDTH, cp.HEIGHT, cell, seeds, anchors)
    board.mask = _colonial_mask(cp, cell, sample_mask)
    board.sea_on_land = True
    board.crossings = list(cp.CROSSINGS)
    board.decorations = dict(cp.DECORATIONS)
    board.weights = dict(cp.WEIGHTS)
    source = ("Anchors: unit positions of vDiplomacy's Colonial territory table (large_map_xy, 1500x1000; "
              "shared/maps/colonial/colonial.vdip.json), used as facts; extra shape points ours "
              "(tools/render_geometry/colonial_places.py). No coastline data: coasts are where land and "
              "sea provinces meet in our own region growing (tools/render_geometry/engine.py).")
    return board, source


def _colonial_mask(cp, cell: float, sample: bool) -> list[list[int]]:
    cols, rows = int(cp.WIDTH / cell), int(cp.HEIGHT / cell)
    path = HERE / "render_geometry" / "colonial_landmask.txt"
    if not sample and path.exists():
        lines = path.read_text().splitlines()
        if lines[0].split()[1:] == [str(cols), str(rows), str(cell)]:
            return [_rle_decode(line, cols) for line in lines[1:]]
    import numpy as np
    from global_land_mask import globe

    xs, ys = np.meshgrid((np.arange(cols) + 0.5) * cell, (np.arange(rows) + 0.5) * cell)
    lat, lon = cp.warp_sampler()(xs, ys)
    land = globe.is_land(np.clip(lat, -89, 89), np.clip(lon, -179, 179))
    mask = [[1 if v else 0 for v in row] for row in land.tolist()]
    path.write_text(f"# {cols} {rows} {cell}\n" + "\n".join(_rle_encode(r) for r in mask) + "\n")
    return mask


def _board_from_data(name: str, data: dict, width: float, height: float, cell: float,
                     seeds: dict, anchors: dict) -> engine.Board:
    terrain = {}
    for a, p in data["provinces"].items():
        t = p["type"]
        terrain[a] = "sea" if t == "sea" else ("impassable" if t == "impassable" else "land")
    touch: dict[str, set[str]] = {a: set() for a in terrain if terrain[a] != "impassable"}
    for pair in province_pairs(data):
        a, b = tuple(pair)
        touch[a].add(b)
        touch[b].add(a)
    missing = [a for a in terrain if a not in seeds]
    if missing:
        raise SystemExit(f"{name}: no seeds for {missing}")
    return engine.Board(name=name, width=int(width), height=int(height), cell=cell, terrain=terrain,
                        touchable=touch, seeds=seeds, anchors=anchors)


# --------------------------------------------------------------------------- build
def build(name: str, sample_mask: bool = False, check_only: bool = False, preview: str = "") -> None:
    t0 = time.time()
    data = load_map_data(name)
    if name == "standard":
        board, source = standard_board(data, sample_mask)
    else:
        board, source = colonial_board(data, sample_mask)
    lab = engine.grow(board)
    merged = engine.merge_specks(lab)
    t1 = time.time()
    required = {p for p in province_pairs(data)
                if all(board.terrain.get(x) != "impassable" for x in p)}
    provinces = {a for a, t in board.terrain.items() if t != "impassable"}
    touching = {p for p in engine.contacts(lab) if p <= provinces}
    crossings = {frozenset(c) for c in board.crossings}
    extra = touching - required
    missing = required - touching - crossings
    useless = crossings & touching
    print(f"{name}: grown in {t1 - t0:.1f}s; {len(required)} adjacencies, {len(touching)} drawn as borders, "
          f"{len(crossings)} crossings")
    for p in sorted(map(sorted, extra)):
        print("  EXTRA border (not adjacent):", p)
    for p in sorted(map(sorted, missing)):
        print("  MISSING border:", p)
    for p in sorted(map(sorted, useless)):
        print("  crossing that is already a border:", p)
    cells = engine.cells_by_label(lab)
    absent = provinces - set(cells)
    for a in sorted(absent):
        print("  province with no cells:", a)
    neutral = sum(len(v) for k, v in cells.items() if k.startswith("~"))
    print(f"  neutral cells: {neutral} ({merged} specks merged)")
    if preview:
        import preview as pv

        pv.preview(lab, board.cell, board.anchors, board.terrain, preview)
    if check_only:
        return
    rings, arcs = engine.trace(lab, board.cell)
    t2 = time.time()
    print(f"  traced {len(arcs)} arcs in {t2 - t1:.1f}s")
    out = place(board, data, lab, cells, rings)
    out["borders"] = borders(board, arcs)
    out["source"] = source
    out["map_source"] = data["source"]
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"  wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB) in {time.time() - t0:.1f}s")
    if extra or missing or useless or absent:
        raise SystemExit(f"{name}: the drawing would mislead; fix the anchors or the crossings")


class Placer:
    """Greedy placement of boxes that must not overlap, each inside its own province if possible."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.boxes: list[tuple[float, float, float, float]] = []

    def free(self, x: float, y: float, hw: float, hh: float) -> bool:
        for bx, by, bw, bh in self.boxes:
            if abs(bx - x) < bw + hw + 1.0 and abs(by - y) < bh + hh + 1.0:
                return False
        return True

    def put(self, dist: dict, hw: float, hh: float, prefer: tuple[float, float]) -> tuple[float, float]:
        """The free cell closest to ``prefer`` with room for the box (lack of room costs distance)."""
        cell = self.cell
        px, py = prefer
        need = max(hw, hh) + 1.0

        def score(item: tuple) -> float:
            (cx, cy), d = item
            far = math.hypot((cx + 0.5) * cell - px, (cy + 0.5) * cell - py)
            return far + 4.0 * max(0.0, need - d) + (40.0 if d < hh * 0.5 else 0.0)

        for (cx, cy), _ in sorted(dist.items(), key=score):
            x, y = (cx + 0.5) * cell, (cy + 0.5) * cell
            if self.free(x, y, hw, hh):
                self.boxes.append((x, y, hw, hh))
                return round(x, 1), round(y, 1)
        (cx, cy), _ = max(dist.items(), key=lambda kv: kv[1])
        x, y = (cx + 0.5) * cell, (cy + 0.5) * cell
        self.boxes.append((x, y, hw, hh))
        print(f"    crowded: item at {x:.0f},{y:.0f} overlaps")
        return round(x, 1), round(y, 1)


UNIT_BOX = (13.5, 10.5)
SC_BOX = (5.5, 5.5)


def label_box(text: str) -> tuple[float, float]:
    return 3.3 * len(text) + 2.0, 6.0


def place(board: engine.Board, data: dict, lab: list[list[str]], cells: dict, rings: dict) -> dict:
    cell = board.cell
    names = [a for a in sorted(data["provinces"]) if cells.get(a)]
    dist = {a: engine.distance_field(cells[a], (), cell) for a in names}
    order = sorted(names, key=lambda a: len(cells[a]))  # small provinces choose first
    placer = Placer(cell)
    spot: dict[str, dict] = {a: {} for a in names}
    playable = [a for a in order if board.terrain[a] != "impassable"]
    for a in playable:
        spot[a]["unit"] = placer.put(dist[a], *UNIT_BOX, board.anchors[a])
    for a in order:
        ux, uy = spot[a].get("unit", board.anchors[a])
        spot[a]["label"] = placer.put(dist[a], *label_box(a), (ux, uy + 19))
    for a in playable:
        ux, uy = spot[a]["unit"]
        if data["provinces"][a]["supply_center"]:
            spot[a]["sc"] = placer.put(dist[a], *SC_BOX, (ux + 15, uy - 12))
    for a in playable:
        ux, uy = spot[a]["unit"]
        if board.terrain[a] == "sea":
            spot[a]["depth"] = placer.put(dist[a], *UNIT_BOX, (ux + 24, uy + 12))
    coasts: dict[str, list[float]] = {}
    for a in playable:
        for coast in data["provinces"][a]["coasts"]:
            seas = {n.split("/")[0] for n in data["adjacency"]["F"].get(coast, [])}
            own = cells[a]
            border = [(x, y) for x, y in own
                      if any(lab[y + dy][x + dx] in seas for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                             if 0 <= y + dy < len(lab) and 0 <= x + dx < len(lab[0]))]
            if not border:
                raise SystemExit(f"{coast}: no border with {seas}")
            tx = sum((x + 0.5) * cell for x, _ in border) / len(border)
            ty = sum((y + 0.5) * cell for _, y in border) / len(border)
            coasts[coast] = list(placer.put(dist[a], *UNIT_BOX, (tx, ty)))
    provs: dict[str, dict] = {}
    for a in names:
        entry: dict = {"terrain": board.terrain[a], "rings": [[[x, y] for x, y in r] for r in rings[a]]}
        for key in ("unit", "label", "sc", "depth"):
            if key in spot[a]:
                entry[key] = list(spot[a][key])
        provs[a] = entry
    neutral = []
    for q, rs in sorted(rings.items()):
        if q.startswith("~") or q in board.decorations:
            t = board.decorations.get(q) or ("sea" if q == engine.NEUTRAL_SEA else "land")
            neutral.append({"name": q, "terrain": t, "rings": [[[x, y] for x, y in r] for r in rs]})
    crossings = []
    for a, b in board.crossings:
        (p, q) = _closest(cells[a], cells[b], cell)
        crossings.append({"a": a, "b": b, "points": [list(p), list(q)]})
    extra = data.get("extra", {})
    railway = list(extra.get("trans_siberian_railroad", {}).get("stations", []))
    canals = {}
    suez = extra.get("suez_canal")
    if suez:
        a, b = suez["seas"]
        p, q = _closest(cells[a], cells[b], cell)
        via = suez["controlled_from"]
        canals["Suez Canal"] = {"via": via, "between": [a, b], "points": [list(p), list(q)]}
    return {
        "map": board.name,
        "railway": railway,
        "canals": canals,
        "width": board.width,
        "height": board.height,
        "sizes": {"unit_box": UNIT_BOX, "sc_box": SC_BOX},
        "provinces": provs,
        "coasts": coasts,
        "neutral": neutral,
        "crossings": crossings,
    }


def borders(board: engine.Board, arcs: list) -> dict[str, list]:
    """Border lines by kind: ``coast`` (land/sea), ``land`` (land/land), ``sea`` (sea/sea)."""

    def kind(q: str) -> str:
        if q == engine.OUTSIDE:
            return "outside"
        if q == engine.NEUTRAL_SEA:
            return "sea"
        if q == engine.NEUTRAL_LAND:
            return "land"
        t = board.terrain.get(q) or board.decorations.get(q, "land")
        return "sea" if t == "sea" else "land"

    out: dict[str, list] = {"coast": [], "land": [], "sea": []}
    for a, b, pts in arcs:
        ka, kb = kind(a), kind(b)
        if "outside" in (ka, kb):
            continue
        k = "coast" if ka != kb else ka
        if k == "sea" and (a == engine.NEUTRAL_SEA or b == engine.NEUTRAL_SEA):
            continue  # water that belongs to nobody has no drawn edge
        out[k].append([[x, y] for x, y in pts])
    return out


def _closest(ca: set, cb: set, cell: float) -> tuple[tuple[float, float], tuple[float, float]]:
    def edge(cs: set) -> list:
        return [(x, y) for x, y in cs if any((x + dx, y + dy) not in cs for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))]

    ea, eb = edge(ca), edge(cb)
    best = None
    for x, y in ea[::2]:
        for u, v in eb[::2]:
            d = (x - u) ** 2 + (y - v) ** 2
            if best is None or d < best[0]:
                best = (d, (x, y), (u, v))
    assert best is not None
    (_, (x, y), (u, v)) = best
    # Reach a little into each province.
    dx, dy = u - x, v - y
    n = math.hypot(dx, dy) or 1.0
    k = 4.0 / cell
    p = ((x + 0.5 - dx / n * k) * cell, (y + 0.5 - dy / n * k) * cell)
    q = ((u + 0.5 + dx / n * k) * cell, (v + 0.5 + dy / n * k) * cell)
    return (round(p[0], 1), round(p[1], 1)), (round(q[0], 1), round(q[1], 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", choices=["standard", "colonial", "all"])
    ap.add_argument("--sample-mask", action="store_true", help="sample the land mask again (needs numpy)")
    ap.add_argument("--check", action="store_true", help="grow and report only")
    ap.add_argument("--preview", default="", help="write a debug PNG of the grown cells here")
    args = ap.parse_args()
    for name in (["standard", "colonial"] if args.map == "all" else [args.map]):
        build(name, args.sample_mask, args.check, args.preview.replace('MAP', name))


if __name__ == "__main__":
    main()
