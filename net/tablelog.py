"""An append-only table log: a header, then one frame per accepted action, then room.

docs/ARCHITECTURE.md "Persistence". The file uses the wire's framing (4-byte big-endian
length, then one msgpack map) so one decoder serves both. Layout::

    frame 0   header  {"format": 2, "created": float (Unix seconds), "app": str,
                       "game": str, "rules": str, "seed": int,
                       "seats": [{"name": str, "kind": str,
                       "token": str | None, ...}, ...], "options": map,
                       "table": map, "ck": bin 4}
    frame 1+  action  {"seat": int, "action": map, "time": float,
                       "by"?: "table", "why"?: "away"|"time", "ck": bin 4}
                      (``by``/``why`` only when the table played the seat's
                      default itself; older logs never have them)
              or chat {"chat": {"seat": int | None, "name": str, "text": str,
                       "after": int (actions before it)}, "time": float, "ck": bin 4}
                      (table talk, net/chat.py: never replayed into the match)
    last      end     {"end": map (the match's public result), "time": float, "ck": bin 4}
                      (only once the game is over; nothing may follow it)
    then      room    zero bytes, up to :data:`ROOM` of them (none once the end is
                      recorded, nor where the platform has no ``pwrite``/``O_DSYNC``)

``ck`` is the last entry of every record of a format-2 log: packed as the bytes
``a2 63 6b c4 04`` then the CRC-32 (:func:`zlib.crc32`, big-endian) of every byte of
the map before those last four. :func:`read_log` drops it from the maps it returns.
Format 1 (older logs) is the same without ``ck`` and without room; it is read, and
resumed, exactly as before (records appended to it stay format 1).

Replaying the actions on a match made from the header's seed, seat count
and options rebuilds the game exactly (R3); the ``end`` record lets a replay
check that it reached the same result. Tokens let players reclaim their seats
after a resume, so the file is created readable by its owner only (0600)
and stays on the host's disk.

Durability. Every record is on disk before :meth:`LogWriter.append` (or
:meth:`LogWriter.write`, which syncs a batch of records at once) returns:
the header (and the room after it) is written and ``fsync``-ed, the records after
it are written with synchronous writes (``O_DSYNC``: the data, and the file's new
length if it grew, are durable when the write returns; ``fsync`` after it where the
flag is unknown) at explicit offsets, from the end of the last record on.
:mod:`net.recorder` may instead move records from a pipe into the file with
``os.splice`` (:func:`move_synced`) through a :class:`LogTail`: the same guarantee,
one record after the other, no gap. So an action the table acknowledged is on disk
even if the process is killed the next instant (docs/ARCHITECTURE.md: "flushed
before the action is acknowledged").

Room. A synchronous write that grows the file also waits for the file system to
commit the new length (on ext4 a journal commit: measured on the project's VM, a
60-byte ``O_DSYNC`` append took 252-325 µs at the median, the same write into
space already written with zeros and synced 171-241 µs). So a format-2 log keeps
zero-filled, synced space past its last record: :meth:`LogWriter.create` and
:meth:`LogWriter.reopen` make :data:`ROOM` bytes of it, records are written into it
(changing no metadata the sync must wait for), and :meth:`LogWriter.make_room`,
called by the writing thread *after* it has reported a record durable, writes
zeros up to :data:`ROOM` bytes past the last record again once less than
:data:`ROOM_LOW` is left (one synchronous write of ≈ 48 KiB, ≈ 0.2 ms, every few
hundred records). Once the ``end`` is recorded the room is cut off instead. A
record that finds no room (room not made yet, or a failed extension) just grows
the file, as before: the room only saves time, correctness never depends on it.

Reading. A log ends at the end of its file, or, in format 2, where a zero length
is followed only by zero bytes up to the end of the file (the room, or what is
left of it); :attr:`TableLog.valid_bytes` is the end of the last record either
way. A zero length followed by anything else is damage.

Torn writes. A crash mid-write leaves at most one batch partly written, at the
end. Appending (format 1, or past the room) it leaves a missing tail, which
:func:`read_log` reports as :class:`LogDamaged` (truncated record) with the valid
prefix, and :meth:`LogWriter.reopen` cuts off before appending. Written into room
it leaves a record whose tail is zeros, and without ``ck`` some of those would
still decode: tearing real records over zeros at every byte, a seat's move, a
chat or an end record decodes (with a wrong ``time``, the last value) when torn
inside that float, a table's move decodes with a ``why`` of NULs
(``"aw\\x00\\x00"``, so the replay would tell the game another reason), a header
with a wrong ``table`` port; tears anywhere earlier fail (msgpack reads each zero
as the integer 0, which is not a ``str`` key, or leaves bytes over). Hence the
check: a record torn anywhere before its last byte has zeros where its ``ck``
marker or CRC was. Torn inside the marker, the marker is wrong; torn inside the
CRC, the bytes it covers are intact, so the torn record passes only if the zeros
it got are the CRC's own bytes, that is if it is byte for byte the record
written. A torn record is therefore never read as another record: a tear that
leaves its length reading zero (at most its first 2 bytes kept, or 3 for a record
under 256 bytes: such lengths begin with two or three zero bytes) reads as the clean end (the
unfinished record is dropped, as it was never acknowledged), any other tear as
damage (as a missing tail was). tests/net/test_tablelog_room.py tears one record
of each kind at every byte, and shows the torn ones msgpack alone would take. A crash
that keeps later sectors of a write but loses earlier ones shows a zero length
followed by other bytes (damage), or a record whose CRC fails (damage).
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
import time
import weakref
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

FORMAT_VERSION = 2
"""Bumped when the layout above changes. 2: every record ends with its ``ck`` and the
file may end in room. An app that reads only format 1 refuses a format-2 log as a
whole ("damaged at byte 0 (written in log format 2; this version reads format 1)"):
it would otherwise take the room for a damaged tail and read a torn record that the
check rejects. This version reads both."""
READ_FORMATS = (1, 2)
"""The formats :func:`read_log` reads; a log is appended to in its own format."""
MAX_RECORD = 64 * 1024
"""Largest record accepted when reading, in bytes (as on the wire)."""
ROOM = 64 * 1024
"""Bytes of zeros a format-2 log keeps past its last record after :meth:`LogWriter.create`,
:meth:`LogWriter.reopen` and each :meth:`LogWriter.make_room` that extends it."""
ROOM_LOW = 16 * 1024
""":meth:`LogWriter.make_room` extends the room once fewer bytes than this are left: one
synchronous write of ≈ ``ROOM - ROOM_LOW`` zeros (48 KiB, ≈ 0.2 ms on the project's
VM) every few hundred records (a record is 50-200 bytes)."""
ROOM_WRITES = hasattr(os, "pwrite") and hasattr(os, "O_DSYNC")
"""Records are written at explicit offsets with synchronous writes, and so may go into
room (else, e.g. on Windows, appended and synced: no room is ever made)."""
_LENGTH = struct.Struct(">I")
_CHECK = struct.Struct(">I")
_SEAL = b"\xa2ck\xc4\x04"
"""How a format-2 record's last entry begins: the key ``"ck"``, then a 4-byte ``bin``."""
_UNSEALED = b"\0\0\0\0"
"""The CRC's place while a record is packed."""
_ZERO_LENGTH = bytes(_LENGTH.size)


