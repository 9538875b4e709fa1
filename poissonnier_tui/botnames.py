"""Bots' names in the reader's language: ``"Bot 3 · hard"`` -> ``"Bot 3 · difficile"``.

A table names its bots in English, as data (``hosting/tables.py`` ``bot_name``):
logs and lobby frames keep that name. Whoever shows it to a person — the
table's screens, the saved games, ``poissonnier history`` — says the level in
the current language (docs/GLOSSARY.md). No Textual, no net: any layer may
import it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from poissonnier_tui.i18n import N_, _

BOT_LEVELS: Final[Mapping[str, str]] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
}
"""The bot levels a table names its bots with (``"Bot 3 · hard"``) -> their messages."""

_BOT_NAME: Final = re.compile(r"(?P<bot>Bot \d+) · (?P<level>\w+)")


def shown_bot_name(name: str) -> str:
    """A bot's name with its level in the current language; any other name as it is."""
    match = _BOT_NAME.fullmatch(name)
    if match is None or match["level"] not in BOT_LEVELS:
        return name
    return f"{match['bot']} · {_(BOT_LEVELS[match['level']])}"
