"""Convert ../shared/maps/colonial/colonial.mila.json into arbitre's own Colonial map file.

Run once by a developer (``python tools/build_colonial_map.py``); the result,
``arbitre/maps/data/colonial.json``, is committed and is the only Colonial map
file the package reads.

The map follows ``shared/spec/colonial.md``: the MILA data with two edges added
that the vDiplomacy data and board have (Akita–Tokyo for armies and fleets,
Constantinople–Black Sea for fleets) and one left out (Davao–Middle Pacific).
The special rules' facts (the railroad's stations, the canal, Hong Kong) go in
the map's ``extra`` dictionary; the rules themselves live in
``arbitre/variants/colonial``.
"""

from __future__ import annotations

import json
from pathlib import Path

from map_common import coast_entries, power_entries  # tools/ is the script's folder

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "maps" / "colonial" / "colonial.mila.json"
TARGET = ROOT / "arbitre" / "maps" / "data" / "colonial.json"

ADD_ARMY = [("AKI", "TOK")]
ADD_FLEET = [("AKI", "TOK"), ("CON", "BLA")]
REMOVE_FLEET = [("DAV", "MID")]

FRENCH = {
    "ABY": "Abyssinie", "ADE": "Aden", "AFG": "Afghanistan", "AKI": "Akita", "AKM": "Akmolinsk",
    "AND": "Mer d'Andaman", "ANG": "Angora", "ANN": "Annam", "ARB": "Arabie", "ARM": "Arménie",
    "ARS": "Mer d'Arabie", "ASS": "Assam", "BAG": "Bagdad", "BAK": "Bakou", "BAN": "Bangkok",
    "BEN": "Bengale", "BLA": "Mer Noire", "BOB": "Golfe du Bengale", "BOK": "Boukhara", "BOM": "Bombay",
    "BOR": "Bornéo", "BUR": "Haute-Birmanie", "CAM": "Cambodge", "CAN": "Canton", "CEB": "Cebu",
    "CEL": "Célèbes", "CEY": "Ceylan", "CHU": "Tchongking", "CLS": "Mer de Célèbes", "COC": "Cochinchine",
    "CON": "Constantinople", "DAV": "Davao", "DEL": "Delhi", "ECS": "Mer de Chine orientale",
    "EGY": "Égypte", "EIO": "Océan Indien oriental", "ERI": "Érythrée", "FOR": "Formose", "FUS": "Fusan",
    "GOA": "Golfe d'Aden", "GOM": "Golfe de Mannar", "GOS": "Golfe de Siam", "HON": "Hong Kong",
    "HYD": "Hyderabad", "IRK": "Irkoutsk", "JAV": "Java", "JVS": "Mer de Java", "KAG": "Kachgar",
    "KAM": "Cachemire", "KAR": "Karachi", "KIR": "Kirghizie", "KRA": "Krasnoïarsk", "KYO": "Kyoto",
    "KYU": "Kyushu", "LAN": "Lantcheou", "LOW": "Bas-Pacifique", "LUC": "Lucknow",
    "LUZ": "Détroit de Luçon", "MAC": "Mandchourie", "MAD": "Madras", "MAL": "Malaisie",
    "MAY": "Mandalay", "MEC": "La Mecque", "MED": "Mer Méditerranée", "MID": "Pacifique central",
    "MNA": "Manille", "MON": "Mongolie", "MOS": "Moscou", "MYS": "Mysore", "NAG": "Nagpur",
    "NAN": "Nantchang", "NEP": "Népal", "NEW": "Nouvelle-Guinée", "ODE": "Odessa", "OKH": "Mer d'Okhotsk",
    "OMA": "Oman", "OMS": "Omsk", "ORE": "Orenbourg", "OTA": "Otaru", "PEK": "Pékin", "PER": "Perse",
    "PGF": "Golfe Persique", "POR": "Port-Arthur", "PRM": "Perm", "PUN": "Pendjab", "RAJ": "Rajputana",
    "RAN": "Rangoun", "RED": "Mer Rouge", "RUM": "Roumanie", "SAK": "Sakhaline", "SAR": "Sarawak",
    "SCS": "Mer de Chine méridionale", "SEM": "Semipalatinsk", "SEO": "Séoul", "SHA": "Shanghai",
    "SHI": "Chiraz", "SIA": "Siam du Nord", "SIK": "Sin-kiang", "SIN": "Singapour",
    "SIO": "Océan Indien du Sud-Est", "SOJ": "Mer du Japon", "SOM": "Somalie", "SUD": "Soudan",
    "SUL": "Mer de Sulu", "SUM": "Sumatra", "SUN": "Mer de la Sonde", "SYR": "Syrie", "TAB": "Tabriz",
    "TAS": "Tachkent", "TIB": "Tibet", "TIM": "Mer de Timor", "TOK": "Tokyo", "TON": "Tonkin",
    "UPP": "Haut-Pacifique", "URU": "Ouroumtsi", "VLA": "Vladivostok", "WIO": "Océan Indien occidental",
    "YEL": "Mer Jaune", "YUN": "Yunnan",
}
# Other spellings: modern and board spellings, short names players use.
EXTRA_ALIASES = {
    "ABY": ["Abyssinia", "Ethiopia", "Éthiopie"],
    "AND": ["Andaman"],  # the errata's "AND.S" is added below for every sea (read as one word, ANDS)
    "ARS": ["Arabian"],
    "BLA": ["Black"],
    "BOB": ["Bengal Bay", "Baie du Bengale"],
    "BUR": ["Burma", "Birmanie"],
    "CHU": ["Chongqing", "Chungking"],
    "CLS": ["Mer des Célèbes"],
    "CON": ["Istanbul"],
    "ECS": ["Mer de Chine de l'Est"],
    "EIO": ["East Indian", "East Indian Ocean"],
    "GOS": ["Golfe de Thaïlande"],
    "IRK": ["Irkutsk"],
    "KAG": ["Kashgar", "Kachgarie"],
    "KIR": ["Kirghizistan"],
    "KRA": ["Krasnoyarsk", "Krasnoiarsk"],
    "LAN": ["Lanzhou", "Lanchow"],
    "LOW": ["Pacifique inférieur", "Pacifique Sud"],
    "MAC": ["Manchuria"],
    "MAL": ["Malaya"],
    "MED": ["Mediterranean", "Méditerranée", "Med"],
    "MID": ["Middle Pacific Ocean", "Mid Pacific"],
    "MOS": ["Moskva"],
    "NAN": ["Nanchang", "Nanchung"],
    "OKH": ["Okhotsk", "Sea of Okhotsk", "Mer d'Okhotsk"],
    "ORE": ["Orenburg"],
    "PEK": ["Beijing", "Pekin"],
    "PGF": ["Persian Gulf"],
    "POR": ["Port Arthur"],
    "PUN": ["Punjab", "Penjab"],
    "RED": ["Red"],
    "SAK": ["Sakhalin"],
    "SCS": ["Mer de Chine du Sud"],
    "SEO": ["Seoul", "Séoul"],
    "SHI": ["Shiraz"],
    "SIK": ["Xinjiang", "Sinkiang"],
    "SIO": ["Southeast Indian"],
    "SOJ": ["Sea of Japan"],
    "SUN": ["Mer de Sunda"],
    "TAS": ["Tashkent", "Tachkent"],
    "TON": ["Tonkin", "Tongking"],
    "UPP": ["Pacifique supérieur", "Pacifique Nord"],
    "URU": ["Urumqi", "Ouroumqi"],
    "WIO": ["West Indian", "West Indian Ocean"],
}
POWER_NAMES = {
    "BRITAIN": ("Britain", "Grande-Bretagne", "British"),
    "CHINA": ("China", "Chine", "Chinese"),
    "FRANCE": ("France", "France", "French"),
    "HOLLAND": ("Holland", "Hollande", "Dutch"),
    "JAPAN": ("Japan", "Japon", "Japanese"),
    "RUSSIA": ("Russia", "Russie", "Russian"),
    "TURKEY": ("Turkey", "Turquie", "Turkish"),
}

