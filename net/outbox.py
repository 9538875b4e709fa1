"""The table server's outbox: what it sends waits until the actions before it are on disk.

Group commit (docs/ARCHITECTURE.md "Persistence"): the server applies an
action under its lock, hands the record to the log (``TableServer.on_record``
returns a future that resolves once the record is written and synced), and
lets the lock go at once. Everything the server sends while it handles the
action (its ack and views, lobby frames) waits here, in the order sent, until
that record and every one before it is durable. Once the server has said which
recipient groups heard of the action (:meth:`Outbox.heard_by`: the seats whose
view it changed, the spectators if theirs), what it sends later waits too if it
goes to one of those groups, or to a connection with frames still waiting; a
frame to anyone else leaves at once (another seat's pong, chat, refusal, or a
view that cannot show the action). Until then, or for a connection whose group
is not known yet (a newcomer's welcome), everything waits. So:

* every connection gets its frames in the order the server sent them (views
  in revision order);
* a crash between apply and sync loses no frame that told of the lost action:
  nothing went to a group that heard of it, after it, before its record was on
  disk; and nothing else waits on the disk, so no one can time another seat's
  unseen moves (RULES.md R15) by how late their own replies come;
* a record that fails: nothing sent after it ever leaves (its connections
  still close), and the server is told to close the table.

With no record pending, frames go straight to their connection's queue.
Frames let go together that follow one another to the same connection (an
action's ack and view) are handed to it as one write: one system call, one
place in its queue.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Callable, Hashable

from net.connection import FramedConnection

log = logging.getLogger(__name__)

_Held = list[tuple[FramedConnection, bytes | None]]
"""Frames (``None``: a close) in the order sent, each with its connection."""

UNKNOWN: object = object()
"""What ``group_of`` says of a connection whose recipient group is not known (yet)."""


class Outbox:
    """Holds a server's frames behind the records not yet durable (a
    :class:`net.connection.Gate` for every connection of the server).

    Args:
        on_failure: called once, with the exception, when a record fails; the
            frames held behind it are dropped for good (the server closes).
        group_of: a connection's recipient group (the server's: its seat, ``None``
            for a spectator), or :data:`UNKNOWN`; by default every connection's is
            unknown, and every frame waits behind every pending record.

    Use from the event loop only.
    """

    def __init__(
        self,
        on_failure: Callable[[BaseException], None],
        group_of: Callable[[FramedConnection], Hashable] = lambda _conn: UNKNOWN,
    ) -> None:
        self._on_failure = on_failure
        self._group_of = group_of
        # Oldest first: a record's future, the frames sent after it (and before the
        # next), and the groups that heard of its action (None: not said yet, all).
        self._waits: deque[tuple[asyncio.Future[None], _Held, frozenset[Hashable] | None]] = deque()
        self._holding: Counter[FramedConnection] = Counter()  # frames held, per connection
        self._failed = False
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def pending(self) -> int:
        """Records not yet known durable that frames wait on."""
        return len(self._waits)

    def after(self, durable: asyncio.Future[None]) -> None:
        """Hold everything sent from now on until ``durable`` (and every earlier one) is done.

        A record already durable with nothing before it holds nothing back.
        """
        if self._failed:
            return
        if durable.done() and not self._waits and _failure(durable) is None:
            return
        self._waits.append((durable, [], None))
        self._idle.clear()
        durable.add_done_callback(self.flush)

    def heard_by(self, groups: frozenset[Hashable]) -> None:
        """The action of the record last handed to :meth:`after` was heard of by
        ``groups`` only (recipient groups, as ``group_of`` says them): from now on a
        frame to another group leaves at once, unless its connection has frames
        waiting. Nothing changes if that record held nothing back."""
        if self._waits and not self._failed:
            durable, held, _all = self._waits[-1]
            self._waits[-1] = (durable, held, groups)

    def _must_wait(self, conn: FramedConnection) -> bool:
        """Whether a frame to ``conn`` waits (a record is pending): the connection has
        frames waiting, or its group heard of a pending action, or may have."""
        if self._holding[conn]:
            return True
        group = self._group_of(conn)
        return group is UNKNOWN or any(
            heard is None or group in heard for _durable, _held, heard in self._waits
        )

    def hold(self, conn: FramedConnection, frame: bytes | None) -> bool:
        """:meth:`net.connection.Gate.hold`: keep ``frame`` if a record is pending.

        After a failure, every frame is dropped (reported as taken) until :meth:`open`.
        """
        if self._failed:
            if frame is None:
                conn.release(None)  # a close reveals nothing
            return True
        if not self._waits or not self._must_wait(conn):
            return False
        self._waits[-1][1].append((conn, frame))
        self._holding[conn] += 1
        return True

    def send_all(self, frames: list[tuple[FramedConnection, bytes]]) -> None:
        """Send each ``(connection, frame)`` as its ``send_frame`` would (a connection
        closing discards it), held at once as one batch while a record is pending: a
        broadcast to every spectator costs one step, not one per recipient."""
        if not self._waits or self._failed:
            for conn, frame in frames:
                conn.send_frame(frame)
            return
        held = self._waits[-1][1]
        if self._waits[-1][2] is None:  # the action's own broadcast: all of it waits
            for sent in frames:
                if not sent[0].closing:
                    held.append(sent)
                    self._holding[sent[0]] += 1
            return
        for conn, frame in frames:
            if conn.closing:
                continue
            if self._must_wait(conn):
                held.append((conn, frame))
                self._holding[conn] += 1
            else:
                conn.send_frame(frame)

    async def drained(self) -> None:
        """Wait until no record is pending (every frame held has been let go or dropped)."""
        await self._idle.wait()

    def open(self) -> None:
        """Let every frame through from now on, dropping any still held (their records
        are stuck or failed); their connections' closes still go. For closing the table."""
        waits, self._waits = self._waits, deque()
        self._failed = False
        self._holding.clear()
        for _durable, held, _heard in waits:
            _close_only(held)
        self._idle.set()

    def flush(self, _done: asyncio.Future[None] | None = None) -> None:
        """Let go, in order, the frames of every record now durable at the head.

        Each record's future calls it once done, a loop turn later (asyncio runs a
        future's callbacks on the loop's next turn); whoever resolves the futures may
        call it at once instead (:meth:`net.server.TableServer.records_durable`).
        Calling it again changes nothing."""
        while self._waits and self._waits[0][0].done():
            durable, held, _heard = self._waits.popleft()
            error = _failure(durable)
            if error is not None:
                self._failed = True
                _close_only(held)
                for _later, rest, _ in self._waits:
                    _close_only(rest)
                self._waits.clear()
                self._holding.clear()
                self._idle.set()
                self._on_failure(error)
                return
            holding = self._holding
            for conn, _frame in held:
                holding[conn] -= 1
                if not holding[conn]:
                    del holding[conn]
            _release(held)
        if not self._waits:
            self._idle.set()


def _failure(durable: asyncio.Future[None]) -> BaseException | None:
    """Why a done record future failed (cancelled counts), or ``None`` if it succeeded."""
    if durable.cancelled():
        return asyncio.CancelledError()
    return durable.exception()


def _release(held: _Held) -> None:
    """Let ``held`` go, in order; frames sent one after another to the same
    connection (an action's ack, then its view) go to it as one write."""
    run: list[bytes] = []
    to: FramedConnection | None = None
    for conn, frame in held:
        if frame is not None and conn is to:
            run.append(frame)
            continue
        if to is not None:
            to.release(run[0] if len(run) == 1 else b"".join(run))
        if frame is None:
            conn.release(None)
            to = None
        else:
            to, run = conn, [frame]
    if to is not None:
        to.release(run[0] if len(run) == 1 else b"".join(run))


def _close_only(held: _Held) -> None:
    """Drop held frames but carry out held closes."""
    for conn, frame in held:
        if frame is None:
            conn.release(None)
