"""Anchor points of the Colonial board, in a 1500 x 1000 frame.

Sources of every coordinate:

* The first point of each province is its unit position in vDiplomacy's Colonial territory table
  (``large_map_xy``, a 1500 x 1000 frame), read from ``shared/maps/colonial/colonial.vdip.json``
  (see ``shared/maps/README.md``).  We use these positions as facts (where each place lies on
  the board players know); no picture is copied or traced.
* Every other point (extra seeds steering a shape, the lakes) is our own choice, written here
  in the same frame, with the place it stands for in a comment.
* The land/sea guide is real: each anchor also has the real-world latitude/longitude of its
  place (public geographic facts, written by us in ``LATLON``; for seas, a point of that sea), and
  the frame is warped piecewise-affinely (Delaunay triangles of the anchors) from latitude/
  longitude onto the board.  The GLOBE 30-arc-second land mask (NOAA NGDC, public domain, read
  through the ``global-land-mask`` package) is sampled through that warp and cached in
  ``colonial_landmask.txt``.  Coasts are then where our land and sea provinces meet.
"""

from __future__ import annotations

import json
from pathlib import Path

WIDTH, HEIGHT = 1500, 1000
VDIP = Path(__file__).resolve().parents[3] / "shared" / "maps" / "colonial" / "colonial.vdip.json"

Point = tuple[float, float]

# Real-world latitude/longitude of each anchor's place (public facts; seas: a point of the sea).
LATLON: dict[str, tuple[float, float]] = {
    # Europe, Russia, Siberia
    "RUM": (44.4, 26.1), "CON": (41.0, 28.9), "ODE": (46.5, 30.7), "MOS": (55.7, 37.6),
    "PRM": (58.0, 56.2), "OMS": (55.0, 73.4), "ORE": (51.8, 55.1), "AKM": (51.2, 71.4),
    "SEM": (50.4, 80.2), "KRA": (56.0, 92.9), "IRK": (52.3, 104.3), "VLA": (43.1, 131.9),
    "BAK": (40.4, 49.9), "BOK": (39.8, 64.4), "TAS": (41.3, 69.2), "KIR": (44.0, 76.0),
    # Japan, Korea, Manchuria
    "SAK": (50.5, 142.7), "OTA": (43.2, 141.0), "AKI": (39.7, 140.1), "TOK": (35.7, 139.7),
    "KYO": (35.0, 135.8), "KYU": (32.8, 130.7), "MAC": (45.5, 126.5), "POR": (38.9, 121.6),
    "SEO": (37.6, 127.0), "FUS": (35.1, 129.0),
    # China
    "PEK": (39.9, 116.4), "MON": (46.0, 103.0), "LAN": (36.1, 103.8), "SHA": (31.2, 121.5),
    "NAN": (26.1, 119.3), "CAN": (23.1, 113.3), "HON": (22.3, 114.2), "CHU": (29.6, 106.5),
    "YUN": (25.0, 102.7), "SIK": (41.0, 85.0), "URU": (43.8, 87.6), "KAG": (39.5, 76.0),
    "TIB": (30.0, 88.0),
    # India
    "KAM": (34.1, 74.8), "PUN": (31.5, 74.3), "AFG": (34.5, 69.2), "KAR": (24.9, 67.0),
    "RAJ": (23.5, 70.5), "DEL": (28.6, 77.2), "NEP": (28.0, 84.0), "LUC": (26.8, 80.9),
    "ASS": (26.2, 92.9), "BEN": (22.6, 88.4), "NAG": (21.1, 79.1), "BOM": (19.1, 72.9),
    "HYD": (17.4, 78.5), "MYS": (12.3, 75.5), "MAD": (13.1, 80.3), "CEY": (7.5, 80.7),
    # Indochina, Malaya, the Indies
    "BUR": (21.0, 93.5), "MAY": (22.0, 96.1), "RAN": (16.8, 96.2), "SIA": (17.5, 100.0),
    "BAN": (13.7, 100.5), "TON": (21.0, 105.8), "ANN": (16.5, 107.6), "CAM": (12.5, 104.9),
    "COC": (10.8, 106.7), "MAL": (4.5, 101.5), "SIN": (1.4, 103.8), "SUM": (0.0, 101.0),
    "JAV": (-7.2, 110.0), "BOR": (-1.5, 114.0), "SAR": (2.0, 112.5), "CEL": (-2.0, 121.0),
    "NEW": (-5.0, 141.0), "MNA": (14.6, 121.0), "CEB": (10.3, 123.9), "DAV": (7.1, 125.6),
    "FOR": (23.7, 121.0),
    # Middle East, Africa
    "ANG": (39.9, 32.9), "ARM": (40.0, 41.5), "TAB": (38.1, 46.3), "SYR": (34.5, 37.0),
    "BAG": (33.3, 44.4), "MEC": (21.4, 39.8), "EGY": (29.5, 31.2), "SUD": (15.6, 32.5),
    "ERI": (15.3, 39.0), "ABY": (9.0, 38.7), "SOM": (5.0, 46.5), "ADE": (12.8, 45.0),
    "ARB": (24.0, 45.0), "OMA": (22.0, 58.0), "SHI": (29.6, 52.5), "PER": (33.0, 58.0),
    # Seas
    "BLA": (43.0, 34.0), "MED": (34.0, 30.0), "RED": (20.0, 38.5), "PGF": (27.0, 51.0),
    "GOA": (8.0, 53.0), "ARS": (16.0, 64.0), "WIO": (0.0, 65.0), "GOM": (10.5, 81.5),
    "BOB": (15.0, 88.0), "EIO": (3.0, 88.0), "SIO": (-10.0, 95.0), "AND": (10.0, 96.0),
    "GOS": (9.5, 102.0), "SUN": (5.0, 108.0), "JVS": (-5.0, 112.0), "SCS": (17.0, 114.0),
    "LUZ": (12.0, 118.0), "SUL": (8.0, 120.5), "CLS": (3.0, 122.5), "MID": (15.0, 135.0),
    "LOW": (3.0, 135.0), "TIM": (-10.0, 128.0), "UPP": (30.0, 140.0), "ECS": (29.0, 125.0),
    "YEL": (36.0, 123.0), "SOJ": (40.0, 135.0), "OKH": (55.0, 148.0),
}