class LogDamaged(Exception):
    """A log that ends early or holds a bad record.

    The message names the file, the byte offset where the damage starts and
    the last good action, e.g. ``"game.plog: damaged at byte 812 (truncated
    record); the last good record is action 14 (seat 2, serve)"``.

    Attributes:
        path: the file.
        offset: byte offset where the damage starts.
        good_actions: number of valid actions before it.
        reason: what is wrong there, in a few words.
        log: the valid prefix (``None`` when even the header is damaged).
    """

    def __init__(self, path: Path, offset: int, good_actions: int, reason: str,
                 log: TableLog | None) -> None:  # fmt: skip
        if log is None:
            last = "none: the header itself is unreadable"
        elif good_actions:
            last = f"action {good_actions} ({describe_action(log.actions[good_actions - 1])})"
        else:
            last = "the header (no action was recorded)"
        super().__init__(f"{path}: damaged at byte {offset} ({reason}); the last good "
                         f"record is {last}")  # fmt: skip
        self.path = path
        self.offset = offset
        self.good_actions = good_actions
        self.reason = reason
        self.log = log


@dataclass(slots=True)
class LoggedAction:
    """One accepted action: who played it, what it was, when.

    Attributes:
        seat: the seat it was played for.
        action: the wire map as the table accepted it.
        time: when it was recorded, Unix seconds.
        offset: byte offset of its record in the file.
        why: the table played it itself, and why (``"away"``, ``"time"``:
            see :func:`net.game.note_table_move`); ``None``: the seat did.
    """

    seat: int
    action: dict[str, Any]
    time: float
    offset: int = 0
    why: str | None = None


