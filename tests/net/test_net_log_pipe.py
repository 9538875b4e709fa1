"""The pipe hand-off of a table's log (net/recorder.py ``_PipeChannel``): the loop writes
each record into a pipe and goes on; a thread parked in ``os.splice`` moves it into the
log (``O_DSYNC``) and reports it durable. The thread hand-off it replaces where the
platform can splice is tested in test_net_group_commit.py."""

from __future__ import annotations

import asyncio
import errno
import gc
import os
import resource
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from test_net_group_commit import recorded, sent_by_each_report, spy_sends, two_seats, until

import net.recorder as recorder_module
from net.messages import Ack
from net.recorder import TableRecorder
from net.tablelog import MAX_RECORD, ROOM, ROOM_LOW, LogDamaged, LogWriter, read_log

pytestmark = pytest.mark.skipif(not hasattr(os, "splice"), reason="no os.splice here")

HEADER = {"game": "count", "seed": 1, "seats": []}


@pytest.fixture(autouse=True)
def pipe_not_aio(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipe, even where the kernel's AIO would be chosen first (test_net_log_aio.py)."""
    monkeypatch.setattr(recorder_module, "aio_available", lambda: False)


class HeldSplice:
    """Stands in for ``os.splice``: the first ``held`` moves wait, once their bytes are
    in the file, until :attr:`go` is set (a slow sync); each move's byte count is kept."""

    def __init__(self, held: int = 1) -> None:
        self.held = held
        self.moves: list[int] = []
        self.entered = threading.Event()
        self.go = threading.Event()
        self._real = os.splice

    def splice(self, *args: Any, **kwargs: Any) -> int:
        moved: int = self._real(*args, **kwargs)
        if moved and len(self.moves) < self.held:
            self.entered.set()
            self.go.wait(10)
        if moved:
            self.moves.append(moved)
        return moved

    async def wait_entered(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, 10)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldSplice]:
    splice = HeldSplice()
    monkeypatch.setattr(os, "splice", splice.splice)
    yield splice
    splice.go.set()  # never leave a thread waiting


def new_log(tmp_path: Path, name: str = "pipe.plog") -> tuple[LogWriter, TableRecorder]:
    writer = LogWriter.create(tmp_path / name, HEADER)
    return writer, TableRecorder(writer=writer)


def in_order(futures: list[asyncio.Future[None]]) -> list[int]:
    """The indices of ``futures`` in the order they come to be done."""
    order: list[int] = []
    for i, future in enumerate(futures):
        future.add_done_callback(lambda _f, i=i: order.append(i))
    return order


async def test_a_record_is_in_the_file_before_its_future_resolves_and_records_group(
    tmp_path: Path, held: HeldSplice
) -> None:
    writer, recorder = new_log(tmp_path)
    first = recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    assert recorder._channel is not None and recorder._disk is None  # the pipe, not a thread
    on_disk: list[list[int]] = []
    first.add_done_callback(
        lambda _f: on_disk.append([x.action["add"] for x in read_log(writer.path).actions])
    )
    await held.wait_entered()  # the thread moved it and is "syncing"
    await asyncio.sleep(0.01)
    assert not first.done()
    later = [recorder._queue(writer, [writer.action_record(1, {"add": i})]) for i in range(10)]
    order = in_order([first, *later])
    held.go.set()
    await asyncio.gather(first, *later)
    assert on_disk[0][0] == 1  # all of it was in the file already
    assert order == list(range(11))
    assert len(held.moves) == 2 and recorder.syncs == 2  # the ten went together
    recorder.close()
    log = read_log(writer.path)
    assert [x.action["add"] for x in log.actions] == [1, *range(10)]
    room = writer.path.read_bytes()[log.valid_bytes :]  # the records went into the room
    assert ROOM_LOW <= len(room) <= ROOM and room == bytes(len(room))


async def nothing_heard_until_durable(
    tmp_path: Path, held: Any, monkeypatch: pytest.MonkeyPatch
) -> type[object]:
    """Seat A plays while ``held`` (a slow splice, or a late completion) holds its
    record, which is in the file: no ack or view leaves until the hand-off reports it
    durable, then both do. Returns the kind of hand-off the recorder used."""
    events: list[tuple[Any, ...]] = []
    spy_sends(monkeypatch, events)
    async with recorded(tmp_path) as (server, recorder):
        a, a_w, b, b_w = await two_seats(server)
        seq = await a.send_action({"add": 2})
        await held.wait_entered()
        assert recorder.actions == 1 and server.rev == 1
        assert [e for e in events if e[0] == "sent" and e[1:] != ("view", 0)] == []
        assert len(read_log(tmp_path / "count.plog").actions) == 1  # in the file, not reported
        used = type(recorder._channel)
        held.go.set()
        assert await a_w.until(lambda m: isinstance(m, Ack)) == Ack(seq)
        assert (await b_w.view(1)).view["total"] == 2
        await a.close()
        await b.close()
    return used


