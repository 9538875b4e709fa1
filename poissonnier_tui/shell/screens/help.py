"""The help screen: the game's help (its rules in short and its keys), then the shell's keys.

docs/ARCHITECTURE.md: help text lives in Markdown files next to the screens, not in code,
so it can be read and edited as a document. The shell's own part (keys at every
table, the LAN lobby, the host's keys) is ``help.md`` (``help.fr.md`` in French) in
the ``poissonnier_tui.shell`` package; the game's part comes from its
:meth:`~poissonnier_tui.shell.game_ui.GameUI.help`.
"""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer

from poissonnier_tui.i18n import N_
from poissonnier_tui.shell.screens.fields import translate_bindings

HELP_FILES: Final = {"en": "help.md", "fr": "help.fr.md"}
"""A help's file name in each language, in the package it belongs to (the shell's, or a
game's ``ui`` package)."""


def help_text(lang: str = "en", package: str = "poissonnier_tui.shell") -> str:
    """The Markdown help of ``package`` (the shell's by default; a game's UI package) in
    ``lang``, English when there is none in that language.

    Raises:
        FileNotFoundError: ``package`` has no English help file.
    """
    name = HELP_FILES.get(lang, HELP_FILES["en"])
    return files(package).joinpath(name).read_text(encoding="utf-8")


class HelpScreen(ModalScreen[None]):
    """The help in a scrolling pane; Escape, ``q``, ``?`` or F1 close it.

    Args:
        game_help: the game's help Markdown, shown first ("" before a game is known).
        lang: the language of the shell's part.
    """

    CSS_PATH = "help.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", N_("Close help"), priority=True),
    ]

    def __init__(self, game_help: str = "", *, lang: str = "en") -> None:
        super().__init__()
        self.text = (game_help.rstrip() + "\n\n" if game_help else "") + help_text(lang)
        """The whole Markdown document shown."""

    def compose(self) -> ComposeResult:
        """The Markdown document and the footer."""
        from textual.widgets import Markdown  # markdown-it and Pygments: only once help is asked

        translate_bindings(self)
        with VerticalScroll(id="help"):
            yield Markdown(self.text)
        yield Footer()

    def on_mount(self) -> None:
        """Focus the scroller so ↑↓ and PgUp/PgDn scroll the text."""
        self.query_one("#help").focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
