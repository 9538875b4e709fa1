"""The kernel's own hand-off of a table's log (net/logaio.py ``AioChannel``): the loop
submits each write itself (Linux AIO, ``O_DIRECT`` and ``O_DSYNC``, into the log's
room) and hears through an eventfd once it is durable. Where it cannot (another
platform, a sandbox without ``io_setup``, tmpfs, a format-1 log) the pipe takes over
(test_net_log_pipe.py)."""

from __future__ import annotations

import asyncio
import errno
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logcheck import kernel_aio_in
from test_net_group_commit import sent_by_each_report, spy_sends
from test_net_log_pipe import HEADER, in_order, new_log, nothing_heard_until_durable
from test_tablelog_room import old_log

import net.logaio as logaio
import net.recorder as recorder_module
from net.logaio import BLOCK, AioChannel
from net.recorder import TableRecorder
from net.tablelog import MAX_RECORD, LogTail, LogWriter, read_log


@pytest.fixture(autouse=True)
def aio_here(tmp_path: Path) -> None:
    """Skip where this machine or tmp_path's file system has no kernel AIO (the pipe's
    tests cover those); the project's machines have it."""
    if not kernel_aio_in(tmp_path):
        pytest.skip("no kernel AIO here")


class Writes:
    """Every write the channel submits ``(offset, size)``, and whether it reached past the
    file's end (it must not: a write growing the file is done synchronously)."""

    def __init__(self) -> None:
        self.done: list[tuple[int, int]] = []
        self.grew: list[bool] = []


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Writes:
    seen = Writes()
    real = logaio._Kernel.write

    def write(kernel: Any, fd: int, address: int, size: int, offset: int, done_fd: int) -> None:
        assert offset % BLOCK == 0 and size % BLOCK == 0
        seen.grew.append(offset + size > os.fstat(fd).st_size)
        seen.done.append((offset, size))
        real(kernel, fd, address, size, offset, done_fd)

    monkeypatch.setattr(logaio._Kernel, "write", write)
    return seen


class HeldCompletions:
    """The first ``held`` completions reach the channel only once :attr:`go` is set (the
    bytes are on disk; the loop hears of it late, as after a slow sync)."""

    def __init__(self, held: int = 1) -> None:
        self.held = held
        self.count = 0
        self.entered = threading.Event()
        self.go = threading.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    def reap(self, real: Any, channel: AioChannel) -> None:
        if self.count >= self.held or channel._flight is None:
            real(channel)
            return
        self.count += 1
        self.entered.set()
        os.eventfd_read(channel._done_fd)  # taken: the loop stops calling until later

        async def later() -> None:
            await asyncio.to_thread(self.go.wait, 10)
            real(channel)

        task = asyncio.ensure_future(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait_entered(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, 10)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldCompletions]:
    completions = HeldCompletions()
    real = AioChannel._reap
    monkeypatch.setattr(AioChannel, "_reap", lambda channel: completions.reap(real, channel))
    yield completions
    completions.go.set()


async def test_the_kernel_writes_each_record_before_its_future_resolves_and_records_group(
    tmp_path: Path, held: HeldCompletions, writes: Writes
) -> None:
    writer, recorder = new_log(tmp_path)
    first = recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    assert isinstance(recorder._channel, AioChannel) and recorder._disk is None
    on_disk: list[list[int]] = []
    first.add_done_callback(
        lambda _f: on_disk.append([x.action["add"] for x in read_log(writer.path).actions])
    )
    await held.wait_entered()  # written; the loop has not heard
    assert not first.done()
    later = [recorder._queue(writer, [writer.action_record(1, {"add": i})]) for i in range(10)]
    order = in_order([first, *later])
    held.go.set()
    await asyncio.gather(first, *later)
    assert on_disk[0][0] == 1  # in the file before it resolved
    assert order == list(range(11))
    assert len(writes.done) == 2 and recorder.syncs == 2  # the ten went together
    assert writes.grew == [False, False]
    recorder.close()
    log = read_log(writer.path)
    assert [x.action["add"] for x in log.actions] == [1, *range(10)]
    room = writer.path.read_bytes()[log.valid_bytes :]
    assert len(room) > 0 and room == bytes(len(room))  # zeros after the records


