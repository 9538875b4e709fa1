"""``ReplayApp``: a saved game in the TUI, read-only (``poissonnier replay LOG``).

No connection and no server: the app shows a
:class:`~poissonnier_tui.hosting.replay.Replay` on the replay screen of the
logged game's UI (:meth:`~poissonnier_tui.shell.game_ui.GameUI.replay_screen`,
the game named in the log's header). Usage::

    ReplayApp(Replay.load(path)).run()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from poissonnier_tui.hosting.replay import Replay
from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.game_ui import GameUI, load_game_ui
from poissonnier_tui.shell.screens.fields import translate_bindings


class ReplayApp(App[None]):
    """Shows one replay; ``q`` or ``ctrl+q`` quits.

    Args:
        replay: the loaded game.
        start: the step to open at (0: the deal).
    """

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = N_("Poissonnier — replay")
    ENABLE_COMMAND_PALETTE = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, show=False),
    ]

    def __init__(self, replay: Replay, *, start: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.start = start
        self.ui: GameUI[Any] = load_game_ui(replay.header.game)
        """The screens of the logged game."""
        self._screen: Screen[None] | None = None

    def on_mount(self) -> None:
        """Open the replay screen (titles and keys in the current language)."""
        self.title = _(self.TITLE)
        translate_bindings(self)
        self._screen = self.ui.replay_screen(self.replay, start=self.start)
        self.push_screen(self._screen)

    @property
    def replay_screen(self) -> Screen[None]:
        """The replay screen (the bottom of the stack above the default screen)."""
        assert self._screen is not None, "not mounted yet"
        return self._screen

    def action_request_quit(self) -> None:
        """The results screen's ``q``: leave (nothing to lose in a replay)."""
        self.exit()