@dataclass(slots=True)
class LoggedChat:
    """One chat message said at the table (net/chat.py), as the log keeps it.

    Attributes:
        seat: the speaker's seat; ``None`` for a spectator.
        name: the speaker's name as the table showed it.
        text: the message as relayed.
        after: how many actions had been taken when it was said.
        time: when it was recorded, Unix seconds.
    """

    seat: int | None
    name: str
    text: str
    after: int
    time: float


@dataclass(slots=True)
class TableLog:
    """A whole log read back: its header, its actions in order, and the end if reached."""

    header: dict[str, Any]
    actions: list[LoggedAction] = field(default_factory=list)
    chats: list[LoggedChat] = field(default_factory=list)
    """The table's chat, in order; replaying the game skips it."""
    end: dict[str, Any] | None = None
    """The ``end`` record's result, once the game is over; ``None`` for a game still running."""
    end_time: float | None = None
    """When the ``end`` record was written (Unix seconds)."""
    valid_bytes: int = 0
    """Length of the valid prefix of the file, in bytes."""


def describe_action(logged: LoggedAction) -> str:
    """``"seat 2, serve"``: who and what kind, for messages (no card ids)."""
    kind = logged.action.get("type")
    return f"seat {logged.seat}, {kind if isinstance(kind, str) else '?'}"


def _pack(record: dict[str, Any], checked: bool = True) -> bytes:
    """Frame ``record`` (a map it may change): with ``checked`` (format 2), its ``ck`` last.

    Raises:
        ValueError: the record is over :data:`MAX_RECORD` bytes.
    """
    if checked:
        record.pop("ck", None)
        record["ck"] = _UNSEALED  # a placeholder of the CRC's size, filled in below
        packed: bytes = msgpack.packb(record, use_bin_type=True)
        body = packed[:-4] + _CHECK.pack(zlib.crc32(packed[:-4]))
    else:
        body = msgpack.packb(record, use_bin_type=True)
    if len(body) > MAX_RECORD:
        raise ValueError(f"a log record of {len(body)} bytes is over the {MAX_RECORD}-byte cap")
    return _LENGTH.pack(len(body)) + body