# Frame pins for the warp (ours): board point -> latitude/longitude.
PINS: list[tuple[tuple[float, float], tuple[float, float]]] = [
    ((0, 0), (60.0, 24.0)), ((750, 0), (60.0, 86.0)), ((1500, 0), (60.0, 160.0)),
    ((0, 500), (27.0, 24.0)), ((1500, 500), (20.0, 160.0)),
    ((0, 1000), (-5.0, 24.0)), ((750, 1000), (-14.0, 88.0)), ((1500, 1000), (-14.0, 160.0)),
]

# Extra seeds (ours): province -> list of points or strokes (lists of points).
EXTRA: dict[str, list] = {
    "MEC": [[(205, 498), (245, 560), (272, 615)]],  # Hejaz coast down the Red Sea
    "ADE": [(300, 658)],
    "AFG": [[(540, 377), (610, 335)]],  # Wakhan
    "KAG": [[(690, 315), (628, 322)]],
    "AKI": [[(1407, 270), (1392, 298)]],
    "KYO": [[(1370, 327), (1385, 305)], [(1370, 327), (1350, 340)]],
    "AKM": [[(595, 145), (700, 95)]],
    "KRA": [[(810, 107), (712, 85)]],
    "OMS": [[(620, 25), (750, 30)]],
    "ANN": [[(1130, 638), (1095, 585)], [(1130, 638), (1150, 695), (1118, 725)]],
    "TON": [[(1060, 555), (1085, 580)]],
    "COC": [(1125, 685)],
    "GOS": [[(1060, 720), (1108, 748)]],
    "ARB": [[(375, 645), (380, 688)], [(325, 550), (280, 455)]],  # south coast; north to the Syrian desert
    "GOA": [[(388, 860), (384, 708)], [(388, 860), (300, 720), (250, 690)]],
    "ERI": [[(200, 650), (240, 688)]],
    "SYR": [[(190, 398), (250, 440)], [(190, 398), (120, 460)]],
    "EGY": [[(75, 523), (110, 470)]],
    "TIB": [[(745, 395), (850, 440)]],
    "ASS": [[(915, 478), (872, 455)]],
    "BEN": [[(850, 525), (830, 472)]],
    "PGF": [[(442, 515), (372, 452)]],
    "BAG": [[(260, 408), (345, 440)]],
    "RAN": [[(945, 620), (985, 682)]],
    "BAN": [[(1025, 660), (1000, 705)]],
    "CAN": [[(1130, 534), (1050, 515)]],
    "MAY": [[(975, 557), (1030, 522)]],
    "MNA": [[(1290, 561), (1310, 618)]],
    "CEB": [[(1321, 655), (1315, 628)], [(1321, 655), (1352, 668)]],
    "JVS": [[(1125, 890), (1250, 902)]],
    "CEL": [[(1295, 868), (1265, 902)]],
    "WIO": [[(618, 866), (740, 810)], [(618, 866), (650, 700)]],
    "EIO": [[(875, 830), (800, 815)]],
    "CEY": [(780, 790)],
    "SCS": [[(1200, 550), (1280, 500)], [(1200, 550), (1205, 620)], [(1200, 550), (1185, 672), (1142, 738)]],
    "LUZ": [[(1230, 625), (1245, 560), (1290, 512)]],
    "MID": [[(1443, 600), (1320, 490)]],
    "UPP": [[(1413, 420), (1318, 462)], [(1413, 420), (1322, 415)]],
    "FOR": [[(1297, 455), (1297, 490)]],
    "SUN": [[(1160, 753), (1140, 775)], [(1160, 753), (1170, 692)], [(1160, 753), (1092, 790)]],
    "MAL": [[(1040, 780), (1068, 790)]],
    "LOW": [[(1448, 755), (1372, 680)]],
    "SIO": [[(913, 940), (1150, 992), (1330, 996)]],
    "TIM": [[(1330, 965), (1222, 975)]],
    "RED": [[(195, 580), (262, 640)]],
    "ARS": [[(520, 622), (410, 652)]],
    "KYU": [[(1329, 388), (1352, 348)]],
    "ECS": [[(1265, 418), (1310, 402)]],
    "JAV": [(1155, 975), [(1155, 955), (1200, 965)]],
    "YEL": [[(1220, 350), (1300, 345), (1328, 345)], [(1220, 350), (1290, 395)]],
    "MAC": [[(1180, 197), (1060, 160)], [(1180, 197), (1160, 240), (1145, 300)]],
    "MON": [[(930, 200), (1040, 150)]],
    "SHA": [[(1130, 348), (1140, 315)]],
    "MYS": [(683, 650)],
    "HON": [(1152, 582), (1130, 584)],
    "OKH": [[(1400, 70), (1290, 60), (1265, 150), (1280, 200)]],
    "SOJ": [[(1310, 258), (1290, 215)]],
    "VLA": [[(1200, 110), (1240, 130)]],
    "SUL": [[(1235, 705), (1215, 650)]],
}

