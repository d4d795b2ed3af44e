"""French pages show no English: the game page (with results), the history, the master console, the account
and the new-game form, read in a real browser by French-speaking accounts.

A page fails when its visible text holds an English message of the catalogs
whose French differs, or a common English word (the catalogs cannot list the
sentences they miss).  Screenshots go to the git-ignored ``test-artifacts``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from arbitre.server import security
from arbitre.server.i18n import translator
from arbitre.server.site import Site
from tests.server.browser import browser, live_server, show_now
from tests.server.conftest import POWERS

ARTIFACTS = Path(os.environ.get("ARBITRE_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))
PASSWORD = "motdepasse1"

ENGLISH_WORDS = (
    "the",
    "and",
    "of",
    "your",
    "you",
    "with",
    "is",
    "are",
    "by",
    "from",
    "to",
    "this",
    "that",
    "no",
    "yes",
    "not",
    "orders",
    "order",
    "succeeds",
    "fails",
    "bounced",
    "support",
    "supports",
    "holds",
    "hold",
    "cut",
    "dislodged",
    "retreat",
    "retreats",
    "Spring",
    "Fall",
    "Autumn",
    "Winter",
    "movement",
    "adjustments",
    "seen",
    "centers",
    "units",
    "unit",
    "player",
    "players",
    "ready",
    "game",
    "deadline",
    "left",
    "paused",
    "master",
    "history",
    "none",
    "illegal",
    "invalid",
)
"""English words that are not French: none may be read on a French page."""


def english_messages() -> set[str]:
    """The English messages whose French differs (the message ids of the French catalog)."""
    from babel.messages.pofile import read_po

    from arbitre.words.catalogs import po_path

    fr = translator("fr")
    with po_path("fr").open("rb") as f:
        ids = {m.id for m in read_po(f) if isinstance(m.id, str) and m.id}
    out = set()
    for msgid in ids:
        text = msgid.split("{")[0].strip(" :.…")  # the words before the first field
        if len(text) >= 3 and re.search(r"[A-Za-z]{3}", text) and fr(msgid).split("{")[0].strip(" :.…") != text:
            out.add(text)
    return out


def english_in(text: str, messages: set[str]) -> list[str]:
    """The English messages and words found in ``text`` (whole words, case kept for messages)."""
    found = [m for m in messages if re.search(rf"(?<![\w']){re.escape(m)}(?![\w'])", text)]
    found += [w for w in ENGLISH_WORDS if re.search(rf"(?<![\w'-]){w}(?![\w'-])", text, flags=re.IGNORECASE)]
    return sorted(set(found))


def visible_text(page: Any) -> str:
    """What a reader sees: the body's text, with the map's words (inline SVG) and the titles of controls."""
    text: str = page.evaluate("""() => {
        // what people typed (a token's label) is theirs, not the site's words
        for (const e of document.querySelectorAll('.user-text')) e.remove();
        for (const d of document.querySelectorAll('details')) d.open = true;  // folded sections are read too
        const parts = [document.title, document.body.innerText];
        for (const t of document.querySelectorAll('svg text')) parts.push(t.textContent);
        for (const e of document.querySelectorAll('[title], [aria-label], [placeholder]'))
            parts.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '',
                       e.getAttribute('placeholder') || '');
        return parts.join('\\n');
    }""")
    return text


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_french_pages_show_no_english(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(security, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    messages = english_messages()
    assert "Your orders" in messages and "Board" in messages  # the list is the catalogs' messages
    with live_server(site) as base, browser() as b, httpx.Client(base_url=base, timeout=30) as client:
        tokens = {}
        for name in ["arbitre_fr", *(f"joueur_{p.lower()}" for p in POWERS)]:
            r = client.post("/api/register", json={"name": name, "password": PASSWORD, "lang": "fr"})
            assert r.status_code == 201, r.text
            tokens[name] = {
                "Authorization": "Bearer "
                + client.post("/api/tokens", json={"name": name, "password": PASSWORD}).json()["token"]
            }
        gm = tokens["arbitre_fr"]
        gid = client.post(
            "/api/games", json={"name": "Partie", "assignment": "choice", "press": "full"}, headers=gm
        ).json()["id"]
        for p in POWERS:
            assert (
                client.post(
                    f"/api/games/{gid}/join", json={"role": "player", "power": p}, headers=tokens[f"joueur_{p.lower()}"]
                ).status_code
                == 200
            )
        # a phase with a bounce, a cut support, a dislodgement and an illegal order, then a message
        spring = {
            "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - PIC"],
            "GERMANY": ["A MUN - BUR", "A RUH - MUN"],
            "ITALY": ["A VEN - TYR", "A ROM - VEN"],
            "AUSTRIA": ["A VIE - TYR", "A BUD - GAL"],
            "RUSSIA": ["A WAR - GAL", "A MOS - BER"],
        }
        for p, lines in spring.items():
            assert (
                client.put(
                    f"/api/games/{gid}/orders", json={"orders": lines}, headers=tokens[f"joueur_{p.lower()}"]
                ).status_code
                == 200
            )
        assert client.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}, headers=gm).status_code == 200
        assert (
            client.post(f"/api/games/{gid}/messages", json={"to": "*", "body": "Bonne chance"}, headers=gm).status_code
            == 201
        )

        pages = {
            "game": f"/games/{gid}",
            "history": f"/games/{gid}/history",
            "phase": f"/games/{gid}/history/0",
            "master": f"/games/{gid}/master",
            "messages": f"/games/{gid}/messages",
            "account": "/account",
            "new-game": "/games/new",
            "games": "/",
        }
        seen: dict[str, list[str]] = {}
        for who in ("arbitre_fr", "joueur_france"):
            page = b.new_context(locale="fr-FR", viewport={"width": 1200, "height": 900}).new_page()
            page.goto(base + "/login")
            page.fill("#name", who)
            page.fill("#password", PASSWORD)
            page.click("#submit")
            page.wait_for_selector("#nav-account")
            for name, path in pages.items():
                if name == "master" and who != "arbitre_fr":
                    continue
                page.goto(base + path)
                assert page.evaluate("document.documentElement.lang") == "fr"
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"french-{who}-{name}.png"), full_page=True)
                text = visible_text(page)
                (ARTIFACTS / f"french-{who}-{name}.txt").write_text(text)  # what was read, to look at
                found = english_in(text, messages)
                if found:
                    seen[f"{who} {path}"] = found
            # the maps' legends (drawn as images)
            for path in (f"/games/{gid}/map.svg", f"/games/{gid}/history/0/map.svg"):
                svg = page.request.get(base + path).text()
                words = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
                assert "Printemps 1901" in words or "Automne 1901" in words, words[:300]
                found = english_in(words, messages)
                if found:
                    seen[f"{who} {path}"] = found
            # the live check of the orders box speaks French too (the engine's messages)
            if who == "joueur_france":
                page.goto(base + f"/games/{gid}")
                show_now(page)
                page.fill("#orders", "A BUR - MOS\nF PIC - LON")
                page.wait_for_selector("#check .bad")
                found = english_in(page.inner_text("#check"), messages)
                if found:
                    seen["live check"] = found
        assert not seen, "English on French pages:\n" + "\n".join(f"{k}: {v}" for k, v in seen.items())
