"""The table log's records written by the kernel's own asynchronous I/O (Linux AIO).

A record must be on disk before anyone hears of its action (docs/ARCHITECTURE.md,
"Persistence"). The pipe hand-off (``net/recorder.py`` ``_PipeChannel``) wakes a
thread for each record, and the thread needs the interpreter lock to report back:
two wake-ups of an idle CPU and a lock hand-off, ≈ 0.1 ms of each action's path on
the project's VM. Here the event loop submits the write itself (``io_submit``; it
returns at once) and the kernel signals an ``eventfd`` that the loop watches once the
bytes are durable: no thread, no lock, and the loop never waits on the disk.

What it needs, checked when a channel is made (:class:`AioChannel` raises
:class:`OSError` otherwise, and the recorder falls back to the pipe):

* Linux on x86-64 or AArch64, with ``io_setup`` allowed (a container may forbid it);
* a file system that takes ``O_DIRECT`` (ext4, xfs, btrfs; not tmpfs before Linux
  6.6): writes that bypass the page cache, so the kernel can do them without a thread
  (one that opens such a file but refuses its first write hands its records back,
  and they go through the pipe: :class:`AioRefused`);
* a log with room (format 2, ``net/tablelog.py`` "Room"): ``O_DIRECT`` writes whole
  blocks, so the last block is written again with each record, zeros after it, and
  the write never grows the file (a growing one would be done synchronously).

``O_DSYNC`` makes each write durable before its completion is signalled (the
device's cache is flushed, or the write goes with FUA).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import errno
import mmap
import os
import platform
import threading
from collections.abc import Callable
from typing import Final

from net.tablelog import MAX_RECORD, LogTail, LogWriter

BLOCK: Final = 4096
"""Alignment and granularity of the log's direct writes, in bytes: a memory page, and
a multiple of every disk's logical block (512 or 4096)."""

BUFFER: Final = MAX_RECORD
"""Bytes of records one write takes at most (after the last block's start, which the
buffer holds too); more waits for the next write. A multiple of :data:`BLOCK`. The
buffer is mapped memory: only the pages written to are ever allocated."""

_SYSCALLS: Final = {
    "x86_64": {"io_setup": 206, "io_destroy": 207, "io_getevents": 208, "io_submit": 209},
    "aarch64": {"io_setup": 0, "io_destroy": 1, "io_submit": 2, "io_getevents": 4},
}
"""The AIO system calls' numbers per machine (glibc has no wrappers for them)."""

_NOT_HERE: Final = frozenset({errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS})
"""A first write refused with one of these: this file cannot be written so (an odd file
system); the records go through the pipe instead (:class:`AioRefused`)."""

_NOT_NOW: Final = frozenset({errno.EAGAIN, errno.ENOMEM})
"""A later write's submission refused with one of these: the kernel cannot queue it now
(its resources are short). Nothing of it was written: the records not yet written go
through the pipe instead (:class:`AioRefused`), unless one of them is written in part.
"""

_IOCB_CMD_PWRITE: Final = 1
_IOCB_FLAG_RESFD: Final = 1


class _Iocb(ctypes.Structure):
    """``struct iocb`` (linux/aio_abi.h), little-endian layout: 64 bytes."""

    _fields_ = [
        ("aio_data", ctypes.c_uint64),
        ("aio_key", ctypes.c_uint32),
        ("aio_rw_flags", ctypes.c_int32),
        ("aio_lio_opcode", ctypes.c_uint16),
        ("aio_reqprio", ctypes.c_int16),
        ("aio_fildes", ctypes.c_uint32),
        ("aio_buf", ctypes.c_uint64),
        ("aio_nbytes", ctypes.c_uint64),
        ("aio_offset", ctypes.c_int64),
        ("aio_reserved2", ctypes.c_uint64),
        ("aio_flags", ctypes.c_uint32),
        ("aio_resfd", ctypes.c_uint32),
    ]


class _IoEvent(ctypes.Structure):
    """``struct io_event`` (linux/aio_abi.h): 32 bytes."""

    _fields_ = [
        ("data", ctypes.c_uint64),
        ("obj", ctypes.c_uint64),
        ("res", ctypes.c_int64),
        ("res2", ctypes.c_int64),
    ]