def _sync_directory(directory: Path) -> None:
    """Make a new directory entry durable (a no-op where directories can't be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class LogWriter:
    """Writes records to a table log, each synced before returning.

    Use :meth:`create` for a new table and :meth:`reopen` to go on after a
    resume. The file stays open between records, for synchronous writes
    (``O_DSYNC``) at explicit offsets from the end of the last record, into the
    log's room when it has some (see the module's "Room"): a record is written and
    synced by one system call, so a writer in a worker thread needs the interpreter
    lock once before and once after the disk's work, never in between (where the
    event loop holds it while it builds the action's views). :meth:`close` closes
    it (once a write under way is done; a record appended later opens it for itself
    again); a writer nobody closes closes it when collected. One writer per file;
    its writes (and a :class:`LogTail`'s) take turns; :meth:`close` may come from
    another thread.

    Attributes:
        path: the file.
        ended: an ``end`` record was built (nothing more may be).
        format: the log's format (``FORMAT_VERSION`` for a new log; a reopened one
            keeps its own): records of format 1 get no ``ck`` and the file no room.
    """

    def __init__(self, path: Path, *, end: int, size: int, format: int) -> None:
        """Use :meth:`create` or :meth:`reopen`. ``end``: where the last record ends;
        ``size``: the file's size (``end`` plus its room), both in bytes."""
        self.path = path
        self.ended = False
        """An ``end`` record was written: nothing more may be appended."""
        self.format = format
        self._checked = format >= 2
        self._file = _OpenFile(path, end, size, room=self._checked and ROOM_WRITES)
        weakref.finalize(self, self._file.close)

    @classmethod
    def create(cls, path: Path, header: Mapping[str, Any]) -> LogWriter:
        """Start a new log at ``path`` with ``header`` (``format`` and ``created`` added),
        and its room (:data:`ROOM` bytes of zeros) after it.

        The file is created with mode 0600 (it holds seat tokens), and the file
        and its directory entry are synced before returning.

        Raises:
            FileExistsError: ``path`` exists (a log is never overwritten).
            OSError: the file cannot be written.
            ValueError: the header is over :data:`MAX_RECORD` bytes.
        """
        record = _pack({"format": FORMAT_VERSION, "created": time.time(), **header})
        room = ROOM if ROOM_WRITES else 0
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(path, flags, 0o600), "wb") as stream:
            _write(stream, record + bytes(room))
        _sync_directory(path.parent)
        return cls(path, end=len(record), size=len(record) + room, format=FORMAT_VERSION)

    @classmethod
    def reopen(cls, path: Path, valid_bytes: int, *, ended: bool = False) -> LogWriter:
        """Go on with an existing log after its first ``valid_bytes`` bytes.

        Whatever lies beyond ``valid_bytes`` (a damaged tail, the room) is cut off,
        then, for a format-2 log not ended, the room is made again (:data:`ROOM`
        bytes of zeros), and all of it synced. A format-1 log is cut as before and
        gets no room; records appended to it are format 1.

        Args:
            path: the log.
            valid_bytes: :attr:`TableLog.valid_bytes` from :func:`read_log`
                (or from :attr:`LogDamaged.log`), or the offset of a record to
                drop with everything after it.
            ended: the prefix already holds an ``end`` record.

        Raises:
            OSError: the file cannot be read or written.
        """
        fmt = _format_of(path)
        room = ROOM if fmt >= 2 and ROOM_WRITES and not ended else 0
        with path.open("r+b") as stream:
            stream.truncate(valid_bytes)
            if room:
                stream.seek(valid_bytes)
                stream.write(bytes(room))
                stream.flush()
            os.fsync(stream.fileno())
        writer = cls(path, end=valid_bytes, size=valid_bytes + room, format=fmt)
        writer.ended = ended
        return writer

    def _append(self, record: bytes) -> None:
        self._file.append(record)
        self._file.make_room(self.ended)

    def append(self, seat: int, action: Mapping[str, Any], why: str | None = None) -> None:
        """Record an accepted action; returns once it is on disk (and the room made
        again if it ran low). ``why``: the table played it itself for that reason
        (recorded as ``by: "table"``), else ``None``.

        Raises:
            RuntimeError: the log already has its ``end`` record.
            OSError: the write or the sync failed (e.g. the disk is full).
            ValueError: the record is over :data:`MAX_RECORD` bytes.
        """
        self._append(self.action_record(seat, action, why))

    def append_chat(self, seat: int | None, name: str, text: str, after: int) -> None:
        """Record a chat message (see :class:`LoggedChat`); returns once it is on disk.
        Nothing is written once the game's end is (a log ends with its result).

        Raises:
            OSError: the write or the sync failed.
            ValueError: the record is over :data:`MAX_RECORD` bytes.
        """
        record = self.chat_record(seat, name, text, after)
        if record is not None:
            self._append(record)

    def finish(self, result: Mapping[str, Any]) -> None:
        """Record the end of the game with its public ``result``; returns once on disk
        (and the room cut off).

        Raises:
            RuntimeError: the log already has its ``end`` record.
            OSError: the write or the sync failed.
        """
        record = self.end_record(result)
        try:
            self._file.append(record)
        except BaseException:
            self.ended = False  # not written: the end may still be recorded
            raise
        self._file.make_room(ended=True)

    # Group commit: build records as they happen, write many with one sync.

    def action_record(self, seat: int, action: Mapping[str, Any], why: str | None = None) -> bytes:
        """The framed record of an accepted action (see :meth:`append`), not yet written.

        Raises:
            RuntimeError: the log already has (or is to get) its ``end`` record.
            ValueError: the record is over :data:`MAX_RECORD` bytes.
        """
        if self.ended:
            raise RuntimeError(f"{self.path}: the game is over; nothing may follow its end")
        record: dict[str, Any] = {"seat": seat, "action": dict(action), "time": time.time()}
        if why is not None:
            record.update(by="table", why=why)
        return _pack(record, self._checked)

    def chat_record(self, seat: int | None, name: str, text: str, after: int) -> bytes | None:
        """The framed record of a chat message (see :meth:`append_chat`), not yet written;
        ``None`` once the end is recorded.

        Raises:
            ValueError: the record is over :data:`MAX_RECORD` bytes.
        """
        if self.ended:
            return None
        chat = {"seat": seat, "name": name, "text": text, "after": after}
        return _pack({"chat": chat, "time": time.time()}, self._checked)

    def end_record(self, result: Mapping[str, Any]) -> bytes:
        """The framed ``end`` record with the public ``result``, not yet written; from
        now on the writer counts as ended (nothing more may be built).

        Raises:
            RuntimeError: the log already has (or is to get) its ``end`` record.
        """
        if self.ended:
            raise RuntimeError(f"{self.path}: the game's end is already recorded")
        record = _pack({"end": dict(result), "time": time.time()}, self._checked)
        self.ended = True
        return record

    def write(self, records: Sequence[bytes]) -> None:
        """Write records built by the methods above after the last one, in order, with one
        write and one sync; returns once all are on disk. On failure none of them is kept
        (the file is cut back where they began, room and all, if it can be). The room is
        not extended here (see :meth:`make_room`): a thread reports the records durable
        first.

        Raises:
            OSError: the write or the sync failed.
        """
        if records:
            self._file.append(b"".join(records))

    def make_room(self) -> int:
        """Make the room again if less than :data:`ROOM_LOW` bytes are left past the last
        record (zeros up to :data:`ROOM` bytes past it, one synchronous write); once
        ended, cut the room off instead. Does nothing for a closed writer, a format-1
        log, or where records are appended (:data:`ROOM_WRITES`). Call it from the
        thread that writes, after it has reported the records durable. A failed
        extension is ignored (the next records grow the file, as without room).

        Returns:
            The bytes of zeros written.
        """
        return self._file.make_room(self.ended, only_open=True)

    def close(self) -> None:
        """Close the file, once a write under way (in another thread) is done; safe to
        call twice. A record appended after this opens the file for itself alone."""
        self._file.close()

    @property
    def keeps_room(self) -> bool:
        """The log keeps room past its last record (format 2, where records are written
        at explicit offsets: :data:`ROOM_WRITES`)."""
        return self._file.room

    def open_at_end(self) -> LogTail:
        """The end of the log for a thread that moves records from a pipe with
        ``os.splice`` (:func:`move_synced`), which refuses an appending file: a new
        descriptor for synchronous writes at explicit offsets and where the next
        record goes. Waits until no other write of this writer (or tail) is under way;
        until the tail is closed, the writer's own writes wait for it.

        Raises:
            OSError: the file cannot be opened for writing.
        """
        return LogTail(self, self._file)


