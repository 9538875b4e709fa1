"""Moves the table makes by itself: bots' turns, and defaults for seats out of time.

:class:`TurnKeeper` watches ``waiting_on()`` after every change. For a bot
seat it asks the bot (in a worker thread, or a worker process: see
:mod:`net.thinking`) after a delay; for any seat it arms
a deadline from the turn timeout and, for a disconnected human, the absence
grace; at the deadline it applies ``Match.timeout_action(seat)``. A bot on a
seat in ``volunteers()`` (not waited on, but free to act, e.g. to offer a
deal) is asked once per change, with no deadline and no retries. It never
touches the match itself: each move goes through the server's ``submit``,
the same path as a client's action (checks, log hook, ack, broadcast).

A bot thinks on a snapshot while the table moves on. Its answer is dropped
if its own seat moved meanwhile (a timeout played for it); otherwise the
current match judges it like any client action, and a refusal caused by a
state change just means asking again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Literal

from net.drafts import DraftHolds
from net.game import Agent, Match, Wire
from net.pacing import Pacer, loop_pacer
from net.table import Table
from net.thinking import Question, Thinker, ThreadThinker

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StepLimit:
    """A time limit on a whole step of the game, shared by every seat in it.

    It counts from the moment any seat was first waited on in ``step``,
    whatever the seats do meanwhile: moves, taking back a ready declaration or
    reconnecting never give more time (RULES.md R6 limits the step, not each
    move). Once it has run out, a seat still waited on in the step gets its
    default action after each of its moves.

    Attributes:
        step: Names the step; equal values are the same step (e.g. ``("fill", turn)``).
        seconds: Length of the step's limit.
    """

    step: Hashable
    seconds: float


TimeLimit = Callable[[Match, int], float | StepLimit | None]
"""``limit(match, seat)`` in the match's current state: seconds ``seat`` may be
waited on (counted afresh after each of its moves), a :class:`StepLimit` on the
whole current step, or ``None`` for no limit now."""

Outcome = Literal["accepted", "rejected", "skipped"]
"""What became of a submitted move: applied; refused by checks or the game;
or not attempted because ``make_action`` returned ``None`` (stale or not due)."""

Submit = Callable[[int, Callable[[], Wire | None], str], Awaitable[Outcome]]
"""``submit(seat, make_action, source)``: the server's move path.

