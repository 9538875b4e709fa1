"""Time to answer: an offer waiting for its answer counts down, the same on every screen.

A game whose matches have offers that one seat makes and another must answer
(Le Poissonnier: proposals, RULES.md §4 and R25) lists them with
:meth:`TimedAnswers.awaiting_answers`. The table gives each offer
:attr:`net.drafts.DraftRules.answer_seconds` from the moment it first sees it
open; when that time is up, the table plays :meth:`TimedAnswers.lapse_action`
for the seat that made it (the offer is withdrawn), through the server's move
path like any default (``source="timeout"``: the log says the table played
it, for time). An answering seat that starts a draft (a counter, say) keeps
the offer open at least until its draft ends: the deadline only ever moves
later, so what every screen was shown stays true.

The deadlines travel in every ``view`` frame as ``answers_in_ms`` (offer id
and milliseconds left when the frame was sent; :class:`net.messages.View`),
built next to the view itself by the server, so a seat and a spectator
receive the same times and count down locally.

A game without :class:`TimedAnswers` has no offers to time; ``answer_seconds``
of 0 turns timing off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from net.game import Match, Wire
from net.turns import Submit

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Awaiting:
    """One offer waiting for its answer.

    Attributes:
        maker: The seat that made it (the table withdraws it for this seat).
        answerer: The seat that must answer it.
    """

    maker: int
    answerer: int


@runtime_checkable
class TimedAnswers(Protocol):
    """A match whose offers wait for an answer within the table's time (optional)."""

    def awaiting_answers(self) -> Mapping[int, Awaiting]:
        """The offers open now: offer id -> who made it and who must answer it."""
        ...

    def lapse_action(self, offer: int) -> Wire | None:
        """The move the table plays for the offer's maker once its time is up
        (e.g. withdraw it); ``None`` when there is nothing to play."""
        ...


class AnswerClock:
    """The deadlines of one table's offers, and the table's moves at them.

    Args:
        seconds: Time each offer gets (``DraftRules.answer_seconds``); 0 or
            less: no deadlines.
        match: Returns the table's current match (``None`` before it starts).
        submit: The server's move path (:data:`net.turns.Submit`).
        clock: The table's monotonic clock, in seconds.

    Every method is synchronous and called from the event loop under the
    server's lock; the moves it starts take the lock through ``submit``.
    """

    def __init__(
        self,
        seconds: float,
        match: Callable[[], Match | None],
        submit: Submit,
        clock: Callable[[], float],
    ) -> None:
        self._seconds = seconds
        self._match = match
        self._submit = submit
        self._clock = clock
        self._due: dict[int, float] = {}  # offer id -> clock time it is withdrawn
        self._who: dict[int, Awaiting] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # The last match seen, itself if it has offers to time: a protocol's
        # isinstance walks its members (≈ 3.5 µs), and this is read after every action.
        self._seen: tuple[Match | None, TimedAnswers | None] = (None, None)

    def _open(self) -> Mapping[int, Awaiting]:
        match = self._match()
        seen, timed = self._seen
        if match is not seen:
            timed = match if isinstance(match, TimedAnswers) else None
            self._seen = (match, timed)
        if self._seconds <= 0 or timed is None or match is None or match.is_over:
            return {}
        return timed.awaiting_answers()

    def update(self) -> None:
        """Re-read the open offers after a change: new ones get their full time,
        settled ones are forgotten."""
        awaiting = self._open()
        for offer in [o for o in self._due if o not in awaiting]:
            del self._due[offer]
            del self._who[offer]
            timer = self._timers.pop(offer, None)
            if timer is not None:
                timer.cancel()
        now = self._clock()
        for offer, who in awaiting.items():
            if offer not in self._due:
                self._due[offer] = now + self._seconds
                self._who[offer] = who
                self._arm(offer, now)

    def hold_for(self, seat: int, until: float) -> bool:
        """``seat`` drafts until ``until``: the offers it must answer stay open at least
        that long. Whether any deadline moved (the views must then be sent again)."""
        moved = False
        now = self._clock()
        for offer, who in self._who.items():
            if who.answerer == seat and self._due[offer] < until:
                self._due[offer] = until
                self._arm(offer, now)
                moved = True
        return moved

    def deadlines(self) -> dict[int, float]:
        """Open offer id -> clock time at which the table withdraws it."""
        return dict(self._due)

    def left_ms(self, now: float | None = None) -> list[tuple[int, int]]:
        """``(offer id, milliseconds left)`` for every timed offer, oldest first,
        counted from ``now`` (the table's clock; read it when ``None``)."""
        now = self._clock() if now is None else now
        return [(o, max(0, round((due - now) * 1000))) for o, due in sorted(self._due.items())]

    def close(self) -> None:
        """Stop every timer and pending move."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._tasks:
            task.cancel()

    def _arm(self, offer: int, now: float) -> None:
        old = self._timers.pop(offer, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._timers[offer] = loop.call_later(
            max(0.0, self._due[offer] - now), self._expire_soon, offer
        )

    def _expire_soon(self, offer: int) -> None:
        self._timers.pop(offer, None)
        task = asyncio.create_task(self._expire(offer), name=f"offer {offer} timed out")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _expire(self, offer: int) -> None:
        who = self._who.get(offer)
        if who is None:
            return

        def make() -> Wire | None:
            # Re-checked under the lock: answered, withdrawn or held longer meanwhile.
            due = self._due.get(offer)
            match = self._match()
            if due is None or not isinstance(match, TimedAnswers):
                return None
            now = self._clock()
            if now < due:  # a draft moved it later, or the loop fired a tick early
                self._arm(offer, now)
                return None
            if offer not in match.awaiting_answers():
                return None
            return match.lapse_action(offer)

        outcome = await self._submit(who.maker, make, "timeout")
        if outcome == "rejected":
            log.warning("Withdrawing offer %d at its time was refused; it stays open.", offer)