# Lakes and other spaces that belong to no province (ours).
DECORATIONS: dict[str, str] = {}
DECORATION_SEEDS: dict[str, list] = {}

# Province pairs whose contact the board cannot show as a border: drawn as bridges.
CROSSINGS: list[tuple[str, str]] = [
    ("BLA", "MED"),  # the straits past Constantinople: the board has the two seas touch
]

# Growth cost factors (ours): below 1 grows faster.
WEIGHTS: dict[str, float] = {}


def anchors() -> dict[str, Point]:
    """Unit position of every province (vDiplomacy's large_map_xy)."""
    raw = json.loads(VDIP.read_text(encoding="utf-8"))
    out: dict[str, Point] = {}
    for t in raw["territories"]:
        abbr = t["abbr"]
        if "/" in abbr or abbr == "SUEZ":
            continue
        x, y = t["large_map_xy"]
        out[abbr] = (float(x), float(y))
    return out


def coast_anchors() -> dict[str, Point]:
    """Unit positions of the coasts (``ARB/NC``…) in vDiplomacy's table."""
    raw = json.loads(VDIP.read_text(encoding="utf-8"))
    return {t["abbr"]: (float(t["large_map_xy"][0]), float(t["large_map_xy"][1]))
            for t in raw["territories"] if "/" in t["abbr"]}


def seeds() -> dict[str, list[list[Point]]]:
    """Seeds per province (the anchor first), and per decoration."""
    out: dict[str, list[list[Point]]] = {}
    for abbr, pt in anchors().items():
        shapes: list[list[Point]] = [[pt]]
        for extra in EXTRA.get(abbr, []):
            shapes.append(list(extra) if isinstance(extra, list) else [extra])
        out[abbr] = shapes
    for name, items in DECORATION_SEEDS.items():
        out[name] = [list(i) if isinstance(i, list) else [i] for i in items]
    return out


def warp_sampler():
    """A function (x, y) -> (lat, lon) for the board frame: piecewise affine over the anchors."""
    import numpy as np
    from scipy.spatial import Delaunay

    pts, geo = [], []
    for abbr, (x, y) in anchors().items():
        if abbr in LATLON:
            pts.append((x, y))
            geo.append(LATLON[abbr])
    for (x, y), ll in PINS:
        pts.append((x, y))
        geo.append(ll)
    P = np.array(pts, dtype=float)
    G = np.array(geo, dtype=float)
    tri = Delaunay(P)

    def sample(xs: "np.ndarray", ys: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]:
        q = np.stack([xs.ravel(), ys.ravel()], axis=1)
        simplex = tri.find_simplex(q)
        simplex = np.where(simplex < 0, 0, simplex)
        T = tri.transform[simplex]
        b = np.einsum("ijk,ik->ij", T[:, :2, :], q - T[:, 2, :])
        bary = np.concatenate([b, 1 - b.sum(axis=1, keepdims=True)], axis=1)
        verts = tri.simplices[simplex]
        lat = (G[verts, 0] * bary).sum(axis=1)
        lon = (G[verts, 1] * bary).sum(axis=1)
        return lat.reshape(xs.shape), lon.reshape(xs.shape)

    return sample
