"""Le Poissonnier's screens behind the shell's game-screen interface.

:data:`GAME_UI` satisfies :class:`poissonnier_tui.shell.game_ui.GameUI` for
:class:`~poissonnier_tui.games.poissonnier.ui.snapshot.TableSnapshot`; the
shell finds it through the registry (``GameEntry.ui`` names this package,
whose ``__init__`` exports it). The screens are imported on first use, so
reading a view does not load them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from net.game import Agent, Wire
from poissonnier_tui.games.poissonnier.ui.autoplay import autoplay_move, fallback_move
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.seats import SeatLabel

if TYPE_CHECKING:
    from textual.screen import Screen

    from poissonnier_tui.hosting.replay import Replay


class PoissonnierUI:
    """Le Poissonnier's table, results and replay screens, help and autoplay (see
    :class:`poissonnier_tui.shell.game_ui.GameUI` for each method's contract)."""

    name: Final = "poissonnier"
    title: Final = "Le Poissonnier"
    table_css: Final = (Path(__file__).parent / "screens" / "table.tcss",)
    """The table screen's stylesheet (``TableScreen.CSS_PATH``), for the app to load up
    front (:attr:`poissonnier_tui.shell.game_ui.GameUI` ``table_css``)."""

    def read(
        self,
        view: Mapping[str, Any],
        seats: tuple[SeatLabel, ...],
        rev: int,
        deadline: float | None = None,
    ) -> TableSnapshot:
        """The snapshot of ``view`` (shape: ``rules/view.py``) with the lobby's ``seats``
        and the step's ``deadline`` (``time.monotonic()``; ``None``: no time limit)."""
        return TableSnapshot(view, seats, rev, deadline)

    def table_screen(self, snapshot: TableSnapshot, *, bot_plays: bool = False) -> Screen[None]:
        """The table screen; a bot playing the seat gets no toasts for offers (§4)."""
        from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen

        screen = TableScreen()
        screen.announce_offers = not bot_plays
        screen.snapshot = snapshot
        return screen

    def show(self, screen: Screen[None], snapshot: TableSnapshot) -> None:
        """Hand ``snapshot`` to the table screen (its widgets follow)."""
        from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen

        if not isinstance(screen, TableScreen):
            raise TypeError(f"not Le Poissonnier's table screen: {screen!r}")
        screen.snapshot = snapshot

    def results_screen(self, snapshot: TableSnapshot) -> Screen[None]:
        """The scores and the winner (RULES.md §8)."""
        from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen

        return ResultsScreen(snapshot)

    def replay_screen(self, replay: Replay, *, start: int = 0) -> Screen[None]:
        """The replay viewer, at step ``start``."""
        from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen

        return ReplayScreen(replay, start=start)

    def help(self, lang: str = "en") -> str:
        """The rules in short and the table's keys (``help.md``, ``help.fr.md``)."""
        from poissonnier_tui.shell.screens.help import help_text

        return help_text(lang, "poissonnier_tui.games.poissonnier.ui")

    def autoplay_move(self, bot: Agent, snapshot: TableSnapshot) -> Wire | None:
        """See :func:`poissonnier_tui.games.poissonnier.ui.autoplay.autoplay_move`."""
        return autoplay_move(bot, snapshot)

    def fallback_move(self, snapshot: TableSnapshot) -> Wire | None:
        """Ready, decline an offer made to this seat, or end the turn."""
        return fallback_move(snapshot)

    def refusal(self, code: str, params: Mapping[str, str | int] | None, message: str) -> str:
        """A refused move in the player's language (see
        :func:`poissonnier_tui.games.poissonnier.ui.refusals.refusal_text`); the
        shell passes an :class:`net.messages.ErrorReply`'s code, params and message."""
        from poissonnier_tui.games.poissonnier.ui.refusals import refusal_text

        return refusal_text(code, params, message)


GAME_UI: Final = PoissonnierUI()
"""Le Poissonnier's :class:`~poissonnier_tui.shell.game_ui.GameUI`."""
