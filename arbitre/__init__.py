"""arbitre: a Diplomacy judge — rules engine, variants, game server and tools."""

__version__ = "0.1.0"