class LogTail:
    """Where one thread writes a log's records through its own descriptor, from
    :meth:`LogWriter.open_at_end`; :meth:`close` it when done (from the same thread).

    Attributes:
        fd: the log, opened for synchronous writes (``O_DSYNC``) at explicit offsets.
        at: where the next byte goes, in bytes from the start of the file.

    Raises:
        OSError: the file cannot be opened.
    """

    def __init__(self, writer: LogWriter, file: _OpenFile) -> None:
        self._writer = writer
        self._file = file
        file.owner.acquire()
        try:
            self.fd = os.open(writer.path, _AT_FLAGS)
        except BaseException:
            file.owner.release()
            raise
        self.at = file.end

    @property
    def room_end(self) -> int:
        """Where the log's room ends (the file's size), in bytes from its start: a write
        up to there changes no metadata."""
        return self._file.size

    @property
    def room_low(self) -> bool:
        """Less room is left than :data:`ROOM_LOW` bytes: :meth:`make_room` would make more."""
        return self._file.room and self._file.size - self._file.end < ROOM_LOW

    def moved(self, count: int) -> None:
        """``count`` more bytes are durable at :attr:`at` (their record may be unfinished)."""
        self.at += count
        self._file.wrote_to(self.at)

    def make_room(self) -> int:
        """:meth:`LogWriter.make_room` through this tail's descriptor, after a report.

        Returns:
            The bytes of zeros written.
        """
        return self._file.room_at(self.fd, self._writer.ended)

    def extend_room(self) -> int:
        """Make the room again if it is low (as :meth:`make_room`), even once the log's
        end record is built: for records still to be written before it is cut off.

        Returns:
            The bytes of zeros written.
        """
        return self._file.room_at(self.fd, False)

    def cut(self, at: int) -> None:
        """Cut the file at byte ``at`` (a failed write's partial batch, and the room with
        it); best effort: an error is ignored (the reader reports the tail as damage)."""
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, at)
            self.at = at
            self._file.cut_to(at)

    def close(self) -> None:
        """Close the descriptor and let the writer's own writes go on (safe to call twice)."""
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)
            self._file.owner.release()


