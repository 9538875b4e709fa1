"""Where bots think: a worker thread (the default), or worker processes for many tables.

A bot's ``act`` is pure Python: in a thread it holds the interpreter lock
while it thinks, so the event loop serving every table of the process waits
for its turn at the lock. With a few tables that is unnoticeable; with
hundreds of bot tables on one loop it starves the loop (docs/ARCHITECTURE.md
"Many tables"). :class:`ProcessThinker` moves the thinking to worker
processes, where it only costs the loop the copy of a view and the legal
actions there and of the answer back.

A bot keeps its memory between moves: each bot lives in one worker process.
The first time it is asked it is copied there (pickled) and from then on
only its seat's view and legal actions travel; the copy in the server
process is not asked again (it stays as it was when it left). A bot that
cannot be pickled thinks in a thread of the server process, as by default.
Moves are decided by the same bot, in the same order, as in a thread: a
seeded bot plays the same game either way.

The server process talks to each worker over one socket read and written by
the event loop itself (no helper thread: a thread in the server process
would take the interpreter lock from the loop each time it hands over a
question or an answer). Each message is a 4-byte big-endian length and a
pickle: ``("act", ticket, key, shipped, view, legal)`` one way (the view and
legal actions still msgpack-encoded, see :class:`Question`), ``(ticket, ok,
answer or error)`` the other, and ``("forget", keys)``. The questions of one
pass of the loop leave together, in one write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import socket
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import msgpack

from net.frames import FrameError
from net.game import Agent, Wire

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Question:
    """What a bot is asked: its seat's view and legal actions, msgpack-encoded.

    The bot gets them decoded (:meth:`unpack`) exactly as a client would
    receive them: its own copy, no reference into the match. Encoding is
    all the event loop does; decoding happens where the bot thinks.

    Attributes:
        view: the seat's view (msgpack bytes of a :data:`~net.game.Wire`).
        legal: the seat's legal actions (msgpack bytes of a list of them).
    """

    view: bytes
    legal: bytes

    @classmethod
    def of(cls, view: Wire, legal: list[Wire]) -> Question:
        """Encode ``view`` and ``legal``.

        Raises:
            FrameError: something in them msgpack cannot encode.
        """
        try:
            return cls(
                msgpack.packb(view, use_bin_type=True), msgpack.packb(legal, use_bin_type=True)
            )
        except (TypeError, ValueError, OverflowError) as exc:
            raise FrameError(f"Cannot encode value: {exc}.") from exc

    def unpack(self) -> tuple[Wire, list[Wire]]:
        """``(view, legal)`` as the bot sees them (as :func:`net.frames.wire_copy` would)."""
        legal: list[Wire] = msgpack.unpackb(self.legal, raw=False)
        return msgpack.unpackb(self.view, raw=False), legal

    def answer(self, agent: Agent) -> Wire | None:
        """``agent.act(view, legal)`` on this question (where the bot thinks)."""
        return agent.act(*self.unpack())


class Thinker(Protocol):
    """Runs bots' decisions off the event loop (see :class:`net.turns.TurnKeeper`)."""

    async def think(self, agent: Agent, question: Question) -> Wire | None:
        """``agent.act(view, legal)`` on ``question`` without blocking the event loop.

        Raises:
            Exception: whatever ``act`` raised.
        """
        ...

    def forget(self, agents: Iterable[Agent]) -> None:
        """These bots will not be asked again (their table closed): free what they hold."""
        ...


class ThreadThinker:
    """Each decision in a worker thread of this process (the default)."""

    async def think(self, agent: Agent, question: Question) -> Wire | None:
        """See :meth:`Thinker.think`."""
        return await asyncio.to_thread(question.answer, agent)

    def forget(self, agents: Iterable[Agent]) -> None:
        """Nothing is held."""


_LENGTH = struct.Struct(">I")

NICENESS = 10
"""How much nicer (``os.nice``) than the server the workers are: on a busy machine the
event loop, which serves people, gets the CPU before the bots' thinking (measured with
200 bot tables, docs/measurements/bench-server.txt); on an idle one nothing changes."""


