"""The e-mails of a draw vote, run to its end through the API and read as the real SMTP sink received them.

A secret draw vote (the default) is proposed by England an hour into the game and passes when every
power said yes.  Each e-mail is saved under ``test-artifacts/emails/<test>/`` (``.eml`` as received,
``.txt`` decoded) for a person to read; the test checks their words in English (New York) and French
(Paris): the vote's kind, the powers named, the result, the time in the reader's own zone, what the
reader may know of the ballots (its own only; the master every one) and the unsubscribe link.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Site
from tests.server.conftest import POWERS
from tests.server.smtp_sink import Received, Sink
from tests.server.test_notify_email import address, setup_game

EVERYONE = "Austria, England, France, Germany, Italy, Russia, Turkey"
TOUS = "Autriche, Angleterre, France, Allemagne, Italie, Russie, Turquie"


def the_one(mails: list[Received], subject_part: str) -> Received:
    """The only e-mail whose subject holds ``subject_part``."""
    (found,) = [m for m in mails if subject_part in m.subject]
    return found


def test_a_draw_votes_e_mails_in_english_and_french(
    mail_client: TestClient, mail_site: Site, sink: tuple[str, Sink], clock: ManualClock
) -> None:
    _, received = sink
    gid, master, players = setup_game(mail_client)
    sender.tick(mail_site)  # the start
    clock.advance(3600)  # 2030-01-01 01:00 UTC
    r = players["ENGLAND"].post(f"/api/games/{gid}/votes", {"kind": "draw"})
    assert r.status_code == 201, r.text
    vote = r.json()["id"]
    assert sender.tick(mail_site) == 8  # opened: everyone
    clock.advance(1800)  # 01:30 UTC
    for p in POWERS:
        if p != "ENGLAND":
            assert players[p].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "yes"}).status_code == 200
    assert sender.tick(mail_site) == 16  # decided, and the game is over: everyone, twice

    germany = received.messages(address(players["GERMANY"]))
    opened = the_one(germany, "vote —")
    assert opened.subject == "Spring Tour: vote — draw"
    text = opened.text()
    assert "A vote was opened: draw." in text
    assert f"Powers named: {EVERYONE}." in text
    assert "Opened: Monday 31 December 2029, 20:00 (America/New_York)." in text
    assert "Your vote is asked: say yes or no on the game page." in text
    assert "Proposed by" not in text  # a secret vote: only the proposer knows it proposed
    assert f"https://arbitre.example/games/{gid}\n" in text
    assert "Stop e-mails of this kind (A vote was opened): https://arbitre.example/unsubscribe/" in text
    assert opened.message["List-Unsubscribe"][1:-1] in text
    passed = the_one(germany, "vote passed")
    assert passed.subject == "Spring Tour: vote passed — draw"
    text = passed.text()
    assert "The vote passed: draw." in text and f"Powers named: {EVERYONE}." in text
    assert "Your ballot: yes." in text and "Ballots:" not in text  # its own ballot only
    assert "Decided: Monday 31 December 2029, 20:30 (America/New_York)." in text
    assert "Stop e-mails of this kind (A vote was decided): https://arbitre.example/unsubscribe/" in text
    assert the_one(germany, "is over").text().startswith("The game Spring Tour is over: a draw between Austria,")

    proposer = the_one(received.messages(address(players["ENGLAND"])), "vote —").text()
    assert "Proposed by England." in proposer
    decided_gm = the_one(received.messages(address(master)), "vote passed").text()
    ballots = ", ".join(f"{p.title()}: yes" for p in POWERS)
    assert f"Ballots: {ballots}." in decided_gm  # the master sees every ballot
    assert "Your vote is asked" not in the_one(received.messages(address(master)), "vote —").text()

    france = received.messages(address(players["FRANCE"]))
    ouvert = the_one(france, "vote —")
    assert ouvert.subject == "Spring Tour : vote — nulle"
    text = ouvert.text()
    assert "Un vote est ouvert : nulle." in text
    assert "Ouvert le mardi 1 janvier 2030, 02:00 (Europe/Paris)." in text
    assert "Votre vote est demandé : répondez oui ou non sur la page de la partie." in text
    assert "https://arbitre.example/unsubscribe/" in text
    adopte = the_one(france, "vote adopté")
    assert adopte.subject == "Spring Tour : vote adopté — nulle"
    text = adopte.text()
    assert "Le vote est adopté : nulle." in text and "Votre bulletin : oui." in text
    assert "Décidé le mardi 1 janvier 2030, 02:30 (Europe/Paris)." in text
    assert f"Puissances désignées : {TOUS}." in text
    # the vote's result comes before the game's end, for everyone
    for api in (master, *players.values()):
        subjects = [m.subject for m in received.messages(address(api))]
        assert [s for s in subjects if "vote" in s][-1] == subjects[-2], subjects
    saved = sorted(p.name for p in received.folder.glob("*.txt"))
    assert len(saved) == len(received.messages()) == 8 + 8 + 16