_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | getattr(os, "O_DSYNC", 0) | getattr(os, "O_BINARY", 0)
"""How a log is opened where :data:`ROOM_WRITES` is false: each write appends and
returns once its bytes are on disk."""


_AT_FLAGS = os.O_WRONLY | getattr(os, "O_DSYNC", 0) | getattr(os, "O_BINARY", 0)
"""How a log is opened for synchronous writes at explicit offsets."""

PIPE_CHUNK = 1 << 20
"""Most bytes :func:`move_synced` moves at once (a pipe holds 64 KiB unless enlarged)."""


def move_synced(pipe_r: int, fd: int, at: int, *, copy: bool = False) -> int:
    """Move the bytes waiting in a pipe to the log, at byte offset ``at``, durably.

    ``fd`` comes from :meth:`LogWriter.open_at_end` (``O_DSYNC``): the bytes, and the
    file's new length if it grew, are on disk when this returns. Blocks (without the
    interpreter lock) until the pipe holds something, then takes what it holds, up to
    :data:`PIPE_CHUNK` bytes, so records put in the pipe while one move is under way
    go together in the next one (one sync). The bytes taken may end mid-record: the
    caller counts a record durable only once all of it is.

    Args:
        pipe_r: the pipe's reading end (blocking).
        fd: the log, :attr:`LogTail.fd`.
        at: where the bytes go, in bytes from the start of the file (:attr:`LogTail.at`).
        copy: read the pipe and ``pwrite`` instead of ``os.splice`` (for a file
            system that cannot splice, or a platform without it).

    Returns:
        How many bytes are now on disk; 0 once the pipe's writing end is closed and
        the pipe is empty.

    Raises:
        OSError: the move failed (e.g. ``ENOSPC``; ``EINVAL`` where the file
            cannot be spliced to: then call again with ``copy``).
    """
    if not copy:
        moved: int = os.splice(pipe_r, fd, PIPE_CHUNK, offset_dst=at)
        return moved
    data = os.read(pipe_r, PIPE_CHUNK)
    view, done = memoryview(data), 0
    while done < len(data):  # a write may take only part of it
        done += os.pwrite(fd, view[done:], at + done)
    return done


