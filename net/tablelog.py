"""An append-only table log: a header, then one frame per accepted action.

DESIGN.md "Persistence". The file uses the wire's framing (4-byte big-endian
length, then one msgpack map) so one decoder serves both. Layout::

    frame 0   header  {"format": 1, "app": str, "game": str, "rules": str,
                       "seed": int, "seats": [{"name": str, "kind": str,
                       "token": str | None}, ...], "options": map,
                       "created": float (Unix seconds)}
    frame 1+  action  {"seat": int, "action": map, "time": float}

Replaying the actions on a match made from the header's seed, seat count
and options rebuilds the game exactly (R3). Tokens let players reclaim
their seats after a resume; the file stays on the host's disk.
"""

from __future__ import annotations

import os
import struct
import time
from collections.abc import Mapping
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

    Attributes:
        path: the file.
        offset: byte offset where the damage starts.
        good_actions: number of valid actions before it.
        log: the valid prefix (``None`` when even the header is damaged).
    """

    def __init__(self, path: Path, offset: int, good_actions: int, reason: str,
                 log: TableLog | None) -> None:  # fmt: skip
        last = f"after action {good_actions}" if good_actions else "before any action"
        super().__init__(f"{path}: damaged at byte {offset} ({reason}); the last good "
                         f"record is {last}")  # fmt: skip
        self.path = path
        self.offset = offset
        self.good_actions = good_actions
        self.log = log


@dataclass(slots=True)
class LoggedAction:
    """One accepted action: who played it, what it was, when (Unix seconds)."""

    seat: int
    action: dict[str, Any]
    time: float


@dataclass(slots=True)
class TableLog:
    """A whole log read back: its header and its actions in order."""

    header: dict[str, Any]
    actions: list[LoggedAction] = field(default_factory=list)
    valid_bytes: int = 0
    """Length of the valid prefix of the file, in bytes."""


def _pack(record: Mapping[str, Any]) -> bytes:
    body: bytes = msgpack.packb(record, use_bin_type=True)
    return _LENGTH.pack(len(body)) + body


class LogWriter:
    """Appends records to a table log, each flushed and synced before returning.

    Use :meth:`create` for a new table and :meth:`reopen` to go on after a resume.
    """

    def __init__(self, path: Path, stream: BinaryIO) -> None:
        self.path = path
        self._stream = stream

    @classmethod
    def create(cls, path: Path, header: Mapping[str, Any]) -> LogWriter:
        """Start a new log at ``path`` with ``header`` (``format`` and ``created`` added).

        Raises:
            FileExistsError: ``path`` exists (a log is never overwritten).
            OSError: the file cannot be written.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        stream = path.open("xb")
        writer = cls(path, stream)
        writer._write({"format": FORMAT_VERSION, "created": time.time(), **header})
        return writer

    @classmethod
    def reopen(cls, path: Path, valid_bytes: int) -> LogWriter:
        """Append to an existing log after its first ``valid_bytes`` bytes.

        A damaged tail beyond ``valid_bytes`` is cut off first.

        Raises:
            OSError: the file cannot be written.
        """
        stream = path.open("r+b")
        stream.truncate(valid_bytes)
        stream.seek(valid_bytes)
        return cls(path, stream)

    def _write(self, record: Mapping[str, Any]) -> None:
        self._stream.write(_pack(record))
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def append(self, seat: int, action: Mapping[str, Any]) -> None:
        """Record an accepted action; returns once it is on disk."""
        self._write({"seat": seat, "action": dict(action), "time": time.time()})

    def close(self) -> None:
        """Close the file."""
        self._stream.close()


class _Bad(Exception):
    """A damaged record, with the reason."""


def _action(record: dict[str, Any]) -> LoggedAction:
    seat, action, when = record.get("seat"), record.get("action"), record.get("time")
    if (
        not isinstance(seat, int)
        or not isinstance(action, dict)
        or not isinstance(when, int | float)
    ):
        raise _Bad("record is not an action")
    return LoggedAction(seat, action, float(when))


def read_log(path: Path) -> TableLog:
    """Read a whole log.

    Raises:
        FileNotFoundError: no such file.
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
            except (ValueError, msgpack.UnpackException) as exc:
                raise _Bad(f"undecodable record: {exc}") from None
            offset += size
            if not isinstance(record, dict):
                raise _Bad("record is not a map")
            if log is None:
                if record.get("format") != FORMAT_VERSION or not isinstance(
                    record.get("seed"), int
                ):
                    raise _Bad(f"not a table log of format {FORMAT_VERSION}")
                log = TableLog(header=record)
            else:
                log.actions.append(_action(record))
            log.valid_bytes = offset
    except _Bad as bad:
        if log is not None:
            log.valid_bytes = start
        raise LogDamaged(path, start, len(log.actions) if log else 0, str(bad), log) from None
    if log is None:
        raise LogDamaged(path, 0, 0, "empty file", None)
    return log
