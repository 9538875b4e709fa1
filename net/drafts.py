"""Time to deal: a person drafting a move holds the table's bots, within bounds.

A client says ``{type: "draft", on: true}`` when its player opens a dialog to
compose a move for others to answer (Le Poissonnier: the deal dialog), and
``{type: "draft", on: false}`` when it closes. While a seat drafts, no bot
is asked to move and no bot's move is applied, so the bot whose turn it is
cannot end it under the person's feet; the draft ends when the seat's move
is accepted, when it says so, when it leaves, or when its time is up.

Bounds (table options, :class:`DraftRules`): each draft lasts at most
``seconds``; a seat may start at most ``per_wait`` drafts while the table
waits on the same seats (a new turn, or a bot's answer, starts a new count);
an ``on`` while the seat already drafts starts a new draft (and counts), so
no seat holds the bots longer than ``per_wait × seconds`` on one wait.
Time limits of the game (R6 and the like) are not held: they keep running.

Every connection is told who drafts and for how long with
``{type: "drafting", seat: int, ends_in_ms: int | None}`` (``None``: the
draft ended), so every screen can count it down.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import ClassVar, Final

from net.game import Wire
from net.schema import BadMessage
from net.wording import worded

DRAFT_SECONDS: Final = 20.0
"""Longest one draft holds the bots, in seconds."""

DRAFTS_PER_WAIT: Final = 3
"""Drafts a seat may start while the table waits on the same seats."""

ANSWER_SECONDS: Final = 20.0
"""Longest an offer waits for its answer before the table withdraws it, in seconds
(``net/answers.py``; as long as a bot waits before it withdraws its own)."""

MOST_SECONDS: Final = 3600.0
"""Most seconds a table may set for a draft or an answer (``0`` turns either off)."""

MOST_DRAFTS_PER_WAIT: Final = 99
"""Most drafts per wait a table may allow (at least 1)."""


@dataclass(frozen=True)
class DraftRules:
    """A table's drafting bounds.

    Attributes:
        seconds: See :data:`DRAFT_SECONDS`; 0 turns drafting off (no hold).
        per_wait: See :data:`DRAFTS_PER_WAIT`.
        answer_seconds: See :data:`ANSWER_SECONDS`; 0: offers wait for their
            answer until they lapse (no countdown).
    """

    seconds: float = DRAFT_SECONDS
    per_wait: int = DRAFTS_PER_WAIT
    answer_seconds: float = ANSWER_SECONDS


@dataclass(frozen=True)
class DraftRequest:
    """A seat starts (``on``) or ends a draft. Wire: ``{type: "draft", on: bool}``."""

    TYPE: ClassVar[str] = "draft"
    on: bool

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "on": self.on}


@dataclass(frozen=True)
class Drafting:
    """Who drafts now. Wire: ``{type: "drafting", seat: int, ends_in_ms: int | None}``.

    Attributes:
        seat: The drafting seat.
        ends_in_ms: Milliseconds, from when the frame was sent, until the draft
            stops holding the bots; ``None``: the draft ended.
    """

    TYPE: ClassVar[str] = "drafting"
    seat: int
    ends_in_ms: int | None

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "seat": self.seat, "ends_in_ms": self.ends_in_ms}


class DraftHolds:
    """The drafts in progress at one table, and the bots' wait for them.

    Args:
        rules: The table's bounds.
        clock: The table's monotonic clock, in seconds.

    Synchronous methods are called from the event loop (the server holds its
    lock); :meth:`wait_clear` is awaited by bot drivers without the lock.
    """

    def __init__(self, rules: DraftRules, clock: Callable[[], float]) -> None:
        self.rules = rules
        self._clock = clock
        self._until: dict[int, float] = {}  # seat -> clock time its draft ends
        self._counts: dict[int, int] = {}  # seat -> drafts started during ``_wait_key``
        self._wait_key: Hashable = None
        self._changed = asyncio.Event()

    def start(self, seat: int, waiting: frozenset[int]) -> float:
        """``seat`` starts a draft while the table waits on ``waiting``; returns when it ends.

        Raises:
            BadMessage: ``draft_limit`` when drafting is off or the seat has
                started :attr:`DraftRules.per_wait` drafts during this wait (a
                start while drafting is one more).
        """
        if waiting != self._wait_key:
            self._wait_key, self._counts = waiting, {}
        if self.rules.seconds <= 0:
            raise BadMessage("draft_limit", *worded("drafts_off"))
        # A start while already drafting restarts the bound: it is a new draft, counted,
        # or a client repeating ``on`` would hold the bots for ever.
        if self._counts.get(seat, 0) >= self.rules.per_wait:
            raise BadMessage("draft_limit", *worded("drafts_used", n=self.rules.per_wait))
        self._counts[seat] = self._counts.get(seat, 0) + 1
        until = self._clock() + self.rules.seconds
        self._until[seat] = until
        self._wake()
        return until

    def moved_on(self, waiting: frozenset[int]) -> None:
        """The table now waits on ``waiting`` (called after every accepted move): a change
        starts a new count of drafts, so that waiting on the same seats again later (the
        same bot's next turn) is a new wait."""
        if waiting != self._wait_key:
            self._wait_key, self._counts = waiting, {}

    def end(self, seat: int) -> bool:
        """``seat``'s draft is over (sent, closed, left); whether it was drafting."""
        if self._until.pop(seat, None) is None:
            return False
        self._wake()
        return True

    def until_of(self, seat: int) -> float | None:
        """When ``seat``'s draft ends (it may have run out already), or ``None``."""
        return self._until.get(seat)

    def held_by(self, seat: int | None = None) -> dict[int, float]:
        """Drafts in progress by seats other than ``seat``: seat -> when each ends."""
        now = self._clock()
        return {s: u for s, u in self._until.items() if s != seat and u > now}

    async def wait_clear(self, seat: int) -> None:
        """Return once no other seat drafts (each draft ends by its bound at the latest)."""
        while True:
            held = self.held_by(seat)
            if not held:
                return
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), max(held.values()) - self._clock())

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()


def may_draft(match: object, seat: int) -> bool:
    """Whether ``seat`` may start a draft now: a match with a ``may_draft(seat)`` method
    says (Le Poissonnier: only in the serve step, where deals are made, RULES.md §4;
    Go Fish: never), any other match lets every seat.

    A draft tells everyone when it ends, and an accepted move of its seat ends it: in a
    step whose moves others do not see (RULES.md R15), that would tell them of each
    move. A game with such steps keeps drafts out of them here.
    """
    hook = getattr(match, "may_draft", None)
    return True if not callable(hook) else bool(hook(seat))
