"""The status line: what the game is waiting for, and from whom. Never blank.

It reads the view's ``waiting_on`` and phase through
:func:`poissonnier_tui.games.poissonnier.ui.describe.status_text` ("Fill step: … — waiting for
you and Bot 2", "Bot 1 is serving…", "Your turn: …", "Game over…"). A
pending two-key command (``t`` then a crate number, ``s`` then a client)
takes its place until it is completed or cancelled. While the game waits for
someone else a spinner turns, so a quiet table never looks frozen.
"""

from __future__ import annotations

import math
import time

from textual.markup import escape
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.describe import status_text
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import Drawn
from poissonnier_tui.i18n import _

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
"""Frames of the waiting spinner."""


class StatusLine(Static):
    """One or two lines of status; the screen sets :attr:`snapshot` and :attr:`prompt`."""

    # Not repainted by themselves: each change redraws only if the sentence changed
    # (widgets/redraw.py), and lays the screen out only if its height did.
    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table, or ``None`` before the first view."""
    prompt: reactive[str | None] = reactive(None, repaint=False)
    """A pending two-key command's question, shown instead of the game status."""
    offer: reactive[int | None] = reactive(None, repaint=False)
    """The id of the offer made to this player that the answer keys act on."""
    drafting: reactive[dict[int, float]] = reactive(dict, repaint=False)
    """Seats drafting an offer -> ``time.monotonic()`` when each stops holding the table
    (net/drafts.py), shown with a countdown."""
    frame: reactive[int] = reactive(0, repaint=False)
    """The spinner's current frame."""

    _timer: Timer | None = None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn = Drawn()
        """What the line shows now (see :mod:`.redraw`)."""

    def on_mount(self) -> None:
        """Start the spinner clock, paused until the game waits for someone else."""
        self._timer = self.set_interval(0.12, self._tick, pause=True)
        self.set_interval(1.0, self._tick_countdown)
        # The spinner, a two-key command, the offer the keys answer, who drafts: redrawn.
        for name in ("frame", "prompt", "offer", "drafting"):
            self.watch(self, name, lambda _value: self.redraw(), init=False)
        self.watch_snapshot(self.snapshot)

    def redraw(self) -> None:
        """Repaint if the sentence changed (and lay out if its height did)."""
        if self.is_attached:
            self.drawn.show(self, self.render())

    def _tick_countdown(self) -> None:
        """Redraw once a second while a time limit runs (the spinner may be still)."""
        if (self.snapshot is not None and self.snapshot.deadline is not None) or self.drafting:
            self.redraw()

    def _tick(self) -> None:
        """Advance the spinner one frame."""
        self.frame = (self.frame + 1) % len(SPINNER)


    @property
    def waiting_for_others(self) -> bool:
        """The game waits only on other seats (the spinner turns)."""
        snap = self.snapshot
        if snap is None:
            return True
        return not snap.over and bool(snap.waiting_on) and snap.me not in snap.waiting_on

    def _sync_timer(self) -> None:
        """Run the spinner only while the game waits on someone else."""
        if self._timer is None:
            return
        if self.waiting_for_others:
            self._timer.resume()
        else:
            self._timer.pause()

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Spin only while others are deciding; mark the screen on this player's turn."""
        self._sync_timer()
        if not self.is_attached:
            return  # not on a screen yet: mounting shows the snapshot
        mine = snap is not None and snap.my_turn and snap.phase == "serve"
        self.screen.set_class(mine, "-my-turn")
        self.redraw()

    def render(self) -> str:
        """The status sentence, with the spinner in front while waiting on others, a
        badge on your serving turn, and the seconds left when the table limits the
        step (R6)."""
        face = SPINNER[self.frame] if self.waiting_for_others else "●"
        spin = f"[$text-accent]{face}[/] "
        snap = self.snapshot
        badge = ""
        if snap is not None and snap.my_turn and snap.phase == "serve":
            badge = _("[b reverse $accent] YOUR TURN [/] ")
        status = status_text(self.snapshot, self.prompt, self.offer)
        return badge + spin + status + self.countdown() + self.draft_note()

    def draft_note(self) -> str:
        """``"  ✎ Ana is preparing an offer… 17 s"`` for each seat drafting, else ``""``."""
        snap = self.snapshot
        if snap is None or not self.drafting:
            return ""
        now = time.monotonic()
        notes = []
        for seat, until in sorted(self.drafting.items()):
            left = math.ceil(until - now)
            if left <= 0:
                continue
            if seat == snap.me:
                text = _("You are preparing an offer… {seconds} s").format(seconds=left)
            else:
                text = _("{name} is preparing an offer… {seconds} s").format(
                    name=escape(snap.name(seat)), seconds=left
                )
            notes.append("  [i]✎ " + text + "[/i]")
        return "".join(notes)

    def countdown(self) -> str:
        """``"  ⏱ 12 s left"`` while the table's time limit on the step runs, else ``""``."""
        snap = self.snapshot
        if snap is None or snap.deadline is None or snap.over:
            return ""
        left = max(0, math.ceil(snap.deadline - time.monotonic()))
        return "  [b]⏱ " + _("{seconds} s left").format(seconds=left) + "[/b]"
