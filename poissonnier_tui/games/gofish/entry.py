"""Go Fish's entry in the games registry (:mod:`poissonnier_tui.games`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from poissonnier_tui.games import GameEntry
from poissonnier_tui.games.gofish.bots import BOT_KINDS, LEVELS, make_bot
from poissonnier_tui.games.gofish.match import GoFishGame
from poissonnier_tui.games.gofish.rules.view import legal_from_view
from poissonnier_tui.i18n import N_

DEFAULT_LEVEL: Final = "medium"
"""The bot level seated when none is asked for."""

OPTIONS: Final[Mapping[str, Any]] = {"variant": "rank", "bluff": False, "play_on": False}
"""The table options a host may set (docs/GOFISH.md G11) and their defaults."""


def fallback_from_view(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """A move always legal while the seat is waited on: its first legal ask (docs/GOFISH.md
    §3), or ``None`` when it has none (not its turn, a spectator, the game over)."""
    legal = legal_from_view(view)
    return legal[0] if legal else None


ENTRY: Final = GameEntry(
    name=GoFishGame.name,
    title=N_("Go Fish"),  # translated where it is shown (the home screen)
    definition=GoFishGame(),
    levels=LEVELS,
    default_level=DEFAULT_LEVEL,
    bot_kinds=BOT_KINDS,
    make_bot=make_bot,
    legal_from_view=legal_from_view,
    ui="poissonnier_tui.games.gofish.ui",
    options=OPTIONS,
    fallback_from_view=fallback_from_view,
    tallies={"books": N_("books")},  # i18n: a column heading of the tournament report
    # i18n: a move in the replay's line "Ana: ask for a rank" (docs/GOFISH.md).
    actions={"ask": N_("ask for a rank"), "ask_card": N_("ask for a card")},
    summary=N_(
        "The classic card game: ask another player for a rank you hold, go fish when they "
        "have none, and lay down books of four."
    ),
)
"""Go Fish in the games registry (:mod:`poissonnier_tui.games`)."""
