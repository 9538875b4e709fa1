"""``ReplayApp``: a saved game in the TUI, read-only (``poissonnier replay LOG``).

No connection and no server: the app shows a
:class:`~poissonnier_tui.hosting.replay.Replay` on the
:class:`~poissonnier_tui.games.poissonnier.ui.screens.replay.ReplayScreen`. Usage::

    ReplayApp(Replay.load(path)).run()
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen
from poissonnier_tui.hosting.replay import Replay


class ReplayApp(App[None]):
    """Shows one replay; ``q`` or ``ctrl+q`` quits.

    Args:
        replay: the loaded game.
        start: the step to open at (0: the deal).
    """

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "Poissonnier — replay"
    ENABLE_COMMAND_PALETTE = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
    ]

    def __init__(self, replay: Replay, *, start: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.start = start

    def on_mount(self) -> None:
        """Open the replay screen."""
        self.push_screen(ReplayScreen(self.replay, start=self.start))

    @property
    def replay_screen(self) -> ReplayScreen:
        """The replay screen (the bottom of the stack above the default screen)."""
        return next(s for s in self.screen_stack if isinstance(s, ReplayScreen))

    def action_request_quit(self) -> None:
        """The results screen's ``q``: leave (nothing to lose in a replay)."""
        self.exit()