TSR_STATIONS = ["MOS", "PRM", "OMS", "KRA", "IRK", "VLA"]


def _link(table: dict[str, list[str]], a: str, b: str, add: bool) -> None:
    for x, y in ((a, b), (b, a)):
        if add:
            table.setdefault(x, [])
            if y not in table[x]:
                table[x].append(y)
        else:
            if y not in table.get(x, []):
                raise SystemExit(f"edge {x}-{y} expected in the source but missing")
            table[x].remove(y)


def main() -> None:
    """Read the shared Colonial map, apply the spec's edge changes and write the package's map file."""
    src = json.loads(SOURCE.read_text(encoding="utf-8"))
    army = {k: list(v) for k, v in src["army_adjacency"].items()}
    fleet = {k: list(v) for k, v in src["fleet_adjacency"].items()}
    for a, b in ADD_ARMY:
        _link(army, a, b, True)
    for a, b in ADD_FLEET:
        _link(fleet, a, b, True)
    for a, b in REMOVE_FLEET:
        _link(fleet, a, b, False)

    provinces = {}
    for abbr, prov in sorted(src["provinces"].items()):
        aliases = EXTRA_ALIASES.get(abbr, [])
        if prov["type"] == "sea":
            aliases = [*aliases, f"{abbr}.S"]  # the errata's dotted form (rule 13.0: "AND.S")
        provinces[abbr] = {
            "name": prov["name"],
            "name_fr": FRENCH[abbr],
            "type": prov["type"],
            "supply_center": prov["supply_center"],
            "coasts": prov["coasts"],
            "aliases": sorted(set(aliases) - {prov["name"], FRENCH[abbr]}),
        }
    coasts = coast_entries(src, FRENCH)
    powers = power_entries(src, POWER_NAMES)
    out = {
        "name": "colonial",
        "title": "Colonial Diplomacy",
        "source": (
            "Converted by tools/build_colonial_map.py from shared/maps/colonial/colonial.mila.json "
            "(facts of MILA diplomacy 1.1.2 colonial.map) with the edges of shared/spec/colonial.md: "
            "Akita-Tokyo (armies and fleets) and Constantinople-Black Sea (fleets) added as in the "
            "vDiplomacy data and board, Davao-Middle Pacific (fleets) left out."
        ),
        "first_phase": "S1870M",
        "victory_centers": src["victory_supply_centers"],
        "powers": powers,
        "provinces": provinces,
        "coasts": coasts,
        "adjacency": {
            "A": {k: sorted(v) for k, v in sorted(army.items())},
            "F": {k: sorted(v) for k, v in sorted(fleet.items())},
        },
        "extra": {
            "trans_siberian_railroad": {
                "stations": TSR_STATIONS,
                "power": "RUSSIA",
                "unit_kind": "A",
                "line_centers": [s for s in TSR_STATIONS if src["provinces"][s]["supply_center"]],
            },
            "suez_canal": {"controlled_from": "EGY", "seas": ["MED", "RED"], "unit_kind": "F"},
            "hong_kong": {"province": "HON", "no_credit_for": "CHINA"},
        },
    }
    _check(out)
    TARGET.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _check(out: dict[str, object]) -> None:
    """Refuse to write a map whose counts differ from the spec's."""
    provinces = out["provinces"]
    assert isinstance(provinces, dict)
    centres = [a for a, p in provinces.items() if p["supply_center"]]
    assert len(provinces) == 119 and len(centres) == 58, (len(provinces), len(centres))
    powers = out["powers"]
    assert isinstance(powers, dict)
    assert sum(len(p["units"]) for p in powers.values()) == 29
    adjacency = out["adjacency"]
    assert isinstance(adjacency, dict)
    for table in adjacency.values():
        for a, ns in table.items():
            for b in ns:
                assert a in table[b], f"asymmetric edge {a}-{b}"
    army_edges = sum(len(v) for v in adjacency["A"].values()) // 2
    fleet_edges = sum(len(v) for v in adjacency["F"].values()) // 2
    assert (army_edges, fleet_edges) == (171, 211), (army_edges, fleet_edges)


if __name__ == "__main__":
    main()
