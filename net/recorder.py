"""A table's log, kept while it plays and read back to resume it
(docs/ARCHITECTURE.md "Persistence").

:class:`TableRecorder` hooks a :class:`~net.server.TableServer`: when the
match starts it writes the header (game, rules and app versions, seed, seats
with names, kinds and tokens, options, table settings); for every accepted
action it appends one record, synced to disk *before* the server acks the
sender or sends anyone a view; when the game ends it appends the public
result. Records are written by group commit: the server hands each one over
(``on_record``) as it applies the action and goes on at once. On Linux the
loop submits the record's write to the kernel itself (:class:`net.logaio.AioChannel`:
native AIO into the log's room, reported through an eventfd), and records handed
over during one write go together in the next. Where that cannot be had, the
record goes into a pipe (:class:`_PipeChannel`): a thread parked in ``os.splice``
moves what the pipe holds into the log and syncs it, so the records put in the
pipe during one move go together in the next. Elsewhere the recorder's disk
thread (:class:`_DiskThread`) writes and syncs, one batch at a time, every record
queued since the last batch began. Either way the first record's write starts
at once, while the server still builds its views; each record's future resolves
once it is on disk, and the server's outbox (:mod:`net.outbox`) holds back
everything it sends until then.
:func:`restore_server` goes the other way: a server with the same seed,
seats and options whose match is rebuilt by replaying every logged action
(R3), its players' seats waiting for their tokens, appending to the same log.

Game-agnostic, like the rest of ``net``: bots are rebuilt through a
``make_agent`` callback, and the game checks every replayed action.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import errno
import logging
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from net.chat import Said
from net.game import Agent, GameDefinition, Match, Wire, note_table_move
from net.logaio import AioChannel, AioRefused, aio_available
from net.server import TableServer
from net.table import SeatRecord
from net.tablelog import LoggedAction, LogTail, LogWriter, TableLog, move_synced

log = logging.getLogger(__name__)


class BadHeader(ValueError):
    """A log header that is decodable but not a usable table header; the message says why."""


@dataclass(frozen=True, slots=True)
class LoggedSeat:
    """One seat of a log header.

    Attributes:
        name: display name.
        kind: ``"human"`` or ``"bot"``.
        token: a human's reconnect token; ``None`` for a bot.
        bot: a bot's kind as the application names it (e.g. ``"greedy"``), if known.
    """

    name: str
    kind: str
    token: str | None
    bot: str | None


@dataclass(frozen=True, slots=True)
class LogHeader:
    """A checked log header (see :mod:`net.tablelog` for the layout).

    Attributes:
        game: the game's name. rules: its rules version. app: the app version
        that wrote the log. seed: the match's seed (R3). seats: one per seat.
        options: game options. table: table settings (``name``, ``port``,
        anything else the application stored). created: Unix seconds.
    """

    game: str
    rules: str
    app: str
    seed: int
    seats: tuple[LoggedSeat, ...]
    options: dict[str, Any]
    table: dict[str, Any]
    created: float


def _text(record: Mapping[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = record.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BadHeader(f"the header's {key!r} is not text")
    return value


def parse_header(header: Mapping[str, Any]) -> LogHeader:
    """Check a raw header's fields and types.

    Raises:
        BadHeader: a field is missing or of the wrong type, or a human seat has no token.
    """
    seats_raw = header.get("seats")
    if not isinstance(seats_raw, list) or not seats_raw:
        raise BadHeader("the header lists no seats")
    seats = []
    for i, raw in enumerate(seats_raw):
        if not isinstance(raw, dict):
            raise BadHeader(f"seat {i} of the header is not a map")
        kind = _text(raw, "kind")
        token = _text(raw, "token", optional=True)
        if kind not in ("human", "bot"):
            raise BadHeader(f"seat {i} of the header is of kind {kind!r}")
        if kind == "human" and not token:
            raise BadHeader(f"seat {i} of the header is a player without a token")
        seats.append(
            LoggedSeat(
                name=_text(raw, "name") or "",
                kind=kind,
                token=token,
                bot=_text(raw, "bot", optional=True),
            )
        )
    options, table = header.get("options", {}), header.get("table", {})
    created, seed = header.get("created", 0.0), header.get("seed")
    if not isinstance(options, dict) or not isinstance(table, dict):
        raise BadHeader("the header's options or table settings are not maps")
    if not isinstance(created, int | float) or not isinstance(seed, int):
        raise BadHeader("the header's creation time or seed is not a number")
    return LogHeader(
        game=_text(header, "game") or "",
        rules=_text(header, "rules") or "",
        app=_text(header, "app") or "",
        seed=seed,
        seats=tuple(seats),
        options=options,
        table=table,
        created=float(created),
    )


@dataclass(slots=True)
class Replayed:
    """The outcome of replaying a log's actions on a fresh match.

    Attributes:
        match: the match after every action that applied.
        applied: how many actions applied (all of them unless ``error``).
        error: why action ``applied + 1`` was refused, or ``None``.
    """

    match: Match
    applied: int
    error: str | None = None


def replay(
    game: GameDefinition,
    header: LogHeader,
    actions: Sequence[LoggedAction],
    *,
    after_each: Callable[[int, Match], None] | None = None,
) -> Replayed:
    """Rebuild a match from its seed and actions (R3), stopping at the first refusal.

    Args:
        game: the game the log is of.
        header: its checked header.
        actions: the logged actions, in order.
        after_each: called with ``(index, match)`` after each action applied
            (``index`` 0-based), e.g. to keep snapshots for a viewer.

    Returns:
        The match and how far it got; never raises for a bad action.

    Raises:
        ValueError: the game refused the seat count or the options.
    """
    match = game.new_match(header.seed, len(header.seats), header.options)
    for index, logged in enumerate(actions):
        if not 0 <= logged.seat < len(header.seats):
            return Replayed(match, index, f"seat {logged.seat} is not at this table")
        if match.is_over:
            return Replayed(match, index, "the game was already over")
        try:
            if logged.why is not None:  # the log says what the table did, as it did live
                note_table_move(match, logged.seat, logged.why)
            match.apply(logged.seat, logged.action)
        except Exception as exc:  # the game's refusal, or any bug: the record is bad
            return Replayed(match, index, str(getattr(exc, "message", exc)) or type(exc).__name__)
        if after_each is not None:
            after_each(index, match)
    return Replayed(match, len(actions))


_Queued = tuple[LogWriter, list[bytes], asyncio.Future[None]]
"""Records queued for a writer, and the future that resolves once they are on disk."""


class TableRecorder:
    """Keeps the log of one table: header at the start, every action, the end.

    Args:
        new_path: called once when the match starts, returns the file to create
            (so its name can carry the start time). Ignored with ``writer``.
        writer: an open writer to append to (a resumed table); the header is
            then already written and ``on_start`` is not used.
        bot_kind: names a bot agent's kind for the header (``None`` if unknown).
        table: extra table settings for the header (e.g. ``{"code": ...}``);
            the table's name and port are always stored.

    Attributes:
        path: the log file once it exists.
        error: why this table is not being recorded (the file could not be
            created), else ``None``.
    """

    def __init__(
        self,
        new_path: Callable[[], Path] | None = None,
        *,
        writer: LogWriter | None = None,
        bot_kind: Callable[[Agent], str | None] | None = None,
        table: Mapping[str, Any] | None = None,
    ) -> None:
        if (new_path is None) == (writer is None):
            raise ValueError("give exactly one of new_path and writer")
        self._new_path = new_path
        self._writer = writer
        self._bot_kind = bot_kind
        self._table = dict(table or {})
        self._server: TableServer | None = None
        self.path: Path | None = writer.path if writer is not None else None
        self.error: str | None = None
        self.actions = 0
        """Actions appended by this recorder (since it was attached), once queued."""
        # Group commit: records queued for the next batch, oldest first, and the
        # batch being written in a worker thread (one at a time, in order).
        self._pending: list[_Queued] = []
        self._writing = False
        self._disk: _DiskThread | None = None  # started with the first record
        self._broken: Exception | None = None  # a sync failed: nothing more is written
        self._syncs = 0
        # On Linux, records go through a channel instead, one per log file, opened with
        # the first record for it: the kernel's AIO (net/logaio.py), else a pipe.
        self._channels = pipe_handoff()
        self._aio = aio_available()  # first choice: the kernel writes (net/logaio.py)
        self._aio_refused = False
        self._channel: _PipeChannel | AioChannel | None = None
        self._unclosed: weakref.finalize[[], TableRecorder] | None = None  # stops the pipe
        self._closed = False

    def attach(self, server: TableServer) -> None:
        """Hook ``server`` (before :meth:`TableServer.open`): its ``on_record``,
        ``on_chat`` and, for a new log, ``on_start``. Its ``on_action`` is left alone."""
        self._server = server
        server.on_record = self.record_action
        server.on_chat = self.record_chat
        if self._writer is None:
            server.on_start = self.start

    def header(self, seats: Sequence[SeatRecord]) -> dict[str, Any]:
        """The header for the attached server's match with ``seats``."""
        server = self._require_server()
        return {
            "app": server.app_version,
            "game": server.game.name,
            "rules": server.game.rules_version,
            "seed": server.seed,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "token": s.token,
                    "bot": self._bot_kind(s.agent) if self._bot_kind and s.agent else None,
                }
                for s in seats
            ],
            "options": dict(server.options),
            "table": {"name": server.name, "port": server.port, **self._table},
        }

    def start(self, seats: tuple[SeatRecord, ...]) -> None:
        """``on_start``: create the log with its header (synced before anyone sees the game).

        Each match gets its own log: after a rematch (:meth:`TableServer.rematch`) the
        last game's file is closed and a new one begun.

        A file that cannot be created leaves the table unrecorded: :attr:`error`
        says why, and the game goes on (nothing was promised yet).
        """
        assert self._new_path is not None
        if self._writer is not None:  # a rematch: the last game's log is complete
            self._writer.close()
            self._writer = None
            self.path = None
        try:
            path = self._new_path()
            self._writer = LogWriter.create(path, self.header(seats))
        except (OSError, ValueError) as exc:
            self.error = f"this game is not being saved: {exc}"
            log.warning("Table log: %s", self.error)
            return
        self.path = path
        log.info("Table log: %s", path)

    def record_action(self, seat: int, action: Wire) -> asyncio.Future[None] | None:
        """``on_record``: queue the action's record (and the result's, if it ended the
        game) for the next group commit.

        Call it on the event loop right after the action is applied: records are
        written in the order queued, and :attr:`TableServer.last_move_by_table` is read now.

        Returns:
            A future that resolves once the record is on disk, or raises the
            ``OSError`` the disk gave (the server then closes the table so that
            nobody hears of an unrecorded action); ``None`` when this table is
            not being recorded (see :attr:`error`).

        Raises:
            RuntimeError: the log already ended.
            ValueError: the record is over :data:`net.tablelog.MAX_RECORD` bytes.
        """
        writer = self._writer
        if writer is None:
            return None  # not recording (see error)
        server = self._require_server()
        records = [writer.action_record(seat, action, server.last_move_by_table)]
        self.actions += 1
        result = server.result()
        if result is not None and not writer.ended:
            records.append(writer.end_record(result))
        return self._queue(writer, records)

    async def record_chat(self, said: Said) -> None:
        """``on_chat``: append a chat message, synced (nothing before the game's
        header nor after its end), in its place among the actions' records.

        Raises:
            OSError: the disk refused (the server logs it and relays anyway).
        """
        writer = self._writer
        if writer is None:
            return
        record = writer.chat_record(said.seat, said.name, said.text, said.after)
        if record is not None:
            await self._queue(writer, [record])

    @property
    def syncs(self) -> int:
        """Group commits written so far (each one synchronous write: one move from the
        log's pipe, or one batch of the disk thread)."""
        return self._syncs

    def _queue(self, writer: LogWriter, records: list[bytes]) -> asyncio.Future[None]:
        """Queue ``records`` for ``writer``; the future resolves once they are on disk,
        or fails with the disk's error (and so does every later one).

        The write starts now (not in a task that would first wait for its turn on
        the loop): the records go into the log's pipe at once (:class:`_PipeChannel`),
        or, where the platform cannot splice and no write is under way, to the
        recorder's disk thread; so the disk's work begins while the server still
        builds the views.
        """
        loop = asyncio.get_running_loop()
        durable: asyncio.Future[None] = loop.create_future()
        if self._broken is not None:
            durable.set_exception(self._broken)  # after a failed sync nothing more is kept
            return durable
        self._pending.append((writer, records, durable))
        if not self._writing:
            self._write_pending(loop, overlap=True)
        return durable

    def _write_pending(self, loop: asyncio.AbstractEventLoop, *, overlap: bool) -> None:
        """Hand everything queued to the disk thread as one batch (one write, one sync),
        or, on Linux, to its log's channel (:meth:`_channel_pending`).

        ``overlap``: the loop goes on to build the views of the action just queued, so
        it lets the thread start first (see :class:`_DiskThread`); after a batch, with
        no views to build, it does not wait.
        """
        if self._channels and self._channel_pending(loop):
            return
        batch, self._pending = self._pending, []
        self._writing = True
        if self._disk is None:
            self._disk = _DiskThread()
            # A recorder nobody closes still lets its thread go when it is collected.
            weakref.finalize(self, self._disk.stop)
        self._disk.submit(batch, loop, self._written, overlap=overlap)

    def _written(self, batch: list[_Queued], error: BaseException | None) -> None:
        """On the loop, once a batch is written (``error``: why not): resolve its records'
        futures (the outbox lets their frames go), then start the next batch if one is queued."""
        self._writing = False
        if error is not None:
            log.error("Table log: the disk refused a record: %s", error)
            self._broken = error if isinstance(error, Exception) else RuntimeError(str(error))
            self.error = f"this game is no longer being saved: {error}"
            batch += self._pending
            self._pending = []
            for _writer, _records, durable in batch:
                if not durable.done():
                    durable.set_exception(self._broken)
            return
        self._syncs += 1
        for _writer, _records, durable in batch:
            if not durable.done():
                durable.set_result(None)
        self._frames_may_go()
        if self._pending:
            self._write_pending(asyncio.get_running_loop(), overlap=False)

    def _channel_pending(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Hand each queued record over to its log's channel (the kernel's AIO, else a
        pipe), in order; ``False`` when no channel can be made (the thread hand-off then
        takes over, for good).

        A record for another log (a rematch began a new file) waits, with every
        record after it, until the last log's records are all on disk: then that
        channel is stopped and the new log's opened. So the logs are written one after
        the other, and nothing more once a write failed.
        """
        while self._pending:
            writer, records, durable = self._pending[0]
            channel = self._channel
            if channel is None or channel.writer is not writer or channel.stopping:
                if channel is not None and not channel.idle:
                    self._writing = True  # resumed by _channel_report once it is idle
                    return True
                if channel is not None:
                    channel.stop()
                    self._channel = None
                    if self._unclosed is not None:  # stopped: the finalizer need not hold it
                        self._unclosed.detach()
                try:
                    channel = self._new_channel(writer, loop)
                except OSError as exc:  # no descriptor for a pipe: the thread it is
                    log.warning("Table log: no pipe (%s); writing from a thread", exc)
                    self._channels = False
                    return False
                self._channel = channel
                self._unclosed = weakref.finalize(self, channel.stop)  # if nobody closes it
            del self._pending[0]
            channel.hand_over(records, durable)
        self._writing = False
        if self._closed and self._channel is not None:
            self._channel.stop()  # records queued after close() are written, then it ends
        return True

    def _new_channel(
        self, writer: LogWriter, loop: asyncio.AbstractEventLoop
    ) -> _PipeChannel | AioChannel:
        """The hand-off for ``writer``'s records: the kernel's own (:class:`AioChannel`)
        where the platform, the file system and the log allow it, else a pipe.

        Raises:
            OSError: no pipe either.
        """
        report: weakref.WeakMethod[_Report] = weakref.WeakMethod(self._channel_report)
        if self._aio:
            try:
                return AioChannel(writer, loop, report)
            except OSError as exc:
                if not self._aio_refused:  # said once per recorder
                    log.info("Table log: no kernel AIO (%s); through a pipe", exc)
                self._aio_refused = True
        return _PipeChannel(writer, loop, report)

    def _channel_report(
        self, channel: _PipeChannel | AioChannel, error: BaseException | None
    ) -> None:
        """On the loop, after ``channel`` resolved the futures of the records now on
        disk (``error``: why the rest will never be): count the sync, or fail every
        record still queued; go on with records waiting for a new log."""
        if isinstance(error, AioRefused) and isinstance(channel, AioChannel):
            self._aio_instead(channel, error)
            return
        if error is not None:
            self._writing = False
            self._written([], error)  # fails everything queued, nothing more is written
            return
        self._syncs += 1
        self._frames_may_go()
        if self._writing and channel is self._channel and channel.idle:
            self._write_pending(asyncio.get_running_loop(), overlap=False)

    def _aio_instead(self, channel: AioChannel, refusal: AioRefused) -> None:
        """The kernel refused ``channel``'s first write (an odd file system), or could not
        queue a later one (its resources short): nothing of those records is on disk,
        so they go through a pipe instead, in order, before any queued after them; no
        more kernel AIO for this recorder."""
        log.info("Table log: %s; through a pipe", refusal)
        self._aio = False
        records = channel.unwritten()
        if channel is not self._channel:
            return  # pragma: no cover - a refused channel is the current one
        if self._unclosed is not None:
            self._unclosed.detach()
        self._channel = None
        try:
            pipe = _PipeChannel(
                channel.writer, asyncio.get_running_loop(), weakref.WeakMethod(self._channel_report)
            )
        except OSError as exc:
            for _data, durable in records:
                if not durable.done():
                    durable.set_exception(exc)
            self._channel_report(channel, exc)
            return
        self._channel = pipe
        self._unclosed = weakref.finalize(self, pipe.stop)
        for data, durable in records:
            pipe.hand_over([data], durable)
        if self._closed and not self._pending:
            pipe.stop()

    def close(self) -> None:
        """Close the file (the log stays as it is; safe to call twice) and let the
        disk thread (or pipe) end once the records already handed to it are written."""
        self._closed = True
        if self._writer is not None:
            self._writer.close()
        if self._disk is not None:
            self._disk.stop()
            self._disk = None  # a record queued later (none should be) gets a new thread
        if self._channel is not None and not self._writing:
            self._channel.stop()  # else stopped once the records waiting for it are in

    def _frames_may_go(self) -> None:
        """Records were just reported durable: the attached server lets go at once what
        waited for them (:meth:`TableServer.records_durable`)."""
        if self._server is not None:
            self._server.records_durable()

    def _require_server(self) -> TableServer:
        if self._server is None:
            raise RuntimeError("attach() the recorder to a server first")
        return self._server


_Done = Callable[[list[_Queued], BaseException | None], None]
"""Called on the loop with a batch once it is written: ``None``, or why it was not."""

_Job = tuple[list[_Queued], asyncio.AbstractEventLoop, _Done]
"""A batch for the disk thread, the loop to report on, and whom to report to."""


HANDOVER_WAIT: Final = 0.0005
"""Longest the loop waits, in seconds, for the disk thread to take a batch (see
:class:`_DiskThread`): it wakes in 20-100 µs on an idle core; past this the loop goes on
and the thread starts once the loop next lets go of the interpreter lock."""

HANDOVER_SHARE: Final = 0.05
"""Most of an event loop's time spent in those waits, over all the recorders on it: a
loop hosting many busy tables stops waiting (it has other work; an overlap would
only shorten one action's latency at the others' expense). One table with 22
clients (scripts/bench.py) waits 40-100 µs per action of ≈ 1.5 ms: at 5 % most of
its actions overlap (at 2 % the median action no longer did). 200 bot tables
keeping logs on one saturated loop played ≈ 5 % fewer actions in 8 s than with no
waits at all (medians of 3 runs: 14.0 k against 14.7 k; ping p99 the same)."""


class _HandoverBudget:
    """The time one event loop may still spend waiting for disk threads: it earns
    :data:`HANDOVER_SHARE` of the time that passes (at most four waits' worth
    saved up) and spends what each wait takes."""

    __slots__ = ("_at", "_credit")

    def __init__(self) -> None:
        self._credit = _MOST_CREDIT
        self._at = time.perf_counter()

    def wait(self, taken: threading.Lock) -> None:
        """Wait (at most :data:`HANDOVER_WAIT`) for ``taken``, if the budget allows."""
        now = time.perf_counter()
        self._credit = min(_MOST_CREDIT, self._credit + (now - self._at) * HANDOVER_SHARE)
        self._at = now
        if self._credit > 0:
            taken.acquire(timeout=HANDOVER_WAIT)
            self._at = time.perf_counter()
            self._credit -= self._at - now


_MOST_CREDIT: Final = 4 * HANDOVER_WAIT

_BUDGETS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _HandoverBudget] = (
    weakref.WeakKeyDictionary()
)
"""Each event loop's :class:`_HandoverBudget`, shared by its recorders."""