async def test_no_ack_or_view_leaves_before_the_pipe_reports_the_record_durable(
    tmp_path: Path, held: HeldSplice, monkeypatch: pytest.MonkeyPatch
) -> None:
    used = await nothing_heard_until_durable(tmp_path, held, monkeypatch)
    assert used is recorder_module._PipeChannel


async def test_records_larger_than_the_pipe_never_block_the_loop_and_are_kept_whole(
    tmp_path: Path, held: HeldSplice
) -> None:
    writer, recorder = new_log(tmp_path)
    biggest = writer.chat_record(None, "x", "", 0)
    assert biggest is not None
    text = "é" * ((MAX_RECORD - len(biggest) - 8) // 2)  # a record of about MAX_RECORD bytes
    records = [writer.chat_record(0, "Ana", text[: len(text) - i], i) for i in range(6)]
    assert all(r is not None and len(r) > MAX_RECORD - 64 for r in records)
    futures = [recorder._queue(writer, [r]) for r in records if r is not None]
    channel = recorder._channel
    assert channel is not None and channel._backlog  # ≈ 390 KB handed over, 64 KiB piped
    order = in_order(futures)
    held.go.set()
    await asyncio.gather(*futures)
    assert order == list(range(6))
    assert not channel._backlog and channel.idle
    recorder.close()
    log = read_log(writer.path)
    assert [c.after for c in log.chats] == list(range(6))
    assert all(c.text == text[: len(text) - c.after] for c in log.chats)


async def test_a_rematch_writes_the_new_log_only_once_the_last_one_is_on_disk(
    tmp_path: Path, held: HeldSplice
) -> None:
    old, recorder = new_log(tmp_path, "first.plog")
    futures = [recorder._queue(old, [old.action_record(0, {"add": 1})])]
    await held.wait_entered()
    futures.append(recorder._queue(old, [old.end_record({"winner": 0})]))
    old.close()  # as TableRecorder.start does for a rematch
    new = LogWriter.create(tmp_path / "second.plog", HEADER)
    futures += [recorder._queue(new, [new.action_record(s, {"add": s})]) for s in (0, 1)]
    first_channel = recorder._channel
    assert first_channel is not None and first_channel.writer is old
    assert recorder._writing and len(recorder._pending) == 2  # waiting for the first log
    order = in_order(futures)
    held.go.set()
    await asyncio.gather(*futures)
    assert order == [0, 1, 2, 3]
    assert recorder._channel is not None and recorder._channel.writer is new
    assert first_channel.stopping and first_channel._w < 0  # its pipe was closed
    recorder.close()
    first, second = read_log(old.path), read_log(new.path)
    assert [x.action for x in first.actions] == [{"add": 1}] and first.end == {"winner": 0}
    assert [(x.seat, x.action) for x in second.actions] == [(0, {"add": 0}), (1, {"add": 1})]
    assert second.end is None


async def test_a_failed_move_fails_that_record_and_every_later_one_and_cuts_the_part_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second record is moved in part, then the disk is full: the part is cut off,
    its future and the later ones fail in order, and nothing more is written."""
    writer, recorder = new_log(tmp_path)
    real = os.splice
    moves: list[int] = []
    entered, go = threading.Event(), threading.Event()

    def splice(pipe_r: int, fd: int, count: int, **kwargs: Any) -> int:
        if len(moves) == 1:  # the second move: wait for the later records, take 7 bytes
            entered.set()
            assert go.wait(10)
            count = 7
        elif len(moves) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        moved: int = real(pipe_r, fd, count, **kwargs)
        moves.append(moved)
        return moved

    monkeypatch.setattr(os, "splice", splice)
    first = recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    await first
    size = read_log(writer.path).valid_bytes  # the file is longer: room
    futures = [recorder._queue(writer, [writer.action_record(1, {"add": i})]) for i in range(3)]
    await asyncio.to_thread(entered.wait, 10)
    order = in_order(futures)
    go.set()
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert order == [0, 1, 2]
    assert all(isinstance(r, OSError) and r.errno == errno.ENOSPC for r in results)
    assert moves == [moves[0], 7] and writer.path.stat().st_size == size  # cut, room too
    assert recorder.error is not None and "no longer being saved" in recorder.error
    later = recorder._queue(writer, [writer.action_record(0, {"add": 9})])
    with pytest.raises(OSError):
        await later  # nothing more is written
    recorder.close()
    assert len(moves) == 2 and writer.path.stat().st_size == size
    assert [x.action for x in read_log(writer.path).actions] == [{"add": 1}]


async def test_a_file_size_limit_reached_mid_record_fails_it_and_keeps_a_sound_log(
    tmp_path: Path,
) -> None:
    """A real refusal from the kernel (``EFBIG`` past ``RLIMIT_FSIZE``), no stand-in."""
    writer, recorder = new_log(tmp_path)
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    size = read_log(writer.path).valid_bytes  # the limit is inside the room: still refused
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    ignored = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 10, hard))
    try:
        futures = [recorder._queue(writer, [writer.action_record(1, {"add": i})]) for i in (2, 3)]
        results = await asyncio.gather(*futures, return_exceptions=True)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, ignored)
    assert [type(r) for r in results] == [OSError, OSError]
    recorder.close()
    assert writer.path.stat().st_size == size
    log = read_log(writer.path)
    assert [x.action for x in log.actions] == [{"add": 1}] and log.valid_bytes == size


async def test_a_file_that_cannot_be_spliced_to_is_copied_from_the_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cannot(*args: Any, **kwargs: Any) -> int:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(os, "splice", cannot)
    writer, recorder = new_log(tmp_path)
    futures = [recorder._queue(writer, [writer.action_record(0, {"add": i})]) for i in range(5)]
    await asyncio.gather(*futures)
    recorder.close()
    assert [x.action["add"] for x in read_log(writer.path).actions] == list(range(5))


async def test_where_the_platform_cannot_splice_a_thread_writes_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "splice")
    assert not recorder_module.pipe_handoff()
    writer, recorder = new_log(tmp_path)
    futures = [recorder._queue(writer, [writer.action_record(0, {"add": i})]) for i in range(5)]
    assert recorder._disk is not None and recorder._channel is None
    await asyncio.gather(*futures)
    recorder.close()
    assert [x.action["add"] for x in read_log(writer.path).actions] == list(range(5))


async def test_closing_lets_what_was_handed_over_be_written_then_the_thread_ends(
    tmp_path: Path, held: HeldSplice
) -> None:
    writer, recorder = new_log(tmp_path)
    before = set(threading.enumerate())
    futures = [recorder._queue(writer, [writer.action_record(0, {"add": i})]) for i in range(3)]
    (thread,) = [t for t in threading.enumerate() if t not in before]
    assert thread.name == "table log" and thread.is_alive()
    await held.wait_entered()
    recorder.close()
    channel = recorder._channel
    assert channel is not None and channel._w < 0  # the pipe's writing end is closed
    held.go.set()
    await asyncio.gather(*futures)
    await until(lambda: not thread.is_alive())  # it saw the end and left
    assert [x.action["add"] for x in read_log(writer.path).actions] == [0, 1, 2]


async def test_a_reopened_log_goes_on_after_its_valid_prefix(tmp_path: Path) -> None:
    writer, recorder = new_log(tmp_path)
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    recorder.close()
    with writer.path.open("ab") as stream:  # a crash mid-record
        stream.write(b"\x00\x00\x01\x00" + msgpack.packb({"seat": 1})[:3])
    with pytest.raises(LogDamaged) as damaged:
        read_log(writer.path)
    prefix = damaged.value.log
    assert prefix is not None
    again = LogWriter.reopen(writer.path, prefix.valid_bytes)
    recorder = TableRecorder(writer=again)
    await recorder._queue(again, [again.action_record(1, {"add": 2})])
    recorder.close()
    log = read_log(writer.path)
    assert [x.action["add"] for x in log.actions] == [1, 2]
    assert log.actions[1].offset == prefix.valid_bytes


async def test_closing_with_a_backlog_writes_it_first_and_a_later_record_still_gets_written(
    tmp_path: Path, held: HeldSplice
) -> None:
    writer, recorder = new_log(tmp_path)
    text = "x" * 60_000
    futures = [recorder._queue(writer, [writer.action_record(0, {"say": text, "n": i})])
               for i in range(4)]  # fmt: skip
    channel = recorder._channel
    assert channel is not None and channel._backlog
    recorder.close()
    assert channel.stopping and channel._w >= 0  # kept open until the backlog is in the pipe
    held.go.set()
    await asyncio.gather(*futures)
    assert channel._w < 0 and not channel._backlog
    late = recorder._queue(writer, [writer.action_record(1, {"say": "", "n": 4})])
    await late  # after close(): a pipe of its own, which ends once it is written
    assert recorder._channel is not channel and recorder._channel is not None
    assert recorder._channel.stopping
    log = read_log(writer.path)
    assert [x.action["n"] for x in log.actions] == [0, 1, 2, 3, 4]
    assert log.actions[0].action["say"] == text


async def test_a_recorder_nobody_closes_lets_its_pipe_thread_go_when_collected(
    tmp_path: Path,
) -> None:
    writer, recorder = new_log(tmp_path)
    before = set(threading.enumerate())
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    (thread,) = [t for t in threading.enumerate() if t not in before]
    del recorder
    gc.collect()
    await until(lambda: not thread.is_alive())
    assert [x.action for x in read_log(writer.path).actions] == [{"add": 1}]


async def test_the_frames_leave_in_the_callback_that_reports_the_record_durable(
    tmp_path: Path, held: HeldSplice, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a loop turn later through the record future's callbacks (net/outbox.py flush)."""
    events: list[tuple[Any, ...]] = []
    spy_sends(monkeypatch, events)
    seq, seen = await sent_by_each_report(tmp_path, monkeypatch, events, "_channel_report", held)
    assert seen[0] == [("sent", "ack", seq), ("sent", "view", 1), ("sent", "view", 1)]
