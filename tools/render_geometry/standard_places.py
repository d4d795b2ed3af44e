"""Anchor points of the standard board, as real-world latitude/longitude.

Sources of every coordinate:

* The first point of each province is where its unit stands.  For a province named after a
  city it is near that city; otherwise near the middle of the historical region the province is
  named after (e.g. Burgundy near Dijon, Ruhr near Essen, Livonia near Riga).  The positions are
  public geographic facts (rounded to about 0.1-0.5 degree), written here by us.
* Further points (and strokes, written as lists of points) only steer the shape of a province,
  e.g. Norway's long coast or the sea lanes; they are our own choices, placed on the real places
  named in the comments.
* The land/sea mask comes from the GLOBE 30-arc-second elevation data (NOAA NGDC, public domain),
  read through the ``global-land-mask`` package and cached in ``standard_landmask.txt``.
* The projection (Lambert conformal conic, standard parallels 40N and 62N, central meridian
  14E) and the frame are ours.
"""

from __future__ import annotations

import math

LatLon = tuple[float, float]
Seed = LatLon | list[LatLon]

# province -> seeds; the first seed is the unit position.
PLACES: dict[str, list[Seed]] = {
    # --- Britain
    "CLY": [(57.0, -4.9), (58.3, -4.6)],  # western Highlands
    "EDI": [(56.4, -3.1), (57.4, -2.5), (58.4, -3.3), (55.7, -2.4)],  # Edinburgh, Aberdeen, Caithness, Borders
    "LVP": [(53.9, -2.8), (55.0, -3.2), (55.0, -4.8)],  # Lancashire, Cumbria, Galloway
    "YOR": [(53.9, -1.0), (54.8, -1.6)],  # York, Durham
    "WAL": [(52.3, -3.7), (51.6, -3.5)],  # Wales
    "LON": [(51.6, 0.0), (51.0, -0.9)],  # London, Hampshire
    # --- France, Low Countries, Iberia
    "BRE": [(48.1, -3.4)],  # Brittany
    "PIC": [(50.0, 2.3)],  # Amiens
    "PAR": [(48.3, 2.3)],  # Paris, Orleans
    "BUR": [(47.2, 4.9), (48.7, 5.8)],  # Dijon, Lorraine
    "GAS": [(44.3, 0.0), (45.5, -0.6)],  # Gascony, Bordeaux
    "MAR": [(43.9, 5.2), (43.6, 3.5)],  # Provence, Languedoc
    "BEL": [(50.6, 4.7)],  # Brussels
    "HOL": [(52.4, 5.7)],  # Holland
    "SPA": [(40.2, -3.7), (42.6, -5.5), (37.7, -4.2), (41.5, 0.5)],  # Madrid, Leon, Andalusia, Aragon
    "POR": [(39.7, -8.2)],  # Portugal
    # --- Germany, Scandinavia
    "KIE": [(53.6, 9.3), (52.4, 8.3)],  # Hamburg, Westphalia north
    "BER": [(52.9, 13.6)],  # Berlin
    "PRU": [(54.0, 19.8), (53.8, 16.2)],  # East Prussia, Pomerania
    "RUH": [(51.3, 7.3)],  # Essen
    "MUN": [(48.6, 10.8), (50.0, 9.3)],  # Munich, Franconia
    "SIL": [(51.0, 17.0)],  # Breslau
    "DEN": [(56.0, 9.2), (55.4, 11.9), (56.4, 8.3)],  # Jutland, Zealand, west Jutland
    "SWE": [(59.8, 15.6), (63.8, 17.0), (66.5, 20.5), (56.8, 14.0)],  # Svealand to Norrbotten
    "NWY": [(61.0, 9.0), (64.5, 12.5), (67.8, 16.0), (69.6, 22.0), (70.1, 27.5)],  # up to Finnmark
    "FIN": [(62.5, 26.0), (66.0, 26.5), (68.3, 27.0)],  # Finland, Lapland
    # --- Russia
    "STP": [(60.0, 31.0), (64.0, 34.5), (67.5, 34.5), (68.5, 40.0), (62.0, 40.0)],  # to Kola, White Sea
    "MOS": [(55.8, 37.6), (58.5, 43.0), (53.5, 45.0), [(55.0, 34.0), (54.0, 29.0)]],  # Moscow, the Volga, Smolensk-Minsk
    "LVN": [(57.5, 25.5), (56.0, 27.0)],  # Riga, Latgale
    "WAR": [(52.2, 21.0), (53.2, 24.5)],  # Warsaw, Grodno
    "UKR": [(49.6, 30.5), (51.0, 34.0)],  # Kiev
    "SEV": [(46.8, 37.0), (45.0, 34.2), (47.5, 42.0), (44.0, 42.5)],  # Azov coast, Crimea, Don, Caucasus
    # --- Austria, Italy, Balkans
    "BOH": [(49.8, 14.8), (49.6, 17.6)],  # Prague, Moravia
    "VIE": [(47.8, 15.8), (48.6, 18.6)],  # Vienna, western Slovakia
    "TYR": [(47.1, 11.6), (46.4, 10.6)],  # Innsbruck, Valtellina
    "BUD": [(47.3, 20.5), (46.6, 24.0)],  # Hungary, Transylvania
    "GAL": [(49.6, 23.5), (49.3, 20.5), (49.8, 19.0)],  # Lemberg, Cracow, Teschen
    "TRI": [(45.3, 15.3), (43.7, 17.0)],  # Croatia, Dalmatia, Bosnia
    "PIE": [(44.9, 7.8), (45.9, 9.3)],  # Turin, Como
    "VEN": [(45.5, 11.6), [(44.3, 12.2), (43.6, 13.4)]],  # Venice, Lombardy; Romagna-Ancona
    "TUS": [(43.4, 11.0)],  # Florence
    "ROM": [(42.0, 12.9)],  # Rome
    "NAP": [(40.8, 15.5), (37.5, 14.2), (39.0, 16.4)],  # Campania, Sicily, Calabria
    "APU": [(41.2, 16.0), [(41.6, 15.3), (42.4, 14.2)]],  # Apulia; Molise-Abruzzo coast
    "SER": [(43.8, 20.8), (42.0, 21.5)],  # Serbia, Skopje
    "ALB": [(41.2, 20.0)],  # Albania
    "GRE": [(39.5, 22.0), (37.6, 22.2), (40.7, 22.7)],  # Thessaly, Peloponnese, Salonica
    "BUL": [(42.7, 25.2), [(43.2, 27.6), (42.5, 27.4)]],  # Bulgaria; Varna-Burgas coast
    "RUM": [(44.9, 25.6), (47.0, 27.5)],  # Wallachia, Moldavia
    "CON": [(41.4, 27.8), [(41.25, 29.05), (40.8, 28.6), (40.4, 27.0), (40.15, 26.4)]],  # Thrace; Bosporus-Marmara-Dardanelles
    "ANK": [(40.6, 33.4), (41.2, 36.5)],  # Ankara, Pontus
    "SMY": [(38.4, 28.0), (37.5, 33.0), (37.0, 36.0)],  # Smyrna, Konya, Cilicia
    "ARM": [(39.8, 41.5), (40.8, 39.5)],  # Erzurum, Trebizond
    "SYR": [(35.5, 38.5), (33.5, 36.5), (33.0, 43.0)],  # Syria, Lebanon, Mesopotamia
    # --- Africa
    "NAF": [(34.0, -1.0), (33.0, -6.0), (35.8, 4.0)],  # Oran, Morocco, Algiers
    "TUN": [(35.5, 9.6)],  # Tunis
    # --- Impassable
    "SWI": [(46.8, 8.2)],  # Switzerland
    # --- Seas
    "NAO": [(58.5, -20.0), (52.0, -19.0), (62.0, -12.0), (56.5, -12.0), (55.8, -7.6)],  # to north of Ireland
    "NWG": [(66.0, 2.0), (69.0, 10.0), (63.5, -3.0), (71.0, 0.0), (59.4, -3.2)],  # down to Orkney
    "BAR": [(72.0, 38.0), (71.0, 30.0), (73.5, 45.0)],
    "NTH": [(56.2, 3.0), (58.5, 1.5), (54.0, 3.0), (60.0, 3.0), (52.2, 2.9), (56.0, 7.3)],
    "SKA": [(57.9, 9.4)],
    "HEL": [(54.4, 7.5)],
    "BAL": [(55.6, 17.0), (58.0, 19.5), (59.5, 23.0), (54.8, 13.6)],
    "BOT": [(62.5, 20.0), (65.0, 23.5), (60.0, 20.0), [(59.9, 22.5), (60.0, 26.0), (60.0, 29.0)]],  # with the Gulf of Finland
    "ENG": [(50.1, -2.5), [(49.4, -5.5), (50.4, -1.0), (50.9, 1.2)]],
    "IRI": [(53.4, -5.3), (51.6, -7.0), (51.3, -10.0)],
    "MAO": [(45.0, -13.0), (40.0, -16.0), (35.0, -12.0), (46.0, -6.0), (48.5, -11.0),
            [(36.5, -8.0), (35.95, -5.5)]],  # Gulf of Cadiz to the Strait of Gibraltar
    "WES": [(38.2, 3.0), (37.0, 7.0), [(36.3, -2.0), (36.0, -5.0)]],  # Alboran Sea
    "LYO": [(42.2, 5.0), (43.0, 8.5)],
    "TYS": [(40.0, 12.0), (38.5, 11.5), (42.3, 10.3)],
    "ION": [(37.0, 18.5), (34.5, 16.0), (38.5, 20.0), (33.5, 20.0)],
    "ADR": [(42.7, 15.8), (44.5, 13.0), (41.5, 18.0)],
    "AEG": [(38.5, 25.0), (36.5, 25.5), (40.3, 24.5)],
    "EAS": [(34.0, 30.0), (34.5, 33.5), (33.0, 25.5), (36.0, 28.5)],
    "BLA": [(43.2, 34.0), (42.3, 30.0), (43.0, 39.0), (44.0, 31.0)],
}