def _budget_of(loop: asyncio.AbstractEventLoop) -> _HandoverBudget | None:
    """``loop``'s budget (made on first use); ``None`` for a loop that cannot be
    weakly referenced (then the loop never waits)."""
    try:
        budget = _BUDGETS.get(loop)
        if budget is None:
            budget = _BUDGETS[loop] = _HandoverBudget()
    except TypeError:
        return None
    return budget


class _DiskThread:
    """One thread that writes a recorder's batches, in the order handed over: the
    hand-off where the platform cannot splice (else :class:`_PipeChannel`).

    The loop hands a batch over with one ``SimpleQueue.put`` (no executor
    bookkeeping: ``run_in_executor`` took 30 µs on the loop and, when its
    worker's semaphores met the loop's, up to the interpreter's 5 ms switch
    interval), then waits (at most :data:`HANDOVER_WAIT`) until the thread has
    taken it: the thread needs the interpreter lock to start, and the loop,
    which goes on to build the action's views in pure Python, would otherwise
    keep it until its next system call, after the views. Once the thread is in
    its write (one system call that writes and syncs: :class:`net.tablelog.LogWriter`),
    the disk's work and the views overlap. The thread hands the outcome back with
    ``call_soon_threadsafe``, then makes the log's room again if it ran low
    (:meth:`net.tablelog.LogWriter.make_room`). It ends after :meth:`stop`, once the batches handed
    over before it are written. It is a daemon thread: at the interpreter's exit a
    batch may be left unsynced, and then its frames were never sent (the outbox
    holds them until the batch is durable).
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        # Released by the thread when it takes a job; the loop waits on it after each
        # hand-over. A wait that gave up leaves it released: the next hand-over takes
        # that back first (the thread took its job long before, one batch at a time).
        self._taken = threading.Lock()
        self._taken.acquire()
        threading.Thread(
            target=_disk_loop, args=(self._jobs, self._taken), name="table log", daemon=True
        ).start()

    def submit(
        self, batch: list[_Queued], loop: asyncio.AbstractEventLoop, done: _Done, *, overlap: bool
    ) -> None:
        """Write ``batch`` after the batches before it, then call ``done`` on ``loop``.

        With ``overlap``, returns once the thread has taken it, or after
        :data:`HANDOVER_WAIT`, or at once when the loop has spent its share of
        time waiting (:data:`HANDOVER_SHARE`); else at once.
        """
        self._taken.acquire(blocking=False)  # a release the loop gave up waiting for
        self._jobs.put((batch, loop, done))
        budget = _budget_of(loop) if overlap else None
        if budget is not None:
            budget.wait(self._taken)

    def stop(self) -> None:
        """Let the thread end once what was handed over is written (safe to call twice)."""
        self._jobs.put(None)


def _disk_loop(jobs: queue.SimpleQueue[_Job | None], taken: threading.Lock) -> None:
    """The disk thread's body: write each batch, report on its loop, until told to stop."""
    while (job := jobs.get()) is not None:
        with contextlib.suppress(RuntimeError):  # released already: the loop gave up waiting
            taken.release()
        batch, loop, done = job
        error: BaseException | None = None
        writers: list[LogWriter] = []
        try:
            writers = _write_batch(batch)
        except BaseException as exc:  # reported on the loop: the table closes
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(done, batch, error)
        for writer in writers:  # after the report: the records never wait for it
            writer.make_room()
        del job, batch, loop, done, error, writers  # hold nothing while waiting for the next


