"""One framed TCP connection with a bounded send queue.

Sending never waits: a frame goes straight to the socket when nothing is
waiting before it, else into a queue that a writer task drains. A peer that
does not read fills the queue (or stalls a write past a timeout) and is
dropped, so one slow or dead peer can never hold up whoever is sending to
everyone. Used by both the server (one per client) and the client.

Receiving is awaited one frame at a time (:meth:`FramedConnection.recv`), or
handed on as frames arrive (:meth:`FramedConnection.deliver`): on a stream
opened by :func:`open_stream`, each frame is cut from the bytes in the same
callback that received them, with no task in between (:class:`FrameReader`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Protocol, SupportsIndex

from net.frames import MAX_FRAME, FrameCutter, Limits, encode, read_frame, read_payload
from net.game import Wire

log = logging.getLogger(__name__)

QUEUE_SIZE: Final = 256
"""Frames waiting to be written before the peer counts as unable to keep up."""

WRITE_TIMEOUT: Final = 10.0
"""Seconds one write may wait for the peer to make room before it is dropped."""


class Gate(Protocol):
    """Decides whether a frame (or the close after the frames) waits before its queue.

    The table server holds back everything it sends while a logged action is
    not yet on disk (``net/server.py``, the outbox): nobody may hear of an
    action, or of anything that came after it, before its record is durable.
    """

    def hold(self, conn: FramedConnection, frame: bytes | None) -> bool:
        """Take ``frame`` (``None``: the close) to hand to ``conn.release`` later, in
        the order sent; or return False to let it go into the queue at once."""
        ...


class FramedConnection:
    """A stream pair speaking length-prefixed msgpack frames.

    Args:
        reader: The connection's reader.
        writer: The connection's writer.
        limits: Decoding caps for incoming frames.
        queue_size: Most frames queued for sending before the peer is dropped.
        write_timeout: Seconds a write may block before the peer is dropped.
        gate: Holds frames back before they are queued (see :class:`Gate`);
            ``None`` queues every frame at once.

    Create it inside a running event loop: it starts its writer task at once.
    A TCP stream gets ``TCP_NODELAY``: a frame is a whole message, and waiting
    to coalesce it with the next (Nagle's algorithm, against the peer's delayed
    acknowledgement) costs tens of milliseconds per exchange.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        limits: Limits,
        queue_size: int = QUEUE_SIZE,
        write_timeout: float = WRITE_TIMEOUT,
        gate: Gate | None = None,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._transport = writer.transport  # written to directly (see _put)
        self._gate = gate
        _no_delay(writer)
        self._limits = limits
        self._write_timeout = write_timeout
        # None in the queue means "flush, then close the stream"; b"" (writes
        # nothing) hands the writer task a write that left bytes unsent.
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
        # The writer task owns the stream: something is queued or being waited on.
        self._busy = False
        self._dead = False  # aborted: nothing more is written
        self._closing = False
        self._done = asyncio.Event()
        self.close_reason: str | None = None
        """Why the connection was closed by this side, once it is."""
        peer = writer.get_extra_info("peername")
        self.label = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "peer"
        """``host:port`` of the other end, for logs."""
        self.address = str(peer[0]) if isinstance(peer, tuple) else "peer"
        """The other end's address without its port: whom per-address limits count."""
        self._pump: asyncio.Task[None] | None = None  # reads for deliver() on a plain reader
        self._writer_task = asyncio.create_task(self._write_loop(), name=f"write {self.label}")
        # A callback rather than the loop's own `finally`: a task cancelled
        # before it ever ran does not run its body at all.
        self._writer_task.add_done_callback(lambda _task: self._done.set())

    @property
    def closing(self) -> bool:
        """True once :meth:`close` or :meth:`abort` was called, or the writer failed."""
        return self._closing

    async def recv(self) -> Wire:
        """Read the next frame.

        Raises:
            ConnectionLost: The peer closed or reset the connection.
            FrameError: The frame is malformed; close the connection.
        """
        return await read_frame(self._reader, self._limits)

    async def recv_payload(self) -> bytes:
        """Read the next frame's payload, undecoded (for :func:`net.messages.parse_server_frame`).

        Raises:
            ConnectionLost: The peer closed or reset the connection.
            FrameError: The frame's length is out of bounds; close the connection.
        """
        return await read_payload(self._reader)

    def deliver(
        self, on_payload: Callable[[bytes], bool], on_end: Callable[[Exception], None]
    ) -> None:
        """From now on, hand each incoming frame's payload to ``on_payload`` as it
        arrives, instead of waiting for it with :meth:`recv` (call once, after the last
        :meth:`recv`). See :class:`net.frames.FrameCutter` for the two callbacks.

        On a :class:`FrameReader` (:func:`open_stream`) the frames are cut in the
        callback that received their bytes; on any other reader a task reads for it.
        ``on_end`` is called once, also when the connection is closed from this side
        (the stream then ends).
        """
        cutter = FrameCutter(on_payload, on_end)
        if isinstance(self._reader, FrameReader):
            self._reader.divert(cutter)
        else:
            self._pump = asyncio.create_task(_pump(self._reader, cutter), name=f"read {self.label}")

    def send(self, msg: Mapping[str, Any]) -> bool:
        """Encode and queue one message.

        Returns:
            False if the connection is closing or was just dropped for being
            too slow (the message is then discarded).

        Raises:
            FrameError: ``msg`` cannot be encoded (a bug of the caller).
        """
        return self.send_frame(encode(msg))

    def send_frame(self, frame: bytes) -> bool:
        """Queue one already encoded frame (see :func:`net.frames.encode`).

        Returns:
            False if the connection is closing or was just dropped for being too slow.
        """
        if self._closing:
            return False
        if self._gate is not None and self._gate.hold(self, frame):
            return True
        return self._put(frame)

    def release(self, frame: bytes | None) -> None:
        """Queue a frame (``None``: the close) that the gate held back, sent before any
        close that came after it; a connection dropped meanwhile discards it."""
        if frame is None:
            self._put_end()
        else:
            self._put(frame)

    def _put(self, frame: bytes) -> bool:
        """Send ``frame`` after everything sent before it: straight into the
        transport when the writer task has nothing queued nor anything to wait for
        (no task switch, the usual case), else into the queue behind the rest."""
        if self._dead or self._writer_task.done():
            return False  # aborted, or the writer failed
        if not self._busy:
            transport = self._transport
            transport.write(frame)
            if not (transport.get_write_buffer_size() or transport.is_closing()):
                return True
            frame = b""  # the kernel left bytes unsent: the writer task waits for them
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("Dropping %s: %d frames unsent.", self.label, self._queue.maxsize)
            self.abort("slow")
            return False
        self._busy = True
        return True

    def close(self, reason: str = "closing") -> None:
        """Send what is queued (and held by the gate), then close. Further sends are
        discarded."""
        if self._closing:
            return
        self._closing = True
        self.close_reason = reason
        if self._gate is not None and self._gate.hold(self, None):
            return
        self._put_end()

    def _put_end(self) -> None:
        try:
            self._queue.put_nowait(None)
        except asyncio.QueueFull:
            self.abort(self.close_reason or "closing")
        self._busy = True  # nothing goes past the close

    def abort(self, reason: str) -> None:
        """Close at once, discarding anything unsent."""
        self._closing = True
        self._dead = True
        if self.close_reason is None:
            self.close_reason = reason
        self._writer_task.cancel()
        self._writer.transport.abort()

    async def wait_closed(self, timeout: float | None = None) -> None:
        """Wait until the stream is closed; abort it if ``timeout`` seconds pass first."""
        try:
            async with asyncio.timeout(timeout):
                await self._done.wait()
        except TimeoutError:
            self.abort(self.close_reason or "timeout")
            await self._done.wait()

    async def _write_loop(self) -> None:
        try:
            transport = self._writer.transport
            while (frame := await self._queue.get()) is not None:
                transport.write(frame)
                # Most writes go straight to the socket: then there is nothing to
                # wait for, and no timer to arm. Whatever the kernel did not take,
                # or a transport closing under us (drain raises why), is waited on.
                if transport.get_write_buffer_size() or transport.is_closing():
                    async with asyncio.timeout(self._write_timeout):
                        await self._writer.drain()
                if self._queue.empty():
                    self._busy = False  # the next frame may go straight to the socket
        except TimeoutError:
            log.warning("Dropping %s: a write blocked for %.1f s.", self.label, self._write_timeout)
            self.close_reason = self.close_reason or "slow"
            self._writer.transport.abort()
        except (OSError, RuntimeError):
            # Reset by the peer, or the transport was closed under us.
            self._writer.transport.abort()
        finally:
            self._closing = True
            with contextlib.suppress(Exception):
                self._writer.close()