# Province pairs whose contact the projection cannot show; drawn as bridges.
CROSSINGS: list[tuple[str, str]] = []

# --- projection
LAT1, LAT2, LAT0, LON0 = 40.0, 62.0, 50.0, 14.0
FRAME = (-18.0, 33.0, 46.5, 72.5)  # used only to fix the canvas box (west lon, south lat, east lon, north lat)
WIDTH = 1150


def _lcc_constants() -> tuple[float, float, float]:
    p1, p2, p0 = (math.radians(v) for v in (LAT1, LAT2, LAT0))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = f / math.tan(math.pi / 4 + p0 / 2) ** n
    return n, f, rho0


N, F, RHO0 = _lcc_constants()


def lcc(lat: float, lon: float) -> tuple[float, float]:
    """Lambert conformal conic projection (unit sphere), y pointing north."""
    rho = F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** N
    theta = N * math.radians(lon - LON0)
    return rho * math.sin(theta), RHO0 - rho * math.cos(theta)


def lcc_inverse(x: float, y: float) -> tuple[float, float]:
    """Inverse of :func:`lcc`: (lat, lon) in degrees."""
    rho = math.copysign(math.hypot(x, RHO0 - y), N)
    theta = math.atan2(x, RHO0 - y)
    lat = 2 * math.atan((F / rho) ** (1 / N)) - math.pi / 2
    return math.degrees(lat), LON0 + math.degrees(theta / N)


def _box() -> tuple[float, float, float, float]:
    west, south, east, north = FRAME
    # The frame: the west edge at the Atlantic (west lon at 45N), the east edge at the east
    # lon at 45N, the south edge at the south lat on the central meridian, the north edge at
    # the north lat on the central meridian.
    xw, _ = lcc(45.0, west)
    xe, _ = lcc(45.0, east)
    _, ys_ = lcc(south, LON0)
    _, yn = lcc(north, LON0)
    xs, ys = [xw, xe], [ys_, yn]
    return min(xs), min(ys), max(xs), max(ys)


XMIN, YMIN, XMAX, YMAX = _box()
SCALE = WIDTH / (XMAX - XMIN)
HEIGHT = int(round((YMAX - YMIN) * SCALE))


def to_canvas(lat: float, lon: float) -> tuple[float, float]:
    """Latitude/longitude to canvas pixels (x right, y down)."""
    x, y = lcc(lat, lon)
    return (x - XMIN) * SCALE, (YMAX - y) * SCALE


def from_canvas(px: float, py: float) -> tuple[float, float]:
    """Canvas pixels to (lat, lon)."""
    return lcc_inverse(px / SCALE + XMIN, YMAX - py / SCALE)