def _write_batch(batch: list[_Queued]) -> list[LogWriter]:
    """In a worker thread: write each writer's run of records with one sync, in order;
    returns the writers written to, in order."""
    run: list[bytes] = []
    current: LogWriter | None = None
    written: list[LogWriter] = []
    for writer, records, _durable in batch:
        if writer is not current:
            if current is not None:
                current.write(run)
                written.append(current)
            current, run = writer, []
        run += records
    if current is not None:
        current.write(run)
        written.append(current)
    return written


def pipe_handoff() -> bool:
    """Whether records go to the disk through a pipe (:class:`_PipeChannel`): where the
    platform has ``os.splice`` and ``O_DSYNC`` (Linux); else through a thread
    (:class:`_DiskThread`)."""
    return hasattr(os, "splice") and hasattr(os, "O_DSYNC")


_Report = Callable[["_PipeChannel | AioChannel", BaseException | None], None]
"""Called on the loop after a pipe's move to disk: ``None``, or why it failed."""

_NO_SPLICE: Final = frozenset({errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP})
"""``os.splice`` errors meaning this file cannot be spliced to (then the thread copies)."""


class _PipeChannel:
    """The pipe hand-off of one log: the loop writes each record into a pipe and goes
    on at once; a thread parked in :func:`net.tablelog.move_synced` (``os.splice``
    into the log opened ``O_DSYNC``, at explicit offsets from the end of its last record
    on, into its room: :class:`net.tablelog.LogTail`)
    wakes in the kernel, which writes and syncs without the interpreter lock, and
    reports how many bytes are on disk with ``call_soon_threadsafe``.

    Costs the loop one ``os.write`` (≈ 30 µs on a VM, mostly waking the other CPU)
    and never a wait, where the thread hand-off (:class:`_DiskThread`) costs ≈ 95 µs
    (a queue put, then waiting until the thread has the batch).

    Every record handed over gets the offset where it ends (bytes from the channel's
    start); its future resolves once the bytes on disk reach it, so a record moved in
    part is durable only once all of it is, and futures resolve in order. Records put
    in the pipe while a move is under way go together in the next one (group
    commit). The writing end never blocks: what the pipe (64 KiB) cannot take waits
    in a backlog, written as the pipe drains (``add_writer``); a record may be up to
    :data:`net.tablelog.MAX_RECORD` bytes and thus larger than the pipe.

    A failed move fails the records not yet wholly on disk (the thread cuts the file
    back to the end of the last whole record, if it can) and ends the thread; nothing
    more is written. :meth:`stop` closes the writing end once the backlog is in the
    pipe: the thread moves what is left, then ends. It is a daemon thread: at the
    interpreter's exit a record may be left unsynced, and then its frames were never
    sent (the outbox holds them until the record is durable).

    Args:
        writer: the log (only its path and :meth:`~net.tablelog.LogWriter.open_at_end`).
        loop: the running loop, where futures resolve and ``report`` is called.
        report: a weak reference to the owner's callback, called after each move.

    Raises:
        OSError: no pipe could be made (e.g. out of descriptors).
    """

    def __init__(
        self,
        writer: LogWriter,
        loop: asyncio.AbstractEventLoop,
        report: weakref.WeakMethod[_Report],
    ) -> None:
        self.writer = writer
        self.stopping = False
        self._loop = loop
        self._report = report
        read_end, self._w = os.pipe()
        os.set_blocking(self._w, False)
        self._handed = 0  # bytes handed over so far
        self._waiting: collections.deque[tuple[int, asyncio.Future[None]]] = collections.deque()
        self._backlog: collections.deque[memoryview] = collections.deque()
        # Where each batch ends, shared with the thread: it cuts a failed write back to one.
        self._ends: collections.deque[int] = collections.deque()
        try:
            threading.Thread(
                target=_pipe_loop,
                args=(writer, read_end, self._ends, loop, self._moved),
                name="table log",
                daemon=True,
            ).start()
        except BaseException:
            os.close(read_end)
            os.close(self._w)
            raise

    @property
    def idle(self) -> bool:
        """Every record handed over is on disk (or failed)."""
        return not self._waiting

    def hand_over(self, records: list[bytes], durable: asyncio.Future[None]) -> None:
        """Put ``records`` in the pipe (what it cannot take now, in the backlog);
        ``durable`` resolves once they are all on disk, or fails with the disk's error."""
        data = records[0] if len(records) == 1 else b"".join(records)
        self._handed += len(data)
        self._waiting.append((self._handed, durable))
        self._ends.append(self._handed)  # before the bytes: the thread may take them at once
        if self._backlog:
            self._backlog.append(memoryview(data))
            return
        try:
            written = os.write(self._w, data)
        except BlockingIOError:
            written = 0
        except OSError:  # the thread ended on an error: its report is on the way
            return
        if written < len(data):
            self._backlog.append(memoryview(data)[written:])
            self._loop.add_writer(self._w, self._flush)

    def _flush(self) -> None:
        """On the loop, when the pipe has room: write the backlog, oldest first."""
        while self._backlog:
            try:
                written = os.write(self._w, self._backlog[0])
            except BlockingIOError:
                return
            except OSError:  # the thread ended on an error: its report is on the way
                self._backlog.clear()
                break
            if written < len(self._backlog[0]):
                self._backlog[0] = self._backlog[0][written:]
                return
            self._backlog.popleft()
        self._loop.remove_writer(self._w)
        if self.stopping:
            self._close_w()

    def _moved(self, on_disk: int, error: BaseException | None) -> None:
        """On the loop, from the thread: ``on_disk`` bytes of this channel are durable,
        and (``error``) nothing more will be."""
        waiting = self._waiting
        while waiting and waiting[0][0] <= on_disk:
            durable = waiting.popleft()[1]
            if not durable.done():
                durable.set_result(None)
        if error is not None:  # the owner logs it
            failure = error if isinstance(error, Exception) else RuntimeError(str(error))
            while waiting:
                durable = waiting.popleft()[1]
                if not durable.done():
                    durable.set_exception(failure)
            self.stopping = True
            self._backlog.clear()
            if self._w >= 0:
                self._loop.remove_writer(self._w)
            self._close_w()
        report = self._report()
        if report is not None:
            report(self, error)

    def stop(self) -> None:
        """Let the thread end once what was handed over is written (safe to call twice,
        and from a finalizer)."""
        self.stopping = True
        if not self._backlog:
            self._close_w()

    def _close_w(self) -> None:
        fd, self._w = self._w, -1
        if fd >= 0:
            os.close(fd)


