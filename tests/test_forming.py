"""A new game's settings are typed from the request on: the vote settings are checked values, not a mapping."""

from __future__ import annotations

import dataclasses

import pytest

from arbitre.judge.votes import DEFAULT_SECRET, VoteSettings
from arbitre.life.forming import GameSettings, check_votes
from arbitre.store.games import GameRuleError


def test_vote_settings_are_typed_fields_of_the_settings() -> None:
    fields = {f.name: f.type for f in dataclasses.fields(GameSettings)}
    assert "votes" not in fields
    assert fields["secret_votes"] == "tuple[str, ...] | None" and fields["dias"] == "bool"


def test_check_votes_gives_the_stored_settings_and_names_a_wrong_kind() -> None:
    assert check_votes(None, False) == VoteSettings(DEFAULT_SECRET, False)
    assert check_votes(("draw",), True) == VoteSettings(frozenset({"draw"}), True)
    with pytest.raises(GameRuleError) as err:
        check_votes(("draw", "coup"), True)
    assert "coup" in str(err.value) and err.value.where == "votes.secret"


def test_the_request_model_gives_the_one_settings_value_create_game_takes() -> None:
    """The API's body becomes :class:`GameSettings` itself (no second field list, no mapping in between)."""
    from arbitre.server import actions
    from arbitre.server.routes.api import GameIn

    body = GameIn.model_validate(
        {
            "name": "Typed",
            "creator": "player",
            "power": "FRANCE",
            "votes": {"secret": ["draw"], "dias": False},
            "bots": {"seats": ["ITALY"]},
            "scoring": "sum-of-squares",
        }
    )
    settings = body.request()
    assert type(settings) is GameSettings and actions.GameRequest is GameSettings
    assert (settings.creator, settings.power, settings.secret_votes, settings.dias) == (
        "player",
        "FRANCE",
        ("draw",),
        False,
    )
    assert settings.bots is not None and settings.bots.seats == ("ITALY",) and settings.scoring == "sum-of-squares"
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.name = "changed"  # type: ignore[misc]
