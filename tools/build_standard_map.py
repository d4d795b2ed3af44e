"""Convert ../shared/maps/standard/standard.json into arbitre's own map file.

Run once by a developer (``python tools/build_standard_map.py``); the result,
``arbitre/maps/data/standard.json``, is committed and is the only map file the
package reads.  French names follow the French edition of the board and the
spellings used in the project's seed pages.
"""

from __future__ import annotations

import json
from pathlib import Path

from map_common import coast_entries, power_entries  # tools/ is the script's folder

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "maps" / "standard" / "standard.json"
TARGET = ROOT / "arbitre" / "maps" / "data" / "standard.json"

FRENCH = {
    "ADR": "Mer Adriatique", "AEG": "Mer Égée", "ALB": "Albanie", "ANK": "Ankara",
    "APU": "Apulie", "ARM": "Arménie", "BAL": "Mer Baltique", "BAR": "Mer de Barents",
    "BEL": "Belgique", "BER": "Berlin", "BLA": "Mer Noire", "BOH": "Bohême",
    "BOT": "Golfe de Botnie", "BRE": "Brest", "BUD": "Budapest", "BUL": "Bulgarie",
    "BUR": "Bourgogne", "CLY": "Clyde", "CON": "Constantinople", "DEN": "Danemark",
    "EAS": "Méditerranée Orientale", "EDI": "Édimbourg", "ENG": "Manche", "FIN": "Finlande",
    "GAL": "Galicie", "GAS": "Gascogne", "GRE": "Grèce", "HEL": "Baie d'Héligoland",
    "HOL": "Hollande", "ION": "Mer Ionienne", "IRI": "Mer d'Irlande", "KIE": "Kiel",
    "LON": "Londres", "LVN": "Livonie", "LVP": "Liverpool", "LYO": "Golfe du Lion",
    "MAO": "Atlantique Moyen", "MAR": "Marseille", "MOS": "Moscou", "MUN": "Munich",
    "NAF": "Afrique du Nord", "NAO": "Atlantique Nord", "NAP": "Naples", "NTH": "Mer du Nord",
    "NWG": "Mer de Norvège", "NWY": "Norvège", "PAR": "Paris", "PIC": "Picardie",
    "PIE": "Piémont", "POR": "Portugal", "PRU": "Prusse", "ROM": "Rome", "RUH": "Rhénanie",
    "RUM": "Roumanie", "SER": "Serbie", "SEV": "Sébastopol", "SIL": "Silésie",
    "SKA": "Skagerrak", "SMY": "Smyrne", "SPA": "Espagne", "STP": "Saint-Pétersbourg",
    "SWE": "Suède", "SWI": "Suisse", "SYR": "Syrie", "TRI": "Trieste", "TUN": "Tunisie",
    "TUS": "Toscane", "TYR": "Tyrol", "TYS": "Mer Tyrrhénienne", "UKR": "Ukraine",
    "VEN": "Venise", "VIE": "Vienne", "WAL": "Pays de Galles", "WAR": "Varsovie",
    "WES": "Méditerranée Occidentale", "YOR": "Yorkshire",
}
# Extra spellings: English board names the DATC uses, and the seeds' French spellings.
EXTRA_ALIASES = {
    "MAO": ["Mid-Atlantic Ocean", "Mid Atlantic", "Atlantique central", "Milieu de l'Atlantique"],
    "NAO": ["North Atlantic Ocean", "North Atlantic"],
    "LYO": ["Gulf of Lyon", "Gulf of Lyons", "Golfe du Lyon"],
    "HEL": ["Helgoland Bight", "Heligoland Bight", "Héligoland"],
    "RUH": ["Ruhr"],
    "TYR": ["Tyrole", "Tyrolia"],
    "VIE": ["Viennes"],
    "SER": ["Serie"],
    "STP": ["St Petersburg", "St. Petersburg", "Saint Petersburg"],
    "EAS": ["Eastern Mediterranean", "Méditerranée Est"],
    "WES": ["Western Mediterranean", "Méditerranée Ouest"],
    "BOT": ["Gulf of Bothnia", "Golfe de Bothnie"],
    "ENG": ["English Channel", "La Manche"],
    "APU": ["Pouilles"],
    "NWG": ["Norwegian Sea"],
    "TYS": ["Tyrrhenian Sea"],
}
POWER_NAMES = {
    "AUSTRIA": ("Austria", "Autriche", "Austrian"),
    "ENGLAND": ("England", "Angleterre", "English"),
    "FRANCE": ("France", "France", "French"),
    "GERMANY": ("Germany", "Allemagne", "German"),
    "ITALY": ("Italy", "Italie", "Italian"),
    "RUSSIA": ("Russia", "Russie", "Russian"),
    "TURKEY": ("Turkey", "Turquie", "Turkish"),
}


def main() -> None:
    """Read the shared standard map and write the package's map file."""
    src = json.loads(SOURCE.read_text(encoding="utf-8"))
    provinces = {}
    for abbr, prov in sorted(src["provinces"].items()):
        aliases = [a.replace("+", " ") for a in prov.get("aliases", [])]
        aliases += EXTRA_ALIASES.get(abbr, [])
        provinces[abbr] = {
            "name": prov["name"],
            "name_fr": FRENCH[abbr],
            "type": prov["type"],
            "supply_center": prov["supply_center"],
            "coasts": prov["coasts"],
            "aliases": sorted(set(aliases)),
        }
    coasts = coast_entries(src, FRENCH)
    powers = power_entries(src, POWER_NAMES)
    out = {
        "name": "standard",
        "title": "Standard Diplomacy",
        "source": (
            "Converted by tools/build_standard_map.py from shared/maps/standard/standard.json "
            "(facts of MILA diplomacy 1.1.2 standard.map, identical to DPjudge standard.* (MIT, Manus Hand))."
        ),
        "first_phase": "S1901M",
        "victory_centers": src["victory_supply_centers"],
        "powers": powers,
        "provinces": provinces,
        "coasts": coasts,
        "adjacency": {
            "A": {k: sorted(v) for k, v in sorted(src["army_adjacency"].items())},
            "F": {k: sorted(v) for k, v in sorted(src["fleet_adjacency"].items())},
        },
    }
    TARGET.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
