"""Board geometry from anchor points: constrained region growing on a raster, then vectorising.

This is a developer tool (``python tools/build_render_geometry.py MAP``); its output,
``arbitre/render/geometry/MAP.json``, is committed and is what the renderer reads.

Method, in order:

1. Every province gets *seeds*: its anchor point (where its unit stands) and, for long or odd
   shapes, a few more points or strokes.  The map files say where each anchor comes from.
2. The seeds grow over a grid of square cells, all at once, cheapest first (a multi-source
   Dijkstra).  A land province pays a penalty to cross a cell that the land/sea mask says is
   water, and a sea may not take a masked land cell (the standard map has a mask made from a
   public-domain elevation dataset; Colonial has none, its coasts come out of the seeds alone).
3. **The rule that keeps the board honest:** a province may take a cell only if every
   neighbouring cell already taken belongs to itself or to a province it is adjacent to in the
   map data (army or fleet).  So two provinces that are not adjacent can never share an edge.
   Cells nobody may take stay neutral (drawn as land or water that belongs to no province).
4. The raster is vectorised: the borders between two labels become *arcs*, simplified and
   smoothed once, and both neighbours use the same arc, so shared borders stay exactly shared.
5. Unit, label, supply-centre, coast and depth positions are placed inside each province, away
   from its border and from each other.

Adjacencies that the shapes still do not show (a land bridge over a strait) must be listed by
the map file as *crossings*; they are drawn as bridges.  The build fails if an adjacency is
neither a shared border nor a declared crossing, or if a declared crossing is also a border.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

Point = tuple[float, float]

NEUTRAL_LAND = "~land"
NEUTRAL_SEA = "~sea"
OUTSIDE = ""


@dataclass
class Board:
    """Everything the engine needs about one map."""

    name: str
    width: int
    height: int
    cell: float
    terrain: dict[str, str]  # province -> land | sea | impassable (impassable = decoration)
    touchable: dict[str, set[str]]  # province -> provinces it may share a border with
    seeds: dict[str, list[list[Point]]]  # province -> list of points / strokes (canvas px)
    anchors: dict[str, Point]  # province -> unit position wanted (canvas px)
    coast_seas: dict[str, set[str]] = field(default_factory=dict)  # "SPA/NC" -> neighbours
    mask: list[list[int]] | None = None  # [row][col]: 1 land, 0 water, -1 unknown
    water_penalty: float = 14.0  # cost factor for a land province on a masked water cell
    weights: dict[str, float] = field(default_factory=dict)  # per-province cost factor
    crossings: list[tuple[str, str]] = field(default_factory=list)
    decorations: dict[str, str] = field(default_factory=dict)  # decor label -> land | sea
    sea_on_land: bool = False  # may a sea cover masked land (at the penalty)?


# --------------------------------------------------------------------------- growing
def grow(board: Board) -> list[list[str]]:
    """Grow the seeds into a label grid (``OUTSIDE`` never appears inside)."""
    cols = int(board.width / board.cell)
    rows = int(board.height / board.cell)
    lab: list[list[str | None]] = [[None] * cols for _ in range(rows)]
    heap: list[tuple[float, int, int, int, str]] = []
    counter = 0
    c = board.cell
    is_land = {p: board.terrain.get(p, board.decorations.get(p)) != "sea" for p in board.seeds}

    def allowed(p: str, x: int, y: int) -> bool:
        touch = board.touchable.get(p)
        # All eight neighbours: two provinces that are not adjacent may not even meet at a corner.
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < cols and 0 <= ny < rows:
                q = lab[ny][nx]
                if q is not None and q != p and touch is not None and q in touch:
                    continue
                if q is not None and q != p:
                    if touch is None or board.touchable.get(q) is None:
                        continue  # decorations touch everything
                    return False
        return True

    def push(cost: float, x: int, y: int, p: str) -> None:
        nonlocal counter
        counter += 1
        heapq.heappush(heap, (cost, counter, x, y, p))

    # Seeds: points and strokes, rasterised.
    for p, shapes in board.seeds.items():
        for shape in shapes:
            pts = shape if len(shape) > 1 else shape * 2
            for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
                steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / (c / 2)))
                for i in range(steps + 1):
                    t = i / steps
                    gx = int((x0 + (x1 - x0) * t) / c)
                    gy = int((y0 + (y1 - y0) * t) / c)
                    if 0 <= gx < cols and 0 <= gy < rows:
                        push(0.0, gx, gy, p)
    mask = board.mask
    diag = math.sqrt(2)
    while heap:
        cost, _, x, y, p = heapq.heappop(heap)
        if lab[y][x] is not None:
            continue
        if not allowed(p, x, y):
            continue
        lab[y][x] = p
        w = board.weights.get(p, 1.0)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < cols and 0 <= ny < rows) or lab[ny][nx] is not None:
                continue
            step = w * (diag if dx and dy else 1.0)
            if mask is not None:
                m = mask[ny][nx]
                if m == 1 and not is_land[p]:
                    if not board.sea_on_land:
                        continue  # a sea never covers real land
                    step *= board.water_penalty
                if m == 0 and is_land[p]:
                    step *= board.water_penalty
            push(cost + step, nx, ny, p)
    # Leftover cells become neutral land or water.
    out: list[list[str]] = []
    for y in range(rows):
        row: list[str] = []
        for x in range(cols):
            q = lab[y][x]
            if q is None:
                if mask is not None and mask[y][x] >= 0:
                    q = NEUTRAL_LAND if mask[y][x] == 1 else NEUTRAL_SEA
                else:
                    q = _neutral_by_neighbours(lab, x, y, board)
            row.append(q)
        out.append(row)
    return out


def _neutral_by_neighbours(lab: list[list[str | None]], x: int, y: int, board: Board) -> str:
    land = sea = 0
    for dy in range(-3, 4):
        for dx in range(-3, 4):
            yy, xx = y + dy, x + dx
            if 0 <= yy < len(lab) and 0 <= xx < len(lab[0]):
                q = lab[yy][xx]
                if q is None:
                    continue
                t = board.terrain.get(q, board.decorations.get(q, "land"))
                if t == "sea":
                    sea += 1
                else:
                    land += 1
    return NEUTRAL_SEA if sea > land else NEUTRAL_LAND


def merge_specks(lab: list[list[str]], max_cells: int = 12) -> int:
    """Give small neutral components that touch a single label to that label; returns how many."""
    rows, cols = len(lab), len(lab[0])
    seen: set[tuple[int, int]] = set()
    merged = 0
    for y in range(rows):
        for x in range(cols):
            q = lab[y][x]
            if not q.startswith("~") or (x, y) in seen:
                continue
            comp, around, stack = [], set(), [(x, y)]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                comp.append((cx, cy))
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nx, ny = cx + dx, cy + dy
                    if not (0 <= nx < cols and 0 <= ny < rows):
                        around.add(OUTSIDE)
                        continue
                    r = lab[ny][nx]
                    if r == q and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
                    elif r != q:
                        around.add(r)
            if len(comp) <= max_cells and len(around) == 1 and OUTSIDE not in around:
                (only,) = around
                for cx, cy in comp:
                    lab[cy][cx] = only
                merged += 1
    return merged


def contacts(lab: list[list[str]]) -> set[frozenset[str]]:
    """Pairs of labels that share at least one cell edge."""
    pairs: set[frozenset[str]] = set()
    rows, cols = len(lab), len(lab[0])
    for y in range(rows):
        row = lab[y]
        for x in range(cols):
            a = row[x]
            if x + 1 < cols and row[x + 1] != a:
                pairs.add(frozenset((a, row[x + 1])))
            if y + 1 < rows and lab[y + 1][x] != a:
                pairs.add(frozenset((a, lab[y + 1][x])))
    return pairs


# --------------------------------------------------------------------------- vectorising
Vertex = tuple[int, int]


def _label_at(lab: list[list[str]], x: int, y: int) -> str:
    if 0 <= y < len(lab) and 0 <= x < len(lab[0]):
        return lab[y][x]
    return OUTSIDE


def trace(lab: list[list[str]], cell: float, smooth: int = 2, tolerance: float = 0.75
          ) -> tuple[dict[str, list[list[Point]]], list[tuple[str, str, list[Point]]]]:
    """Vectorise a label grid: rings per label (canvas px) and the arcs (label, label, points)."""
    rows, cols = len(lab), len(lab[0])
    # Undirected boundary edges, keyed by their two vertices (sorted).
    adj: dict[Vertex, list[Vertex]] = {}

    def add(a: Vertex, b: Vertex) -> None:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)

    for y in range(rows + 1):
        for x in range(cols + 1):
            # vertical edge from (x,y) to (x,y+1) between cells (x-1,y) and (x,y)
            if y < rows and _label_at(lab, x - 1, y) != _label_at(lab, x, y):
                add((x, y), (x, y + 1))
            # horizontal edge from (x,y) to (x+1,y) between cells (x,y-1) and (x,y)
            if x < cols and _label_at(lab, x, y - 1) != _label_at(lab, x, y):
                add((x, y), (x + 1, y))
    nodes = {v for v, ns in adj.items() if len(ns) != 2}
    used: set[tuple[Vertex, Vertex]] = set()
    arcs: list[list[Vertex]] = []

    def walk(start: Vertex, nxt: Vertex) -> list[Vertex]:
        path = [start, nxt]
        used.add((start, nxt))
        used.add((nxt, start))
        prev, cur = start, nxt
        while cur not in nodes and cur != start:
            a, b = adj[cur]
            n = b if a == prev else a
            used.add((cur, n))
            used.add((n, cur))
            path.append(n)
            prev, cur = cur, n
        return path

    for v in sorted(nodes):
        for n in adj[v]:
            if (v, n) not in used:
                arcs.append(walk(v, n))
    for v in sorted(adj):
        for n in adj[v]:
            if (v, n) not in used:
                arcs.append(walk(v, n))  # a closed loop: ends where it started
    # The two labels each arc separates (read beside its first edge).
    arc_labels: list[tuple[str, str]] = []
    for arc in arcs:
        (x0, y0), (x1, y1) = arc[0], arc[1]
        if y0 == y1:  # horizontal edge
            x = min(x0, x1)
            arc_labels.append((_label_at(lab, x, y0 - 1), _label_at(lab, x, y0)))
        else:
            y = min(y0, y1)
            arc_labels.append((_label_at(lab, x0 - 1, y), _label_at(lab, x0, y)))
    # Smooth each arc once.
    smooth_arcs: list[list[Point]] = []
    edge_arc: dict[tuple[Vertex, Vertex], tuple[int, bool]] = {}
    for i, arc in enumerate(arcs):
        closed = arc[0] == arc[-1]
        pts: list[Point] = [(float(x), float(y)) for x, y in arc]
        pts = _simplify(pts, tolerance) if not closed else _simplify_closed(pts, tolerance)
        pts = _chaikin(pts, smooth, closed)
        smooth_arcs.append([(round(x * cell, 1), round(y * cell, 1)) for x, y in pts])
        edge_arc[(arc[0], arc[1])] = (i, True)
        edge_arc[(arc[-1], arc[-2])] = (i, False)
    # Rings of each label: walk directed boundary edges with the label on the right.
    rings: dict[str, list[list[Point]]] = {}
    labels = {q for row in lab for q in row}
    for q in sorted(labels):
        rings[q] = _rings_of(lab, q, adj, nodes, arcs, edge_arc, smooth_arcs)
    return rings, [(a, b, pts) for (a, b), pts in zip(arc_labels, smooth_arcs, strict=True)]


def _rings_of(lab: list[list[str]], q: str, adj: dict[Vertex, list[Vertex]], nodes: set[Vertex],
              arcs: list[list[Vertex]], edge_arc: dict[tuple[Vertex, Vertex], tuple[int, bool]],
              smooth_arcs: list[list[Point]]) -> list[list[Point]]:
    # Directed edges with q on the right-hand side (y grows downwards).
    out_edges: dict[Vertex, list[Vertex]] = {}
    rows, cols = len(lab), len(lab[0])
    for y in range(rows):
        for x in range(cols):
            if lab[y][x] != q:
                continue
            if _label_at(lab, x, y - 1) != q:  # top side, walk east
                out_edges.setdefault((x, y), []).append((x + 1, y))
            if _label_at(lab, x + 1, y) != q:  # right side, walk south
                out_edges.setdefault((x + 1, y), []).append((x + 1, y + 1))
            if _label_at(lab, x, y + 1) != q:  # bottom side, walk west
                out_edges.setdefault((x + 1, y + 1), []).append((x, y + 1))
            if _label_at(lab, x - 1, y) != q:  # left side, walk north
                out_edges.setdefault((x, y + 1), []).append((x, y))
    done: set[tuple[Vertex, Vertex]] = set()
    rings: list[list[Point]] = []
    for start in sorted(out_edges):
        for first in out_edges[start]:
            if (start, first) in done:
                continue
            # Walk the ring of vertices.
            ring = [start]
            prev, cur = start, first
            done.add((start, first))
            while cur != start:
                ring.append(cur)
                cands = [n for n in out_edges[cur] if (cur, n) not in done]
                if len(cands) > 1:  # touching diagonally: turn right (keep the region tight)
                    dx, dy = cur[0] - prev[0], cur[1] - prev[1]
                    right = (cur[0] - dy, cur[1] + dx)
                    cands = [right] if right in cands else cands
                nxt = cands[0]
                done.add((cur, nxt))
                prev, cur = cur, nxt
            rings.append(_ring_points(ring, nodes, edge_arc, smooth_arcs))
    return rings


def _ring_points(ring: list[Vertex], nodes: set[Vertex],
                 edge_arc: dict[tuple[Vertex, Vertex], tuple[int, bool]],
                 smooth_arcs: list[list[Point]]) -> list[Point]:
    n = len(ring)
    starts = [i for i, v in enumerate(ring) if v in nodes]
    if not starts:
        i0 = next(i for i in range(n) if (ring[i], ring[(i + 1) % n]) in edge_arc)
        arc_id, fwd = edge_arc[(ring[i0], ring[(i0 + 1) % n])]
        pts = smooth_arcs[arc_id] if fwd else smooth_arcs[arc_id][::-1]
        return list(pts[:-1])
    out: list[Point] = []
    i = starts[0]
    steps = 0
    while True:
        v, w = ring[i % n], ring[(i + 1) % n]
        arc_id, fwd = edge_arc[(v, w)]
        pts = smooth_arcs[arc_id] if fwd else smooth_arcs[arc_id][::-1]
        out.extend(pts[:-1])
        # advance to the arc's end vertex along the ring
        j = i + 1
        while ring[j % n] not in nodes:
            j += 1
        steps += j - i
        i = j
        if steps >= n:
            break
    return out


def _simplify(pts: list[Point], tol: float) -> list[Point]:
    if len(pts) <= 2:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        ax, ay = pts[a]
        bx, by = pts[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy) or 1.0
        best, bi = -1.0, -1
        for k in range(a + 1, b):
            px, py = pts[k]
            d = abs(dy * (px - ax) - dx * (py - ay)) / norm if (dx or dy) else math.hypot(px - ax, py - ay)
            if d > best:
                best, bi = d, k
        if best > tol and bi > 0:
            keep[bi] = True
            stack.append((a, bi))
            stack.append((bi, b))
    return [p for p, k in zip(pts, keep, strict=True) if k]


def _simplify_closed(pts: list[Point], tol: float) -> list[Point]:
    # Split the loop at its farthest point from the start, simplify both halves.
    far = max(range(len(pts)), key=lambda k: math.dist(pts[0], pts[k]))
    a = _simplify(pts[: far + 1], tol)
    b = _simplify(pts[far:], tol)
    return a[:-1] + b


def _chaikin(pts: list[Point], iterations: int, closed: bool) -> list[Point]:
    for _ in range(iterations):
        if len(pts) < 3:
            return pts
        out: list[Point] = []
        if closed:
            ring = pts[:-1]
            m = len(ring)
            for k in range(m):
                (x0, y0), (x1, y1) = ring[k], ring[(k + 1) % m]
                out.append((0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1))
                out.append((0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1))
            out.append(out[0])
        else:
            out.append(pts[0])
            for k in range(len(pts) - 1):
                (x0, y0), (x1, y1) = pts[k], pts[k + 1]
                if k > 0:
                    out.append((0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1))
                if k < len(pts) - 2:
                    out.append((0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1))
            out.append(pts[-1])
        pts = out
    return pts


# --------------------------------------------------------------------------- placing
def cells_by_label(lab: list[list[str]]) -> dict[str, set[tuple[int, int]]]:
    """The cells of each label."""
    out: dict[str, set[tuple[int, int]]] = {}
    for y, row in enumerate(lab):
        for x, q in enumerate(row):
            out.setdefault(q, set()).add((x, y))
    return out


def distance_field(cells: set[tuple[int, int]], blocked: list[tuple[float, float, float]] | tuple = (),
                   cell: float = 1.0) -> dict[tuple[int, int], float]:
    """For each of ``cells``: distance (px) to the nearest cell outside them or in a blocked disc.

    ``blocked`` lists discs (x, y, r) in canvas px that count as outside (octile distance).
    """
    inside = set(cells)
    if not inside:
        return {}
    for bx, by, br in blocked:
        r = int(br / cell) + 1
        cx, cy = int(bx / cell), int(by / cell)
        for yy in range(cy - r, cy + r + 1):
            for xx in range(cx - r, cx + r + 1):
                if math.hypot((xx + 0.5) * cell - bx, (yy + 0.5) * cell - by) <= br:
                    inside.discard((xx, yy))
    dist: dict[tuple[int, int], float] = {}
    heap: list[tuple[float, int, int]] = []
    for x, y in inside:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (x + dx, y + dy) not in inside:
                heap.append((0.5, x, y))
                break
    heapq.heapify(heap)
    while heap:
        d, x, y = heapq.heappop(heap)
        if (x, y) in dist:
            continue
        dist[(x, y)] = d * cell
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            n = (x + dx, y + dy)
            if n in inside and n not in dist:
                heapq.heappush(heap, (d + (1.4142 if dx and dy else 1.0), n[0], n[1]))
    return dist


def best_spot(dist: dict[tuple[int, int], float], cell: float, need: float,
              prefer: Point | None = None) -> tuple[Point, float]:
    """The cell centre with room ``need`` closest to ``prefer`` (or the roomiest cell)."""
    if not dist:
        raise ValueError("empty region")
    roomy = [k for k, d in dist.items() if d >= need]
    if prefer is not None and roomy:
        px, py = prefer
        k = min(roomy, key=lambda k: ((k[0] + 0.5) * cell - px) ** 2 + ((k[1] + 0.5) * cell - py) ** 2)
    else:
        k = max(dist, key=lambda k: (dist[k], -k[1], -k[0]))
    return ((k[0] + 0.5) * cell, (k[1] + 0.5) * cell), dist[k]
