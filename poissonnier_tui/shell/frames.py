"""One frame for a move and the table's answer to it.

Textual draws at most one frame per 1/60 s, and after a frame drawn at once
(the screen had been still) the next may wait up to two of those periods. A
key that sends a move often changes something on the spot as well (``t`` then
``1``: the prompt goes, the footer's keys change) and the table's answer comes
a few milliseconds later over loopback. Drawn apart, the local change takes a
frame and the answer — what the player waits for — waits up to 33 ms for the
next one.

:class:`AnswerFrame` holds the app's drawing from the moment a screen sends a
move (:func:`hold_for_answer`, called before the move is posted) until the
table's answer has been read — a view, a refusal, the connection lost — or
:data:`ANSWER_WAIT` has passed, whichever comes first: the key's own change
and the answer are drawn in the same frame, and a slow table delays the key's
own change by two frame periods (33 ms) at most.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any, Final

from textual.app import App
from textual.timer import Timer

from net.heap import settle_heap

ANSWER_WAIT: Final = 2 / 60
"""Seconds the drawing waits for the table's answer at most: two frame periods, the
longest Textual may make a frame wait after another. An answer slower than that (a
busy machine, a far table) lets the key's own change be drawn alone, and then itself
waits for the frame after it: 50-67 ms after the key instead of when it came."""


class AnswerFrame:
    """The app's drawing held while a move's answer is awaited (see the module).

    Args:
        app: the app whose drawing is held (``App.batch_update``).
    """

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._batch: ExitStack | None = None
        self._timer: Timer | None = None
        self.holds = 0
        """Moves whose answer was awaited so far (tests count them)."""

    @property
    def held(self) -> bool:
        """The drawing waits for an answer now."""
        return self._batch is not None

    def hold(self) -> None:
        """A move is about to go: hold the drawing until :meth:`release`, at most
        :data:`ANSWER_WAIT` seconds (a second move meanwhile does not extend it)."""
        if self._batch is not None or not self._app.is_running:
            return
        self.holds += 1
        batch = ExitStack()
        batch.enter_context(self._app.batch_update())
        self._batch = batch
        self._timer = self._app.set_timer(ANSWER_WAIT, self.release, name="answer frame")

    def release(self) -> None:
        """The answer is in (or it is late): draw what changed. Safe to call at any time."""
        batch, self._batch = self._batch, None
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.stop()
        if batch is None:
            return
        batch.close()
        if self._app.screen_stack:
            self._app.screen.check_idle()  # the screen draws its changes on its next idle


def hold_for_answer(app: App[Any]) -> None:
    """Hold ``app``'s drawing for the answer to a move about to be sent, if the app
    keeps an :class:`AnswerFrame` (as ``answer_frame``); otherwise nothing."""
    frame = getattr(app, "answer_frame", None)
    if isinstance(frame, AnswerFrame):
        frame.hold()


_settled = False


def settle_heap_once() -> None:
    """The first time a table is drawn in this process: collect once, then leave
    everything alive out of later collections' walks (:func:`net.heap.settle_heap`).

    The app's start-up builds a large, long-lived heap (Textual, the screens, in
    solo play the table server and its bots) that no full collection has walked
    yet; the first one came a few keys into the game and stalled that key's frame
    by ~20 ms. Here it comes once, at the table screen's first still moment after
    it is drawn (``call_after_refresh``), and later collections walk only what was
    made after it. Objects of this first table that later form garbage cycles stay
    (see :mod:`net.heap`): once per process, so at most one table's worth.
    """
    global _settled
    if not _settled:
        _settled = True
        settle_heap()
