"""A Go Fish table for screen tests: a stacked game mid-play, no server, no bots, no clock.

:func:`stacked_midgame` is a 4-player game after three asks: Ana (seat 0) got
two 7s from Ben, then went fishing for Qs; Ben asked Cleo for 5s and got a
book's last card. :class:`GoFishTableApp` shows its table screen for one seat.
"""

from __future__ import annotations

from typing import Any

from gofish_stacking import stacked_game
from textual.app import App

from poissonnier_tui.games.gofish.rules.actions import Ask
from poissonnier_tui.games.gofish.rules.engine import apply
from poissonnier_tui.games.gofish.rules.state import GameState
from poissonnier_tui.games.gofish.rules.view import view_for
from poissonnier_tui.games.gofish.ui import GAME_UI
from poissonnier_tui.games.gofish.ui.reader import GoFishSnapshot
from poissonnier_tui.shell.seats import SeatLabel

NAMES = ("Ana", "Ben", "Cleo", "Dom")
SEATS = tuple(SeatLabel(n) for n in NAMES)


def stacked_midgame() -> GameState:
    """Four players; after it, Cleo (seat 2) is to ask."""
    state = stacked_game(
        [
            ["7C", "QH", "2D", "9S", "KC"],
            ["7D", "7H", "5S", "5H", "5D", "3C"],
            ["5C", "AS", "JD", "JH"],
            ["4C", "4D", "8H", "10S", "6C"],
        ],
        stock_top=["3D", "8C"],
    )
    apply(state, 0, Ask(1, "7"))  # Ben hands over 7♦ 7♥
    apply(state, 0, Ask(3, "Q"))  # Go fish: Ana draws 3♦
    apply(state, 1, Ask(2, "5"))  # Cleo hands 5♣: Ben lays the 5s down, asks again
    apply(state, 1, Ask(0, "3"))  # Ana hands 3♦
    apply(state, 1, Ask(3, "3"))  # Go fish: Ben draws 8♣
    return state


def snapshot(state: GameState, seat: int | None) -> GoFishSnapshot:
    """The snapshot ``seat`` reads of ``state``."""
    return GAME_UI.read(view_for(state, seat), SEATS, 5)


class GoFishTableApp(App[None]):
    """Shows Go Fish's table screen for ``seat`` of ``state``."""

    def __init__(self, state: GameState, seat: int | None = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.snap = snapshot(state, seat)

    def on_mount(self) -> None:
        self.push_screen(GAME_UI.table_screen(self.snap))
