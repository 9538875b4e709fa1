"""The saved games, to pick one to replay.

Lists what :func:`~poissonnier_tui.hosting.persistence.list_games` finds in
the data folder in :func:`~poissonnier_tui.hosting.persistence.replay_order`:
the finished games newest first, then the ones not over, marked so and saying
whether they can be carried on. Files that are not logs and starts aborted
before the first move are not games and are not listed. Reading the logs
replays each one (R3), so it runs in a thread while the screen says so.

Enter (or a click) closes the screen with the chosen log's path; Escape with
``None``. The home screen turns the path into its ``ReplayChosen`` message.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from poissonnier_tui.hosting.persistence import GameSummary, list_games, replay_order
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.screens.fields import translate_bindings


def game_line(game: GameSummary) -> str:
    """One saved game as Textual markup, in two or three lines: when and who; the
    outcome and length; the log's problem, if any."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started)) if game.started else "?"
    lines = [f"[b]{when}[/]  {escape(', '.join(game.players) or '?')}"]
    if game.finished and game.winners:
        outcome = ngettext("winner: {names}", "winners: {names}", len(game.winners)).format(
            names=_(" and ").join(game.winners)
        )
        outcome = f"[b $success]{escape(outcome)}[/]"
    elif game.finished:
        outcome = escape(_("no winner"))
    else:
        resumable = _("can be resumed") if game.resumable else _("cannot be resumed")
        not_over = _("not over")
        outcome = f"[b $warning]{escape(not_over)}[/] ({escape(resumable)})"
    parts = []
    if game.turns is not None:
        parts.append(ngettext("{n} turn", "{n} turns", game.turns).format(n=game.turns))
    parts.append(ngettext("{n} move", "{n} moves", game.actions).format(n=game.actions))
    lines.append(f"    {outcome}  [dim]· {escape(', '.join(parts))}[/]")
    if game.problem:
        problem = _("problem: {problem}").format(problem=game.problem)
        lines.append(f"    [dim]{escape(problem)}[/]")
    return "\n".join(lines)


class SavedGamesScreen(Screen[Path | None]):
    """The saved games, finished ones first; Enter replays the highlighted one.

    Args:
        directory: the folder of logs (default: the data folder's ``games``).
    """

    CSS_PATH = "saved_games.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("enter", "replay", N_("Replay"), show=True, priority=False),
    ]

    games: reactive[list[GameSummary] | None] = reactive(None, always_update=True)
    """The games listed, in order; ``None`` while the logs are being read."""

    def __init__(self, directory: Path | None = None) -> None:
        super().__init__()
        self.directory = directory

    def compose(self) -> ComposeResult:
        """The title, the list (or a sentence while reading / when empty), the footer."""
        translate_bindings(self)
        with Vertical(id="box"):
            yield Static(_("Saved games"), id="title")
            yield Static(_("Enter: replay the highlighted game · Esc: back"), id="keys")
            yield Static(_("Reading the saved games…"), id="empty")
            yield OptionList(id="games")
        yield Footer()

    def on_mount(self) -> None:
        """Read the logs in a thread."""
        self.query_one("#games", OptionList).display = False
        self._read()

    @work(thread=True, exclusive=True)
    def _read(self) -> None:
        games = replay_order(list_games(self.directory))
        self.app.call_from_thread(setattr, self, "games", games)

    def watch_games(self, games: list[GameSummary] | None) -> None:
        """Show the list, or say that there is nothing to replay."""
        if games is None or not self.is_mounted:
            return
        options = self.query_one("#games", OptionList)
        options.clear_options()
        options.add_options(Option(game_line(g), id=str(i)) for i, g in enumerate(games))
        options.display = bool(games)
        empty = self.query_one("#empty", Static)
        empty.update(_("No saved games yet: play one first."))
        empty.display = not games
        if games:
            options.highlighted = 0
            options.focus()

    @on(OptionList.OptionSelected, "#games")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(int(event.option.id or 0))

    def action_replay(self) -> None:
        """Replay the highlighted game."""
        highlighted = self.query_one("#games", OptionList).highlighted
        if highlighted is not None:
            self._choose(highlighted)

    def _choose(self, index: int) -> None:
        if self.games and 0 <= index < len(self.games):
            self.dismiss(self.games[index].path)

    def action_back(self) -> None:
        """Back without choosing."""
        self.dismiss(None)