class _Kernel:
    """One AIO context (``io_setup``) with room for one write in flight at a time.

    Raises:
        OSError: not Linux on a known machine, or ``io_setup`` refused (``ENOSYS``,
            ``EPERM`` in a sandbox, ``EAGAIN`` past ``fs.aio-max-nr``).
    """

    def __init__(self) -> None:
        calls = _SYSCALLS.get(platform.machine()) if os.name == "posix" else None
        if calls is None or not hasattr(os, "eventfd") or not hasattr(os, "O_DIRECT"):
            raise OSError(errno.ENOSYS, "no Linux AIO here")
        self._calls = calls
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._syscall = self._libc.syscall
        self._syscall.restype = ctypes.c_long
        self._context = ctypes.c_ulong(0)
        self._call("io_setup", ctypes.c_long(1), ctypes.byref(self._context))
        self._iocb = _Iocb()
        self._list = (ctypes.POINTER(_Iocb) * 1)(ctypes.pointer(self._iocb))
        self._event = _IoEvent()

    def _call(self, name: str, *args: object) -> int:
        result: int = self._syscall(ctypes.c_long(self._calls[name]), *args)
        if result < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"{name}: {os.strerror(code)}")
        return result

    def write(self, fd: int, address: int, size: int, offset: int, done_fd: int) -> None:
        """Submit one write of ``size`` bytes at ``address`` to ``fd`` at ``offset``;
        ``done_fd`` (an eventfd) is signalled once it completes (:meth:`reap`).

        Raises:
            OSError: the kernel refused it (nothing was written).
        """
        iocb = self._iocb
        iocb.aio_lio_opcode = _IOCB_CMD_PWRITE
        iocb.aio_fildes = fd
        iocb.aio_buf = address
        iocb.aio_nbytes = size
        iocb.aio_offset = offset
        iocb.aio_flags = _IOCB_FLAG_RESFD
        iocb.aio_resfd = done_fd
        if self._call("io_submit", self._context, ctypes.c_long(1), self._list) != 1:
            raise OSError(errno.EIO, "io_submit took nothing")

    def reap(self) -> int | None:
        """The result of the write in flight if it completed (bytes written, or minus
        an errno), else ``None``. Never blocks."""
        timeout = (ctypes.c_long * 2)(0, 0)
        got = self._call(
            "io_getevents",
            self._context,
            ctypes.c_long(0),
            ctypes.c_long(1),
            ctypes.byref(self._event),
            timeout,
        )
        return int(self._event.res) if got == 1 else None

    def close(self, *, wait: bool = True) -> None:
        """Destroy the context (call it when no write is in flight); forgotten here at
        once. ``io_destroy`` waits for the kernel (≈ 32 ms on the project's VM: a grace
        period), so without ``wait`` it runs in a short-lived thread, off the loop."""
        context, self._context = self._context, ctypes.c_ulong(0)
        if not context.value:
            return

        def destroy() -> None:
            with contextlib.suppress(OSError):
                self._call("io_destroy", context)

        if wait:
            destroy()
        else:
            threading.Thread(target=destroy, name="table log (AIO context)", daemon=True).start()


Report = Callable[["AioChannel", BaseException | None], None]
"""Called on the loop after each write: ``None``, or why it failed (then the channel
is stopped, and nothing more is written)."""


class AioRefused(OSError):
    """The kernel refused this log's first write (:data:`_NOT_HERE`), or could not queue
    a later one (:data:`_NOT_NOW`) with no record written in part: nothing of those
    records was written, and :meth:`AioChannel.unwritten` gives them back, for the pipe."""