async def test_records_across_blocks_and_past_the_room_are_kept_whole(
    tmp_path: Path, writes: Writes
) -> None:
    """Small records across block boundaries, then records of about MAX_RECORD bytes:
    more than one write's buffer, more than the room, which a thread makes again."""
    writer, recorder = new_log(tmp_path)
    small = [recorder._queue(writer, [writer.action_record(i % 2, {"add": i})]) for i in range(300)]
    await asyncio.gather(*small)
    text = "é" * ((MAX_RECORD - 200) // 2)
    big = [writer.chat_record(0, "Ana", text[: len(text) - i], i) for i in range(6)]
    assert all(r is not None and len(r) > MAX_RECORD - 256 for r in big)
    futures = [recorder._queue(writer, [r]) for r in big if r is not None]
    await asyncio.wait_for(asyncio.gather(*futures), 20)
    assert not any(writes.grew)  # every write went into room made beforehand
    assert len(writes.done) >= 3
    recorder.close()
    log = read_log(writer.path)
    assert [x.action["add"] for x in log.actions] == list(range(300))
    assert [c.text for c in log.chats] == [text[: len(text) - i] for i in range(6)]
    assert writer.path.stat().st_size >= log.valid_bytes  # its room (cut once it ends)


async def test_a_failed_write_fails_its_records_and_every_later_one_and_cuts_the_file_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, recorder = new_log(tmp_path)
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    size = read_log(writer.path).valid_bytes
    real = logaio._Kernel.reap
    monkeypatch.setattr(logaio._Kernel, "reap", lambda k: -errno.EIO if real(k) else None)
    futures = [recorder._queue(writer, [writer.action_record(1, {"add": i})]) for i in range(3)]
    order = in_order(futures)
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert order == [0, 1, 2]
    assert all(isinstance(r, OSError) and r.errno == errno.EIO for r in results)
    assert writer.path.stat().st_size == size  # the torn part cut off, and the room
    assert recorder.error is not None and "no longer being saved" in recorder.error
    later = recorder._queue(writer, [writer.action_record(0, {"add": 9})])
    with pytest.raises(OSError):
        await later  # nothing more is written
    recorder.close()
    assert [x.action for x in read_log(writer.path).actions] == [{"add": 1}]


async def test_no_ack_or_view_leaves_before_the_kernel_reports_the_record_durable(
    tmp_path: Path, held: HeldCompletions, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await nothing_heard_until_durable(tmp_path, held, monkeypatch) is AioChannel


async def test_the_frames_leave_in_the_callback_that_reports_the_record_durable(
    tmp_path: Path, held: HeldCompletions, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[tuple[Any, ...]] = []
    spy_sends(monkeypatch, events)
    seq, seen = await sent_by_each_report(tmp_path, monkeypatch, events, "_channel_report", held)
    assert seen[0] == [("sent", "ack", seq), ("sent", "view", 1), ("sent", "view", 1)]


@pytest.mark.parametrize("where", ["no io_setup", "no O_DIRECT", "format 1"])
async def test_where_the_kernel_cannot_the_pipe_writes_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    if where == "no io_setup":  # as in a sandbox that forbids it

        def refused(kernel: Any) -> None:
            raise OSError(errno.EPERM, "io_setup: Operation not permitted")

        monkeypatch.setattr(logaio._Kernel, "__init__", refused)
    elif where == "no O_DIRECT":  # as on tmpfs
        real_open = os.open

        def no_direct(path: Any, flags: int, *args: Any) -> int:
            if flags & os.O_DIRECT:
                raise OSError(errno.EINVAL, "Invalid argument")
            return real_open(path, flags, *args)

        monkeypatch.setattr(os, "open", no_direct)
    if where == "format 1":
        path = tmp_path / "old.plog"
        old_log(path, [{"seat": 0, "action": {"add": 0}, "time": 1.0}])
        writer = LogWriter.reopen(path, read_log(path).valid_bytes)
        recorder = TableRecorder(writer=writer)
        first = [0]
    else:
        writer, recorder = new_log(tmp_path)
        first = []
    futures = [recorder._queue(writer, [writer.action_record(0, {"add": i})]) for i in (1, 2)]
    assert isinstance(recorder._channel, recorder_module._PipeChannel)
    await asyncio.gather(*futures)
    recorder.close()
    assert [x.action["add"] for x in read_log(writer.path).actions] == [*first, 1, 2]


async def test_an_ended_log_loses_its_room_and_the_channel_gives_everything_back(
    tmp_path: Path,
) -> None:
    writer, recorder = new_log(tmp_path)
    before = set(threading.enumerate())
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    channel = recorder._channel
    assert isinstance(channel, AioChannel)
    assert writer.path.stat().st_size > read_log(writer.path).valid_bytes  # room
    await recorder._queue(writer, [writer.end_record({"winner": 0})])
    recorder.close()
    log = read_log(writer.path)
    assert log.end == {"winner": 0} and writer.path.stat().st_size == log.valid_bytes
    assert channel._direct < 0 and channel._done_fd < 0 and channel._tail is None
    for _ in range(100):  # the opening and room threads are gone
        if not [t for t in threading.enumerate() if t not in before]:
            break
        await asyncio.sleep(0.01)
    assert [t.name for t in threading.enumerate() if t not in before] == []


@pytest.mark.parametrize("when", ["submitted", "completed"])
async def test_a_first_write_the_file_system_refuses_goes_through_the_pipe_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """A file system that opens ``O_DIRECT`` but refuses the write itself: the records
    were not written, so they go through the pipe, in order; the table plays on."""
    refusals: list[str] = []
    if when == "submitted":

        def refuse(kernel: Any, *args: Any) -> None:
            refusals.append(when)
            raise OSError(errno.EINVAL, "io_submit: Invalid argument")

        monkeypatch.setattr(logaio._Kernel, "write", refuse)
    else:
        real = logaio._Kernel.reap

        def refused(kernel: Any) -> int | None:
            result = real(kernel)
            if result is None:
                return None
            refusals.append(when)
            return -errno.EINVAL

        monkeypatch.setattr(logaio._Kernel, "reap", refused)
    writer, recorder = new_log(tmp_path)
    futures = [recorder._queue(writer, [writer.action_record(0, {"add": i})]) for i in range(3)]
    assert isinstance(recorder._channel, AioChannel)
    order = in_order(futures)
    await asyncio.wait_for(asyncio.gather(*futures), 10)
    assert order == [0, 1, 2] and refusals == [when]
    assert isinstance(recorder._channel, recorder_module._PipeChannel)
    later = recorder._queue(writer, [writer.action_record(1, {"add": 3})])
    await later
    assert isinstance(recorder._channel, recorder_module._PipeChannel)
    recorder.close()
    assert recorder.error is None
    assert [x.action["add"] for x in read_log(writer.path).actions] == [0, 1, 2, 3]


async def test_records_queued_behind_the_end_still_get_room_then_the_room_is_cut(
    tmp_path: Path, writes: Writes
) -> None:
    """The end record is built (the writer has ended) while records larger than the
    room wait: the room is made for them, not cut from under them (a fast game's end,
    tests/shell/test_game_ui.py); once the end is on disk the room goes."""
    writer, recorder = new_log(tmp_path)
    text = "é" * ((MAX_RECORD - 200) // 2)
    big = [writer.chat_record(0, "Ana", text, i) for i in range(5)]
    futures = [recorder._queue(writer, [r]) for r in big if r is not None]
    futures.append(recorder._queue(writer, [writer.end_record({"winner": 0})]))
    assert writer.ended
    await asyncio.wait_for(asyncio.gather(*futures), 20)
    assert recorder.error is None and not any(writes.grew)
    recorder.close()
    log = read_log(writer.path)
    assert [c.after for c in log.chats] == list(range(5)) and log.end == {"winner": 0}
    assert writer.path.stat().st_size == log.valid_bytes


async def test_where_no_room_can_be_made_the_writes_grow_the_file_and_nothing_is_lost(
    tmp_path: Path, writes: Writes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LogTail, "extend_room", lambda tail: 0)  # e.g. a quota reached
    writer, recorder = new_log(tmp_path)
    text = "é" * ((MAX_RECORD - 200) // 2)
    big = [writer.chat_record(0, "Ana", text, i) for i in range(3)]
    futures = [recorder._queue(writer, [r]) for r in big if r is not None]
    await asyncio.wait_for(asyncio.gather(*futures), 20)
    assert recorder.error is None and any(writes.grew)
    recorder.close()
    assert [c.after for c in read_log(writer.path).chats] == [0, 1, 2]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    batches=st.lists(
        st.lists(st.integers(min_value=0, max_value=MAX_RECORD - 300), min_size=1, max_size=6),
        min_size=1,
        max_size=8,
    ),
    ends=st.booleans(),
)
def test_any_records_in_any_batches_are_read_back_in_order(
    tmp_path_factory: pytest.TempPathFactory, batches: list[list[int]], ends: bool
) -> None:
    """Records of any size (a few bytes to about MAX_RECORD), in batches that wait for
    their records or pile up behind, the end record perhaps last: every one is read
    back whole and in order, and an ended log keeps no room."""
    folder = tmp_path_factory.mktemp("aio")

    async def play() -> tuple[LogWriter, list[int]]:
        writer, recorder = new_log(folder)
        sizes: list[int] = []
        for i, batch in enumerate(batches):
            futures = []
            for size in batch:
                record = writer.chat_record(0, "Ana", "x" * size, len(sizes))
                assert record is not None
                sizes.append(size)
                futures.append(recorder._queue(writer, [record]))
            assert isinstance(recorder._channel, AioChannel)
            if i % 2 == 0:  # every other batch waits; the rest pile up behind
                await asyncio.gather(*futures)
        if ends:
            await recorder._queue(writer, [writer.end_record({"winner": 0})])
        while not (recorder._channel is None or recorder._channel.idle):
            await asyncio.sleep(0.001)
        assert recorder.error is None
        channel = recorder._channel
        recorder.close()
        for _ in range(1000):  # an ended log's room is cut once the room thread is done
            if not isinstance(channel, AioChannel) or channel._tail is None:
                break
            await asyncio.sleep(0.005)
        return writer, sizes

    writer, sizes = asyncio.run(play())
    log = read_log(writer.path)
    assert [(c.after, len(c.text)) for c in log.chats] == list(enumerate(sizes))
    assert (log.end is not None) == ends
    if ends:
        assert writer.path.stat().st_size == log.valid_bytes


async def test_a_failure_after_a_record_split_over_two_writes_cuts_back_to_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first write takes two records and the start of a third (the room ends inside
    it); the write of its rest fails: the two are durable, the third fails, and the file
    is cut back where the third began (not inside it: a torn record reads as damage)."""
    real = logaio._Kernel.reap
    completions: list[int] = []

    def reap(kernel: Any) -> int | None:
        result = real(kernel)
        if result is not None:
            completions.append(result)
            if len(completions) == 2:
                return -errno.EIO
        return result

    monkeypatch.setattr(logaio._Kernel, "reap", reap)
    writer, recorder = new_log(tmp_path)
    sizes = [10, 5000, MAX_RECORD - 300]
    records = [writer.chat_record(0, "Ana", "x" * size, i) for i, size in enumerate(sizes)]
    futures = [recorder._queue(writer, [r]) for r in records if r is not None]
    order = in_order(futures)
    results = await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), 20)
    assert order == [0, 1, 2] and results[:2] == [None, None]
    assert isinstance(results[2], OSError) and len(completions) == 2
    recorder.close()
    log = read_log(writer.path)  # no damage
    assert [len(c.text) for c in log.chats] == sizes[:2]
    assert writer.path.stat().st_size == log.valid_bytes


async def test_a_channel_closed_while_its_room_is_made_lets_the_room_thread_finish_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recorder is closed while the room thread writes its zeros (the end is on
    disk): the log's descriptor stays open until the thread is done (closed under it,
    its number would be another file's by then, and the zeros would go there), and the
    ended log's room is cut after the zeros, not before."""
    real = os.pwrite
    entered, go = threading.Event(), threading.Event()

    def pwrite(fd: int, data: Any, offset: int) -> int:
        if threading.current_thread().name == "table log (room)" and not go.is_set():
            entered.set()
            assert go.wait(10)
        return real(fd, data, offset)

    monkeypatch.setattr(os, "pwrite", pwrite)
    writer, recorder = new_log(tmp_path)
    # The loop's executor thread (asyncio.to_thread below) is the test's, not the log's:
    # started before ``before`` is taken, so the wait below waits for the log's alone.
    await asyncio.to_thread(lambda: None)
    before = set(threading.enumerate())
    record = writer.chat_record(0, "Ana", "x" * 50_000, 0)  # the room runs low
    assert record is not None
    await recorder._queue(writer, [record])
    assert await asyncio.to_thread(entered.wait, 10)  # the room thread is writing
    await recorder._queue(writer, [writer.end_record({"winner": 0})])
    channel = recorder._channel
    assert isinstance(channel, AioChannel)
    recorder.close()
    others = [tmp_path / f"other{i}" for i in range(20)]
    files = [path.open("wb") for path in others]  # take the descriptors' numbers freed
    go.set()
    for _ in range(500):
        if channel._tail is None and not [t for t in threading.enumerate() if t not in before]:
            break
        await asyncio.sleep(0.01)
    for file in files:
        file.close()
    assert [path.stat().st_size for path in others] == [0] * 20
    assert channel._tail is None and channel._direct < 0 and channel._done_fd < 0
    log = read_log(writer.path)
    assert log.end == {"winner": 0} and [len(c.text) for c in log.chats] == [50_000]
    assert writer.path.stat().st_size == log.valid_bytes  # the room was cut after the zeros


def aio_contexts() -> int:
    """The AIO events reserved on this machine (``fs.aio-nr``): back where it was once
    every context is destroyed (other processes may hold some too)."""
    return int(Path("/proc/sys/fs/aio-nr").read_text())


def descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("thread", ["opening", "room"])
def test_a_channel_whose_loop_closed_under_its_thread_gives_everything_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thread: str
) -> None:
    """The loop is closed (the server shut down) while the opening or the room thread
    still works: the thread cannot report, so it gives the descriptors and the AIO
    context back itself."""
    entered, go = threading.Event(), threading.Event()
    name = "open_at_end" if thread == "opening" else "extend_room"
    cls: Any = LogWriter if thread == "opening" else LogTail
    real = getattr(cls, name)

    def held(self: Any) -> Any:
        entered.set()
        assert go.wait(10)
        return real(self)

    monkeypatch.setattr(cls, name, held)
    writer = LogWriter.create(tmp_path / "closed.plog", {"table": "t"})
    fds, contexts = descriptors(), aio_contexts()
    loop = asyncio.new_event_loop()
    channel = AioChannel(writer, loop, lambda: None)
    if thread == "room":
        record = writer.chat_record(0, "Ana", "x" * 50_000, 0)
        assert record is not None
        durable = loop.create_future()
        channel.hand_over([record], durable)
        loop.run_until_complete(asyncio.wait_for(durable, 10))  # the room thread is held
    assert entered.wait(10)
    loop.close()
    go.set()
    for _ in range(500):
        if channel._direct < 0 and channel._done_fd < 0 and not channel._kernel._context.value:
            break
        time.sleep(0.01)
    assert channel._direct < 0 and channel._done_fd < 0 and channel._kernel._context.value == 0
    assert descriptors() == fds and aio_contexts() - contexts < 2  # others' may come and go
    writer.close()


async def test_no_room_is_made_over_a_write_that_grows_the_file(
    tmp_path: Path, writes: Writes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No room could be made once, so writes grow the file; the room thread tries again
    while such a write is in flight: it must not write its zeros from the file's old
    end, over the records the kernel is writing there (their futures would resolve,
    and the log would read back torn)."""
    real_extend = LogTail.extend_room
    tries: list[int] = []
    zeroed = threading.Event()
    path = tmp_path / "pipe.plog"
    channels: list[AioChannel] = []

    def extend_room(tail: LogTail) -> int:
        tries.append(len(tries))
        if len(tries) == 1:
            return 0  # e.g. a quota reached: the writes grow the file
        channel = channels[0]
        flight = channel._flight
        if flight is not None:  # let the kernel's write land first
            goal = channel._base + -(-(flight[1] - channel._base) // BLOCK) * BLOCK
            for _ in range(500):
                if os.stat(path).st_size >= goal:
                    break
                time.sleep(0.01)
        try:
            return real_extend(tail)
        finally:
            zeroed.set()

    monkeypatch.setattr(LogTail, "extend_room", extend_room)
    real_reap = AioChannel._reap
    reaps: list[int] = []
    tasks: set[asyncio.Task[None]] = set()

    def reap(channel: AioChannel) -> None:
        if channel._flight is None or len(reaps) != 2:
            if channel._flight is not None:
                reaps.append(len(reaps))
            real_reap(channel)
            return
        reaps.append(len(reaps))  # the third write: heard of once the room is made
        os.eventfd_read(channel._done_fd)

        async def later() -> None:
            await asyncio.to_thread(zeroed.wait, 0.5)  # a room thread started now zeroes at once
            real_reap(channel)

        task = asyncio.ensure_future(later())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    monkeypatch.setattr(AioChannel, "_reap", reap)
    writer, recorder = new_log(tmp_path)
    records = [writer.chat_record(0, "Ana", "x" * 60_000, i) for i in range(3)]
    futures = [recorder._queue(writer, [r]) for r in records if r is not None]
    assert isinstance(recorder._channel, AioChannel)
    channels.append(recorder._channel)
    await asyncio.wait_for(asyncio.gather(*futures), 20)
    assert len(writes.done) == 3 and writes.grew[1:] == [True, True] and len(tries) >= 2
    recorder.close()
    assert [c.after for c in read_log(writer.path).chats] == [0, 1, 2]


async def test_a_rematch_writes_the_new_log_only_once_the_last_one_is_on_disk(
    tmp_path: Path, held: HeldCompletions, writes: Writes
) -> None:
    old, recorder = new_log(tmp_path, "first.plog")
    futures = [recorder._queue(old, [old.action_record(0, {"add": 1})])]
    await held.wait_entered()  # written; the loop has not heard
    futures.append(recorder._queue(old, [old.end_record({"winner": 0})]))
    old.close()  # as TableRecorder.start does for a rematch
    new = LogWriter.create(tmp_path / "second.plog", HEADER)
    futures += [recorder._queue(new, [new.action_record(s, {"add": s})]) for s in (0, 1)]
    first_channel = recorder._channel
    assert isinstance(first_channel, AioChannel) and first_channel.writer is old
    assert recorder._writing and len(recorder._pending) == 2  # waiting for the first log
    first_sizes = len(writes.done)
    order = in_order(futures)
    on_disk: list[Any] = []
    futures[2].add_done_callback(lambda _f: on_disk.append(read_log(old.path).end))
    held.go.set()
    await asyncio.gather(*futures)
    assert order == [0, 1, 2, 3] and on_disk == [{"winner": 0}]
    assert first_sizes == 1 and len(writes.done) >= 3
    second_channel = recorder._channel
    assert isinstance(second_channel, AioChannel) and second_channel.writer is new
    assert first_channel.stopping and first_channel._direct < 0 and first_channel._tail is None
    recorder.close()
    first, second = read_log(old.path), read_log(new.path)
    assert [x.action for x in first.actions] == [{"add": 1}] and first.end == {"winner": 0}
    assert old.path.stat().st_size == first.valid_bytes  # ended: its room was cut
    assert [(x.seat, x.action) for x in second.actions] == [(0, {"add": 0}), (1, {"add": 1})]
    assert second.end is None


async def test_many_recorders_opened_and_closed_leave_no_descriptor_or_aio_context(
    tmp_path: Path,
) -> None:
    fds, contexts = descriptors(), aio_contexts()
    before = set(threading.enumerate())
    channels: list[AioChannel] = []
    for table in range(50):
        writer, recorder = new_log(tmp_path, f"table{table}.plog")
        futures = [recorder._queue(writer, [writer.action_record(0, {"add": i})]) for i in (1, 2)]
        assert isinstance(recorder._channel, AioChannel)
        channels.append(recorder._channel)
        if table % 2:  # the other half is closed before its log is even open
            await asyncio.gather(*futures)
            await recorder._queue(writer, [writer.end_record({"winner": 0})])
        recorder.close()
        await asyncio.gather(*futures)
    for _ in range(500):
        if all(c._direct < 0 and c._done_fd < 0 and c._tail is None for c in channels) and not [
            t for t in threading.enumerate() if t not in before
        ]:
            break
        await asyncio.sleep(0.01)
    assert [c._kernel._context.value for c in channels] == [0] * 50  # io_destroy'ed
    assert descriptors() == fds
    # fs.aio-nr counts every process's contexts (≥ 2 events each here): 50 leaked would
    # show, while another test run on the machine may hold a few.
    assert aio_contexts() - contexts < 50
    assert [t.name for t in threading.enumerate() if t not in before] == []
    assert [len(read_log(tmp_path / f"table{t}.plog").actions) for t in range(50)] == [2] * 50


async def test_a_log_written_by_the_kernel_is_resumed_and_written_on_by_it(
    tmp_path: Path,
) -> None:
    """A log the kernel wrote (its last block padded with zeros, then the room) is read
    back, reopened after its last record and written on, again by the kernel: every
    record is read back once, in order."""
    writer, recorder = new_log(tmp_path)
    sizes = [3000, 5000, 100]  # the last ends inside a block
    for i, size in enumerate(sizes):
        record = writer.chat_record(0, "Ana", "x" * size, i)
        assert record is not None
        await recorder._queue(writer, [record])
    recorder.close()
    log = read_log(writer.path)
    assert log.valid_bytes % BLOCK and writer.path.stat().st_size > log.valid_bytes
    again = LogWriter.reopen(writer.path, log.valid_bytes)
    resumed = TableRecorder(writer=again)
    more = [again.chat_record(1, "Bo", "y" * size, 3 + i) for i, size in enumerate([7000, 10])]
    await asyncio.gather(*(resumed._queue(again, [r]) for r in more if r is not None))
    assert isinstance(resumed._channel, AioChannel)
    await resumed._queue(again, [again.end_record({"winner": 1})])
    resumed.close()
    log = read_log(writer.path)
    assert [(c.after, len(c.text)) for c in log.chats] == list(enumerate([*sizes, 7000, 10]))
    assert log.end == {"winner": 1} and writer.path.stat().st_size == log.valid_bytes


async def test_the_aio_context_is_destroyed_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``io_destroy`` waits for the kernel (≈ 32 ms here): a channel's close must not
    make the loop wait for it."""
    destroyed: list[threading.Thread] = []
    real = logaio._Kernel._call

    def call(kernel: Any, name: str, *args: object) -> int:
        if name == "io_destroy":
            destroyed.append(threading.current_thread())
        return real(kernel, name, *args)

    monkeypatch.setattr(logaio._Kernel, "_call", call)
    writer, recorder = new_log(tmp_path)
    await recorder._queue(writer, [writer.action_record(0, {"add": 1})])
    channel = recorder._channel
    assert isinstance(channel, AioChannel)
    recorder.close()
    for _ in range(200):
        if destroyed:
            break
        await asyncio.sleep(0.01)
    assert len(destroyed) == 1 and destroyed[0] is not threading.main_thread()
    assert channel._kernel._context.value == 0


def refuse_the_second_write(monkeypatch: pytest.MonkeyPatch, code: int) -> list[int]:
    """Make the kernel refuse the channel's second submission with ``code`` (nothing of
    it written); returns the submissions seen so far, counted as they come."""
    real = logaio._Kernel.write
    submitted: list[int] = []

    def refuse(kernel: Any, *args: Any) -> None:
        submitted.append(len(submitted))
        if len(submitted) == 2:
            raise OSError(code, os.strerror(code))
        real(kernel, *args)

    monkeypatch.setattr(logaio._Kernel, "write", refuse)
    return submitted


@pytest.mark.parametrize("code", [errno.EAGAIN, errno.ENOMEM])
async def test_a_later_write_the_kernel_cannot_queue_goes_through_the_pipe_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: HeldCompletions, code: int
) -> None:
    """A record is on disk, three more wait for the next write, and the kernel cannot
    queue it (its resources short): nothing of it was written, so those three go
    through the pipe, each whole with its future, in order; the table plays on and the
    log reads whole."""
    submitted = refuse_the_second_write(monkeypatch, code)
    handed: list[bytes] = []  # what the pipe is handed
    pipe_hand_over = recorder_module._PipeChannel.hand_over

    def hand_over(pipe: Any, records: list[bytes], durable: Any) -> None:
        handed.extend(records)
        pipe_hand_over(pipe, records, durable)

    monkeypatch.setattr(recorder_module._PipeChannel, "hand_over", hand_over)
    writer, recorder = new_log(tmp_path)
    first = recorder._queue(writer, [writer.action_record(0, {"add": 0})])
    assert isinstance(recorder._channel, AioChannel)
    await held.wait_entered()  # the first write is on disk; the loop hears of it later
    records = [writer.action_record(1, {"add": i}) for i in (1, 2, 3)]
    futures = [first, *(recorder._queue(writer, [record]) for record in records)]
    held.go.set()  # then the three go in one write, which the kernel cannot queue
    order = in_order(futures)
    await asyncio.wait_for(asyncio.gather(*futures), 10)
    assert order == [0, 1, 2, 3] and len(submitted) == 2
    assert handed == records
    assert isinstance(recorder._channel, recorder_module._PipeChannel)
    await recorder._queue(writer, [writer.action_record(0, {"add": 4})])
    recorder.close()
    assert recorder.error is None
    assert [x.action["add"] for x in read_log(writer.path).actions] == [0, 1, 2, 3, 4]


async def test_a_write_not_queued_with_a_record_split_fails_it_and_cuts_back_to_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first write takes two records and the start of a third; the kernel cannot
    queue the write of its rest (EAGAIN). Its start is on disk, so it cannot go through
    the pipe whole: it fails, and the file is cut back where it began."""
    submitted = refuse_the_second_write(monkeypatch, errno.EAGAIN)
    writer, recorder = new_log(tmp_path)
    sizes = [10, 5000, MAX_RECORD - 300]
    records = [writer.chat_record(0, "Ana", "x" * size, i) for i, size in enumerate(sizes)]
    futures = [recorder._queue(writer, [r]) for r in records if r is not None]
    results = await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), 20)
    assert results[:2] == [None, None] and len(submitted) == 2
    assert isinstance(results[2], OSError) and results[2].errno == errno.EAGAIN
    assert isinstance(recorder._channel, AioChannel)  # not handed to a pipe
    recorder.close()
    log = read_log(writer.path)  # no damage
    assert [len(c.text) for c in log.chats] == sizes[:2]
    assert writer.path.stat().st_size == log.valid_bytes
