"""The screen shown until the game starts: connecting, then the lobby's seats.

A spinner (``LoadingIndicator``) turns while the table is set up or reached;
then the seats fill in as players join (names, bots, who is connected). The
host (seat 0 of a LAN table) starts the game with Enter; a solo table starts
by itself. The host of a table in this process (``poissonnier host``) also
adds (``b``) and removes (``x``) bots, and picks the next bot's level (``l``).
If the table cannot be joined, the reason stays on screen with ``r`` to try
again.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, LoadingIndicator, Static

from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.screens.title_bar import TitleBar
from poissonnier_tui.shell.seats import SeatLabel, shown_name


class ConnectingScreen(Screen[None]):
    """Progress, the lobby, or the reason joining failed. The app sets the reactives."""

    CSS_PATH = "connecting.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "app.start_game", N_("Start the game")),
        Binding("b", "app.add_bot", N_("Add a bot")),
        Binding("l", "app.next_level", N_("Bot level")),
        Binding("x", "app.remove_bot", N_("Remove a bot")),
        Binding("r", "app.reconnect", N_("Try again")),
        Binding("c", "app.stop_reconnecting", N_("Stop reconnecting")),
    ]

    message: reactive[str] = reactive(N_("Setting up…"))
    """What is happening, in words (translated when shown: the default is only marked)."""
    failed: reactive[bool] = reactive(False)
    """Joining failed; :attr:`message` says why."""
    seats: reactive[tuple[SeatLabel, ...]] = reactive(())
    """The lobby's seats, once joined (the app data-binds its own ``seats`` to it)."""

    def __init__(self, game: str = "Le Poissonnier") -> None:
        """Args: game: the name of the game played at the table (its ``GameEntry.title``)."""
        super().__init__()
        self.game = game
        self.set_reactive(ConnectingScreen.message, _("Setting up…"))

    def compose(self) -> ComposeResult:
        """Title, spinner, message, seats."""
        translate_bindings(self)
        yield TitleBar()

        with Center(), Vertical(id="box"):
            tagline = _("a fish card game")
            yield Static(f"[b]{escape(self.game)}[/b]\n[dim]{escape(tagline)}[/]", id="title")
            yield LoadingIndicator(id="spinner")
            yield Static(id="message")
            yield Static(id="seats")
        yield Footer()

    _live = False
    """Set once mounted (``is_mounted`` is still false inside ``on_mount``)."""

    def on_mount(self) -> None:
        """Show the state set before mounting."""
        self._live = True
        self._show()

    def watch_message(self) -> None:
        """Repaint the message."""
        self._show()

    def watch_failed(self) -> None:
        """Stop the spinner on failure; the footer offers ``r``."""
        self._show()
        self.refresh_bindings()

    def watch_seats(self) -> None:
        """Repaint the seat list."""
        self._show()

    def _show(self) -> None:
        """Paint the spinner, the message and the seats (once mounted and attached)."""
        if not self._live or not self.is_attached or not self.app.is_running:
            return  # not shown yet, or the app is exiting (its shutdown removes our widgets)
        self.query_one("#spinner").display = not self.failed
        text = (
            _("[b $error]Could not join:[/] {reason}").format(reason=escape(_(self.message)))
            if self.failed
            else escape(_(self.message))
        )
        self.query_one("#message", Static).update(text)
        lines = []
        for i, seat in enumerate(self.seats):
            if seat.kind == "open":
                lines.append(f"  {i + 1}. [dim]" + _("open seat — waiting for a player") + "[/]")
            else:
                kind = " [dim]" + _("(bot)") + "[/]" if seat.kind == "bot" else ""
                away = "" if seat.connected else " [$warning]" + _("(disconnected)") + "[/]"
                lines.append(f"  {i + 1}. [b]{escape(shown_name(seat))}[/b]{kind}{away}")
        self.query_one("#seats", Static).update("\n".join(lines))