def _serve(sock: socket.socket, niceness: int) -> None:
    """A worker process's life: answer the server's questions until it hangs up.

    The bots living here are kept by the key the server gave them.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server; it hangs up
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    homed: dict[int, Agent] = {}
    stream = sock.makefile("rb")
    with sock, stream:
        while True:
            header = stream.read(_LENGTH.size)
            if len(header) < _LENGTH.size:
                return  # the server closed its end (or died)
            (length,) = _LENGTH.unpack(header)
            payload = stream.read(length)
            if len(payload) < length:
                return  # hung up in the middle of a question
            message = pickle.loads(payload)
            if message[0] == "forget":
                for key in message[1]:
                    homed.pop(key, None)
                continue
            _, ticket, key, shipped, view, legal = message
            try:
                if shipped is not None:
                    homed[key] = pickle.loads(shipped)
                reply = pickle.dumps((ticket, True, Question(view, legal).answer(homed[key])))
            except Exception as exc:
                reply = _error_reply(ticket, exc)
            try:
                sock.sendall(_LENGTH.pack(len(reply)) + reply)
            except OSError:
                return  # the server hung up meanwhile


def _error_reply(ticket: int, exc: Exception) -> bytes:
    """The pickled error for ``ticket``; a plain RuntimeError if ``exc`` cannot travel."""
    try:
        return pickle.dumps((ticket, False, exc))
    except Exception:
        return pickle.dumps((ticket, False, RuntimeError(f"{type(exc).__name__}: {exc}")))


class WorkerLost(Exception):
    """The worker process died (killed, out of memory) before it answered."""


class _Link(asyncio.Protocol):
    """The server's end of one worker's socket: sends questions, matches answers by ticket."""

    def __init__(self) -> None:
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._tickets = 0
        self._outgoing: list[bytes] = []  # framed messages of this pass, not yet written
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def send(self, message: tuple[Any, ...]) -> None:
        """Queue ``message`` for the worker; it leaves at the end of this pass of the
        loop with the others queued meanwhile, in one write (never blocks: the
        transport buffers).

        Raises:
            WorkerLost: the worker is already gone (nothing was queued).
        """
        if self._transport is None or self.lost:
            raise WorkerLost("the worker process is gone")
        payload = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        if not self._outgoing:
            asyncio.get_running_loop().call_soon(self._flush)
        self._outgoing += (_LENGTH.pack(len(payload)), payload)

    def _flush(self) -> None:
        """Write every message queued in this pass, at once."""
        if self._transport is not None and not self.lost and self._outgoing:
            self._transport.write(b"".join(self._outgoing))
        self._outgoing.clear()

    def ask(self, key: int, shipped: bytes | None, question: Question) -> asyncio.Future[Any]:
        """Send bot ``key`` (moving in, if ``shipped``) its question now; the future
        gets its answer, or its error, or :class:`WorkerLost` if the worker dies first.

        Raises:
            WorkerLost: the worker is already gone (nothing was sent).
        """
        self._tickets += 1
        ticket = self._tickets
        self.send(("act", ticket, key, shipped, question.view, question.legal))
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[ticket] = answer
        answer.add_done_callback(lambda _: self._waiting.pop(ticket, None))
        return answer

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start = 0
        while len(buffer) - start >= _LENGTH.size:
            (length,) = _LENGTH.unpack_from(buffer, start)
            end = start + _LENGTH.size + length
            if len(buffer) < end:
                break
            ticket, ok, value = pickle.loads(buffer[start + _LENGTH.size : end])
            start = end
            answer = self._waiting.pop(ticket, None)
            if answer is None or answer.done():
                continue  # its asker was cancelled
            if ok:
                answer.set_result(value)
            else:
                answer.set_exception(value)
        del buffer[:start]

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        for answer in self._waiting.values():
            if not answer.done():
                answer.set_exception(WorkerLost("the worker process died"))
        self._waiting.clear()

    def close(self) -> None:
        """Hang up: the worker finishes the question at hand, then exits."""
        self.lost = True
        if self._transport is not None:
            self._transport.close()


class ProcessThinker:
    """Bots think in worker processes, each bot always in the same one.

    Args:
        workers: Worker processes; default one fewer than the machine's CPUs
            (at least one), leaving a core to the event loop.
        niceness: Added to the workers' niceness (:data:`NICENESS` by default;
            0 to think at the server's priority).

    One thinker is meant to serve every table of a process; call
    :meth:`close` when the last table has closed. Use from one event loop.
    The workers start on the first question (each a ``spawn`` of this
    interpreter) and stop at :meth:`close` or when this process exits.

    Raises:
        ValueError: ``workers`` below 1.
    """

    def __init__(self, workers: int | None = None, *, niceness: int = NICENESS) -> None:
        count = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
        if count < 1:
            raise ValueError(f"a process thinker needs at least one worker, not {count}")
        self._count = count
        self._niceness = niceness
        self._links: dict[int, asyncio.Future[_Link]] = {}  # worker -> its link, once connected
        self._homes: dict[int, tuple[Agent, int]] = {}  # id(agent) -> (agent, its worker)
        self._parcels: dict[int, bytes] = {}  # id(agent) -> the pickled bot, until sent
        self._local: dict[int, Agent] = {}  # id(agent) -> an agent that cannot move
        self._next = 0
        self._broken = False
        self._closed = False

    async def think(self, agent: Agent, question: Question) -> Wire | None:
        """See :meth:`Thinker.think`; in the bot's worker process when it can move there."""
        key = id(agent)
        home = self._homes.get(key)
        if home is None and key not in self._local and not self._broken and not self._closed:
            try:
                self._parcels[key] = pickle.dumps(agent)
            except Exception as exc:  # pickling raises many kinds (a lambda, a lock, ...)
                log.info("Bot %r cannot move to a worker process (%s); it thinks here.", agent, exc)
                self._local[key] = agent
            else:
                home = (agent, self._next % self._count)
                self._next += 1
                self._homes[key] = home
        if home is None or self._broken or self._closed:
            return await asyncio.to_thread(question.answer, agent)
        try:
            # Shielded: an asker cancelled meanwhile must not cancel the start for all.
            link = await asyncio.shield(self._link(home[1]))
            # Shipped with its first question actually sent (not at the first try: an
            # asker cancelled while the worker started sent nothing).
            answer = link.ask(key, self._parcels.get(key), question)
            self._parcels.pop(key, None)
            result: Wire | None = await answer
            return result
        except WorkerLost:
            if self._closed:
                return None  # abandoned (see close)
            # A worker died (killed, out of memory): the bots it held lost their memory.
            # From now on every bot thinks here, from the copy it left with.
            if not self._broken:
                log.error("A bot worker process died; bots think in this process from now on.")
            self._broken = True
            return await asyncio.to_thread(question.answer, agent)

    def _link(self, worker: int) -> asyncio.Future[_Link]:
        """The link to ``worker``, started on first use (shared by every asker meanwhile)."""
        link = self._links.get(worker)
        if link is None or link.cancelled():
            link = self._links[worker] = asyncio.ensure_future(self._start(worker))
        return link

    async def _start(self, worker: int) -> _Link:
        """Spawn worker ``worker`` and connect its socket to the running loop."""
        # Worker processes are for many tables: a solo table never imports multiprocessing.
        import multiprocessing

        ours, theirs = socket.socketpair()
        try:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            process = context.Process(
                target=_serve,
                args=(theirs, self._niceness),
                name=f"bot worker {worker}",
                daemon=True,
            )
            process.start()
            link = _Link()
            await asyncio.get_running_loop().connect_accepted_socket(lambda: link, ours)
        except Exception as exc:
            ours.close()
            raise WorkerLost(f"the worker process could not start: {exc}") from exc
        finally:
            theirs.close()  # the worker has its own copy now
        if self._closed:
            link.close()
            raise WorkerLost("the thinker closed")
        return link

    def forget(self, agents: Iterable[Agent]) -> None:
        """See :meth:`Thinker.forget`."""
        gone: dict[int, list[int]] = {}
        for agent in agents:
            key = id(agent)
            self._local.pop(key, None)
            self._parcels.pop(key, None)
            home = self._homes.pop(key, None)
            if home is not None:
                gone.setdefault(home[1], []).append(key)
        if self._broken or self._closed:
            return
        for worker, keys in gone.items():
            link = _ready(self._links.get(worker))
            if link is not None:
                with contextlib.suppress(WorkerLost):  # it took them with it
                    link.send(("forget", keys))

    def close(self) -> None:
        """Stop the worker processes (a decision under way is abandoned). Idempotent."""
        self._closed = True
        for started in self._links.values():
            link = _ready(started)
            if link is not None:
                link.close()
        self._homes.clear()
        self._parcels.clear()
        self._local.clear()


def _ready(started: asyncio.Future[_Link] | None) -> _Link | None:
    """The link if its worker started and connected, else ``None``."""
    if started is None or not started.done() or started.cancelled():
        return None
    return None if started.exception() is not None else started.result()