class _OpenFile:
    """A log file open for writing, shared by its writer and the thread that writes;
    it knows where the last record ends (:attr:`end`) and how far the file, room
    included, goes (:attr:`size`).

    A write borrows the descriptor (opening the file if need be) and gives it back
    when done; :meth:`close` closes it at once if nobody has it, else the borrower
    closes it on giving it back. Writes (and a :class:`LogTail`) take turns on
    :attr:`owner`. Where ``O_DSYNC`` is unknown, each write is followed by an ``fsync``.
    """

    def __init__(self, path: Path, end: int, size: int, *, room: bool) -> None:
        self._path = path
        self._fd: int | None = None
        self._open = True  # until close(): keep the descriptor between writes
        self._lock = threading.Lock()  # guards _fd and _open
        self.owner = threading.Lock()
        """Held by whoever writes to the file (a write, a room's extension, a tail)."""
        self.end = end
        self.size = max(size, end)
        self.room = room
        """Records go at explicit offsets and a room is kept (see :data:`ROOM_WRITES`)."""

    def _borrow(self) -> int:
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is None:
            fd = os.open(self._path, _AT_FLAGS if ROOM_WRITES else _APPEND_FLAGS)
        return fd

    def _give_back(self, fd: int) -> None:
        with self._lock:
            keep = self._open and self._fd is None
            if keep:
                self._fd = fd
        if not keep:
            os.close(fd)

    def append(self, record: bytes) -> None:
        """Write ``record`` after the last record; returns once it is on disk.
        On failure nothing of it is kept (the file is cut back, if it can be).

        Raises:
            OSError: the file cannot be opened, written or synced.
        """
        with self.owner:
            fd = self._borrow()
            try:
                self._write_synced(fd, record)
            finally:
                self._give_back(fd)

    def _write_synced(self, fd: int, record: bytes) -> None:
        """Write ``record`` at :attr:`end` through ``fd`` and make it durable; a write the
        kernel cuts short is finished, a failed one taken back (with the room after it)."""
        done = 0
        try:
            view = memoryview(record)
            while done < len(record):  # a write may take only part of it
                if ROOM_WRITES:
                    done += os.pwrite(fd, view[done:], self.end + done)
                else:
                    done += os.write(fd, view[done:])
            if not _AT_FLAGS & getattr(os, "O_DSYNC", 0):
                os.fsync(fd)
        except OSError:
            # A partial record (disk full) would read as damage: take it back if we can.
            if done:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, self.end)
                    self.size = self.end
            raise
        self.wrote_to(self.end + done)

    def wrote_to(self, end: int) -> None:
        """The bytes up to ``end`` are written (records, perhaps an unfinished one)."""
        self.end = end
        self.size = max(self.size, end)

    def cut_to(self, at: int) -> None:
        """The file was cut at ``at``: nothing (no record, no room) lies past it."""
        self.end = self.size = at

    def make_room(self, ended: bool, *, only_open: bool = False) -> int:
        """:meth:`room_at` through the writer's own descriptor (taking turns); with
        ``only_open``, nothing once :meth:`close` was called. Returns the zeros written."""
        if not self.room or (only_open and not self._open):
            return 0
        with self.owner:
            if only_open and not self._open:
                return 0
            fd = self._borrow()
            try:
                return self.room_at(fd, ended)
            finally:
                self._give_back(fd)

    def room_at(self, fd: int, ended: bool) -> int:
        """With :attr:`owner` held: once ``ended``, cut the room off; else, with less
        than :data:`ROOM_LOW` bytes of it left, write zeros through ``fd`` (``O_DSYNC``)
        up to :data:`ROOM` bytes past :attr:`end`. A failure is ignored (room is only
        a saving of time). Returns the zeros written."""
        if not self.room:
            return 0
        if ended:
            if self.size > self.end:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, self.end)
                    self.size = self.end
            return 0
        if self.size - self.end >= ROOM_LOW:
            return 0
        zeros = memoryview(bytes(self.end + ROOM - self.size))
        done = 0
        try:
            while done < len(zeros):
                done += os.pwrite(fd, zeros[done:], self.size + done)
        except OSError:
            with contextlib.suppress(OSError):
                self.size = max(self.end, os.fstat(fd).st_size)
            return done
        self.size += done
        return done

    def close(self) -> None:
        """Close the descriptor now, or when the write under way gives it back."""
        with self._lock:
            self._open = False
            fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _format_of(path: Path) -> int:
    """The format of the log at ``path`` as its header says (1 if it cannot tell).

    Raises:
        OSError: the file cannot be read.
    """
    with path.open("rb") as stream:
        prefix = stream.read(_LENGTH.size)
        if len(prefix) < _LENGTH.size:
            return 1
        (size,) = _LENGTH.unpack(prefix)
        body = stream.read(min(size, MAX_RECORD))
    try:
        header = msgpack.unpackb(body, raw=False, strict_map_key=True)
    except Exception:  # any decoder complaint: not a log this writer can extend with room
        return 1
    fmt = header.get("format") if isinstance(header, dict) else None
    return fmt if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt in READ_FORMATS else 1


def _write(stream: BinaryIO, record: bytes) -> None:
    """Write, flush and fsync one record."""
    stream.write(record)
    stream.flush()
    os.fsync(stream.fileno())


class _Bad(Exception):
    """A damaged record, with the reason."""


def _action(record: dict[str, Any], offset: int) -> LoggedAction:
    seat, action, when = record.get("seat"), record.get("action"), record.get("time")
    if (
        not isinstance(seat, int)
        or isinstance(seat, bool)
        or not isinstance(action, dict)
        or not isinstance(when, int | float)
    ):
        raise _Bad("record is not an action")
    why = record.get("why") if record.get("by") == "table" else None
    return LoggedAction(seat, action, float(when), offset, why if isinstance(why, str) else None)


