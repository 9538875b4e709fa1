"""A table log's room (net/tablelog.py "Room"): zero-filled, synced space past the last
record, so that a record's synchronous write changes no file metadata. The room is
made at create and reopen and again when it runs low, records land in it, a log that
ends in room reads as sound, and a record torn over the room's zeros is never read
as another record (each record's ``ck``)."""

from __future__ import annotations

import asyncio
import collections
import os
import threading
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest
from logcheck import play_log
from test_net_group_commit import until

import net.tablelog as tablelog
from net.recorder import TableRecorder
from net.tablelog import (
    FORMAT_VERSION,
    ROOM,
    ROOM_LOW,
    ROOM_WRITES,
    LogDamaged,
    LogTail,
    LogWriter,
    TableLog,
    read_log,
)
from poissonnier_tui.hosting.persistence import games_dir, list_games, plan_resume, replay_log
from poissonnier_tui.hosting.replay import Replay
from poissonnier_tui.hosting.tables import resume_server

pytestmark = pytest.mark.skipif(not ROOM_WRITES, reason="no pwrite/O_DSYNC: logs get no room")

HEADER = {"game": "count", "seed": 1, "seats": []}


def room_of(path: Path) -> bytes:
    """What lies past the log's last record."""
    return path.read_bytes()[read_log(path).valid_bytes :]


def actions(log: TableLog) -> list[tuple[int, dict[str, Any], str | None]]:
    return [(a.seat, a.action, a.why) for a in log.actions]


# --- making the room ---------------------------------------------------------------------------


def test_a_new_log_has_its_room_and_records_go_into_it(tmp_path: Path) -> None:
    path = tmp_path / "new.plog"
    writer = LogWriter.create(path, HEADER)
    header_end = read_log(path).valid_bytes
    assert path.stat().st_size == header_end + ROOM and room_of(path) == bytes(ROOM)
    writer.append(0, {"add": 1})
    writer.append(1, {"add": 2}, why="away")
    writer.append_chat(None, "Eve", "hello", 2)
    log = read_log(path)  # a log that ends in room is sound
    assert actions(log) == [(0, {"add": 1}, None), (1, {"add": 2}, "away")]
    assert [c.text for c in log.chats] == ["hello"] and log.end is None
    assert "ck" not in log.header and log.header["format"] == FORMAT_VERSION == 2
    assert path.stat().st_size == header_end + ROOM  # the file did not grow: into the room
    assert room_of(path) == bytes(header_end + ROOM - log.valid_bytes)


def test_the_room_is_made_again_once_it_runs_low_and_cut_off_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "low.plog"
    writer = LogWriter.create(path, HEADER)
    text = "x" * 9000  # a few records of 9 KB use the room up
    sizes = []
    for i in range(12):
        writer.append(0, {"say": text, "n": i})
        sizes.append(path.stat().st_size)
        end = read_log(path).valid_bytes
        assert ROOM_LOW <= sizes[-1] - end <= ROOM  # never less than ROOM_LOW after a write
    assert len(set(sizes)) > 1  # it was extended (up to ROOM past the last record)
    grown = [i for i in range(1, 12) if sizes[i] > sizes[i - 1]]
    for i in grown:
        assert sizes[i] - read_log(path).actions[i].offset > ROOM  # ROOM past the record's end
    assert room_of(path) == bytes(len(room_of(path)))
    writer.finish({"winner": 0})
    log = read_log(path)
    assert log.end == {"winner": 0} and log.valid_bytes == path.stat().st_size  # no room left
    assert [a.action["n"] for a in log.actions] == list(range(12))


def test_make_room_writes_only_when_low_and_never_after_close(tmp_path: Path) -> None:
    path = tmp_path / "make.plog"
    writer = LogWriter.create(path, HEADER)
    assert writer.make_room() == 0  # a whole ROOM is there
    writer.write([writer.action_record(0, {"say": "y" * 50_000})])  # write() never extends
    end, before = read_log(path).valid_bytes, path.stat().st_size
    assert before - end < ROOM_LOW
    assert writer.make_room() == end + ROOM - before  # zeros up to ROOM past the record
    assert path.stat().st_size == end + ROOM and room_of(path) == bytes(ROOM)
    writer.write([writer.action_record(0, {"say": "y" * 50_000})])
    writer.close()
    assert writer.make_room() == 0 and path.stat().st_size - read_log(path).valid_bytes < ROOM_LOW