def _pipe_loop(
    writer: LogWriter,
    pipe_r: int,
    ends: collections.deque[int],
    loop: asyncio.AbstractEventLoop,
    moved: Callable[[int, BaseException | None], None],
) -> None:
    """A pipe's thread: move what the pipe holds to the log until its writing end is
    closed; report each move on the loop, then (off the records' path) make the log's
    room again if it ran low (:meth:`~net.tablelog.LogTail.make_room`); on a failure,
    cut the file back to the end of the last whole batch, report, and end (nothing
    more is written)."""
    tail: LogTail | None = None
    start, on_disk, whole = 0, 0, 0
    error: BaseException | None = None
    copy = False
    try:
        tail = writer.open_at_end()
        start = tail.at
        while True:
            try:
                count = move_synced(pipe_r, tail.fd, tail.at, copy=copy)
            except OSError as exc:
                if copy or exc.errno not in _NO_SPLICE:
                    raise
                copy = True  # this file system cannot splice: read and write instead
                continue
            if count == 0:
                break
            on_disk += count
            tail.moved(count)
            while ends and ends[0] <= on_disk:
                whole = ends.popleft()
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(moved, on_disk, None)
            tail.make_room()  # after the report: the records never wait for it
    except BaseException as exc:  # reported on the loop: the table closes
        error = exc
        if tail is not None and on_disk > whole:  # a partial batch would read as damage
            tail.cut(start + whole)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(moved, whole, error)
    finally:
        if tail is not None:
            tail.close()
        os.close(pipe_r)


