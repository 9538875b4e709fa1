"""The app's header: Textual's :class:`~textual.widgets.Header`, safe when the app closes.

Textual's header sets its title in a callback it schedules as it mounts. When
the app closes before that callback runs — a screen shown in the app's last
instant, e.g. the connecting screen of a table that said goodbye just as the
player quit — the header's title widget is already gone and the callback
raises ``NoMatches`` during the app's shutdown, which ends the program with a
traceback. :class:`TitleBar` draws exactly the same header; its callback finds
no title to update and does nothing.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.dom import NoScreen
from textual.events import Mount
from textual.widget import Widget
from textual.widgets import Header, Static


class TitleBar(Header):
    """Textual's header (the icon, the app's and screen's title and sub-title), whose
    title update tolerates an app torn down before it runs (see the module)."""

    def compose(self) -> ComposeResult:
        """Textual's header's parts, the icon disabled from the start when the app has no
        command palette (as the icon's ``on_mount`` does: then the change restyles it)."""
        for widget in super().compose():
            # Textual's HeaderIcon, known by its type name (like HeaderTitle below).
            if type(widget).__name__ == "HeaderIcon" and not self.app.ENABLE_COMMAND_PALETTE:
                widget.set_reactive(Widget.disabled, True)
            yield widget

    def _on_mount(self, event: Mount) -> None:
        """Follow the titles as Textual's header does (instead of its own handler)."""
        event.prevent_default()

        async def set_title() -> None:
            try:
                title = self.format_title()
            except NoScreen:  # not on a screen (any more)
                return
            # Textual's HeaderTitle is a Static, queried by its type name: none once removed.
            for widget in self.query("HeaderTitle").results(Static):
                widget.update(title)

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
