"""Go Fish's screens behind the shell's game-screen interface.

:data:`GAME_UI` satisfies :class:`poissonnier_tui.shell.game_ui.GameUI` for
:class:`~.reader.GoFishSnapshot`; the shell finds it through the registry
(``GameEntry.ui`` names this package). The screens are imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from net.game import Agent, Wire
from poissonnier_tui.games.gofish.entry import fallback_from_view
from poissonnier_tui.games.gofish.ui.reader import GoFishSnapshot
from poissonnier_tui.i18n import _
from poissonnier_tui.shell.seats import SeatLabel

if TYPE_CHECKING:
    from textual.screen import Screen

    from poissonnier_tui.hosting.replay import Replay


class GoFishUI:
    """Go Fish's table, results and replay screens, help and autoplay (see
    :class:`poissonnier_tui.shell.game_ui.GameUI` for each method's contract)."""

    name: Final = "gofish"
    table_css: Final = (Path(__file__).with_name("gofish.tcss"),)
    """The table screen's stylesheet (``BoardScreen.CSS_PATH``), for the app to load up
    front (:attr:`poissonnier_tui.shell.game_ui.GameUI` ``table_css``)."""

    @property
    def title(self) -> str:
        """The game's name in the player's language (« la Pêche » in French)."""
        return _("Go Fish")

    def read(
        self,
        view: Mapping[str, Any],
        seats: tuple[SeatLabel, ...],
        rev: int,
        deadline: float | None = None,
    ) -> GoFishSnapshot:
        """The snapshot of ``view`` (shape: ``rules/view.py``) with the lobby's ``seats``.

        Raises:
            KeyError, ValueError: not a Go Fish view.
        """
        return GoFishSnapshot(view, seats, rev, deadline)

    def table_screen(self, snapshot: GoFishSnapshot, *, bot_plays: bool = False) -> Screen[None]:
        """The table screen (nothing there alerts a person, so ``bot_plays`` changes nothing)."""
        from poissonnier_tui.games.gofish.ui.screens import TableScreen

        return TableScreen(snapshot)

    def show(self, screen: Screen[None], snapshot: GoFishSnapshot) -> None:
        """Hand ``snapshot`` to the table screen.

        Raises:
            TypeError: ``screen`` is not Go Fish's table screen.
        """
        from poissonnier_tui.games.gofish.ui.screens import TableScreen

        if not isinstance(screen, TableScreen):
            raise TypeError(f"not Go Fish's table screen: {screen!r}")
        screen.show(snapshot)

    def results_screen(self, snapshot: GoFishSnapshot) -> Screen[None]:
        """Books per player and the winners (docs/GOFISH.md §5, G3)."""
        from poissonnier_tui.games.gofish.ui.screens import ResultsScreen

        return ResultsScreen(snapshot)

    def replay_screen(self, replay: Replay, *, start: int = 0) -> Screen[None]:
        """The replay viewer, at step ``start``."""
        from poissonnier_tui.games.gofish.ui.screens import ReplayScreen

        return ReplayScreen(replay, start=start)

    def help(self, lang: str = "en") -> str:
        """The rules in short and the keys (``help.md``, ``help.fr.md``)."""
        from poissonnier_tui.shell.screens.help import help_text

        return help_text(lang, "poissonnier_tui.games.gofish.ui")

    def autoplay_move(self, bot: Agent, snapshot: GoFishSnapshot) -> Wire | None:
        """The bot's ask for this seat: its view and legal asks only; ``None`` when not
        this seat's turn."""
        if not snapshot.my_turn or not snapshot.legal:
            return None
        return bot.act(dict(snapshot.view), [dict(a) for a in snapshot.legal])

    def fallback_move(self, snapshot: GoFishSnapshot) -> Wire | None:
        """The first legal ask (always legal while this seat is waited on)."""
        return fallback_from_view(snapshot.view)


GAME_UI: Final = GoFishUI()
"""Go Fish's :class:`~poissonnier_tui.shell.game_ui.GameUI`."""
