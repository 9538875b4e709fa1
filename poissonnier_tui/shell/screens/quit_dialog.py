"""Confirmation before leaving the table (``ctrl+q``).

Leaving a solo game ends it (its server lives in this app). Leaving a LAN
game keeps the seat for a reconnect with the seat's token; the table plays
its default moves for an absent player after a grace period (R6).
Dismissed with ``True`` to quit.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.screens.fields import translate_bindings


class QuitDialog(ModalScreen[bool]):
    """Asks "Leave the table?"; ``y`` leaves, ``n`` or Escape stays."""

    CSS_PATH = "quit_dialog.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "leave", N_("Leave")),
        Binding("n,escape", "stay", N_("Stay")),
    ]

    def __init__(self, detail: str) -> None:
        """Args: detail: what leaving means here (solo or LAN)."""
        super().__init__()
        self.detail = detail

    def compose(self) -> ComposeResult:
        """The question, what it means, two buttons."""
        with Vertical(id="dialog", classes="small") as box:
            box.border_title = _("Leave the table?")
            yield Static(self.detail)
            with Horizontal(classes="buttons"):
                yield Button(_("Leave (y)"), variant="error", id="leave")
                yield Button(_("Stay (n)"), variant="primary", id="stay")

    def on_mount(self) -> None:
        """Staying is the safe default; the keys in the player's language."""
        translate_bindings(self)
        self.query_one("#stay", Button).focus()

    @on(Button.Pressed, "#leave")
    def action_leave(self) -> None:
        """Quit the app."""
        self.dismiss(True)

    @on(Button.Pressed, "#stay")
    def action_stay(self) -> None:
        """Back to the game."""
        self.dismiss(False)
