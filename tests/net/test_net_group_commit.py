"""Group commit: the table lock never waits on the disk, yet nothing about an action is
sent before its log record is synced (net/outbox.py, net/recorder.py)."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import msgpack
import pytest
from test_net_server import APP, FAST, Watch, game_of, join
from test_net_toygame import CountGame

import net.recorder as recorder_module
from net.client import TableClient
from net.connection import FramedConnection
from net.messages import Ack, Bye, View
from net.outbox import Outbox
from net.recorder import TableRecorder
from net.server import TableServer, Timing
from net.tablelog import ROOM_WRITES, LogWriter, read_log

Event = tuple[Any, ...]


class SlowDisk:
    """Stands in for :meth:`LogWriter.write`: the first ``held`` syncs wait (in the
    writer's thread) until :attr:`go` is set; each sync appends ``("synced", n)``."""

    def __init__(self, events: list[Event], held: int = 1) -> None:
        self.events = events
        self.held = held
        self.calls = 0
        self.entered = threading.Event()
        self.go = threading.Event()
        self._real = LogWriter.write

    def write(self, writer: LogWriter, records: Sequence[bytes]) -> None:
        self.calls += 1
        if self.calls <= self.held:
            self.entered.set()
            self.go.wait(10)
        self._real(writer, records)
        self.events.append(("synced", len(records)))

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Put this disk under every :class:`LogWriter` for the test."""

        def write(writer: LogWriter, records: Sequence[bytes]) -> None:
            self.write(writer, records)

        monkeypatch.setattr(LogWriter, "write", write)

    async def wait_entered(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, 10)


def spy_sends(monkeypatch: pytest.MonkeyPatch, events: list[Event]) -> None:
    """Log ``("sent", type, rev or seq)`` for every ack and view put in a send queue
    (one put may carry several frames: an action's ack and view leave together)."""
    real = FramedConnection._put

    def put(conn: FramedConnection, frames: bytes) -> bool:
        at = 0
        while at < len(frames):
            (size,) = struct.unpack_from(">I", frames, at)
            msg = msgpack.unpackb(frames[at + 4 : at + 4 + size])
            at += 4 + size
            if msg.get("type") in ("ack", "view"):
                events.append(("sent", msg["type"], msg.get("rev", msg.get("seq"))))
        return real(conn, frames)

    monkeypatch.setattr(FramedConnection, "_put", put)


@asynccontextmanager
async def recorded(
    tmp_path: Path, timing: Timing = FAST, **options: Any
) -> AsyncIterator[tuple[TableServer, TableRecorder]]:
    """A two-seat count table kept in a log under ``tmp_path``."""
    server = TableServer(
        CountGame(), name="Logged", seats=2, seed=3, app_version=APP, timing=timing,
        options=options or None,
    )  # fmt: skip
    recorder = TableRecorder(lambda: tmp_path / "count.plog")
    recorder.attach(server)
    async with server:
        yield server, recorder


def thread_handoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records go to the disk through the recorder's thread, as where the platform
    cannot splice (the pipe hand-off: tests/net/test_net_log_pipe.py)."""
    monkeypatch.delattr(os, "splice", raising=False)
    assert not recorder_module.pipe_handoff()


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> SlowDisk:
    """A slow disk under every log (written by the thread hand-off), and every ack and
    view sent logged in its events."""
    thread_handoff(monkeypatch)
    slow = SlowDisk([])
    slow.install(monkeypatch)
    spy_sends(monkeypatch, slow.events)
    return slow


async def two_seats(server: TableServer) -> tuple[TableClient, Watch, TableClient, Watch]:
    """Seats A and B joined, the game started, and both shown revision 0."""
    a, a_w = await join(server, "A")
    b, b_w = await join(server, "B")
    await server.start()
    await a_w.view(0)
    await b_w.view(0)
    return a, a_w, b, b_w


async def until(check: Any) -> None:
    """Let the loop run until ``check()`` holds (at most 10 s)."""
    async with asyncio.timeout(10):
        while not check():
            await asyncio.sleep(0.005)


async def test_no_ack_or_view_leaves_before_the_record_is_synced(
    tmp_path: Path, disk: SlowDisk
) -> None:
    events = disk.events
    async with recorded(tmp_path) as (server, recorder):
        a, a_w, b, b_w = await two_seats(server)
        seq = await a.send_action({"add": 2})
        await disk.wait_entered()  # the action was applied and its submit returned long ago
        assert recorder.actions == 1 and server.rev == 1
        assert [e for e in events if e[0] == "sent" and e[1:] != ("view", 0)] == []
        disk.go.set()
        assert await a_w.until(lambda m: isinstance(m, Ack)) == Ack(seq)
        assert (await b_w.view(1)).view["total"] == 2
        after = events[events.index(("synced", 1)) + 1 :]
        assert ("sent", "ack", seq) in after
        assert after.count(("sent", "view", 1)) == 2  # both seats, only after the sync
        await a.close()
        await b.close()
    assert [(x.seat, x.action) for x in read_log(tmp_path / "count.plog").actions] == [
        (0, {"add": 2})
    ]


async def test_actions_during_a_sync_are_applied_at_once_and_share_the_next_sync(
    tmp_path: Path, disk: SlowDisk
) -> None:
    events = disk.events
    async with recorded(tmp_path, free=True, target=10**6) as (server, recorder):
        a, a_w, b, b_w = await two_seats(server)
        await a.send_action({"add": 1})
        await disk.wait_entered()
        for i in range(5):  # the lock is free while the first record syncs
            await a.send_action({"add": 2})
            await b.send_action({"add": 1 + i % 2})
        await until(lambda: recorder.actions == 11)
        assert server.rev == 11
        assert not [e for e in events if e[:2] == ("sent", "view") and e[2] > 0]
        disk.go.set()
        await a_w.view(11)
        await b_w.view(11)
        assert disk.calls == 2 and recorder.syncs == 2  # one sync, then one for the ten
        assert events.count(("synced", 10)) == 1
        for watch in (a_w, b_w):  # every revision, in order, to each seat
            assert [m.rev for m in watch.seen if isinstance(m, View)] == list(range(12))
        acks = [m.seq for m in a_w.seen if isinstance(m, Ack)]
        assert acks == sorted(acks) and len(acks) == 6
        moves = game_of(server).moves
        await a.close()
        await b.close()
    logged = read_log(tmp_path / "count.plog").actions
    assert [[x.seat, x.action["add"]] for x in logged] == moves  # in the order applied


async def test_close_waits_for_the_pending_records_and_sends_their_frames_first(
    tmp_path: Path, disk: SlowDisk
) -> None:
    timing = Timing(ping_interval=5.0, idle_timeout=10.0, close_timeout=10.0)
    async with recorded(tmp_path, timing) as (server, _recorder):
        a, a_w, b, _b_w = await two_seats(server)
        seq = await a.send_action({"add": 1})
        await disk.wait_entered()
        closing = asyncio.create_task(server.close())
        await until(lambda: server._closing)
        disk.go.set()
        await closing
        rest = await a_w.ended()
        await a.close()
        await b.close()
    kinds = [type(m).__name__ for m in rest if isinstance(m, Ack | View | Bye)]
    assert kinds == ["Ack", "View", "Bye"]
    assert rest[-1] == Bye("closing") and Ack(seq) in rest
    assert len(read_log(tmp_path / "count.plog").actions) == 1


class _Conn:
    """Records what an outbox lets go to it (``got``), and what was sent to it past the
    outbox (``sent``: ``send_frame``, as a connection's gate lets it go)."""

    closing = False

    def __init__(self) -> None:
        self.got: list[bytes | None] = []
        self.sent: list[bytes] = []

    def release(self, frame: bytes | None) -> None:
        self.got.append(frame)

    def send_frame(self, frame: bytes) -> bool:
        self.sent.append(frame)
        return True


async def test_the_outbox_lets_frames_go_in_order_only_once_every_earlier_record_is_durable() -> (
    None
):
    failures: list[BaseException] = []
    box = Outbox(failures.append)
    fake = _Conn()
    conn = cast(FramedConnection, fake)
    loop = asyncio.get_running_loop()
    first: asyncio.Future[None] = loop.create_future()
    second: asyncio.Future[None] = loop.create_future()
    assert not box.hold(conn, b"before")  # nothing pending: straight through
    box.after(first)
    assert box.hold(conn, b"a")
    box.after(second)
    assert box.hold(conn, b"b")
    assert box.hold(conn, None)
    second.set_result(None)
    await asyncio.sleep(0)
    assert fake.got == [] and box.pending == 2  # the later record alone frees nothing
    first.set_result(None)
    await asyncio.sleep(0)
    assert fake.got == [b"a", b"b", None] and box.pending == 0 and failures == []
    await box.drained()


async def test_only_the_groups_that_heard_of_a_pending_action_wait_for_its_record() -> None:
    """While the action is handled everything waits; once the server says who heard of
    it (its seat), a frame to another group leaves at once, unless its connection has
    frames waiting (order) or its group is not known yet (a newcomer, maybe the seat
    itself coming back)."""
    from net.outbox import UNKNOWN

    fakes = {name: _Conn() for name in ("ana", "ana_again", "bea", "bea_late", "eve", "new")}
    conns = {name: cast(FramedConnection, fake) for name, fake in fakes.items()}
    groups = {"ana": 0, "ana_again": 0, "bea": 1, "bea_late": 1, "eve": None, "new": UNKNOWN}
    by_conn = {id(conns[name]): group for name, group in groups.items()}
    box = Outbox(lambda exc: None, lambda conn: by_conn[id(conn)])
    record: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    box.after(record)
    assert box.hold(conns["ana"], b"ack") and box.hold(conns["bea"], b"lobby")  # all wait
    box.heard_by(frozenset({0}))  # Ana's unseen move: only her seat heard of it
    assert box.hold(conns["bea"], b"pong")  # behind her lobby frame
    assert not box.hold(conns["bea_late"], b"pong")  # nothing waiting: at once
    assert not box.hold(conns["eve"], b"pong")
    assert box.hold(conns["ana_again"], b"welcome")  # her seat heard of it
    assert box.hold(conns["new"], b"welcome")  # who knows
    box.send_all([(conns["eve"], b"view"), (conns["ana"], b"view")])
    assert all(not fakes[n].got for n in fakes) and fakes["eve"].sent == [b"view"]
    record.set_result(None)
    await asyncio.sleep(0)
    assert fakes["ana"].got == [b"ack", b"view"] and fakes["bea"].got == [b"lobbypong"]
    assert fakes["ana_again"].got == [b"welcome"] and fakes["new"].got == [b"welcome"]
    assert not box.hold(conns["ana"], b"later")  # nothing pending


async def test_after_a_failed_record_the_outbox_drops_every_frame_but_still_closes() -> None:
    failures: list[BaseException] = []
    box = Outbox(failures.append)
    fake = _Conn()
    conn = cast(FramedConnection, fake)
    broken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    box.after(broken)
    assert box.hold(conn, b"the action's view")
    broken.set_exception(OSError(28, "No space left on device"))
    await asyncio.sleep(0)
    assert [type(e) for e in failures] == [OSError]
    assert box.hold(conn, b"a later frame")
    assert box.hold(conn, None)
    assert fake.got == [None]
    box.open()  # closing the table: its goodbyes go out
    assert not box.hold(conn, b"bye")


async def test_accepted_connections_do_not_wait_to_coalesce_frames(tmp_path: Path) -> None:
    async with recorded(tmp_path) as (server, _recorder):
        a, _a_w = await join(server, "A")
        await until(lambda: len(server._conns) == 1)
        (conn,) = server._conns
        sock = conn._writer.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        await a.close()


def test_a_batch_written_at_once_reads_back_record_by_record(tmp_path: Path) -> None:
    path = tmp_path / "batch.plog"
    writer = LogWriter.create(path, {"game": "count", "seed": 1, "seats": []})
    records = [writer.action_record(s, {"add": 1 + s}) for s in (0, 1, 0)]
    records.append(writer.end_record({"winner": 0}))
    with pytest.raises(RuntimeError):
        writer.action_record(1, {"add": 1})  # nothing may follow the end, even unwritten
    writer.write(records)
    log = read_log(path)
    assert [(x.seat, x.action) for x in log.actions] == [
        (0, {"add": 1}),
        (1, {"add": 2}),
        (0, {"add": 1}),
    ]
    assert log.end == {"winner": 0}


async def test_a_record_goes_to_the_disk_thread_before_the_loop_turns(
    tmp_path: Path, disk: SlowDisk
) -> None:
    """The write starts while the server still builds the action's views: no task
    waits for its turn on the loop before handing the batch to a worker thread."""
    async with recorded(tmp_path) as (server, recorder):
        a, _a_w, b, _b_w = await two_seats(server)
        durable = recorder.record_action(0, {"add": 1})
        assert durable is not None and recorder._writing  # no await in between
        assert await asyncio.to_thread(disk.entered.wait, 10)  # the thread has it
        assert not durable.done()
        disk.go.set()
        await durable
        assert recorder.syncs == 1 and not recorder._writing
        await a.close()
        await b.close()


def test_a_write_the_disk_cuts_short_is_finished_or_taken_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes go at explicit offsets (``os.pwrite``, into the log's room) where the
    platform can, else they append (``os.write``): either may be cut short."""
    path = tmp_path / "short.plog"
    writer = LogWriter.create(path, {"game": "count", "seed": 1, "seats": []})
    name = "pwrite" if ROOM_WRITES else "write"
    real_write = getattr(os, name)
    calls: list[int] = []

    def short(fd: int, data: Any, *at: int) -> int:  # the kernel takes 7 bytes at a time
        calls.append(len(data))
        return int(real_write(fd, bytes(data[:7]), *at))

    monkeypatch.setattr(os, name, short)
    writer.write([writer.action_record(0, {"add": 1}), writer.action_record(1, {"add": 2})])
    assert len(calls) > 2  # it went on until everything was written
    size = read_log(path).valid_bytes

    def full(fd: int, data: Any, *at: int) -> int:  # part of a record, then a full disk
        if len(data) > 7:
            return int(real_write(fd, bytes(data[:7]), *at))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, name, full)
    with pytest.raises(OSError):
        writer.write([writer.action_record(0, {"add": 3})])
    monkeypatch.setattr(os, name, real_write)
    assert path.stat().st_size == size  # the partial record was cut off again (and the room)
    log = read_log(path)
    assert [(x.seat, x.action) for x in log.actions] == [(0, {"add": 1}), (1, {"add": 2})]
    assert log.valid_bytes == size
    writer.write([writer.action_record(1, {"add": 4})])  # it goes on after them
    assert [x.action["add"] for x in read_log(path).actions] == [1, 2, 4]


async def test_the_loop_hands_the_batch_over_until_the_disk_thread_has_it(
    tmp_path: Path, disk: SlowDisk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """record_action returns only once the disk thread has taken the batch (so the
    disk's work overlaps the views the loop builds next), waiting at most HANDOVER_WAIT."""
    monkeypatch.setattr(recorder_module, "HANDOVER_WAIT", 30.0)  # here: until it has it
    async with recorded(tmp_path) as (server, recorder):
        a, _a_w, b, _b_w = await two_seats(server)
        durable = recorder.record_action(0, {"add": 1})
        assert durable is not None and recorder._disk is not None
        assert recorder._disk._jobs.empty()  # taken, with no await in between
        disk.go.set()
        await durable
        await a.close()
        await b.close()
    assert [x.action for x in read_log(tmp_path / "count.plog").actions] == [{"add": 1}]


async def test_a_loop_that_gives_up_waiting_still_gets_every_batch_written_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread_handoff(monkeypatch)
    monkeypatch.setattr(recorder_module, "HANDOVER_WAIT", 0.0)  # never waits for the thread
    async with recorded(tmp_path, free=True, target=10**6) as (server, recorder):
        a, a_w, b, b_w = await two_seats(server)
        for i in range(6):
            await (a if i % 2 == 0 else b).send_action({"add": 1 + i // 3})
        await a_w.view(6)
        await b_w.view(6)
        assert recorder.actions == 6 and not recorder._writing
        moves = game_of(server).moves
        await a.close()
        await b.close()
    logged = read_log(tmp_path / "count.plog").actions
    assert (
        [[x.seat, x.action["add"]] for x in logged]
        == moves
        == [[i % 2, 1 + i // 3] for i in range(6)]
    )


def test_the_log_stays_open_between_records_and_closes_once_a_write_under_way_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "open.plog"
    writer = LogWriter.create(path, {"game": "count", "seed": 1, "seats": []})
    opened: list[int] = []
    closed: list[int] = []
    name = "pwrite" if ROOM_WRITES else "write"  # how the writer writes (see the test above)
    real_open, real_close, real_write = os.open, os.close, getattr(os, name)

    def open_(*args: Any) -> int:
        fd = real_open(*args)
        opened.append(fd)
        return fd

    def close(fd: int) -> None:
        closed.append(fd)
        real_close(fd)

    entered, go = threading.Event(), threading.Event()

    def held_write(fd: int, data: Any, *at: int) -> int:
        if fd in opened:
            entered.set()
            assert go.wait(10)
        return int(real_write(fd, data, *at))

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "close", close)
    writer.write([writer.action_record(0, {"add": 1})])
    writer.write([writer.action_record(1, {"add": 2})])
    assert len(opened) == 1 and closed == []  # one descriptor for both records
    monkeypatch.setattr(os, name, held_write)
    thread = threading.Thread(target=writer.write, args=([writer.action_record(0, {"add": 3})],))
    thread.start()
    assert entered.wait(10)
    writer.close()  # from another thread, mid-write: the descriptor is not closed under it
    assert closed == []
    go.set()
    thread.join(10)
    assert closed == opened  # the write gave it back, and it was closed then
    monkeypatch.setattr(os, name, real_write)
    writer.write([writer.action_record(1, {"add": 4})])  # after close: opened for itself alone
    assert len(opened) == 2 and closed == opened
    writer.close()  # twice: nothing more to close
    assert [x.action["add"] for x in read_log(path).actions] == [1, 2, 3, 4]


def test_a_loop_waits_for_hand_overs_only_within_its_share_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [100.0]
    waits: list[float] = []

    class Lock:
        """A thread that never takes its batch: each wait lasts its whole timeout."""

        def acquire(self, timeout: float) -> bool:
            waits.append(timeout)
            clock[0] += timeout
            return False

    monkeypatch.setattr(recorder_module.time, "perf_counter", lambda: clock[0])
    budget = recorder_module._HandoverBudget()
    lock = cast(threading.Lock, Lock())
    for _ in range(6):  # back to back: four waits' worth saved up, then none
        budget.wait(lock)
    assert waits == [recorder_module.HANDOVER_WAIT] * 4
    clock[0] += recorder_module.HANDOVER_WAIT / recorder_module.HANDOVER_SHARE  # time passes
    budget.wait(lock)
    budget.wait(lock)
    assert len(waits) == 5  # it earned one wait's worth


async def test_only_the_batch_of_an_action_just_applied_waits_for_the_disk_thread(
    tmp_path: Path, disk: SlowDisk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch started once the one before it is written has no views to overlap."""
    overlaps: list[bool] = []
    real = recorder_module._DiskThread.submit

    def submit(thread: Any, *args: Any, overlap: bool) -> None:
        overlaps.append(overlap)
        real(thread, *args, overlap=overlap)

    monkeypatch.setattr(recorder_module._DiskThread, "submit", submit)
    async with recorded(tmp_path, free=True, target=10**6) as (server, recorder):
        a, a_w, b, _b_w = await two_seats(server)
        await a.send_action({"add": 1})
        await disk.wait_entered()
        await b.send_action({"add": 2})  # queued while the first record syncs
        await until(lambda: recorder.actions == 2)
        disk.go.set()
        await a_w.view(2)
        await a.close()
        await b.close()
    assert overlaps == [True, False] and recorder.syncs == 2


def test_a_loop_that_cannot_be_weakly_referenced_never_waits() -> None:
    class Loop:
        __slots__ = ()

    loop = cast(asyncio.AbstractEventLoop, Loop())
    assert recorder_module._budget_of(loop) is None
    real = asyncio.new_event_loop()
    try:
        assert recorder_module._budget_of(real) is recorder_module._budget_of(real)
    finally:
        real.close()


async def test_frames_following_one_another_to_a_connection_leave_as_one_write() -> None:
    """An action's ack and view go to its sender in one write (one system call);
    the order of everything, closes included, is kept."""
    box = Outbox(lambda _exc: None)
    sender, other = _Conn(), _Conn()
    a, b = cast(FramedConnection, sender), cast(FramedConnection, other)
    durable: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    box.after(durable)
    for conn, frame in [(a, b"ack"), (a, b"view"), (b, b"view"), (a, b"chat"), (a, None),
                        (b, b"x"), (b, b"y"), (b, b"z")]:  # fmt: skip
        assert box.hold(conn, frame)
    durable.set_result(None)
    await asyncio.sleep(0)
    assert sender.got == [b"ackview", b"chat", None]
    assert other.got == [b"view", b"xyz"]


class _Peer(_Conn):
    """A connection that may be closing, and records what it was sent directly."""

    def __init__(self, closing: bool = False) -> None:
        super().__init__()
        self.closing = closing
        self.sent: list[bytes] = []

    def send_frame(self, frame: bytes) -> bool:
        if self.closing:
            return False
        self.sent.append(frame)
        return True


async def test_a_broadcast_is_held_as_one_batch_and_a_closing_connection_gets_nothing() -> None:
    box = Outbox(lambda _exc: None)
    seat, watcher, leaving = _Peer(), _Peer(), _Peer(closing=True)
    conns = [cast(FramedConnection, p) for p in (seat, watcher, leaving)]
    box.send_all([(c, b"v0") for c in conns])  # nothing pending: each sent as send_frame does
    assert (seat.sent, watcher.sent, leaving.sent) == ([b"v0"], [b"v0"], [])
    durable: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    box.after(durable)
    assert box.hold(conns[0], b"ack")
    box.send_all([(c, b"v1") for c in conns])
    assert (seat.got, watcher.got, leaving.got) == ([], [], [])  # held until durable
    durable.set_result(None)
    await asyncio.sleep(0)
    assert (seat.got, watcher.got, leaving.got) == ([b"ackv1"], [b"v1"], [])
    assert seat.sent == [b"v0"]  # the held ones went through release, not send_frame


async def sent_by_each_report(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    events: list[Event],
    report: str,
    held: SlowDisk | Any,
) -> tuple[int, list[list[Event]]]:
    """Seat A plays one action while ``held`` (a slow disk or splice) holds its record;
    returns the action's seq and, for each call of the recorder's ``report`` method
    (which learns that records are durable), the acks and views sent when it returned."""
    seen: list[list[Event]] = []
    real = getattr(TableRecorder, report)

    def reported(self: TableRecorder, *args: Any) -> None:
        real(self, *args)
        seen.append([e for e in events if e[0] == "sent" and e[1:] != ("view", 0)])

    monkeypatch.setattr(TableRecorder, report, reported)
    async with recorded(tmp_path) as (server, _recorder):
        a, a_w, b, _b_w = await two_seats(server)
        seq = await a.send_action({"add": 2})
        await held.wait_entered()
        held.go.set()
        assert await a_w.until(lambda m: isinstance(m, Ack)) == Ack(seq)
        await a.close()
        await b.close()
    return seq, seen


async def test_the_frames_leave_in_the_callback_that_reports_the_batch_written(
    tmp_path: Path, disk: SlowDisk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a loop turn later through the record future's callbacks (net/outbox.py flush)."""
    seq, seen = await sent_by_each_report(tmp_path, monkeypatch, disk.events, "_written", disk)
    assert seen[0] == [("sent", "ack", seq), ("sent", "view", 1), ("sent", "view", 1)]
