"""Page and report languages: English (the keys) and French."""

from __future__ import annotations

from collections.abc import Callable

LANGUAGES = ("en", "fr")
"""The languages a user can pick."""

FRENCH: dict[str, str] = {
    "Games": "Parties",
    "New game": "Nouvelle partie",
    "Account": "Compte",
    "Log in": "Connexion",
    "Log out": "Déconnexion",
    "Register": "Inscription",
    "User name": "Nom d'utilisateur",
    "Password": "Mot de passe",
    "Language": "Langue",
    "Save": "Enregistrer",
    "Name": "Nom",
    "Map": "Carte",
    "Rule modules": "Modules de règles",
    "Rule options": "Options de règles",
    "Disputed rules (DATC chapter 4)": "Règles disputées (DATC, chapitre 4)",
    "Rule set": "Jeu de règles",
    "DATC v3.2 preferences": "Préférences du DATC v3.2",
    "default": "par défaut",
    "DATC preference": "préférence du DATC",
    "one name=value per line": "un nom=valeur par ligne",
    "Deadlines (minutes)": "Délais (minutes)",
    "Movement": "Mouvements",
    "Retreats": "Retraites",
    "Adjustments": "Ajustements",
    "Reaction step": "Étape de réaction",
    "Press": "Presse",
    "none (only with the master)": "aucune (seulement avec l'arbitre)",
    "public only": "publique seulement",
    "public and private": "publique et privée",
    "Power assignment": "Attribution des puissances",
    "random": "au hasard",
    "players choose": "au choix des joueurs",
    "Create": "Créer",
    "Status": "État",
    "Phase": "Phase",
    "Step": "Étape",
    "Deadline": "Date limite",
    "Players": "Joueurs",
    "Power": "Puissance",
    "Player": "Joueur",
    "Ready": "Prêt",
    "yes": "oui",
    "no": "non",
    "forming": "en formation",
    "active": "en cours",
    "paused": "en pause",
    "finished": "terminée",
    "won": "gagnée",
    "drawn": "nulle",
    "ended": "arrêtée",
    "orders": "ordres",
    "reaction": "réaction",
    "Join as player": "Rejoindre comme joueur",
    "Join as observer": "Rejoindre comme observateur",
    "any power": "n'importe quelle puissance",
    "You are": "Vous êtes",
    "game master": "arbitre",
    "observer": "observateur",
    "player of": "joueur de",
    "Board": "Plateau",
    "Units": "Unités",
    "Supply centres": "Centres",
    "Dislodged units": "Unités délogées",
    "retreats to": "retraites possibles",
    "Your orders": "Vos ordres",
    "One order per line.": "Un ordre par ligne.",
    "Submit orders": "Envoyer les ordres",
    "I am ready": "Je suis prêt",
    "Pick an order": "Choisir un ordre",
    "Add": "Ajouter",
    "You have nothing to order in this phase.": "Vous n'avez rien à ordonner dans cette phase.",
    "Orders saved.": "Ordres enregistrés.",
    "Some orders are not valid; they are kept and will fail:": "Certains ordres ne sont pas valables ; ils sont gardés et échoueront :",
    "The phase was adjudicated.": "La phase a été arbitrée.",
    "History": "Historique",
    "Messages": "Messages",
    "Master console": "Console de l'arbitre",
    "Orders": "Ordres",
    "Report": "Compte rendu",
    "succeeds": "réussit",
    "fails": "échoue",
    "partial": "en partie",
    "illegal": "illégal",
    "invalid": "invalide",
    "Send": "Envoyer",
    "To": "À",
    "everyone (public)": "tout le monde (public)",
    "the game master": "l'arbitre",
    "No messages.": "Aucun message.",
    "Pause": "Pause",
    "Resume": "Reprendre",
    "Extend deadline by (minutes)": "Prolonger le délai de (minutes)",
    "Extend": "Prolonger",
    "Adjudicate now": "Arbitrer maintenant",
    "Declare a draw": "Déclarer la nullité",
    "End the game": "Arrêter la partie",
    "Replace player": "Remplacer un joueur",
    "by user": "par l'utilisateur",
    "Replace": "Remplacer",
    "Everyone's orders": "Les ordres de tous",
    "Done.": "Fait.",
    "API tokens": "Jetons d'API",
    "Label": "Libellé",
    "New token": "Nouveau jeton",
    "Delete": "Supprimer",
    "Copy this token now; it will not be shown again:": "Copiez ce jeton maintenant ; il ne sera plus affiché :",
    "Your games": "Vos parties",
    "All games": "Toutes les parties",
    "No games yet.": "Aucune partie pour l'instant.",
    "Error": "Erreur",
    "Back": "Retour",
    "Welcome": "Bienvenue",
    "waiting for players": "en attente de joueurs",
    "Winners": "Vainqueurs",
    "Checking…": "Vérification…",
    "All orders are valid.": "Tous les ordres sont valables.",
    "Line": "Ligne",
    "Bounces": "Rivalités",
    "Current phase": "Phase en cours",
    "API documentation": "Documentation de l'API",
    "Wrong user name or password.": "Nom d'utilisateur ou mot de passe incorrect.",
    "This name is taken.": "Ce nom est déjà pris.",
    "Your account was created.": "Votre compte a été créé.",
    "A name is 3 to 40 letters, digits, '-' or '_'; a password at least 8 characters.":
        "Un nom fait de 3 à 40 lettres, chiffres, '-' ou '_' ; un mot de passe d'au moins 8 caractères.",
    "Map unavailable; units are listed below.": "Carte indisponible ; les unités sont listées ci-dessous.",
    "hidden": "caché",
    "What the lock revealed to you": "Ce que le verrouillage vous a révélé",
    "Nothing.": "Rien.",
    "Your orders as locked:": "Vos ordres tels que verrouillés :",
    "You may change the order of one of your units: write its new order on one line (a second change replaces the first).":
        "Vous pouvez changer l'ordre d'une de vos unités : écrivez son nouvel ordre sur une ligne (un second changement remplace le premier).",
    "unknown": "inconnue",
}


def translator(lang: str) -> Callable[..., str]:
    """``t(text, **values)``: ``text`` (English) in ``lang``, with ``{name}`` fields filled in."""
    table = FRENCH if lang == "fr" else {}

    def t(text: str, **values: object) -> str:
        out = table.get(text, text)
        return out.format(**values) if values else out

    return t


def pick_language(header: str | None) -> str:
    """The first supported language of an ``Accept-Language`` header (default English)."""
    for part in (header or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"