def test_reopen_cuts_to_the_valid_prefix_then_makes_the_room_again(tmp_path: Path) -> None:
    path = tmp_path / "again.plog"
    writer = LogWriter.create(path, HEADER)
    for i in range(3):
        writer.append(0, {"add": i})
    log = read_log(path)
    again = LogWriter.reopen(path, log.actions[2].offset)  # drop the last action
    assert path.stat().st_size == log.actions[2].offset + ROOM and room_of(path) == bytes(ROOM)
    again.append(1, {"add": 9})
    assert [a.action["add"] for a in read_log(path).actions] == [0, 1, 9]
    ended = LogWriter.create(tmp_path / "ended.plog", HEADER)
    ended.finish({"winner": 1})
    done = read_log(ended.path)
    LogWriter.reopen(ended.path, done.valid_bytes, ended=True)
    assert ended.path.stat().st_size == done.valid_bytes  # nothing will be written: no room


async def test_the_pipe_writes_into_the_room_and_extends_it_after_reporting(
    tmp_path: Path,
) -> None:
    writer = LogWriter.create(tmp_path / "pipe.plog", HEADER)
    recorder = TableRecorder(writer=writer)
    size = writer.path.stat().st_size
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    assert writer.path.stat().st_size == size  # into the room
    for i in range(8):  # 8 KB records: the room runs low, the thread makes it again
        await recorder._queue(writer, [writer.action_record(0, {"say": "z" * 8000, "n": i})])
    log = read_log(writer.path)
    assert [a.action.get("n") for a in log.actions] == [None, *range(8)]
    assert writer.path.stat().st_size > size and room_of(writer.path) == bytes(
        writer.path.stat().st_size - log.valid_bytes
    )
    await recorder._queue(writer, [writer.action_record(1, {"add": 2}), writer.end_record({})])
    recorder.close()
    await until(lambda: writer.path.stat().st_size == read_log(writer.path).valid_bytes)
    assert read_log(writer.path).end == {}  # the end recorded, the room cut off after it


class HeldRoom:
    """Stands in for making the room: waits until :attr:`go` is set (at most 20 s), so
    that a record whose report came after it would not resolve in the test's 5 s."""

    def __init__(self) -> None:
        self.calls = 0
        self.go = threading.Event()

    def hold(self) -> None:
        self.calls += 1
        self.go.wait(20)


async def test_the_room_is_made_only_after_the_record_is_reported_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldRoom()
    real_tail, real_writer = LogTail.make_room, LogWriter.make_room
    monkeypatch.setattr(LogTail, "make_room", lambda tail: held.hold() or real_tail(tail))
    monkeypatch.setattr(LogWriter, "make_room", lambda w: held.hold() or real_writer(w))
    try:
        for pipe in (True, False):  # the pipe's thread, then the disk thread
            writer = LogWriter.create(tmp_path / f"held-{pipe}.plog", HEADER)
            recorder = TableRecorder(writer=writer)
            recorder._channels = pipe
            recorder._aio = False  # the pipe's own thread (AIO: test_net_log_aio.py)
            held.go.clear()
            held.calls = 0
            durable = recorder._queue(writer, [writer.action_record(0, {"add": 1})])
            await asyncio.wait_for(durable, 5)  # reported while the room is still held
            await until(lambda: held.calls > 0)
            assert (recorder._channel is not None) == pipe
            held.go.set()
            recorder.close()
            assert actions(read_log(writer.path)) == [(0, {"add": 1}, None)]
    finally:
        held.go.set()


# --- reading a log that ends in room -----------------------------------------------------------


def test_a_log_with_room_is_listed_replayed_and_resumed_as_sound(data_dir: Path) -> None:
    folder = games_dir()
    folder.mkdir(parents=True)
    path = folder / "2026-01-01_100000_seed7_aaaa.plog"
    played = play_log(path, seed=7, players=2, actions=6, humans=1)
    assert len(room_of(path)) > ROOM_LOW
    (game,) = list_games()
    assert game.problem is None and game.actions == 6
    replay = Replay.load(path)
    assert replay.problem is None and replay.steps == 6
    plan = plan_resume(path, confirm=lambda q: pytest.fail(f"asked: {q}"))
    assert plan.damage is None and plan.actions == 6
    _server, recorder = resume_server(plan, port=0)
    recorder.close()
    assert [(a.seat, a.action) for a in read_log(path).actions] == played