It takes the table lock, calls ``make_action()`` under it (so the action is
built from, and checked against, the current state), and applies the result
unless it is ``None``. ``source`` is a label for logs (``"bot"``, ``"timeout"``).
"""

BOT_RETRIES = 3
"""Times a bot is asked about one state before the table plays its default."""
BOT_PATIENCE = 20.0
"""Seconds a bot that passed (waiting for another seat) is left before it is
asked again even if nothing changed, so it can give up, e.g. withdraw an
offer nobody answers. Long enough for a person to read an offer and write a
counter; bots answer each other at once, so it only ever waits on people."""


class TurnKeeper:
    """Drives bot seats and applies timeout defaults for one table.

    Args:
        table: The table (read under ``lock`` only).
        lock: The lock that serialises every change to ``table``.
        submit: The server's move path, see :data:`Submit`.
        bot_delay: Seconds to wait before asking a bot, so humans can follow.
        turn_timeout: Seconds a seat may be waited on before its default
            action is played; ``None`` for no limit; or a :data:`TimeLimit`
            asked for the seat's limit in the current state.
        absent_grace: Seconds a waited-on human may be disconnected before
            its default action is played; ``None`` to wait for them forever.
        resume_grace: Seconds instead of ``absent_grace`` for the seats
            :meth:`resumed` names (a table rebuilt after a crash: its players
            need time to find it again), until each first reconnects.
            ``None``: ``absent_grace`` for them too.
        bot_retries: Times a bot may fail (raise, be refused, or pass while no
            other seat is waited on) on one state before its default action
            is played. A pass while another seat must also decide just waits
            for the next change, or ``bot_patience`` seconds.
        bot_patience: Seconds before a passing bot is asked again unprompted.
        clock: Monotonic clock in seconds; must match the table's.
        holds: Drafts in progress (``net/drafts.py``): while another seat
            drafts, bots are not asked and their moves are not applied.
        thinker: Where bots think (:mod:`net.thinking`); default a worker
            thread per decision.
        pacer: The fair queue bots' work on the loop goes through
            (:mod:`net.pacing`): building a bot's view and legal actions, and
            applying its answer. Default: the running loop's own
            (:func:`net.pacing.loop_pacer`), shared by every table of the process.

    All methods except the tasks it starts are synchronous and must be called
    from the event loop while holding ``lock``.
    """

    def __init__(
        self,
        table: Table,
        lock: asyncio.Lock,
        submit: Submit,
        *,
        bot_delay: float,
        turn_timeout: float | TimeLimit | None,
        absent_grace: float | None,
        resume_grace: float | None = None,
        bot_retries: int = BOT_RETRIES,
        bot_patience: float = BOT_PATIENCE,
        clock: Callable[[], float] = time.monotonic,
        holds: DraftHolds | None = None,
        thinker: Thinker | None = None,
        pacer: Pacer | None = None,
    ) -> None:
        self._holds = holds
        self._pacer = pacer
        self._thinker: Thinker = thinker or ThreadThinker()
        self._asked: dict[int, Agent] = {}  # id -> every agent asked, to forget at close
        self._table = table
        self._lock = lock
        self._submit = submit
        self._bot_delay = bot_delay
        self._turn_timeout = turn_timeout
        self._absent_grace = absent_grace
        self._resume_grace = resume_grace
        self._resumed: set[int] = set()  # seats away since a resume, not yet back
        self._bot_retries = bot_retries
        self._bot_patience = bot_patience
        self._clock = clock
        self._since: dict[int, float] = {}  # seat -> when its current wait began
        self._steps: dict[Hashable, float] = {}  # StepLimit.step -> when it began
        self._fired: set[int] = set()  # seats whose current wait already timed out
        self._timers: dict[int, tuple[float, asyncio.TimerHandle]] = {}  # seat -> (due, timer)
        self._bots: dict[int, asyncio.Task[None]] = {}
        self._driving: dict[int, Agent] = {}  # seat -> the agent its driver asks
        self._volunteering: dict[int, asyncio.Task[None]] = {}  # seat -> its unasked chance
        self._thinking: dict[int, asyncio.Lock] = {}  # seat -> held while its bot thinks
        self._expiries: set[asyncio.Task[None]] = set()
        self._change = asyncio.Event()
        self._closed = False

    def note_action(self, seat: int) -> None:
        """``seat`` just moved: its wait, if it is still waited on, starts afresh."""
        self._since.pop(seat, None)
        self._fired.discard(seat)

    def resumed(self, seats: Iterable[int]) -> None:
        """These seats' players are away because the table was rebuilt: until each
        reconnects, it gets ``resume_grace`` rather than ``absent_grace``."""
        self._resumed.update(seats)

    def update(self) -> None:
        """Re-read who is waited on; start bots and (re)arm deadlines. Call after any change."""
        if self._closed:
            return
        self._resumed = {s for s in self._resumed if self._table.absent_since(s) is not None}
        waiting = self._table.waiting_on()
        now = self._clock()
        for seat in list(self._since):
            if seat not in waiting:
                del self._since[seat]
                self._fired.discard(seat)
        for seat in list(self._timers):
            if seat not in waiting:
                self._timers.pop(seat)[1].cancel()
        steps: set[Hashable] = set()
        for seat in waiting:
            limit = self._limit(seat)
            if isinstance(limit, StepLimit):
                steps.add(limit.step)
                self._steps.setdefault(limit.step, now)
        for step in list(self._steps):
            if step not in steps:
                del self._steps[step]
        for seat in waiting:
            self._since.setdefault(seat, now)
            self._arm(seat, now)
        bots = self._table.bots()
        for seat, agent in bots.items():
            # A new agent on the seat (the host swapped bots) gets its own
            # driver; the old one sees it was replaced and stops.
            if seat in waiting and (seat not in self._bots or self._driving[seat] is not agent):
                self._driving[seat] = agent
                self._bots[seat] = asyncio.create_task(
                    self._drive(seat, agent), name=f"bot seat {seat}"
                )
        free = self._table.volunteers()
        for seat, agent in bots.items():
            if seat in free and seat not in self._volunteering:
                self._volunteering[seat] = asyncio.create_task(
                    self._volunteer(seat, agent), name=f"bot seat {seat} (unasked)"
                )
        # Wake bots that gave up on the previous state.
        self._change.set()
        self._change = asyncio.Event()

    def deadline(self, seat: int) -> float | None:
        """Clock time at which ``seat``'s default action is due, or ``None``."""
        since = self._since.get(seat)
        if since is None:
            return None
        due: list[float] = []
        limited = self._limit_due(seat, since)
        if limited is not None:
            due.append(limited)
        absent = self._table.absent_since(seat)
        grace = self._absent_grace
        if seat in self._resumed and self._resume_grace is not None:
            grace = self._resume_grace
        if absent is not None and grace is not None:
            due.append(max(since, absent) + grace)
        return min(due, default=None)

    def now(self) -> float:
        """The keeper's clock now (monotonic seconds), the time base of its deadlines."""
        return self._clock()

    def countdown(self) -> float | None:
        """Clock time at which the first time limit of a seat waited on now runs out.

        The same for every seat in a step with a :class:`StepLimit`; ``None``
        when no seat waited on has a limit (an absent player's grace is not a
        limit of the game and is left out).
        """
        due = (self._limit_due(seat, self._since.get(seat)) for seat in self._table.waiting_on())
        return min((d for d in due if d is not None), default=None)

    def _limit_due(self, seat: int, since: float | None) -> float | None:
        """When ``seat``'s time limit runs out, for a wait that began at ``since``."""
        limit = self._limit(seat)
        if isinstance(limit, StepLimit):
            start = self._steps.get(limit.step)
            return None if start is None else start + limit.seconds
        if limit is None or since is None:
            return None
        return since + limit

    def _limit(self, seat: int) -> float | StepLimit | None:
        """``seat``'s time limit now (see ``turn_timeout``)."""
        if self._turn_timeout is None or isinstance(self._turn_timeout, int | float):
            return self._turn_timeout
        match = self._table.match
        return self._turn_timeout(match, seat) if match is not None else None

    def close(self) -> None:
        """Stop every timer and bot.

        A bot thread still running is left to finish; its move is dropped.
        """
        self._closed = True
        for _due, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in [*self._bots.values(), *self._volunteering.values(), *self._expiries]:
            task.cancel()
        self._thinker.forget(self._asked.values())
        self._asked.clear()

    # --- deadlines ----------------------------------------------------------

    def _arm(self, seat: int, now: float) -> None:
        """Set ``seat``'s timer for its deadline (none if it has none, or its wait
        already timed out). A timer already set for that very deadline is kept: most
        changes move no one's deadline, and a timer costs a heap entry each time."""
        due = self.deadline(seat)
        old = self._timers.get(seat)
        if old is not None:
            if due is not None and old[0] == due and seat not in self._fired:
                return
            del self._timers[seat]
            old[1].cancel()
        if due is None or seat in self._fired:
            return
        loop = asyncio.get_running_loop()
        timer = loop.call_later(max(0.0, due - now), self._expire_soon, seat)
        self._timers[seat] = (due, timer)

    def _expire_soon(self, seat: int) -> None:
        self._timers.pop(seat, None)
        task = asyncio.create_task(self._expire(seat), name=f"timeout seat {seat}")
        self._expiries.add(task)
        task.add_done_callback(self._expiries.discard)

    async def _expire(self, seat: int) -> None:
        def make() -> Wire | None:
            # Re-checked under the lock: the seat may have moved meanwhile.
            if seat in self._fired or seat not in self._table.waiting_on():
                return None
            due = self.deadline(seat)
            now = self._clock()
            if due is None:
                return None
            if now < due:  # the loop may fire a timer a clock tick early
                self._arm(seat, now)
                return None
            # Once per wait, whatever happens: a refused default must not loop.
            self._fired.add(seat)
            match = self._table.match
            return match.timeout_action(seat) if match is not None else None

        outcome = await self._submit(seat, make, "timeout")
        if outcome == "rejected":
            log.warning("The default action for seat %d was refused; waiting on.", seat)

    # --- bots ---------------------------------------------------------------

    async def _drive(self, seat: int, agent: Agent) -> None:
        """Ask ``agent`` for moves while its seat is waited on."""
        me = asyncio.current_task()
        try:
            await self._drive_loop(seat, agent)
        except Exception:
            log.exception("Driving the bot at seat %d failed; it waits for the next change.", seat)
        finally:
            # Runs with no await after the loop's last check under the lock,
            # so the next update() sees the seat free and starts a new driver.
            if self._bots.get(seat) is me:
                del self._bots[seat]
                del self._driving[seat]

    async def _drive_loop(self, seat: int, agent: Agent) -> None:
        asked_rev = -1
        failures = 0
        while True:
            change = self._change
            await asyncio.sleep(self._bot_delay)
            if self._holds is not None:
                await self._holds.wait_clear(seat)  # a person drafts: time to deal
            async with self._paced(), self._lock:
                if (
                    self._closed
                    or seat not in self._table.waiting_on()
                    or self._table.agent(seat) is not agent  # replaced, or its human is back
                ):
                    return
                rev = self._table.rev
                moves = self._table.moves_of(seat)
                if rev != asked_rev:
                    asked_rev, failures = rev, 0
                match = self._table.match
                assert match is not None  # waiting_on() is empty without one
                # The bot sees exactly what a client would decode: no shared
                # references into the match.
                question = Question.of(self._table.view(seat), match.legal_actions(seat))
            crashed = False
            try:
                action = await self._think(seat, agent, question)
            except Exception:
                log.exception("Bot at seat %d failed.", seat)
                action, crashed = None, True

            def fresh(action: Wire | None = action, moves: int = moves) -> Wire | None:
                # If its seat moved meanwhile (a timeout played for it), the
                # decision point is gone: drop the answer. Moves of other seats
                # don't void it, so a bot in a simultaneous phase is never
                # starved by busy humans: the match judges it like any action.
                # Nor does a bot move for a seat it no longer holds.
                if self._table.agent(seat) is not agent:
                    return None
                if self._holds is not None and self._holds.held_by(seat):
                    return None  # a draft began while it thought: ask again after it
                return action if self._table.moves_of(seat) == moves else None

            if action is None and not crashed and self._table.waiting_on() - {seat}:
                # A pass while someone else also has to decide (e.g. the
                # bot waits for an answer to its proposal): not a failure.
                # Wait for the next change, or ask again once patience runs out.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(change.wait(), self._bot_patience)
                continue
            outcome: Outcome = "rejected"  # a pass when only this bot can move is a failure
            if action is not None:
                async with self._paced():
                    outcome = await self._submit(seat, fresh, "bot")
            if outcome != "rejected" or self._table.rev != rev:
                continue  # done, or refused only because the state moved on: ask again
            failures += 1
            if failures < self._bot_retries:
                continue

            def fallback(rev: int = rev) -> Wire | None:
                match = self._table.match
                if self._table.rev != rev or match is None or self._table.agent(seat) is not agent:
                    return None
                return match.timeout_action(seat)

            log.warning("Bot at seat %d failed %d times; playing its default.", seat, failures)
            async with self._paced():
                outcome = await self._submit(seat, fallback, "bot default")
            if outcome != "accepted" and self._table.rev == rev:
                # Nothing more to try on this state: wait for the next change.
                await change.wait()

    def _paced(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A slot of the pacer for one piece of a bot's work on the loop (:mod:`net.pacing`)."""
        if self._pacer is None:
            self._pacer = loop_pacer()
        return self._pacer.slot()

    async def _think(self, seat: int, agent: Agent, question: Question) -> Wire | None:
        """``agent.act(view, legal)`` through the thinker, off the event loop (a slow bot
        must never block it), one call at a time per seat: its driver and its unasked
        chance never run the same bot concurrently."""
        async with self._thinking.setdefault(seat, asyncio.Lock()):
            if self._closed:
                return None  # forgotten: never ask a bot after close
            self._asked[id(agent)] = agent
            return await self._thinker.think(agent, question)

    async def _volunteer(self, seat: int, agent: Agent) -> None:
        """Give the bot on ``seat`` one chance to act unasked per change while the match
        lists the seat in ``volunteers()`` (e.g. to offer the active player a deal)."""
        me = asyncio.current_task()
        asked_rev = -1
        try:
            while True:
                await asyncio.sleep(self._bot_delay)
                async with self._paced(), self._lock:
                    if (
                        self._closed
                        or seat not in self._table.volunteers()
                        or self._table.agent(seat) is not agent
                        or self._table.rev == asked_rev
                    ):
                        return
                    asked_rev = self._table.rev
                    moves = self._table.moves_of(seat)
                    match = self._table.match
                    assert match is not None  # volunteers() is empty without one
                    question = Question.of(self._table.view(seat), match.legal_actions(seat))
                action = await self._think(seat, agent, question)
                if action is None:
                    continue  # nothing to offer now: ask again only after a change

                def fresh(action: Wire = action, moves: int = moves) -> Wire | None:
                    # Still free to act, same bot, and its seat did not move meanwhile.
                    if (
                        seat not in self._table.volunteers()
                        or self._table.agent(seat) is not agent
                        or self._table.moves_of(seat) != moves
                    ):
                        return None
                    return action

                async with self._paced():
                    await self._submit(seat, fresh, "bot offer")
        except Exception:
            log.exception("The bot at seat %d failed on an unasked chance; it waits.", seat)
        finally:
            # No await after the last check under the lock (as in _drive).
            if self._volunteering.get(seat) is me:
                del self._volunteering[seat]
