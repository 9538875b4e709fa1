"""A table screen without a server: a stacked-deck game played by the rules engine.

:class:`TableApp` pushes the real :class:`TableScreen` and feeds it the view of
one seat computed with ``view_for``; the moves the screen chooses
(:class:`MoveChosen`) are applied with ``apply_wire`` and a new view follows,
as the server would send it. No network, no bots, no clock: what the screen
shows depends only on the game state, so SVG snapshots of it are stable.

:func:`midgame` is the stacked game those snapshots show.
"""

from __future__ import annotations

from typing import Any

from stacking import fill_and_ready, stacked_game
from textual.app import App
from toasts import KeepsToasts

from poissonnier_tui.games.poissonnier.rules.actions import Propose, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.snapshot import SeatLabel, TableSnapshot
from poissonnier_tui.shell.messages import MoveChosen

SEATS = (
    SeatLabel("Ana", "human"),
    SeatLabel("Bot 1 · hard", "bot"),
    SeatLabel("Bot 4 · medium", "bot"),
    SeatLabel("Bot 3 · easy", "bot"),
)
"""Who sits where: a long bot name on purpose (the players pane must not lose columns)."""


def midgame() -> GameState:
    """4 players in the serve step, seat 0 (Ana) active with three crates filled.

    Ana: crates T T · F F F · M (a 4th crate unfilled), hand D P and a glaçon and an
    arrivage, 7 coins, one client won (C05) with its stamps. Bot 1 offers Ana a T for
    2 coins (an offer for her to answer). The queue is C03 (F), C16 (M M), C01 (T),
    C20, U1; others' crates hold a few fish.
    """
    state = stacked_game(
        4,
        hands=[
            ["T01", "T02", "F01", "F02", "F03", "M01", "D01", "P01", "G01", "A01"],
            ["T03", "M02", "D02"],
            ["F04", "F05", "P02"],
            ["M03", "D03"],
        ],
        markers=[["T10", "T11", "T12", "T13"], None, None, None],
        queue=["C03", "C16", "C01", "C20", "U1"],
        clients_top=["C04"],
        coins=[7, 4, 2, 5],
    )
    won = "C05"
    state.client_deck.remove(won)
    state.seats[0].clients.append(won)
    state.seats[0].stamps = 2
    fill_and_ready(
        state,
        {
            0: [(("T01", "T02"), 0), (("F01", "F02", "F03"), 1), (("M01",), 2)],
            1: [(("T03",), 0)],
            2: [(("F04", "F05"), 0)],
            3: [(("M03",), 0)],
        },
    )
    assert state.phase is Phase.SERVE and state.active == 0
    apply_wire(state, 1, to_wire(Propose(seller=1, fish=((0, 1),), coins=2)))
    return state


class TableApp(KeepsToasts, App[None]):
    """The table screen on a game played in process (see the module docstring).

    Args:
        state: the game; the screen's moves change it.
        seat: the seat whose view is shown.
        theme: a Textual theme name (``"textual-dark"``, ``"textual-light"``).
    """

    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, state: GameState, seat: int = 0, theme: str = "textual-dark") -> None:
        super().__init__()
        self.state = state
        self.seat = seat
        self.rev = 0
        self.moves: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self._theme_name = theme
        self.table = TableScreen()
        self.table.announce_offers = False  # toasts would cover the board in a snapshot

    def on_mount(self) -> None:
        """Theme, table, first view."""
        self.theme = self._theme_name
        self.push_screen(self.table)
        self.publish()

    def publish(self) -> None:
        """Show the seat's view of the current state, as the server does after each move."""
        self.rev += 1
        seats = SEATS[: self.state.players]
        self.table.snapshot = TableSnapshot(view_for(self.state, self.seat), seats, self.rev)

    def other(self, seat: int, action: dict[str, Any]) -> None:
        """Another seat moves."""
        apply_wire(self.state, seat, action)
        self.publish()

    def on_move_chosen(self, event: MoveChosen) -> None:
        """The screen chose a move: apply it (or note the refusal) and show the result."""
        self.moves.append(event.action)
        try:
            apply_wire(self.state, self.seat, event.action)
        except IllegalAction as exc:
            self.refused.append(exc.code)
            return
        self.publish()