def test_a_zero_length_followed_by_anything_but_zeros_is_damage(tmp_path: Path) -> None:
    path = tmp_path / "garbage.plog"
    writer = LogWriter.create(path, HEADER)
    writer.append(0, {"add": 1})
    end = read_log(path).valid_bytes
    size = path.stat().st_size
    for at, garbage in ((end + 4, b"\x01"), (size - 1, b"\xff"), (end, b"\x00\x00\x00\x00\x07")):
        fd = os.open(path, os.O_WRONLY)
        try:
            os.pwrite(fd, garbage, at)
        finally:
            os.close(fd)
        with pytest.raises(LogDamaged) as damaged:
            read_log(path)
        assert damaged.value.offset == end and damaged.value.good_actions == 1
        assert "zero length followed by other bytes" in str(damaged.value)
        fd = os.open(path, os.O_WRONLY)
        try:
            os.pwrite(fd, bytes(len(garbage)), at)  # zeros again: sound
        finally:
            os.close(fd)
        assert actions(read_log(path)) == [(0, {"add": 1}, None)]


def test_a_short_zero_tail_is_the_clean_end_of_a_log_with_room(tmp_path: Path) -> None:
    path = tmp_path / "short.plog"
    writer = LogWriter.create(path, HEADER)
    writer.append(0, {"add": 1})
    end = read_log(path).valid_bytes
    for left in (0, 1, 2, 3, 4, 5):  # the room nearly used up when the process died
        os.truncate(path, end + left)
        log = read_log(path)
        assert actions(log) == [(0, {"add": 1}, None)] and log.valid_bytes == end


# --- torn records ------------------------------------------------------------------------------


def records_of(writer: LogWriter) -> dict[str, bytes]:
    """One framed record of each kind, as the writer builds them."""
    return {
        "seat's move": writer.action_record(1, {"type": "serve", "cards": [3, 17], "price": 4}),
        "table's move": writer.action_record(2, {"type": "end_turn"}, why="away"),
        "chat": writer.chat_record(0, "Ann", "hello", 3) or b"",
        "big": writer.action_record(0, {"say": "w" * 300}),  # a length over 255
        "end": writer.end_record({"winners": [1], "scores": [3, 9]}),
    }


def torn_outcomes(tmp_path: Path) -> tuple[dict[str, int], list[str]]:
    """Write a sound log, then each record torn at every byte over the room's zeros.

    Returns:
        How many tears read as the clean end, as damage, as the record itself; and the
        tears that read as another record than the one written (``kind k=...``).
    """
    path = tmp_path / "torn.plog"
    writer = LogWriter.create(path, HEADER)
    writer.append(0, {"add": 1})
    sound = read_log(path)
    prefix = path.read_bytes()[: sound.valid_bytes]
    room = path.stat().st_size - sound.valid_bytes
    counts = {"clean end": 0, "damage": 0, "the record": 0}
    other: list[str] = []
    for kind, record in records_of(writer).items():
        assert len(record) < room
        target = tmp_path / "tear.plog"
        for k in range(len(record) + 1):
            torn = record[:k] + bytes(len(record) - k)
            target.write_bytes(prefix + torn + bytes(room - len(record)))
            try:
                log = read_log(target)
            except LogDamaged as exc:
                assert exc.offset == sound.valid_bytes and exc.log is not None
                assert actions(exc.log) == actions(sound)
                counts["damage"] += 1
                continue
            if log.valid_bytes == sound.valid_bytes:
                assert actions(log) == actions(sound) and not log.chats and log.end is None
                counts["clean end"] += 1
                continue
            assert log.valid_bytes == sound.valid_bytes + len(record)
            if torn == record:  # whole (or torn only where the record has zeros itself)
                counts["the record"] += 1
                continue
            other.append(f"{kind} k={k}")
    return counts, other


def test_a_record_torn_over_the_room_at_any_byte_is_never_read_as_another(
    tmp_path: Path,
) -> None:
    counts, other = torn_outcomes(tmp_path)
    assert other == []
    assert counts["the record"] >= 5  # each whole record reads back
    assert counts["clean end"] >= 5 * 3  # a torn length reads zero: the record is gone
    assert counts["damage"] > 100


def test_without_the_check_some_tears_would_read_as_other_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the check is for: records without ``ck``, read with room, would pass torn in
    their last value: a table's move in its ``why`` (NULs), the others in their ``time``."""
    real_pack = tablelog._pack
    monkeypatch.setattr(tablelog, "_pack", lambda record, checked=True: real_pack(record, False))
    monkeypatch.setattr(tablelog, "_sealed", lambda body: True)
    _counts, other = torn_outcomes(tmp_path)
    per_kind = collections.Counter(o.split(" k=")[0] for o in other)
    assert per_kind["table's move"] == 4  # its why, "away", torn after 0 to 3 letters
    for kind in ("seat's move", "chat", "big", "end"):  # torn in the 8 bytes of its time
        assert 1 <= per_kind[kind] <= 8  # (fewer where the float's last bytes are zeros)
    assert len(per_kind) == 5


