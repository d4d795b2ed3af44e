"""Page and report languages: English (the keys) and French."""

from __future__ import annotations

from collections.abc import Callable

from arbitre.words import translator as words_translator

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
    "Sessions": "Sessions",
    "this session": "cette session",
    "End": "Terminer",
    "Log out everywhere": "Se déconnecter partout",
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
    "New message from {sender}": "Nouveau message de {sender}",
    "A phase was processed; now {phase}.": "Une phase a été arbitrée ; maintenant {phase}.",
    "The game has changed.": "La partie a changé.",
    "The game is paused.": "La partie est en pause.",
    "The game has resumed.": "La partie a repris.",
    # the bot seats (templates _bots.html, _bots_master.html)
    'Bot': 'Robot',
    'None.': 'Aucun.',
    'Open a sandbox from this position': 'Ouvrir un bac à sable depuis cette position',
    'Seats played by a bot': 'Places jouées par un robot',
    'Since': 'Depuis',
    'Votes and scores of bot seats': 'Votes et scores des places de robots',
    'Why': 'Pourquoi',
    'a bot takes a seat after this many missed steps': "un robot prend la place après ce nombre d'étapes manquées",
    'A replacement arrived: give the seat of': 'Un remplaçant est arrivé : donner la place de',
    'Bot seats': 'Places de robots',
    'Give the seat of': 'Donner la place de',
    'No seat is played by a bot.': "Aucune place n'est jouée par un robot.",
    'Seat a bot': 'Placer un robot',
    'Take the bot away': 'Retirer le robot',
    'to the house bot': 'au robot de la maison',
    'to user': "à l'utilisateur",
    # the reasons of order results (engine codes, shown in brackets)
    'bounced': 'rebond',
    'no_order': "pas d'ordre",
    'cut': 'soutien coupé',
    'dislodged': 'délogée',
    'disrupted': 'convoi rompu',
    'no_convoy': 'pas de convoi',
    'void': 'sans objet',
    'civil_disorder': 'désordre civil',
    # the map's legend (arbitre/render/svg.py)
    'Spring': 'Printemps',
    'Fall': 'Automne',
    'Winter': 'Hiver',
    'movement': 'mouvements',
    'retreats': 'retraites',
    'adjustments': 'ajustements',
    'seen by': 'vu par',
    'Austria': 'Autriche',
    'England': 'Angleterre',
    'Germany': 'Allemagne',
    'Italy': 'Italie',
    'Russia': 'Russie',
    'Turkey': 'Turquie',
    'Britain': 'Grande-Bretagne',
    'China': 'Chine',
    'Holland': 'Hollande',
    'Japan': 'Japon',
    # the engine's order messages (arbitre/server/engine_words.py)
    'the order is empty': "l'ordre est vide",
    'a unit kind (A or F) is expected here': "un type d'unité (A ou F) est attendu ici",
    'a place name is missing after the unit kind': "il manque un lieu après le type d'unité",
    'a place name is missing at the end of the order': "il manque un lieu à la fin de l'ordre",
    '{word} is not a place on the {map} map': "{word} n'est pas un lieu de la carte {map}",
    '{word} is not an order word (expected H, -, S, C, R, D or B)':
        "{word} n'est pas un mot d'ordre (attendu : H, -, S, C, R, D ou B)",
    'unexpected {word} after the end of the order': "{word} inattendu après la fin de l'ordre",
    "expected '-' or the end of the order, found {word}":
        "attendu : « - » ou la fin de l'ordre, trouvé {word}",
    '{place} has no coast {coast}': "{place} n'a pas de côte {coast}",
    '{words} could be any of {places}': '{words} peut désigner {places}',
    "a convoy names the army's move: F NTH C A LON - NWY":
        "un convoi nomme le mouvement de l'armée : F NTH C A LON - NWY",
    'The order could mean more than one thing (a coast or a name left open).':
        "L'ordre peut se lire de plusieurs façons (une côte ou un nom laissé ouvert).",
    'there is no unit in {place}': "il n'y a pas d'unité en {place}",
    'the unit in {place} belongs to {power}': "l'unité en {place} appartient à {power}",
    '{unit} cannot move to {place}': '{unit} ne peut pas aller en {place}',
    'name the coast of {place}': 'précisez la côte de {place}',
    '{kind} orders are not allowed in a movement phase':
        'les ordres « {kind} » ne sont pas permis dans une phase de mouvements',
    'the unit in {place} is not an army': "l'unité en {place} n'est pas une armée",
    'the unit in {place} is not a fleet': "l'unité en {place} n'est pas une flotte",
    'the order names no unit type for {place} (DATC 4.C.1)':
        "l'ordre ne donne pas le type de l'unité en {place} (DATC 4.C.1)",
    'the fleet is on {place}, not {other} (DATC 4.B.5)':
        'la flotte est en {place}, pas en {other} (DATC 4.B.5)',
    'an army move names no coast (DATC 4.B.6): {place}':
        "le mouvement d'une armée ne nomme pas de côte (DATC 4.B.6) : {place}",
    'the fleet is on {place}, not {other}': 'la flotte est en {place}, pas en {other}',
    'a unit cannot move to its own province': 'une unité ne peut pas aller dans sa propre province',
    'an army cannot enter {place}': 'une armée ne peut pas entrer en {place}',
    '{unit} cannot reach {place}, even by convoy': '{unit} ne peut pas atteindre {place}, même par convoi',
    'a unit cannot support itself': 'une unité ne peut pas se soutenir elle-même',
    'there is no unit in {place} to support': "il n'y a pas d'unité à soutenir en {place}",
    '{unit} cannot reach {place}, so cannot support there':
        '{unit} ne peut pas atteindre {place}, donc ne peut pas y soutenir',
    'a supported move must leave its province': 'un mouvement soutenu doit quitter sa province',
    'a unit cannot support a move into its own province':
        'une unité ne peut pas soutenir un mouvement vers sa propre province',
    '{unit} cannot reach {place}, so cannot support a move there':
        '{unit} ne peut pas atteindre {place}, donc ne peut pas y soutenir un mouvement',
    '{unit} cannot reach {place}': '{unit} ne peut pas atteindre {place}',
    'only a fleet at sea can convoy': 'seule une flotte en mer peut convoyer',
    'there is no unit in {place} to convoy': "il n'y a pas d'unité à convoyer en {place}",
    'only armies can be convoyed': 'seules les armées peuvent être convoyées',
    'an army cannot be convoyed to its own province':
        'une armée ne peut pas être convoyée vers sa propre province',
    '{unit} is on no convoy route from {place} to {other}':
        "{unit} n'est sur aucune route de convoi de {place} à {other}",
    'only retreats and disbands are allowed in a retreat phase':
        'seules les retraites et les dissolutions sont permises dans une phase de retraites',
    'no dislodged unit in {place}': 'aucune unité délogée en {place}',
    'the dislodged unit in {place} belongs to {power}': "l'unité délogée en {place} appartient à {power}",
    '{unit} cannot retreat to {place}': '{unit} ne peut pas faire retraite en {place}',
    'builds cannot be waived in this game (DATC 4.D.7)':
        'on ne peut pas renoncer à une construction dans cette partie (DATC 4.D.7)',
    'only builds, disbands and waives are allowed in an adjustment phase':
        "seules les constructions, dissolutions et renonciations sont permises dans une phase d'ajustements",
    '{place} is not a home centre of {power}': "{place} n'est pas un centre d'origine de {power}",
    '{power} does not own {place}': '{power} ne possède pas {place}',
    '{place} is occupied': '{place} est occupé',
    'name the coast of {place} for a fleet': 'précisez la côte de {place} pour une flotte',
    'a fleet cannot stand in {place}': 'une flotte ne peut pas se trouver en {place}',
    'say which unit to build in {place}: A or F (DATC 4.C.3)':
        'dites quelle unité construire en {place} : A ou F (DATC 4.C.3)',
    '{place} has two coasts {unit} can reach; name one':
        '{place} a deux côtes que {unit} peut atteindre ; nommez-en une',
    'a reaction is one order for one of your units': "une réaction est un ordre pour l'une de vos unités",
    'in the reaction step a power changes one order only':
        "à l'étape de réaction, une puissance ne change qu'un ordre",
    'there is no unit in {place} to spy on': "il n'y a pas d'unité à espionner en {place}",
    'the unit in {place} is yours; a spy watches a unit of another power':
        "l'unité en {place} est à vous ; un espion surveille une unité d'une autre puissance",
    'you have no unit in {place}; a counter-spy guards one of your own units':
        "vous n'avez pas d'unité en {place} ; un contre-espion garde l'une de vos unités",
    'only fleets and submarines fire torpedoes': 'seuls les flottes et les sous-marins tirent des torpilles',
    'torpedoes are fired in movement phases only':
        'les torpilles ne sont tirées que dans les phases de mouvements',
    'no torpedo is fired from {place}: torpedoes are fired at sea':
        'aucune torpille ne part de {place} : les torpilles se tirent en mer',
    '{unit} is not at sea: torpedoes are fired at sea, straight up or down':
        "{unit} n'est pas en mer : les torpilles se tirent en mer, droit vers le haut ou le bas",
    'a torpedo goes straight up or down: {unit} can fire only at {place}':
        'une torpille va droit vers le haut ou le bas : {unit} ne peut tirer que sur {place}',
    'a torpedo goes straight up or down: from {place} only at {other}':
        'une torpille va droit vers le haut ou le bas : depuis {place}, seulement sur {other}',
    'This order is not legal here.': "Cet ordre n'est pas légal ici.",
    'This order cannot be read.': 'Cet ordre est illisible.',
    'This order could mean more than one thing.': 'Cet ordre peut se lire de plusieurs façons.',
    'This order is refused.': 'Cet ordre est refusé.',
}


def translator(lang: str) -> Callable[..., str]:
    """``t(text, **values)``: ``text`` (English) in ``lang``, with ``{name}`` fields filled in."""
    table = FRENCH if lang == "fr" else {}

    catalog = words_translator(lang)

    def t(text: str, **values: object) -> str:
        out = table.get(text) or catalog.gettext(text)
        return out.format(**values) if values else out

    return t


def pick_language(header: str | None) -> str:
    """The first supported language of an ``Accept-Language`` header (default English)."""
    for part in (header or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"
