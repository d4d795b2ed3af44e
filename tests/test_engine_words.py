"""The edge's words for engine refusals and results come from the declarations, not from variant names."""

from __future__ import annotations

from arbitre.server.engine_words import engine_message
from arbitre.server.wording import _moving
from arbitre.variants.registry import RULE_MODULES, registered_order_kinds


def test_a_module_s_refusal_is_translated_whole_not_by_a_shorter_general_message() -> None:
    assert engine_message("there is no unit in MUN to spy on", "illegal", "fr") == (
        "il n'y a pas d'unité à espionner en MUN"
    )
    assert engine_message("there is no unit in MUN", "illegal", "fr") == "il n'y a pas d'unité en MUN"


def test_every_module_message_reaches_the_translator() -> None:
    for module in RULE_MODULES:
        for message in module.messages:
            assert engine_message(message, "illegal", "fr") != message, (module.name, message)


def test_moving_kinds_come_from_each_kind_s_drawing() -> None:
    kinds = registered_order_kinds()
    assert {"move", "retreat", "train_move"} <= _moving()
    assert "suez_permission" in kinds and "suez_permission" not in _moving()
    assert "spy" in kinds and "spy" not in _moving()
