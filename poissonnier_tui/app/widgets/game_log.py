"""The table's public log, as readable sentences with player names.

Each view carries the last 40 public events and the total count so far
(``log`` and ``log_size``), so the widget can tell which events it has not
shown yet even when views are skipped. Sentences come from
:func:`poissonnier_tui.app.describe.event_text`.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import RichLog

from poissonnier_tui.app.describe import event_text
from poissonnier_tui.app.snapshot import TableSnapshot


class GameLog(RichLog):
    """A :class:`RichLog` that appends the events of each new view once."""

    snapshot: reactive[TableSnapshot | None] = reactive(None)
    """The table; events come from ``view["log"]``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=20, max_lines=500)
        self.shown = 0
        """Events written so far, counted over the whole game (``log_size`` scale)."""

    def on_mount(self) -> None:
        """Title the pane."""
        self.border_title = "Log"

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Write the events this log has not shown yet."""
        if snap is None:
            return
        events = list(snap.view.get("log", []))
        size = int(snap.view.get("log_size", len(events)))
        first = size - len(events)  # global index of events[0]
        if self.shown < first:
            self.write(Text("…", style="dim"))  # more happened than one view carries
            self.shown = first
        for event in events[self.shown - first :]:
            text = event_text(snap, event)
            if text is not None:
                # Rich Text (not Textual Content) so that RichLog wraps long lines.
                self.write(Text.from_markup(text))
        self.shown = size
