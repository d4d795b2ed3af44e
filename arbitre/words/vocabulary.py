"""Words looked up by value at run time, marked here so that the catalogs hold them.

The pages and the map legend translate some values they are given rather than literal text:
game statuses, press and assignment settings, the master console's button labels, result and
outcome codes, seasons and phase kinds, the power names of the shipped maps.  ``N_`` only marks
them; ``scripts/update-catalogs`` extracts them and ``tests/test_catalogs.py`` checks their French.
"""

from __future__ import annotations

from arbitre.words.translate import N_

LOOKED_UP = (
    N_("Reaction step"),
    N_("none (only with the master)"),
    N_("public only"),
    N_("public and private"),
    N_("random"),
    N_("players choose"),
    N_("forming"),
    N_("active"),
    N_("finished"),
    N_("won"),
    N_("drawn"),
    N_("ended"),
    N_("orders"),
    N_("any power"),
    N_("Orders saved."),
    N_("The phase was adjudicated."),
    N_("partial"),
    N_("illegal"),
    N_("invalid"),
    N_("Resume"),
    N_("Adjudicate now"),
    N_("Declare a draw"),
    N_("End the game"),
    N_("Done."),
    N_("Wrong user name or password."),
    N_("This name is taken."),
    N_("Your account was created."),
    N_("A name is 3 to 40 letters, digits, '-' or '_'; a password at least 8 characters."),
    N_("hidden"),
    N_("no_order"),
    N_("disrupted"),
    N_("no_convoy"),
    N_("civil_disorder"),
    N_("Spring"),
    N_("Fall"),
    N_("Winter"),
    N_("movement"),
    N_("retreats"),
    N_("adjustments"),
    N_("seen by"),
    N_("standoff in {province}"),
    N_("unknown power"),
    N_("Austria"),
    N_("England"),
    N_("Germany"),
    N_("Italy"),
    N_("Russia"),
    N_("Turkey"),
    N_("Britain"),
    N_("China"),
    N_("Holland"),
    N_("Japan"),
    N_("This order is refused."),
    N_("ranked preferences"),
    N_("paused"),
    N_("You joined the game."),
    N_("Your ballot was counted."),
    N_("The vote is open."),
)
"""Every message that reaches a translator through a variable."""
