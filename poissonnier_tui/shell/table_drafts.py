"""Time to deal, for the app: our drafts told to the table, everyone's shown.

A game's screen posts :class:`~poissonnier_tui.shell.messages.DraftChosen`
when its player opens or closes a dialog composing a move others answer (an
offer); the app tells the table (``net.drafts``), whose bots then wait. The
table tells every connection who drafts and until when
(:class:`~poissonnier_tui.shell.messages.DraftHeard`): the app keeps it in
:attr:`TableDrafts.drafting` and hands it to the table screen if that screen
shows it (:class:`ShowsDrafts`).

Every view also says how long each offer waiting for its answer has before
the table withdraws it (``net/answers.py``, RULES.md R25): the app keeps the
deadlines in :attr:`TableDrafts.answer_due` and hands them to a screen that
counts them down (:class:`ShowsAnswerTimes`).
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


@runtime_checkable
class ShowsAnswerTimes(Protocol):
    """A game's table screen that counts down the offers waiting for an answer."""

    def show_answer_times(self, due: dict[int, float]) -> None:
        """``due``: offer id -> ``time.monotonic()`` at which the table withdraws it."""


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

    @property
    def answer_due(self) -> dict[int, float]:
        """Offers waiting for an answer -> when (this machine's monotonic clock) the
        table withdraws each, from the latest view."""
        kept: dict[int, float] | None = getattr(self, "_answer_due", None)
        return {} if kept is None else dict(kept)

    def heard_answer_times(self, answers_in_ms: tuple[tuple[int, int], ...]) -> None:
        """A view's offer times (``ViewReceived.answers_in_ms``): keep and show them."""
        now = time.monotonic()
        self._answer_due = {offer: now + ms / 1000 for offer, ms in answers_in_ms}
        if isinstance(self._table, ShowsAnswerTimes):
            self._table.show_answer_times(dict(self._answer_due))

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