def restore_server(
    game: GameDefinition,
    path: Path,
    log_: TableLog,
    header: LogHeader,
    *,
    actions: int,
    make_agent: Callable[[int, LoggedSeat], Agent],
    app_version: str,
    **server_kwargs: Any,
) -> tuple[TableServer, TableRecorder]:
    """A server rebuilt from a log, appending to it; open it to take players back.

    Args:
        game: the game of the log.
        path: the log file.
        log_: the log as read (possibly the valid prefix of a damaged file).
        header: ``parse_header(log_.header)``.
        actions: how many of ``log_.actions`` to replay (all, or fewer to drop a
            bad tail: the file is cut after the last one kept).
        make_agent: builds the bot for a bot seat of the header.
        app_version: this application's version.
        server_kwargs: further :class:`TableServer` arguments (``host``,
            ``port``, ``bot_delay``, ``code``, ...); ``name`` defaults to the
            logged table name.

    Returns:
        ``(server, recorder)``: not yet open; the recorder is attached.

    Raises:
        ValueError: bad seats or names for the server.
        net.table.Refused: the match could not be rebuilt.
        OSError: the log cannot be reopened for appending.
    """
    kept = log_.actions[:actions]
    bots = {i: make_agent(i, s) for i, s in enumerate(header.seats) if s.kind == "bot"}
    server_kwargs.setdefault("name", str(header.table.get("name") or "Table"))
    server = TableServer(
        game,
        seats=len(header.seats),
        seed=header.seed,
        options=header.options,
        bots=bots,
        bot_names={i: header.seats[i].name for i in bots if header.seats[i].name},
        app_version=app_version,
        **server_kwargs,
    )
    humans = {
        i: (s.name, s.token) for i, s in enumerate(header.seats) if s.kind == "human" and s.token
    }
    server.restore(humans, ((a.seat, a.action, a.why) for a in kept))
    if len(kept) < len(log_.actions):
        valid, ended = log_.actions[len(kept)].offset, False
    else:
        valid, ended = log_.valid_bytes, log_.end is not None
    recorder = TableRecorder(writer=LogWriter.reopen(path, valid, ended=ended))
    recorder.attach(server)
    return server, recorder
