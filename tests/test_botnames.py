"""Bots' names in the reader's language (poissonnier_tui/botnames.py, docs/GLOSSARY.md)."""

from __future__ import annotations

from poissonnier_tui import i18n
from poissonnier_tui.botnames import shown_bot_name


def test_a_bots_level_is_said_in_the_current_language_and_other_names_stay() -> None:
    assert shown_bot_name("Bot 3 · hard") == "Bot 3 · hard"
    i18n.set_language("fr")
    try:
        assert shown_bot_name("Bot 3 · hard") == "Bot 3 · difficile"
        assert shown_bot_name("Bot 2 · medium") == "Bot 2 · moyen"
        assert shown_bot_name("Bot 2 · wizard") == "Bot 2 · wizard"  # a level we do not know
        assert shown_bot_name("Ana · medium") == "Ana · medium"  # a person's name is data
    finally:
        i18n.set_language("en")
