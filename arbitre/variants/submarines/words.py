"""The wording of every Submarines fact, in English and French, in one place.

Each function returns ``(en, fr)``.  Nothing here decides who is told: the
callers in :mod:`~arbitre.variants.submarines.disclosure` pass only what the
audience may know (a power's name is passed only where the rules disclose it).
"""

from __future__ import annotations

from arbitre.maps import GameMap

Words = tuple[str, str]


def power_names(game_map: GameMap, power: str) -> Words:
    """A power's name in English and French."""
    info = game_map.powers[power]
    return info.display, info.display_fr


def surfaced(game_map: GameMap, power: str, order: str, place: str) -> Words:
    """A submarine surfaced: it now appears as an ordinary unit of its power."""
    en, fr = power_names(game_map, power)
    return (f"{en}'s submarine surfaces in {place} ({order}).",
            f"Un sous-marin ({fr}) fait surface en {place} ({order}).")


def unseen_bounce(place: str) -> Words:
    """A surfacing failed against surface units: they bounced an unseen unit."""
    return (f"An unseen submarine tried to surface in {place} and bounced.",
            f"Un sous-marin invisible a tenté de faire surface en {place} et a été repoussé.")


def sonar(place: str) -> Words:
    """A sonar contact, without nationality."""
    return (f"Sonar contact: a submarine in {place} (nationality unknown).",
            f"Contact sonar : un sous-marin en {place} (nationalité inconnue).")


def decisive_support(order: str, place: str) -> Words:
    """A support from the depths to the surface that decided a result (no nationality)."""
    return (f"A submarine in {place} gave a decisive support: {order}.",
            f"Un sous-marin en {place} a apporté un soutien décisif : {order}.")


def downward_support(game_map: GameMap, power: str, order: str) -> Words:
    """A support from the surface into the depths (the supported submarine's nationality is not told)."""
    en, fr = power_names(game_map, power)
    return (f"Support into the depths by {en}: {order}.",
            f"Soutien vers les profondeurs par {fr} : {order}.")


def depth_support(game_map: GameMap, power: str, order: str) -> Words:
    """A support between two depth places, told to the owners of both units."""
    en, fr = power_names(game_map, power)
    return (f"Support in the depths by {en}: {order}.",
            f"Soutien dans les profondeurs par {fr} : {order}.")


def torpedo_hit(game_map: GameMap, firing_place: str, target: str, victim_power: str | None,
                victim: str, destroyed: bool) -> Words:
    """A hit: names the firing place, never the firing power; the victim's power only when it was in sight."""
    if victim_power is None:
        who_en, who_fr = "a submarine", "un sous-marin"
    else:
        en, fr = power_names(game_map, victim_power)
        who_en, who_fr = f"{en}'s {victim}", f"{victim} ({fr})"
    tail_en = " It had no room to retreat and is destroyed." if destroyed else ""
    tail_fr = " Faute de place pour retraiter, l'unité est détruite." if destroyed else ""
    return (f"A torpedo fired from {firing_place} hit {who_en} in {target}.{tail_en}",
            f"Une torpille tirée depuis {firing_place} a touché {who_fr} en {target}.{tail_fr}")


def torpedo_miss(game_map: GameMap, firing_place: str, target: str, firer_power: str | None,
                 firer: str) -> Words:
    """A miss: the firing unit's power is told only when it fired from the surface."""
    if firer_power is None:
        return (f"A torpedo fired from {firing_place} at {target} missed.",
                f"Une torpille tirée depuis {firing_place} vers {target} a manqué sa cible.")
    en, fr = power_names(game_map, firer_power)
    return (f"{en}'s {firer} fired a torpedo at {target} and missed.",
            f"{firer} ({fr}) a tiré une torpille vers {target} et l'a manquée.")


def depth_attack(game_map: GameMap, attacker: str, defender_power: str, place: str) -> Words:
    """Told to an attacker in the depths: the nationality of the submarine it attacked."""
    en, fr = power_names(game_map, defender_power)
    return (f"Your {attacker} attacked a submarine of {en} in {place}.",
            f"Votre {attacker} a attaqué un sous-marin de {fr} en {place}.")


def lost_submarine(game_map: GameMap, power: str) -> Words:
    """A submerged submarine was lost: who lost it, and nothing else."""
    en, fr = power_names(game_map, power)
    return (f"{en} lost a submarine.", f"{fr} a perdu un sous-marin.")
