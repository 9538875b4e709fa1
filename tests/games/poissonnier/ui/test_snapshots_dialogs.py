"""SVG snapshots of the serve dialog, the deal dialog and the results screen, at 80×24
and 160×50, on stacked or seeded games (no server, no bots, no clock).

The dialogs open over :func:`tablekit.midgame` with keys; the results screen shows
the end of a seeded random game played by the rules engine. Update them with
``pytest --snapshot-update`` and look at the SVGs before committing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tablekit import SEATS, TableApp, midgame
from textual.app import App
from textual.pilot import Pilot

from poissonnier_tui.games.poissonnier.rules.engine import apply, legal_actions, new_game
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot

SIZES = [(80, 24), (160, 50)]
IDS = ["80x24", "160x50"]


async def settle(pilot: Pilot[None]) -> None:
    """Let the view reach every widget and the layout settle."""
    await pilot.pause()
    await pilot.pause()


def finished(seed: int, players: int) -> GameState:
    """A whole game of random legal moves from ``seed`` (the same game every run)."""
    rng = random.Random(seed)
    state = new_game(seed, players)
    for _ in range(20_000):
        if state.phase is Phase.OVER:
            return state
        waiting = sorted(view_for(state, None)["waiting_on"])
        seat = rng.choice(waiting)
        apply(state, seat, rng.choice(legal_actions(state, seat)))
    raise AssertionError("the game did not end")


class ResultsApp(App[None]):
    """The results screen of a finished seeded game, from seat 0's view."""

    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, players: int) -> None:
        super().__init__()
        state = finished(4, players)
        self.snap = TableSnapshot(view_for(state, 0), SEATS[:players], 1)

    def on_mount(self) -> None:
        self.push_screen(ResultsScreen(self.snap))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_serve_dialog(snap_compare: Any, size: tuple[int, int]) -> None:
    """Ana serves C16 (M M): her M and an arrivage as the other M."""
    assert snap_compare(
        TableApp(midgame()), terminal_size=size, press=["s", "1"], run_before=settle
    )


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_deal_dialog(snap_compare: Any, size: tuple[int, int]) -> None:
    """Ana, active, opens a deal: the first stall's crates, what she pays, the check."""
    assert snap_compare(TableApp(midgame()), terminal_size=size, press=["d"], run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_results_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    """4 players: tallies, then steps 1 to 4 (step 2 says why it does not apply)."""
    assert snap_compare(ResultsApp(4), terminal_size=size, run_before=settle)
