"""The table chat: a line to type on, quick phrases of the market, what was said.

Opened over the table with one key (``k``); Escape returns. While it is open
it has the keyboard: no game key fires while a player types. Enter sends the
line (or the highlighted quick phrase) and returns to the table; a phrase
ending in "…" is put on the line to finish instead. Dismissed with the text
to send, or ``None``.

Messages are plain text (``net.chat`` cleaned them): shown without markup, so
"[b]" stays "[b]".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, RichLog, Static

from net.chat import CHAT_MAX
from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.screens.fields import translate_bindings

QUICK_PHRASES: Final = (
    N_("How much?"),
    N_("Too expensive!"),
    N_("Deal!"),
    N_("Anyone have …?"),
    N_("Thanks!"),
)
"""The market's common lines, one key away (marked for translation; shown translated)."""

TO_FINISH: Final = "…"
"""A quick phrase holding it is put on the line to finish, not sent."""


@dataclass(frozen=True)
class ChatLine:
    """One message as the table relayed it.

    Attributes:
        seat: the speaker's seat, ``None`` for a spectator.
        name: the speaker's name.
        text: what they said (plain text).
    """

    seat: int | None
    name: str
    text: str

    def rich(self) -> Text:
        """``Ana: How much?`` in a calm style; a spectator's name marked as such."""
        who = self.name if self.seat is not None else _("{name} (watching)").format(name=self.name)
        line = Text()
        line.append("» ", style="dim")
        line.append(who, style="bold")
        line.append(_(": "))  # French: " : " (a no-break space first)
        line.append(self.text, style="italic")
        return line


class ChatScreen(ModalScreen[str | None]):
    """The chat line over the table.

    Args:
        heard: what was said so far, oldest first (the newest are shown).
    """

    CSS_PATH = "chat.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back to the table")),
        Binding("down", "phrases", N_("Quick phrases"), show=False),
    ]

    def __init__(self, heard: Sequence[ChatLine] = ()) -> None:
        super().__init__()
        self._heard = list(heard)

    def compose(self) -> ComposeResult:
        """What was said, the line, the quick phrases."""
        translate_bindings(self)  # the footer in the current language
        with Vertical(id="dialog") as box:
            box.border_title = _("Table chat")
            yield RichLog(id="heard", wrap=True, markup=False, max_lines=200)
            yield Input(
                placeholder=_("Say something… (Enter sends, Esc returns)"),
                max_length=CHAT_MAX,
                id="line",
            )
            yield Static(_("Quick phrases (↓, then Enter):"), classes="hint")
            yield OptionList(*[_(p) for p in QUICK_PHRASES], id="phrases")

    def on_mount(self) -> None:
        """Show what was said; the line has the keyboard."""
        for line in self._heard[-50:]:
            self.add(line)
        self.query_one("#line", Input).focus()

    def add(self, line: ChatLine) -> None:
        """Show a message said while the chat is open."""
        self.query_one("#heard", RichLog).write(line.rich())

    @on(Input.Submitted, "#line")
    def _send_line(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.dismiss(text)

    @on(OptionList.OptionSelected, "#phrases")
    def _send_phrase(self, event: OptionList.OptionSelected) -> None:
        phrase = str(event.option.prompt)
        if TO_FINISH in phrase:
            line = self.query_one("#line", Input)
            line.value = phrase.replace(TO_FINISH, "").rstrip("?").rstrip() + " "
            line.cursor_position = len(line.value)
            line.focus()
            return
        self.dismiss(phrase)

    def action_phrases(self) -> None:
        """Move to the quick phrases."""
        phrases = self.query_one("#phrases", OptionList)
        phrases.focus()
        if phrases.highlighted is None:
            phrases.highlighted = 0

    def action_back(self) -> None:
        """Back to the table, nothing sent."""
        self.dismiss(None)