class FrameReader(asyncio.StreamReader):
    """A stream reader that can hand frames on as their bytes arrive.

    Until :meth:`divert` it is a plain :class:`asyncio.StreamReader` (the
    handshake awaits its frames). After, every byte the connection receives goes
    to a :class:`net.frames.FrameCutter` in the protocol's own callback: a frame
    reaches its consumer without a task that waits on the stream and must be woken
    for it (≈ 10 µs less per frame; measured in docs/measurements/bench-server.txt).
    Open one with :func:`open_stream`.
    """

    _cutter: FrameCutter | None = None

    def divert(self, cutter: FrameCutter) -> None:
        """Send everything received from now on (and anything buffered and not yet
        read, and the stream's end if it came) to ``cutter``.

        Raises:
            RuntimeError: the reader was diverted already.
        """
        if self._cutter is not None:
            raise RuntimeError("this reader already hands its frames on")
        self._cutter = cutter
        # What arrived with the handshake's last frame is in the StreamReader's own
        # buffer, which has no public accessor (asyncio's docs suggest subclassing it
        # to customise it); tests/net/test_net_connection.py pins this.
        buffer: bytearray = self._buffer  # type: ignore[attr-defined]
        buffered = bytes(buffer)
        buffer.clear()
        self._maybe_resume_transport()  # type: ignore[attr-defined]
        cutter.feed(buffered)
        if (error := self.exception()) is not None:
            cutter.end(error)
        elif self.at_eof():
            cutter.end()

    def feed_data(self, data: Iterable[SupportsIndex]) -> None:
        """Called by the stream's protocol with received bytes."""
        if self._cutter is None:
            super().feed_data(data)
        else:
            self._cutter.feed(bytes(data))  # the bytes object itself: no copy

    def feed_eof(self) -> None:
        """Called by the stream's protocol when the peer closed its side."""
        super().feed_eof()
        if self._cutter is not None:
            self._cutter.end()

    def set_exception(self, exc: Exception) -> None:
        """Called by the stream's protocol when the connection was reset."""
        super().set_exception(exc)
        if self._cutter is not None:
            self._cutter.end(exc)


