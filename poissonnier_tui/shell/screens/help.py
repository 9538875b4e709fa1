"""The help screen: the rules in short and every key, from ``help.md``.

docs/ARCHITECTURE.md: help text lives in a Markdown file next to the app, not in code,
so it can be read and edited as a document.
"""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

HELP_FILE = "help.md"
"""The help text, in the ``poissonnier_tui.shell`` package."""


def help_text() -> str:
    """The contents of ``help.md``."""
    return files("poissonnier_tui.shell").joinpath(HELP_FILE).read_text(encoding="utf-8")


class HelpScreen(ModalScreen[None]):
    """``help.md`` in a scrolling pane; Escape, ``q``, ``?`` or F1 close it."""

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close help", priority=True),
    ]

    def compose(self) -> ComposeResult:
        """The Markdown document and the footer."""
        with VerticalScroll(id="help"):
            yield Markdown(help_text())
        yield Footer()

    def on_mount(self) -> None:
        """Focus the scroller so ↑↓ and PgUp/PgDn scroll the text."""
        self.query_one("#help").focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