def _blocks(size: int) -> int:
    """``size`` bytes rounded up to whole :data:`BLOCK` s."""
    return -(-size // BLOCK) * BLOCK


def aio_available() -> bool:
    """Whether this platform may have Linux AIO (a channel may still refuse a file)."""
    return platform.machine() in _SYSCALLS and hasattr(os, "eventfd") and hasattr(os, "O_DIRECT")


class AioChannel:
    """The AIO hand-off of one log, with :class:`net.recorder._PipeChannel`'s interface.

    The loop keeps the log's last block in a page-aligned buffer. A record handed over
    goes after it; the loop submits one write of the blocks from the last one's start
    to the record's end (zeros after it, into the room), and goes on. The kernel
    signals the eventfd once the write is durable: the loop resolves the futures of
    the records wholly written, in order, and reports. Records handed over while a
    write is in flight go together in the next one (group commit). The room is made
    again off the loop (a thread, :meth:`net.tablelog.LogTail.extend_room`) once it runs
    low, also for records queued behind the end record; a write that would reach past
    the room waits for it, and if none could be made, grows the file (the kernel then
    writes synchronously: slower, nothing lost; the room is tried again only once no
    such write is in flight, as its zeros go from the room's end on).

    The log's descriptor and room are taken in a thread (:meth:`LogWriter.open_at_end`
    waits for a write under way); records handed over before that wait.

    A failed write (or one the kernel cut short) fails its records and every later
    one; the file is cut back to the end of the last record written whole (the room
    with it), and nothing more is written. A write the kernel cannot queue now
    (:data:`_NOT_NOW`) is not a failure: the records not yet written go through the
    pipe. :meth:`stop` lets the channel end once what was handed over is written; a log
    that ended loses its room then.

    Args:
        writer: the log; it must keep room (format 2).
        loop: the running loop (futures, the eventfd's reader, reports).
        report: a weak reference to the owner's :data:`Report` (a ``WeakMethod``).

    Raises:
        OSError: no AIO here, no room in the log, or its file system refuses
            ``O_DIRECT`` (e.g. tmpfs): use the pipe.
    """

    def __init__(
        self,
        writer: LogWriter,
        loop: asyncio.AbstractEventLoop,
        report: Callable[[], Report | None],
    ) -> None:
        if not writer.keeps_room:
            raise OSError(errno.EOPNOTSUPP, "the log keeps no room")
        self.writer = writer
        self.stopping = False
        self._loop = loop
        self._report = report
        self._kernel = _Kernel()
        self._direct = -1
        self._done_fd = -1
        try:
            self._direct = os.open(writer.path, os.O_WRONLY | os.O_DIRECT | os.O_DSYNC)
            self._done_fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        except BaseException:
            self._release()
            raise
        self._buffer = mmap.mmap(-1, BUFFER + 2 * BLOCK)
        self._address = ctypes.addressof(ctypes.c_char.from_buffer(self._buffer))
        self._tail: LogTail | None = None  # once opened (a thread)
        self._base = 0  # the file offset of the buffer's first byte (a block's start)
        self._end = 0  # the file offset where the next record goes
        self._handed = 0  # bytes handed over so far
        self._start = 0  # the file offset of the first byte handed over (once opened)
        self._resolved = 0  # bytes handed over up to the last future resolved
        self._pending = bytearray()  # handed over, not yet in a write
        self._waiting: collections.deque[tuple[int, asyncio.Future[None]]] = collections.deque()
        # In flight: (bytes handed over once it is on disk, its file end, its bytes of
        # _pending, which keeps them until then)
        self._flight: tuple[int, int, int] | None = None
        self._growing = False  # a thread makes room
        self._grew_in_vain = False  # the last attempt made no room: writes grow the file
        self._opening = True  # until _opened
        self._closed = False
        self._failure: Exception | None = None
        self._wrote = False  # a write completed: a refusal now is a failure
        self._refused: list[tuple[bytes, asyncio.Future[None]]] = []
        loop.add_reader(self._done_fd, self._reap)
        threading.Thread(target=self._open, name="table log (opening)", daemon=True).start()

    @property
    def idle(self) -> bool:
        """Every record handed over is on disk (or failed)."""
        return not self._waiting

    def hand_over(self, records: list[bytes], durable: asyncio.Future[None]) -> None:
        """Queue ``records`` for the next write (now, if none is in flight); ``durable``
        resolves once they are all on disk, or fails with the disk's error."""
        if self._failure is not None:  # nothing more is written
            durable.set_exception(self._failure)
            return
        for record in records:
            self._pending += record
            self._handed += len(record)
        self._waiting.append((self._handed, durable))
        if self._flight is None and self._tail is not None:
            self._submit()

    def stop(self) -> None:
        """End once what was handed over is written (safe to call twice, and from a
        finalizer: then the loop may be closed)."""
        self.stopping = True
        if self._flight is None and not self._pending:
            self._close()

    # --- on the loop -----------------------------------------------------------

    def _opened(self, tail: LogTail | None, head: bytes, error: BaseException | None) -> None:
        """The thread opened the log's end: ``head`` is what its last block holds."""
        self._opening = False
        if error is not None or tail is None:
            self._fail(error or OSError(errno.EIO, "the log could not be opened"))
            return
        self._tail = tail
        self._start = self._end = tail.at
        self._base = tail.at - len(head)
        self._buffer[: len(head)] = head
        if self._closed:
            self._close()
        elif self._pending:
            self._submit()
        elif self.stopping:
            self._close()

    def _submit(self) -> None:
        """Write the pending records after the last block: as many bytes as the buffer and
        the room take (a record may be split over two writes: it is durable once both are)."""
        assert self._flight is None
        at = self._end - self._base
        take = min(len(self._pending), BUFFER + BLOCK - at)
        room = self._room()
        if take > room:
            if room > 0:
                take = room  # what fits now; the rest after
            elif self._growing or not self._grew_in_vain:
                self._grow()  # the room first: a write past it waits in the kernel (and
                return  # one past it while the thread writes zeros there would be lost)
            # else no room could be made: the write grows the file (synchronously)
        end = self._end + take
        size = _blocks(end - self._base)
        self._buffer[at : at + take] = self._pending[:take]
        self._buffer[at + take : size] = bytes(size - at - take)
        try:
            self._kernel.write(self._direct, self._address, size, self._base, self._done_fd)
        except OSError as exc:
            written = self._handed - len(self._pending)  # every byte before these is on disk
            if exc.errno in _NOT_NOW and written == self._resolved:
                self._give_back(AioRefused(exc.errno, f"no more kernel AIO for this log: {exc}"))
            else:
                self._fail(exc)
            return
        self._flight = (self._handed - len(self._pending) + take, end, take)

    def _reap(self) -> None:
        """The eventfd is readable: the write in flight completed."""
        with contextlib.suppress(BlockingIOError):
            os.eventfd_read(self._done_fd)
        if self._flight is None:
            return
        try:
            result = self._kernel.reap()
        except OSError as exc:
            self._fail(exc)
            return
        if result is None:
            return  # not yet (a spurious wake-up)
        handed, end, took = self._flight
        size = _blocks(end - self._base)
        if result != size:
            why = os.strerror(-result) if result < 0 else f"{result} of {size} bytes"
            self._fail(OSError(-result if result < 0 else errno.EIO, f"log write: {why}"))
            return
        self._flight = None
        self._wrote = True
        del self._pending[:took]
        tail = self._tail
        assert tail is not None
        tail.moved(end - tail.at)
        self._end = end
        last = end // BLOCK * BLOCK  # keep the last block (unfinished) at the buffer's start
        if last != self._base:
            kept = self._buffer[last - self._base : end - self._base]
            self._buffer[: len(kept)] = kept
            self._base = last
        waiting = self._waiting
        while waiting and waiting[0][0] <= handed:
            self._resolved, durable = waiting.popleft()
            if not durable.done():
                durable.set_result(None)
        report = self._report()
        if report is not None:
            report(self, None)
        if self.writer.ended and not self._pending and not self._growing:
            with contextlib.suppress(OSError):
                tail.make_room()  # the end is on disk: the room is cut off
        if self._pending and not self._closed:
            self._submit()
        elif self.stopping:
            self._close()
        ready = not (self._closed or self._growing or self.writer.ended or self._past_room())
        if ready and tail.room_low:
            self._grow()

    def _grow(self) -> None:
        """Make room again in a thread; a write waiting for it goes once it is made."""
        if self._growing or self._tail is None:
            return
        self._growing = True
        tail = self._tail
        loop = self._loop

        def grow() -> None:
            error: BaseException | None = None
            try:
                tail.extend_room()  # never cut here: records may still be on their way
            except BaseException as exc:  # pragma: no cover - extend_room swallows OSError
                error = exc
            try:
                loop.call_soon_threadsafe(self._grown, error)
            except RuntimeError:  # the loop is closed: nothing more runs there
                self._loop_gone()

        threading.Thread(target=grow, name="table log (room)", daemon=True).start()

    def _grown(self, error: BaseException | None) -> None:
        """On the loop: the room thread is done; a write that waited for it goes (if no
        room could be made, it grows the file: slower, never lost)."""
        self._growing = False
        if self._closed:
            self._close()  # deferred until the thread was done with the log's descriptor
            return
        if self._tail is None or self._flight is not None:
            return
        self._grew_in_vain = error is not None or self._room() <= 0
        if self._pending:
            self._submit()
        elif self.writer.ended:
            with contextlib.suppress(OSError):
                self._tail.make_room()  # the end is on disk: the room is cut off

    def _past_room(self) -> bool:
        """The write in flight grows the file: the room thread, which writes its zeros
        from the room's end on, must wait until it is done."""
        assert self._tail is not None
        flight = self._flight
        return flight is not None and self._base + _blocks(flight[1] - self._base) > (
            self._tail.room_end
        )

    def _room(self) -> int:
        """How many bytes of records the next write may take before the room ends: it
        writes whole blocks from the last one's start, and never past the room."""
        assert self._tail is not None
        return (self._tail.room_end - self._base) // BLOCK * BLOCK - (self._end - self._base)

    def unwritten(self) -> list[tuple[bytes, asyncio.Future[None]]]:
        """After an :class:`AioRefused` report: every record handed over and not written,
        in order, each run with its future (none resolved), for another hand-off; then
        nothing."""
        refused, self._refused = self._refused, []
        return refused

    def _fail(self, error: BaseException) -> None:
        """Fail every record not on disk, cut the file back, report, and end; or, for a
        first write refused as this file cannot be written so, keep every record for
        another hand-off (:class:`AioRefused`)."""
        if not self._wrote and isinstance(error, OSError) and error.errno in _NOT_HERE:
            self._give_back(AioRefused(error.errno, f"no kernel AIO for this log: {error}"))
            return
        failure = error if isinstance(error, Exception) else RuntimeError(str(error))
        self._failure = failure
        while self._waiting:
            durable = self._waiting.popleft()[1]
            if not durable.done():
                durable.set_exception(failure)
        self._pending.clear()
        self.stopping = True
        if self._tail is not None:  # a record written in part would read as damage
            self._tail.cut(self._start + self._resolved)
        self._flight = None
        self._close()
        report = self._report()
        if report is not None:
            report(self, error)

    def _give_back(self, refusal: AioRefused) -> None:
        """Nothing of the records waiting was written: hand them back (:meth:`unwritten`),
        end, report."""
        data = bytes(self._pending)
        start = 0
        written = self._handed - len(self._pending)  # the waiting records' offsets count these
        while self._waiting:
            end, durable = self._waiting.popleft()
            self._refused.append((data[start : end - written], durable))
            start = end - written
        self._pending.clear()
        self.stopping = True
        self._flight = None
        self._close()
        report = self._report()
        if report is not None:
            report(self, refusal)

    def _close(self) -> None:
        """Give everything back once nothing is in flight (the log's room is cut off if
        it ended); while the opening or room thread still uses the log's descriptor,
        once it is done (:meth:`_opened`, :meth:`_grown`)."""
        self._closed = True
        if self._opening or self._growing:
            return  # _opened or _grown closes the rest
        tail, self._tail = self._tail, None
        if tail is not None:
            if self.writer.ended and self._failure is None:
                with contextlib.suppress(OSError):
                    tail.make_room()  # ended: the room is cut off
            tail.close()
        self._release()

    def _release(self) -> None:
        """Stop watching the eventfd; close it, the direct descriptor and the context."""
        with contextlib.suppress(Exception):  # the loop may be closed (a finalizer)
            if self._done_fd >= 0:
                self._loop.remove_reader(self._done_fd)
        for name in ("_done_fd", "_direct"):
            fd = getattr(self, name)
            if fd >= 0:
                setattr(self, name, -1)
                os.close(fd)
        self._kernel.close(wait=False)  # io_destroy takes ≈ 32 ms: never on the loop

    # --- in the opening thread -------------------------------------------------

    def _open(self) -> None:
        """Take the log's end (waiting for a write under way), read its last block, make
        room if it is low, and hand that to the loop (:meth:`_opened`)."""
        tail: LogTail | None = None
        head = b""
        error: BaseException | None = None
        try:
            tail = self.writer.open_at_end()
            start = tail.at // BLOCK * BLOCK
            with open(self.writer.path, "rb", buffering=0) as file:
                file.seek(start)
                head = file.read(tail.at - start)
            if len(head) != tail.at - start:
                raise OSError(errno.EIO, "the log's last block could not be read")
            tail.make_room()
        except BaseException as exc:
            error = exc
            if tail is not None:
                tail.close()
                tail = None
        try:
            self._loop.call_soon_threadsafe(self._opened, tail, head, error)
        except RuntimeError:  # the loop is closed: nobody waits
            self._tail = tail
            self._loop_gone()

    def _loop_gone(self) -> None:
        """In the opening or room thread, whose report the closed loop refused: nothing
        more runs there, so the descriptors and the AIO context are given back now."""
        self._opening = self._growing = False
        self._close()