async def open_stream(host: str, port: int) -> tuple[FrameReader, asyncio.StreamWriter]:
    """:func:`asyncio.open_connection` with a :class:`FrameReader` (as asyncio's own
    docs suggest for a custom reader: the same three steps).

    Raises:
        OSError: the connection could not be made.
    """
    loop = asyncio.get_running_loop()
    reader = FrameReader(loop=loop)
    protocol = _FrameProtocol(reader, loop)
    transport, _ = await loop.create_connection(lambda: protocol, host, port)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


class _FrameProtocol(asyncio.StreamReaderProtocol):
    """:func:`open_stream`'s protocol: once its :class:`FrameReader` is diverted, the
    bytes received go straight to the reader's cutter, past the stream's own layers
    (≈ 0.2 µs less per frame; docs/measurements/bench-server.txt, round 10)."""

    def __init__(self, reader: FrameReader, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(reader, loop=loop)
        self._frames = reader

    def data_received(self, data: bytes) -> None:
        """Called by the transport with received bytes."""
        cutter = self._frames._cutter
        if cutter is None:
            super().data_received(data)
        else:
            cutter.feed(data)


async def _pump(reader: asyncio.StreamReader, cutter: FrameCutter) -> None:
    """:meth:`FramedConnection.deliver` on a plain reader: read until the stream ends."""
    try:
        while not cutter.stopped and (data := await reader.read(MAX_FRAME)):
            cutter.feed(data)
    except OSError as exc:
        cutter.end(exc)
    else:
        cutter.end()


def _no_delay(writer: asyncio.StreamWriter) -> None:
    """Turn Nagle's algorithm off on a TCP stream. asyncio does it only for sockets
    made with ``proto=IPPROTO_TCP``; a listening socket made with the default
    ``proto`` 0 (``net/listen.py``) accepts connections it skips."""
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
