"""The table chat for the app: what was said, and the chat line over the table.

``k`` opens :class:`~poissonnier_tui.shell.screens.chat.ChatScreen` over the
table (players and spectators alike); what it sends goes through the relay
(``net.chat``). Each message heard is kept (the last :data:`KEPT`) and handed
to the table screen if that screen shows chat (:class:`ShowsChat`), and to
the chat screen if it is open. The chat screen's module loads with the first
message heard or the first ``k`` (a table's start does without it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

from poissonnier_tui.i18n import _
from poissonnier_tui.shell.messages import ChatHeard
from poissonnier_tui.shell.table_app import TableApp

if TYPE_CHECKING:
    from poissonnier_tui.shell.screens.chat import ChatLine

KEPT: Final = 200
"""Messages kept for the chat screen."""


@runtime_checkable
class ShowsChat(Protocol):
    """A game's table screen that shows the chat (e.g. in its log)."""

    def show_chat(self, line: ChatLine) -> None:
        """Show one message said at the table."""


class TableChat(TableApp):
    """The app's side of the chat (a mixin of the app,
    :class:`~poissonnier_tui.shell.app.PoissonnierApp`)."""

    @property
    def heard(self) -> list[ChatLine]:
        """What was said at this table since we joined, oldest first."""
        kept: list[ChatLine] | None = getattr(self, "_heard", None)
        if kept is None:
            kept = []
            self._heard = kept
        return kept

    def on_chat_heard(self, event: ChatHeard) -> None:
        """Keep the message and show it on the table and the chat screen."""
        from poissonnier_tui.shell.screens.chat import ChatLine, ChatScreen

        line = ChatLine(event.seat, event.name, event.text)
        heard = self.heard
        heard.append(line)
        del heard[:-KEPT]
        if isinstance(self._table, ShowsChat):
            self._table.show_chat(line)
        if isinstance(self.screen, ChatScreen):
            self.screen.add(line)

    def action_chat(self) -> None:
        """``k``: open the chat line over the table (nothing before joining)."""
        from poissonnier_tui.shell.screens.chat import ChatScreen

        if self._table is None or isinstance(self.screen, ChatScreen):
            return

        def send(text: str | None) -> None:
            if text and not self.relay.say(text):
                self.notify(_("Not connected: the message was not sent."), severity="warning")

        self.push_screen(ChatScreen(self.heard), send)