def test_a_torn_header_is_never_read_as_a_log(tmp_path: Path) -> None:
    path = tmp_path / "head.plog"
    LogWriter.create(path, {**HEADER, "table": {"name": "T", "port": 5050}})
    header = path.read_bytes()[: read_log(path).valid_bytes]
    for k in range(len(header)):
        path.write_bytes(header[:k] + bytes(len(header) - k + ROOM))
        with pytest.raises(LogDamaged) as damaged:
            read_log(path)
        assert damaged.value.offset == 0 and damaged.value.log is None


# --- resuming ----------------------------------------------------------------------------------


async def test_a_resume_after_a_crash_mid_record_in_the_room_goes_on_from_the_last_record(
    tmp_path: Path,
) -> None:
    """A real game's log, its next record torn in the room; the resumed table cuts the
    tear, makes the room again, and the next record lands in it (through the pipe)."""
    full = tmp_path / "full.plog"
    played = play_log(full, seed=31, players=2, actions=9, humans=1)
    path = tmp_path / "game.plog"
    data = full.read_bytes()
    last = read_log(full).actions[-1].offset
    ninth = data[last : read_log(full).valid_bytes]
    path.write_bytes(data[:last] + ninth[: len(ninth) - 6] + bytes(ROOM))  # the crash
    with pytest.raises(LogDamaged):
        read_log(path)
    asked: list[str] = []
    plan = plan_resume(path, confirm=lambda q: asked.append(q) or True)
    assert plan.actions == 8 and "fails its check" in asked[0]
    server, recorder = resume_server(plan, port=0)
    assert path.read_bytes() == data[:last] + bytes(ROOM)  # cut, then the room again
    seat, action = played[8]
    durable = recorder.record_action(seat, action)
    assert durable is not None
    await durable
    recorder.close()
    log = read_log(path)
    assert [(a.seat, a.action) for a in log.actions] == played
    assert path.stat().st_size == last + ROOM  # into the room
    assert replay_log(log).applied == 9
    assert server.rev == 8


# --- old logs ----------------------------------------------------------------------------------


def old_log(path: Path, records: list[dict[str, Any]]) -> bytes:
    """A format-1 log as older versions wrote it: no ``ck``, no room."""
    header = {"format": 1, "created": time.time(), **HEADER}
    frames = b""
    for record in [header, *records]:
        body = msgpack.packb(record, use_bin_type=True)
        frames += len(body).to_bytes(4, "big") + body
    path.write_bytes(frames)
    return frames


def test_an_old_log_reads_and_resumes_as_before(tmp_path: Path) -> None:
    path = tmp_path / "old.plog"
    frames = old_log(path, [{"seat": 0, "action": {"add": 1}, "time": 1.0}])
    log = read_log(path)
    assert actions(log) == [(0, {"add": 1}, None)] and log.valid_bytes == len(frames)
    assert log.header["format"] == 1
    writer = LogWriter.reopen(path, log.valid_bytes)
    assert writer.format == 1 and path.stat().st_size == len(frames)  # no room
    writer.append(1, {"add": 2})
    writer.append(0, {"add": 3})
    data = path.read_bytes()
    assert data[: len(frames)] == frames and b"\xa2ck" not in data  # format-1 records
    assert [a.action["add"] for a in read_log(path).actions] == [1, 2, 3]
    with path.open("ab") as stream:  # zeros after an old log's records are damage, as before
        stream.write(bytes(8))
    with pytest.raises(LogDamaged, match="undecodable record"):
        read_log(path)


async def test_an_old_log_resumed_through_the_pipe_stays_format_1(tmp_path: Path) -> None:
    path = tmp_path / "oldpipe.plog"
    frames = old_log(path, [{"seat": 0, "action": {"add": 1}, "time": 1.0}])
    writer = LogWriter.reopen(path, read_log(path).valid_bytes)
    recorder = TableRecorder(writer=writer)
    await recorder._queue(writer, [writer.action_record(0, {"add": 2})])
    recorder.close()
    data = path.read_bytes()
    assert data[: len(frames)] == frames and b"\xa2ck" not in data
    log = read_log(path)
    assert [a.action["add"] for a in log.actions] == [1, 2] and log.valid_bytes == len(data)
