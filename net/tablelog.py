"""An append-only table log: a header, then one frame per accepted action.

docs/ARCHITECTURE.md "Persistence". The file uses the wire's framing (4-byte big-endian
length, then one msgpack map) so one decoder serves both. Layout::

    frame 0   header  {"format": 1, "app": str, "game": str, "rules": str,
                       "seed": int, "seats": [{"name": str, "kind": str,
                       "token": str | None, ...}, ...], "options": map,
                       "table": map, "created": float (Unix seconds)}
    frame 1+  action  {"seat": int, "action": map, "time": float,
                       "by"?: "table", "why"?: "away"|"time"}
                      (``by``/``why`` only when the table played the seat's
                      default itself; older logs never have them)
              or chat {"chat": {"seat": int | None, "name": str, "text": str,
                       "after": int (actions before it)}, "time": float}
                      (table talk, net/chat.py: never replayed into the match)
    last      end     {"end": map (the match's public result), "time": float}
                      (only once the game is over; nothing may follow it)

Replaying the actions on a match made from the header's seed, seat count
and options rebuilds the game exactly (R3); the ``end`` record lets a replay
check that it reached the same result. Tokens let players reclaim their seats
after a resume, so the file is created readable by its owner only (0600)
and stays on the host's disk.

Every record is on disk before :meth:`LogWriter.append` (or
:meth:`LogWriter.write`, which syncs a batch of records at once) returns:
the header is written and ``fsync``-ed, the records after it are appended
with synchronous writes (``O_DSYNC``: the data and the file's new length are
durable when the write returns; ``fsync`` after it where the flag is
unknown). :mod:`net.recorder` may instead move records from a pipe into the
file with ``os.splice`` (:func:`move_synced`), through a descriptor opened
``O_DSYNC`` but not appending (splice refuses that), at explicit offsets from the
file's size on: the same guarantee, one record after the other, no gap. So an
action the table acknowledged is on disk even if the process
is killed the next instant (docs/ARCHITECTURE.md: "flushed before the action is
acknowledged"). A crash mid-write leaves at most one partial record at the
end, which :func:`read_log` reports as :class:`LogDamaged` with the valid
prefix, and :meth:`LogWriter.reopen` cuts off before appending.
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

FORMAT_VERSION = 1
"""Bumped when the layout above changes."""
MAX_RECORD = 64 * 1024
"""Largest record accepted when reading, in bytes (as on the wire)."""
_LENGTH = struct.Struct(">I")


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


def _pack(record: Mapping[str, Any]) -> bytes:
    body: bytes = msgpack.packb(record, use_bin_type=True)
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
    """Appends records to a table log, each synced before returning.

    Use :meth:`create` for a new table and :meth:`reopen` to go on after a
    resume. The file stays open between records, for appending with synchronous
    writes (``O_DSYNC``): a record is written and synced by one system call, so
    a writer in a worker thread needs the interpreter lock once before and once
    after the disk's work, never in between (where the event loop holds it
    while it builds the action's views). :meth:`close` closes it (once a write
    under way is done; a record appended later opens it for itself again); a
    writer nobody closes closes it when collected. One writer per file, one
    write at a time; :meth:`close` may come from another thread.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ended = False
        """An ``end`` record was written: nothing more may be appended."""
        self._file = _OpenFile(path)
        weakref.finalize(self, self._file.close)

    @classmethod
    def create(cls, path: Path, header: Mapping[str, Any]) -> LogWriter:
        """Start a new log at ``path`` with ``header`` (``format`` and ``created`` added).

        The file is created with mode 0600 (it holds seat tokens), and the file
        and its directory entry are synced before returning.

        Raises:
            FileExistsError: ``path`` exists (a log is never overwritten).
            OSError: the file cannot be written.
            ValueError: the header is over :data:`MAX_RECORD` bytes.
        """
        record = _pack({"format": FORMAT_VERSION, "created": time.time(), **header})
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(path, flags, 0o600), "wb") as stream:
            _write(stream, record)
        _sync_directory(path.parent)
        return cls(path)

    @classmethod
    def reopen(cls, path: Path, valid_bytes: int, *, ended: bool = False) -> LogWriter:
        """Append to an existing log after its first ``valid_bytes`` bytes.

        A damaged tail beyond ``valid_bytes`` is cut off (and the cut synced) first.

        Args:
            path: the log.
            valid_bytes: :attr:`TableLog.valid_bytes` from :func:`read_log`
                (or from :attr:`LogDamaged.log`).
            ended: the prefix already holds an ``end`` record.

        Raises:
            OSError: the file cannot be written.
        """
        with path.open("r+b") as stream:
            stream.truncate(valid_bytes)
            os.fsync(stream.fileno())
        writer = cls(path)
        writer.ended = ended
        return writer

    def _append(self, record: bytes) -> None:
        self._file.append(record)

    def append(self, seat: int, action: Mapping[str, Any], why: str | None = None) -> None:
        """Record an accepted action; returns once it is on disk. ``why``: the table
        played it itself for that reason (recorded as ``by: "table"``), else ``None``.

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
        """Record the end of the game with its public ``result``; returns once on disk.

        Raises:
            RuntimeError: the log already has its ``end`` record.
            OSError: the write or the sync failed.
        """
        record = self.end_record(result)
        try:
            self._append(record)
        except BaseException:
            self.ended = False  # not written: the end may still be recorded
            raise

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
        return _pack(record)

    def chat_record(self, seat: int | None, name: str, text: str, after: int) -> bytes | None:
        """The framed record of a chat message (see :meth:`append_chat`), not yet written;
        ``None`` once the end is recorded.

        Raises:
            ValueError: the record is over :data:`MAX_RECORD` bytes.
        """
        if self.ended:
            return None
        chat = {"seat": seat, "name": name, "text": text, "after": after}
        return _pack({"chat": chat, "time": time.time()})

    def end_record(self, result: Mapping[str, Any]) -> bytes:
        """The framed ``end`` record with the public ``result``, not yet written; from
        now on the writer counts as ended (nothing more may be built).

        Raises:
            RuntimeError: the log already has (or is to get) its ``end`` record.
        """
        if self.ended:
            raise RuntimeError(f"{self.path}: the game's end is already recorded")
        record = _pack({"end": dict(result), "time": time.time()})
        self.ended = True
        return record

    def write(self, records: Sequence[bytes]) -> None:
        """Append records built by the methods above, in order, with one write and one
        sync; returns once all are on disk. On failure none of them is kept (the file
        is cut back where it was, if it can be).

        Raises:
            OSError: the write or the sync failed.
        """
        if records:
            self._append(b"".join(records))

    def close(self) -> None:
        """Close the file, once a write under way (in another thread) is done; safe to
        call twice. A record appended after this opens the file for itself alone."""
        self._file.close()

    def open_at_end(self) -> tuple[int, int]:
        """A new descriptor on the log for synchronous writes at explicit offsets, and
        where the next record goes (the file's size, in bytes): for a hand-off that moves
        records from a pipe with ``os.splice``, which refuses an appending file
        (:func:`move_synced`). The caller closes the descriptor. Records written through
        it must not be mixed with :meth:`write` (which appends through its own).

        Raises:
            OSError: the file cannot be opened for writing.
        """
        fd = os.open(self.path, _AT_FLAGS)
        try:
            return fd, os.fstat(fd).st_size
        except BaseException:
            os.close(fd)
            raise


_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | getattr(os, "O_DSYNC", 0) | getattr(os, "O_BINARY", 0)
"""How a log is opened for appending: each write returns once its bytes are on disk."""


_AT_FLAGS = os.O_WRONLY | getattr(os, "O_DSYNC", 0) | getattr(os, "O_BINARY", 0)
"""How :meth:`LogWriter.open_at_end` opens a log: synchronous writes at explicit offsets."""

PIPE_CHUNK = 1 << 20
"""Most bytes :func:`move_synced` moves at once (a pipe holds 64 KiB unless enlarged)."""


def move_synced(pipe_r: int, fd: int, at: int, *, copy: bool = False) -> int:
    """Move the bytes waiting in a pipe to the log, at byte offset ``at``, durably.

    ``fd`` comes from :meth:`LogWriter.open_at_end` (``O_DSYNC``): the bytes and the
    file's new length are on disk when this returns. Blocks (without the interpreter
    lock) until the pipe holds something, then takes what it holds, up to
    :data:`PIPE_CHUNK` bytes, so records put in the pipe while one move is under way
    go together in the next one (one sync). The bytes taken may end mid-record: the
    caller counts a record durable only once all of it is.

    Args:
        pipe_r: the pipe's reading end (blocking).
        fd: the log, opened by :meth:`LogWriter.open_at_end`.
        at: where the bytes go, in bytes from the start of the file.
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
    """A log file open for appending, shared by its writer and the thread that writes.

    A write borrows the descriptor (opening the file if need be) and gives it back
    when done; :meth:`close` closes it at once if nobody has it, else the borrower
    closes it on giving it back. Where ``O_DSYNC`` is unknown, each write is
    followed by an ``fsync``.
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._fd: int | None = None
        self._open = True  # until close(): keep the descriptor between writes
        self._lock = threading.Lock()

    def append(self, record: bytes) -> None:
        """Write ``record`` at the end of the file; returns once it is on disk.
        On failure nothing of it is kept (the file is cut back, if it can be).

        Raises:
            OSError: the file cannot be opened, written or synced.
        """
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is None:
            fd = os.open(self._path, _APPEND_FLAGS)
        try:
            _write_synced(fd, record)
        finally:
            with self._lock:
                keep = self._open and self._fd is None
                if keep:
                    self._fd = fd
            if not keep:
                os.close(fd)

    def close(self) -> None:
        """Close the descriptor now, or when the write under way gives it back."""
        with self._lock:
            self._open = False
            fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _write_synced(fd: int, record: bytes) -> None:
    """Append ``record`` through ``fd`` (opened with :data:`_APPEND_FLAGS`) and make it
    durable; a write the kernel cuts short is finished, a failed one taken back."""
    done = 0
    try:
        view = memoryview(record)
        while done < len(record):  # a write may take only part of it
            done += os.write(fd, view[done:])
        if not _APPEND_FLAGS & getattr(os, "O_DSYNC", 0):
            os.fsync(fd)
    except OSError:
        # A partial record (disk full) would read as damage: take it back if we can.
        # After an appending write, the offset is the end of what it wrote.
        if done:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, os.lseek(fd, 0, os.SEEK_CUR) - done)
        raise


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


def _check_header(record: dict[str, Any]) -> None:
    fmt = record.get("format")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > FORMAT_VERSION:
        raise _Bad(f"written in log format {fmt}; this version reads format {FORMAT_VERSION}")
    seed = record.get("seed")
    if fmt != FORMAT_VERSION or not isinstance(seed, int) or isinstance(seed, bool):
        raise _Bad(f"not a table log of format {FORMAT_VERSION}")


def read_log(path: Path) -> TableLog:
    """Read a whole log.

    Raises:
        FileNotFoundError: no such file (and other ``OSError`` s of reading).
        LogDamaged: the file is truncated or corrupted; ``exc.log`` holds the
            valid prefix when the header itself is sound.
    """
    data = path.read_bytes()
    offset = start = 0
    log: TableLog | None = None
    try:
        while offset < len(data):
            start = offset
            if len(data) - offset < _LENGTH.size:
                raise _Bad("truncated length")
            (size,) = _LENGTH.unpack_from(data, offset)
            if size > MAX_RECORD:
                raise _Bad(f"record of {size} bytes is over the {MAX_RECORD}-byte cap")
            offset += _LENGTH.size
            if len(data) - offset < size:
                raise _Bad("truncated record")
            try:
                record = msgpack.unpackb(
                    data[offset : offset + size], raw=False, strict_map_key=True
                )
            except Exception as exc:  # any decoder complaint is damage, never a traceback
                raise _Bad(f"undecodable record: {exc}") from None
            offset += size
            if not isinstance(record, dict):
                raise _Bad("record is not a map")
            if log is None:
                _check_header(record)
                log = TableLog(header=record)
            elif log.end is not None:
                raise _Bad("record after the end of the game")
            elif "end" in record:
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
