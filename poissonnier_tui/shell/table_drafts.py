"""Time to deal, for the app: our drafts told to the table, everyone's shown.

A game's screen posts :class:`~poissonnier_tui.shell.messages.DraftChosen`
when its player opens or closes a dialog composing a move others answer (an
offer); the app tells the table (``net.drafts``), whose bots then wait. The
table tells every connection who drafts and until when
(:class:`~poissonnier_tui.shell.messages.DraftHeard`): the app keeps it in
:attr:`TableDrafts.drafting` and hands it to the table screen if that screen
shows it (:class:`ShowsDrafts`).
"""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

from poissonnier_tui.shell.messages import DraftChosen, DraftHeard
from poissonnier_tui.shell.table_app import TableApp


@runtime_checkable
class ShowsDrafts(Protocol):
    """A game's table screen that shows who drafts a move, with a countdown."""

    def show_drafting(self, drafting: dict[int, float]) -> None:
        """``drafting``: seat -> ``time.monotonic()`` at which its draft stops holding."""


class TableDrafts(TableApp):
    """The app's side of drafts (a mixin of the app)."""

    @property
    def drafting(self) -> dict[int, float]:
        """Seats drafting now -> when (this machine's monotonic clock) each draft ends."""
        kept: dict[int, float] | None = getattr(self, "_drafting", None)
        if kept is None:
            kept = {}
            self._drafting = kept
        return kept

    def on_draft_chosen(self, event: DraftChosen) -> None:
        """Our player opened or closed an offer: tell the table (nothing if not connected)."""
        self.relay.draft(event.on)

    def on_draft_heard(self, event: DraftHeard) -> None:
        """Someone drafts, or stopped: keep it and show it."""
        drafting = self.drafting
        if event.ends_in_ms is None:
            drafting.pop(event.seat, None)
        else:
            drafting[event.seat] = time.monotonic() + event.ends_in_ms / 1000
        if isinstance(self._table, ShowsDrafts):
            self._table.show_drafting(dict(drafting))