def _chat(record: dict[str, Any]) -> LoggedChat:
    chat, when = record.get("chat"), record.get("time")
    if not isinstance(chat, dict) or not isinstance(when, int | float):
        raise _Bad("bad chat record")
    seat, name, text, after = (chat.get(k) for k in ("seat", "name", "text", "after"))
    if (
        not (seat is None or (isinstance(seat, int) and not isinstance(seat, bool)))
        or not isinstance(name, str)
        or not isinstance(text, str)
        or not isinstance(after, int)
        or isinstance(after, bool)
    ):
        raise _Bad("bad chat record")
    return LoggedChat(seat, name, text, after, float(when))


def _check_header(record: dict[str, Any]) -> int:
    """The header's format, once it is one this version reads."""
    fmt = record.get("format")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > FORMAT_VERSION:
        raise _Bad(f"written in log format {fmt}; this version reads format {FORMAT_VERSION}")
    seed = record.get("seed")
    if fmt not in READ_FORMATS or not isinstance(seed, int) or isinstance(seed, bool):
        raise _Bad(f"not a table log of format {FORMAT_VERSION}")
    assert isinstance(fmt, int)
    return fmt


def _sealed(body: bytes) -> bool:
    """``body`` ends with its ``ck`` entry, and the CRC matches the bytes before it."""
    if len(body) < len(_SEAL) + _CHECK.size or body[-9:-4] != _SEAL:
        return False
    check: int = _CHECK.unpack_from(body, len(body) - _CHECK.size)[0]
    return zlib.crc32(body[:-4]) == check


def read_log(path: Path) -> TableLog:
    """Read a whole log: its records up to the end of the file or, in format 2, up to
    its room (a zero length followed only by zero bytes up to the end of the file).

    Raises:
        FileNotFoundError: no such file (and other ``OSError`` s of reading).
        LogDamaged: the file is truncated or corrupted (in format 2 also: a record
            whose ``ck`` is missing or wrong, as a record torn over the room's zeros
            is; a zero length followed by anything but zeros); ``exc.log`` holds the
            valid prefix when the header itself is sound.
    """
    data = path.read_bytes()
    offset = start = 0
    log: TableLog | None = None
    checked = False  # format 2: records end with their ck, the file may end in room
    try:
        while offset < len(data):
            start = offset
            left = len(data) - offset
            if checked and (left < _LENGTH.size or data[offset : offset + 4] == _ZERO_LENGTH):
                if data.count(0, offset) == left:
                    break  # the room: the clean end
                if left >= _LENGTH.size:
                    raise _Bad("a zero length followed by other bytes")
            if left < _LENGTH.size:
                raise _Bad("truncated length")
            (size,) = _LENGTH.unpack_from(data, offset)
            if size > MAX_RECORD:
                raise _Bad(f"record of {size} bytes is over the {MAX_RECORD}-byte cap")
            offset += _LENGTH.size
            if len(data) - offset < size:
                raise _Bad("truncated record")
            body = data[offset : offset + size]
            if checked and not _sealed(body):
                raise _Bad("record fails its check (torn or corrupted)")
            try:
                record = msgpack.unpackb(body, raw=False, strict_map_key=True)
            except Exception as exc:  # any decoder complaint is damage, never a traceback
                raise _Bad(f"undecodable record: {exc}") from None
            offset += size
            if not isinstance(record, dict):
                raise _Bad("record is not a map")
            if log is None:
                checked = _check_header(record) >= 2
                if checked and not _sealed(body):
                    raise _Bad("header fails its check (torn or corrupted)")
                if checked:
                    record.pop("ck", None)
                log = TableLog(header=record)
                log.valid_bytes = offset
                continue
            if checked:
                record.pop("ck", None)
            if log.end is not None:
                raise _Bad("record after the end of the game")
            if "end" in record:
                end, when = record.get("end"), record.get("time")
                if not isinstance(end, dict) or not isinstance(when, int | float):
                    raise _Bad("bad end record")
                log.end, log.end_time = end, float(when)
            elif "chat" in record:
                log.chats.append(_chat(record))
            else:
                log.actions.append(_action(record, start))
            log.valid_bytes = offset
    except _Bad as bad:
        if log is not None:
            log.valid_bytes = start
        raise LogDamaged(path, start, len(log.actions) if log else 0, str(bad), log) from None
    if log is None:
        raise LogDamaged(path, 0, 0, "empty file", None)
    return log
