"""The table's public log, as readable sentences with player names.

Each view carries the last 40 public events and the total count so far
(``log`` and ``log_size``), so the widget can tell which events it has not
shown yet even when views are skipped. Sentences come from
:func:`poissonnier_tui.games.poissonnier.ui.describe.event_text`. The sentences are kept, so a
resized pane wraps them all again to its new width.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widgets import RichLog

from poissonnier_tui.games.poissonnier.ui.describe import event_text, who
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import _


class GameLog(RichLog):
    """A :class:`RichLog` that appends the events of each new view once."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; events come from ``view["log"]``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=20, max_lines=500)
        self.shown = 0
        """Events written so far, counted over the whole game (``log_size`` scale)."""
        self._texts: list[Text] = []  # what was written, to wrap again at a new width
        self._wrapped_at = 0
        self._away: frozenset[int] | None = None  # seats offline at the last snapshot

    def _add(self, text: Text) -> None:
        self._texts = [*self._texts[-(self.max_lines or 500) + 1 :], text]
        self.write(text)

    def add_chat(self, text: Text) -> None:
        """Write a chat message among the events, where it was said (shell/table_chat.py)."""
        self._add(text)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at the new width (RichLog keeps lines as first wrapped)."""
        width = event.size.width
        if width == self._wrapped_at:
            self.scroll_end(animate=False)  # another height: keep the newest line in sight
            return
        self._wrapped_at = width
        self.clear()
        for text in self._texts:
            self.write(text)

    def on_mount(self) -> None:
        """Title the pane."""
        self.border_title = _("Log")

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Write the events this log has not shown yet."""
        if snap is None:
            return
        events = list(snap.view.get("log", []))
        size = int(snap.view.get("log_size", len(events)))
        first = size - len(events)  # global index of events[0]
        if self.shown < first:
            self._add(Text("…", style="dim"))  # more happened than one view carries
            self.shown = first
        for event in events[self.shown - first :]:
            text = event_text(snap, event)
            if text is not None:
                # Rich Text (not Textual Content) so that RichLog wraps long lines; no
                # emoji codes (a name such as ":fish:" stays as typed).
                self._add(Text.from_markup(text, emoji=False))
        self.shown = size
        self._presence(snap)

    def _presence(self, snap: TableSnapshot) -> None:
        """A line when a player goes offline or comes back (the lobby's seats say so)."""
        away = frozenset(
            seat
            for seat in range(snap.players)
            if snap.label(seat).kind == "human" and not snap.label(seat).connected
        )
        before, self._away = self._away, away
        if before is None or snap.over:
            return  # the first snapshot: nothing changed yet
        for seat in sorted(away - before):
            line = _("{name} went offline; the table waits, then plays for them (R6).")
            self._add(Text.from_markup(line.format(name=who(snap, seat)), style="dim", emoji=False))
        for seat in sorted(before - away):
            if seat != snap.me:
                back = _("{name} is back.").format(name=who(snap, seat))
                self._add(Text.from_markup(back, emoji=False))
