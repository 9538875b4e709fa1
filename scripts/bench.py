"""Measure how fast the engine, the bots, the server and the TUI are, each next to an anchor.

Every figure is measured in this run next to an *anchor* measured in the same
run on the same machine (a shared, noisy machine makes absolute figures
wander; the ratio to the anchor wanders much less):

=====================================  =============================================
figure                                 anchor
=====================================  =============================================
engine random legal play, decisions/s  — (4 players, seeded random choices)
legal_actions / apply / view_for µs    — (per call, in that random play)
view_for, every seat + spectator       — (µs per view, one revision)
simulate --players 4 default bot       random play on the bare engine, games/s
action → 2 seats + 20 spectators       bare asyncio fan-out of the same frames
the same with 22 raw clients           bare asyncio fan-out of the same frames
lean model of that work               bare asyncio fan-out of the same frames
TUI keypress → frame (server answers)  a minimal Textual app's keypress → frame
TUI cursor move → frame                a minimal Textual app's keypress → frame
TUI warm start → first table frame     a minimal Textual app's warm start → first frame
TUI cold start → first table frame     a minimal Textual app's cold start → first frame
200 four-bot tables, loop ping p99     the same ping on an idle event loop
=====================================  =============================================

The server figure and its anchor run on one event loop in turns of 25 actions
(after 50 unmeasured on each, and one at the start of each turn), so that the
machine's load, which moves within seconds on a shared host, weighs on both alike;
before each of its turns the anchor takes the very frames the table sends then
(:func:`fanout_side_by_side`).

Engine and simulate figures are CPU time of this process (the machine this
runs on is shared: wall time there measures the neighbours too); the server
and TUI figures are wall time, as a player feels them. A *warm* start is
measured in this process, its modules already imported (building the app →
first frame); a *cold* start is a new process each time, as a player runs the
command (interpreter, imports, app → first frame; scripts/bench_start.py).
Every loop is bounded by a count and a time budget. ``--quick`` shortens every measurement (about
a minute on a quiet machine, several on a busy one: closing 200 tables waits
for their bots); the default takes a few minutes more. The table goes to stdout;
``--json`` prints the figures as JSON instead.

Usage::

    python scripts/bench.py [--quick] [--json] [--only engine,simulate,server,tui,tables]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import platform
import queue
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, get_args

import msgpack

from net.client import TableClient
from net.dial import Streams
from net.frames import CLIENT_LIMITS, PROTOCOL_VERSION, decode, encode
from net.heap import settle_heap
from net.messages import (
    ActionRequest,
    Hello,
    View,
    parse_client_message,
    parse_server_frame,
)
from net.server import TableServer, Timing
from net.table import Table
from net.thinking import ProcessThinker
from poissonnier_tui import __version__
from poissonnier_tui.arena.simulate import simulate
from poissonnier_tui.games.poissonnier.bots import DEFAULT_LEVEL, make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.hosting.persistence import DATA_DIR_ENV, record_table

SECTIONS = ("engine", "simulate", "server", "tui", "tables")


@dataclass(slots=True)
class Figure:
    """One measured figure and its in-run anchor.

    Attributes:
        name: what is measured.
        value: the figure (``None`` when it could not be measured; see ``note``).
        unit: its unit.
        anchor_name / anchor: the in-run anchor and its value, if any.
        note: how it was measured (samples, games) or why it is missing.
    """

    name: str
    value: float | None
    unit: str
    anchor_name: str = ""
    anchor: float | None = None
    note: str = ""


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values``, nearest rank."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


# --------------------------------------------------------------------------- engine


def random_game_stats(
    seed: int, players: int, timed: bool
) -> tuple[int, float, dict[str, list[float]]]:
    """Play one seeded random game: decisions, CPU seconds, and when ``timed`` the CPU ns of
    each call to ``legal_actions``, ``apply``, ``view_for`` and (every 10th decision) ``copy``."""
    calls: dict[str, list[float]] = {k: [] for k in CALLS}
    clock = time.thread_time_ns
    rng = random.Random(seed)
    start = time.process_time()
    state = new_game(seed, players)
    decisions = 0
    while state.phase is not Phase.OVER and decisions < 5000:
        seat = rng.choice(sorted(waiting_on(state)))
        if timed:
            t0 = clock()
            legal = legal_actions(state, seat)
            t1 = clock()
            apply(state, seat, legal[rng.randrange(len(legal))])
            t2 = clock()
            view_for(state, seat)
            t3 = clock()
            calls["legal_actions"].append(t1 - t0)
            calls["apply"].append(t2 - t1)
            calls["view_for"].append(t3 - t2)
            if decisions % 10 == 0:
                t4 = clock()
                state.copy()
                calls["GameState.copy"].append(clock() - t4)
        else:
            legal = legal_actions(state, seat)
            apply(state, seat, legal[rng.randrange(len(legal))])
        decisions += 1
    return decisions, time.process_time() - start, calls


CALLS = ("legal_actions", "apply", "view_for", "GameState.copy")
"""The engine calls timed one by one."""


def engine_figures(budget: float) -> list[Figure]:
    """Random legal play (4 players) and the per-call costs of the engine's three entry points."""
    decisions = games = 0
    seconds = 0.0
    deadline = time.perf_counter() + budget
    while time.perf_counter() < deadline and games < 2000:
        n, s, _ = random_game_stats(1000 + games, 4, timed=False)
        decisions += n
        seconds += s
        games += 1
    calls: dict[str, list[float]] = {k: [] for k in CALLS}
    for g in range(max(2, games // 4)):
        _, _, got = random_game_stats(5000 + g, 4, timed=True)
        for k, v in got.items():
            calls[k] += v
    figures = [
        Figure(
            "engine random legal play (4 players)",
            decisions / seconds,
            "decisions/s",
            note=f"{games} games, {decisions} decisions; CPU time",
        ),
        Figure(
            "engine random play (4 players), games/s",
            games / seconds,
            "games/s",
            note="CPU time; the simulate anchor",
        ),
    ]
    for k in CALLS:
        figures.append(
            Figure(
                f"{k}(seat) per call" if k != "GameState.copy" else "GameState.copy per call",
                statistics.fmean(calls[k]) / 1000,
                "µs",
                note=f"mean CPU time of {len(calls[k])} calls in random play",
            )
        )
    figures.append(view_per_seat_figure(budget / 4))
    return figures


def view_per_seat_figure(budget: float) -> Figure:
    """``view_for`` for every seat and a spectator at each revision of random games, per view."""
    views = 0
    ns = 0
    deadline = time.perf_counter() + budget
    game = 0
    clock = time.thread_time_ns
    while time.perf_counter() < deadline and game < 200:
        state = new_game(7000 + game, 4)
        rng = random.Random(game)
        steps = 0
        while state.phase is not Phase.OVER and steps < 5000:
            seat = rng.choice(sorted(waiting_on(state)))
            legal = legal_actions(state, seat)
            apply(state, seat, legal[rng.randrange(len(legal))])
            t0 = clock()
            for s in (0, 1, 2, 3, None):
                view_for(state, s)
            ns += clock() - t0
            views += 5
            steps += 1
        game += 1
    return Figure(
        "view_for, 4 seats + 1 spectator per revision",
        ns / views / 1000,
        "µs/view",
        note=f"{views} views; CPU time",
    )


def simulate_figures(budget: float, anchor_games_per_s: float | None) -> list[Figure]:
    """``simulate --players 4`` with the CLI's default bot, games/s, next to bare random play."""
    from poissonnier_tui.commands import simulate as simulate_command

    parser = argparse.ArgumentParser()
    simulate_command.register(parser.add_subparsers())
    default_bot = parser.parse_args(["simulate"]).bot
    figures = []
    for kind in dict.fromkeys([default_bot, DEFAULT_LEVEL]):
        games = 0
        seconds = 0.0
        deadline = time.perf_counter() + budget
        batch = 2
        name = kind
        while time.perf_counter() < deadline and games < 400:
            cpu = time.process_time()
            report = simulate(4, batch, seed=games + 1, bot=kind)
            seconds += time.process_time() - cpu
            games += report.games
            name = report.bots[0]  # the level simulate chose when the command names none
        figures.append(
            Figure(
                f"simulate --players 4 --bot {name}",
                games / seconds,
                "games/s",
                "random play on the bare engine",
                anchor_games_per_s,
                note=f"{games} games; CPU time"
                + (" (the CLI default bot)" if kind == default_bot else ""),
            )
        )
    return figures


# --------------------------------------------------------------------------- server


async def _next_view(client: TableClient, rev: int) -> float:
    """Read ``client``'s messages until a view of revision ``rev`` or later; its arrival time."""
    while True:
        msg = await client.receive()
        if isinstance(msg, View) and msg.rev >= rev:
            return time.perf_counter()


async def _all_views(clients: list[TableClient], rev: int, timeout: float = 10.0) -> list[float]:
    """When each of ``clients`` got a view of revision ``rev`` or later. One timeout
    for them all, as the anchor (:func:`_bare_rounds`) has: the harness costs both the same."""
    return await asyncio.wait_for(asyncio.gather(*(_next_view(c, rev) for c in clients)), timeout)


def _fanout_table() -> tuple[PoissonnierGame, TableServer]:
    """The server figure's table: 2 seats, auto-started, its log kept, no time limits."""
    game = PoissonnierGame()
    server = TableServer(
        game,
        name="bench",
        seats=2,
        seed=11,
        app_version=__version__,
        auto_start=True,
        turn_timeout=None,
        # all 20 spectators come from 127.0.0.1; seat 0 moves (and sends) faster than a person
        timing=Timing(
            max_spectators_per_address=32,
            action_rate=1e6,
            action_burst=10**6,
            message_rate=1e6,
            message_burst=10**6,
        ),
    )
    record_table(server)  # a hosted table keeps its log (the durable write is in the path)
    return game, server


def _settle() -> None:
    """As a hosting app does once its table is drawn (shell/frames.py settle_heap_once):
    full collections then skip this process's large, long-lived heap (Textual and the
    rest, imported here too)."""
    settle_heap()


FAN_WARMUP = 50
"""Rounds the side-by-side fan-out plays on each server before it measures
(:func:`fanout_side_by_side`). Two reasons: a table's first action took 1.9-3.6 ms
in ten runs, against 0.8-0.9 ms at the median (the log's descriptor, caches, the
first frames of 22 connections), and was one of the three slowest samples a p99 of
300 reads; and a view carries the last ``LOG_TAIL`` (40) entries of the log, so the
frames grow with each action until then (0.47 kB at the start, 0.91 kB after 20
actions, 1.27-1.33 kB from the 40th on): every round measured must send frames of
the size they keep."""
FAN_BLOCK = 25
"""Rounds measured on one server before the other takes its turn: the machine's load,
which moves within seconds on a shared host, then weighs on both alike. Each turn
begins with one more round, not measured: the first after a switch runs on caches the
other server's rounds have cooled (it was the slowest of its turn on both sides, and
12 such rounds of 300 set the p99)."""


@dataclass(slots=True)
class BenchTable:
    """:func:`bench_table`'s running table and its 22 clients (players first)."""

    server: TableServer
    clients: list[TableClient]
    actions: int = 0
    """Actions seat 0 has sent: ready, unready, ready…"""


@contextlib.asynccontextmanager
async def bench_table() -> AsyncIterator[BenchTable]:
    """The server figure's table (:func:`_fanout_table`), running, with 2 players and 20
    spectators connected (:class:`net.client.TableClient`, players first) who have all
    had the first view; every client closed on exit."""
    game, server = _fanout_table()
    async with server:

        async def connect(name: str, role: str) -> TableClient:
            return await TableClient.connect(
                "127.0.0.1",
                server.port,
                name=name,
                app_version=__version__,
                game=game.name,
                role=role,  # type: ignore[arg-type]
            )

        players = [await connect(f"P{i}", "player") for i in range(2)]
        watchers = [await connect(f"W{i}", "spectator") for i in range(20)]
        everyone = players + watchers
        try:
            await _all_views(everyone, 0)
            yield BenchTable(server, everyone)
        finally:
            for c in everyone:
                await c.close()


async def table_rounds(bench: BenchTable, count: int) -> list[float]:
    """``count`` rounds on :func:`bench_table`'s table: its seat 0 readies, unreadies,
    readies…; ms from each action's send until all 22 clients have handed on the view
    of its revision."""
    latencies: list[float] = []
    clients = bench.clients
    rev = bench.server.rev
    for _ in range(count):
        action = {"type": "ready" if bench.actions % 2 == 0 else "unready"}
        bench.actions += 1
        start = time.perf_counter()
        await clients[0].send_action(action)
        rev += 1
        arrivals = await _all_views(clients, rev)
        latencies.append((max(arrivals) - start) * 1000)
    return latencies


def table_frames(server: TableServer) -> list[bytes]:
    """The frames :func:`bench_table`'s table would send now, byte for byte (its own
    :meth:`~net.server.TableServer._view_frame`): seat 0, seat 1, 20 spectators."""
    now = server._keeper.now()
    frames = []
    for seat in (0, 1, *([None] * 20)):
        built = server._view_frame(seat, now)
        assert built is not None, "the bench table's view cannot be built"
        frames.append(built[1])
    return frames


async def server_fanout(samples: int) -> tuple[list[float], list[bytes], Table]:
    """A 2-seat table with 20 spectators: seat 0 readies and unreadies; ms until all 22
    clients (:class:`net.client.TableClient`) have handed the view on.

    Returns the latencies, the frames the table would send at the end (seat 0, seat 1,
    20 spectators: scripts/bench_check.py checks the first three) and the table's game
    (for :func:`lean_fanout`).
    """
    async with bench_table() as bench:
        _settle()
        latencies = await table_rounds(bench, samples)
        frames = table_frames(bench.server)
    return latencies, frames, bench.server._table  # the lean model plays on where it stopped


async def fanout_side_by_side(
    samples: int, *, warmup: int = FAN_WARMUP, block: int = FAN_BLOCK
) -> tuple[list[float], list[float], list[bytes], Table]:
    """The server figure and its anchor measured in turns on one loop: :func:`bench_table`
    and the anchor's server (:func:`_bare_serve`), both running; ``warmup`` rounds on
    each first, then turns of ``block`` measured rounds on the table, ``block`` on the
    bare server, and so on until each has ``samples``, each turn after one round not
    measured. The bare server sends the table's own frames: before each of its turns,
    those the table would send then (:func:`table_frames`; 1.27-1.33 kB once the
    warm-up has filled the view's tail of the log, :data:`FAN_WARMUP`).

    Returns:
        The table's latencies and the bare fan-out's (ms, ``samples`` each), the table's
        last frames and its game (for :func:`lean_fanout`).
    """
    async with bench_table() as bench:
        await table_rounds(bench, warmup)
        frames = table_frames(bench.server)
        async with bare_server(_bare_serve(frames), len(frames)) as peers:
            await _bare_rounds(peers, warmup)
            _settle()
            table: list[float] = []
            bare: list[float] = []
            while len(table) < samples:
                count = min(block, samples - len(table))
                table += (await table_rounds(bench, 1 + count))[1:]
                frames[:] = table_frames(bench.server)  # the anchor's turn: the same bytes
                bare += (await _bare_rounds(peers, 1 + count))[1:]
        if bench.actions % 2:
            await table_rounds(bench, 1)  # seat 0 unready, as lean_fanout's first frame expects
        frames = table_frames(bench.server)
    return table, bare, frames, bench.server._table  # the lean model plays on where it stopped


def ready_frame(i: int) -> bytes:
    """The ``i``-th action frame of the server figure's seat 0: ready, unready, ready…"""
    action = {"type": "ready" if i % 2 == 0 else "unready"}
    return encode(ActionRequest(i + 1, action).to_wire())


async def server_fanout_raw_clients(samples: int) -> list[float]:
    """:func:`server_fanout` with 22 raw clients instead of :class:`net.client.TableClient`:
    each reads its frames and checks them (:func:`net.messages.parse_server_frame`) in
    one task, as the anchor's peers do, without the client's frame cutter, inbox and
    consumer. The same server: what is left over the lean model is the server's own."""
    game, server = _fanout_table()
    latencies: list[float] = []
    async with server:
        peers = []
        for i in range(22):
            role: Literal["player", "spectator"] = "player" if i < 2 else "spectator"
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            hello = Hello(PROTOCOL_VERSION, __version__, game.name, f"R{i}", role, None, None)
            writer.write(encode(hello.to_wire()))
            peers.append((reader, writer))

        async def next_view(reader: asyncio.StreamReader, rev: int) -> float:
            while True:
                (size,) = struct.unpack(">I", await reader.readexactly(4))
                msg = parse_server_frame(await reader.readexactly(size))
                if isinstance(msg, View) and msg.rev >= rev:
                    return time.perf_counter()

        async def all_views(rev: int) -> list[float]:
            return await asyncio.wait_for(
                asyncio.gather(*(next_view(r, rev) for r, _ in peers)), 10.0
            )

        try:
            await all_views(0)
            _settle()
            rev = server.rev
            for i in range(samples):
                frame = ready_frame(i)
                start = time.perf_counter()
                peers[0][1].write(frame)
                rev += 1
                arrivals = await all_views(rev)
                latencies.append((max(arrivals) - start) * 1000)
        finally:
            for _, w in peers:
                w.close()
    return latencies


Serve = Callable[[asyncio.StreamReader, list[asyncio.StreamWriter]], Awaitable[None]]
"""A bare server's reading of one peer's frames; it writes to all peers, in the order they came."""


@contextlib.asynccontextmanager
async def bare_server(serve: Serve, count: int) -> AsyncIterator[list[Streams]]:
    """A bare asyncio server on 127.0.0.1 and ``count`` peers connected to it, one at a
    time (so the server's writer ``i`` is peer ``i``'s); everything closed on exit."""
    writers: list[asyncio.StreamWriter] = []
    handlers: set[asyncio.Task[Any]] = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        task = asyncio.current_task()
        assert task is not None
        handlers.add(task)
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            await serve(reader, writers)
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    peers: list[Streams] = []
    try:
        for i in range(count):
            peers.append(await asyncio.open_connection("127.0.0.1", port))
            while len(writers) <= i:
                await asyncio.sleep(0.001)
        yield peers
    finally:
        for _, w in peers:
            w.close()
        await asyncio.wait(handlers, timeout=5.0)  # each sees its peer's end and returns
        server.close()
        await server.wait_closed()


async def fan_rounds(
    peers: list[Streams],
    samples: int,
    request: Callable[[int], bytes],
    take: Callable[[bytes], Any],
) -> list[float]:
    """``samples`` rounds: peer 0 writes ``request(i)``, then every peer reads one frame
    and hands its payload to ``take``; ms from the write to the last peer done."""

    async def read_one(reader: asyncio.StreamReader) -> float:
        (size,) = struct.unpack(">I", await reader.readexactly(4))
        take(await reader.readexactly(size))
        return time.perf_counter()

    latencies = []
    for i in range(samples):
        frame = request(i)
        start = time.perf_counter()
        peers[0][1].write(frame)
        arrivals = await asyncio.wait_for(asyncio.gather(*(read_one(r) for r, _ in peers)), 10.0)
        latencies.append((max(arrivals) - start) * 1000)
    return latencies


def _bare_serve(frames: list[bytes]) -> Serve:
    """The anchor, a bare asyncio server: on each small frame from a peer, ``frames``
    (as the list holds them then: the caller may replace them between rounds) written
    to the 22 peers. Each peer reads length-prefixed frames and decodes them
    with msgpack, as a client does (:func:`_bare_rounds`); the figure is the time until
    the last peer has decoded its frame."""

    async def serve(reader: asyncio.StreamReader, writers: list[asyncio.StreamWriter]) -> None:
        while True:
            await reader.readexactly(4)
            for w, frame in zip(writers, frames, strict=False):
                w.write(frame)

    return serve


async def _bare_rounds(peers: list[Streams], samples: int) -> list[float]:
    """:func:`fan_rounds` on :func:`_bare_serve`'s peers, each decoding with msgpack."""
    return await fan_rounds(peers, samples, lambda _i: b"\0\0\0\0", msgpack.unpackb)


Sync = Literal["thread", "loop", "none"]
"""How :func:`lean_fanout` makes its record durable: in a disk thread (as the server
did before it handed records to the kernel, net/logaio.py), on the event loop itself
(a lower bound the server may not use), or not at all."""


async def lean_fanout(
    table: Table, samples: int, sync: Sync, *, checked: bool = True
) -> list[float]:
    """A lean model of the work the server figure must do, on the bare anchor's plumbing,
    with the project's own client check and a hand-off to a disk thread (the server's
    until round 6; now it hands records to the kernel: net/logaio.py): what the server
    would cost without its own machinery. Not a floor: the kernel's hand-off costs less,
    and peers cutting frames in a protocol read faster (docs/measurements/bench-server.txt,
    rounds 6 and 9).

    On one small frame from peer 0, a bare asyncio server decodes and checks it as
    the table does (:func:`net.messages.parse_client_message`), applies the action
    to ``table`` (seat 0: ready, then unready), builds the three views (seat 0,
    seat 1, a spectator) while its record is made durable (``sync``), then writes
    the 22 frames. Each of the 22 peers reads its frame and checks it as a client
    does (:func:`net.messages.parse_server_frame`). The record goes to a preallocated
    file with ``O_DSYNC`` (no size change to sync: the cheapest sync this disk
    gives); ``"thread"`` hands it to a thread as the server once did (one queue put,
    a wait until the thread has it, a ``call_soon_threadsafe`` back), ``"loop"``
    writes it on the event loop, where every other table would wait on the disk.
    No locks, timers, outbox, acks, queues or tasks per client. Not ``checked``: the
    peers only decode their frames (``msgpack.unpackb``), as the anchor's do — what
    a client that trusted the LAN would do.

    Returns:
        Per action, ms from the frame's write to the last peer done with its view.
    """
    loop = asyncio.get_running_loop()
    folder = os.environ.get(DATA_DIR_ENV) or tempfile.gettempdir()
    log_path = Path(tempfile.mkdtemp(prefix="lean-", dir=folder)) / "log"
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.posix_fallocate(fd, 0, 1 << 20)  # room for every record: no size change to sync
    os.fsync(fd)
    os.close(fd)
    fd = os.open(log_path, os.O_WRONLY | (0 if sync == "none" else os.O_DSYNC))
    offset = 0
    jobs: queue.SimpleQueue[tuple[bytes, int, asyncio.Future[None]] | None] = queue.SimpleQueue()
    taken = threading.Lock()
    taken.acquire()

    def disk() -> None:
        while (job := jobs.get()) is not None:
            taken.release()
            record, at, durable = job
            os.pwrite(fd, record, at)
            loop.call_soon_threadsafe(durable.set_result, None)

    thread = threading.Thread(target=disk, daemon=True)
    thread.start()

    async def serve(reader: asyncio.StreamReader, writers: list[asyncio.StreamWriter]) -> None:
        nonlocal offset
        while True:
            (size,) = struct.unpack(">I", await reader.readexactly(4))
            request = parse_client_message(decode(await reader.readexactly(size), CLIENT_LIMITS))
            assert isinstance(request, ActionRequest)
            table.apply(0, request.action)
            record = msgpack.packb({"seat": 0, "action": request.action, "time": time.time()})
            durable = None
            if sync == "thread":
                durable = loop.create_future()
                jobs.put((record, offset, durable))
                taken.acquire(timeout=0.0005)  # as the server: the write starts first
            else:
                os.pwrite(fd, record, offset)
            offset += len(record)
            views = {
                s: encode(View(table.rev, table.view(s), None, ()).to_wire()) for s in (0, 1, None)
            }
            if durable is not None:
                await durable
            for i, w in enumerate(writers):  # peers 0 and 1 are the seats
                w.write(views[i if i < 2 else None])

    try:
        async with bare_server(serve, 22) as peers:
            take = parse_server_frame if checked else msgpack.unpackb
            return await fan_rounds(peers, samples, ready_frame, take)
    finally:
        jobs.put(None)
        thread.join(5.0)
        os.close(fd)
        log_path.unlink()
        log_path.parent.rmdir()


def server_figures(samples: int) -> list[Figure]:
    """Action → every one of 22 clients updated, p50 and p99, next to the bare fan-out;
    then the same server with raw clients, and the lean model of the same work
    (:func:`lean_fanout`) synced in a thread, on the loop, not at all, and with
    peers that do not check their frames."""
    latencies, bare, frames, table = asyncio.run(fanout_side_by_side(samples))
    raw_clients = asyncio.run(server_fanout_raw_clients(samples))
    lean = {sync: asyncio.run(lean_fanout(table, samples, sync)) for sync in get_args(Sync)}
    trusting = asyncio.run(lean_fanout(table, samples, "thread", checked=False))
    note = (
        f"{samples} actions, in turns of {FAN_BLOCK} with the anchor's (each after 1 and the"
        f" first after {FAN_WARMUP} unmeasured); frames {min(map(len, frames))}–"
        f"{max(map(len, frames))} B"
    )
    lean_note = "the same work, lean (lean_fanout)"
    return [
        Figure(
            "action → 2 seats + 20 spectators, p50",
            statistics.median(latencies),
            "ms",
            "bare asyncio fan-out p50",
            statistics.median(bare),
            note,
        ),
        Figure(
            "action → 2 seats + 20 spectators, p99",
            pct(latencies, 99),
            "ms",
            "bare asyncio fan-out p99",
            pct(bare, 99),
            note,
        ),
        Figure(
            "the same, 22 raw clients (no TableClient), p50",
            statistics.median(raw_clients),
            "ms",
            "bare asyncio fan-out p50",
            statistics.median(bare),
            "server_fanout_raw_clients",
        ),
        Figure(
            "lean model, synced in a thread, p50",
            statistics.median(lean["thread"]),
            "ms",
            "bare asyncio fan-out p50",
            statistics.median(bare),
            lean_note,
        ),
        Figure(
            "lean model, synced in a thread, p99",
            pct(lean["thread"], 99),
            "ms",
            "bare asyncio fan-out p99",
            pct(bare, 99),
            lean_note,
        ),
        Figure(
            "lean model, synced on the loop, p50",
            statistics.median(lean["loop"]),
            "ms",
            "bare asyncio fan-out p50",
            statistics.median(bare),
            lean_note + "; the loop waits on the disk",
        ),
        Figure(
            "lean model, not synced, p50",
            statistics.median(lean["none"]),
            "ms",
            "bare asyncio fan-out p50",
            statistics.median(bare),
            lean_note,
        ),
        Figure(
            "lean model, synced in a thread, clients not checking, p50",
            statistics.median(trusting),
            "ms",
            "bare asyncio fan-out p50",
            statistics.median(bare),
            lean_note + "; the peers only decode",
        ),
    ]


# --------------------------------------------------------------------------- TUI


class _Frames:
    """Timestamps the frames an app draws (``App._display`` is called once per drawn update)."""

    def __init__(self, app: Any) -> None:
        self.times: list[float] = []
        self.hook: Callable[[], None] | None = None
        real = app._display  # the one place Textual hands over a frame

        def display(screen: Any, renderable: Any) -> None:
            real(screen, renderable)
            if renderable is not None:
                self.times.append(time.perf_counter())
                if self.hook is not None:
                    self.hook()

        app._display = display

    def first_after(self, start: float) -> float | None:
        """The first frame drawn after ``start``."""
        return next((t for t in self.times if t > start), None)


QUIET = 0.1
"""Seconds without a frame after which the table counts as still (before the first key)."""


def _drawn_after(frames: _Frames, start: float) -> Callable[[], bool]:
    return lambda: frames.first_after(start) is not None


async def _until(pilot: Any, ready: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Let the app run until ``ready()``; False after ``timeout`` seconds."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if ready():
            return True
        await pilot.pause(0.002)
    return False


TABLE_SCREEN_MODULE = "poissonnier_tui.games.poissonnier.ui.screens.table"
"""Where the real app's table screen is (the first table frame shows it)."""


def _poissonnier_snapshot(app: Any) -> TableSnapshot | None:
    """The table app's snapshot of a Le Poissonnier game (``None`` before the first view)."""
    snap = app.snapshot
    assert snap is None or isinstance(snap, TableSnapshot)
    return snap


def _minimal_app() -> Any:
    from bench_minimal import Minimal  # the cold start's anchor too (scripts/bench_start.py)

    return Minimal()


async def minimal_app(presses: int) -> tuple[float, list[float]]:
    """A minimal Textual app: start → first frame (ms) and keypress → frame (ms each)."""
    start = time.perf_counter()
    app = _minimal_app()
    frames = _Frames(app)
    keys = []
    async with app.run_test(size=(160, 50)) as pilot:
        await _until(pilot, lambda: bool(frames.times))
        first = (frames.times[0] - start) * 1000
        for _ in range(presses):
            t0 = time.perf_counter()
            await pilot.press("x")
            await _until(pilot, _drawn_after(frames, t0), 2.0)
            t = frames.first_after(t0)
            if t is not None:
                keys.append((t - t0) * 1000)
    return first, keys


async def tui_table(presses: int) -> tuple[float | None, list[float], list[float]]:
    """The real app on a solo table: start → first table frame, place/take back → frame, cursor."""
    from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
    from poissonnier_tui.shell.app import PoissonnierApp
    from poissonnier_tui.shell.session import SoloSession

    start = time.perf_counter()
    app = PoissonnierApp(SoloSession(bots=1, seed=3, name="Bench", bot_delay=0.0))
    frames = _Frames(app)
    first: list[float] = []
    answered: list[float] = []
    cursor: list[float] = []
    expect: dict[str, Any] = {}

    def on_table() -> bool:
        snap = app.snapshot
        return isinstance(app.screen, TableScreen) and snap is not None

    def hook() -> None:
        if not first and on_table():
            first.append(time.perf_counter())
        snap = _poissonnier_snapshot(app)
        waiting = "full" in expect and "at" not in expect
        if waiting and snap is not None and bool(snap.crates[0]) == expect["full"]:
            expect["at"] = time.perf_counter()  # the first frame drawn with the new crate

    frames.hook = hook
    async with app.run_test(size=(160, 50)) as pilot:
        if not await _until(pilot, lambda: bool(first), 20.0):
            return None, [], []
        await _until(
            pilot,
            lambda: (
                (snap := _poissonnier_snapshot(app)) is not None
                and snap.phase == "fill"
                and snap.me in snap.waiting_on
            ),
        )
        # A player's first key comes once the table is on screen and still, not within
        # milliseconds of its first frame: the start-up's tail (the table's second
        # layout, the bots' first views, the first full garbage collection) is the
        # start figure's, and one press in it set the p95 of 20 on its own.
        await _until(pilot, lambda: time.perf_counter() - frames.times[-1] > QUIET, 5.0)
        for i in range(presses):
            full = i % 2 == 0
            if not full:  # "t" then "1" takes crate 1 back: "t" is local, "1" goes out
                await pilot.press("t")
            expect.clear()
            expect["full"] = full
            t0 = time.perf_counter()
            await pilot.press("1")
            if not await _until(pilot, lambda: "at" in expect, 5.0):
                break
            answered.append((expect["at"] - t0) * 1000)
            await pilot.pause(0.01)
        for i in range(presses):
            t0 = time.perf_counter()
            await pilot.press("right" if i % 2 == 0 else "left")
            await _until(pilot, _drawn_after(frames, t0), 2.0)
            t = frames.first_after(t0)
            if t is not None:
                cursor.append((t - t0) * 1000)
    return (first[0] - start) * 1000, answered, cursor


def tui_figures(presses: int, starts: int) -> list[Figure]:
    """Keypress → frame and start → first frame of the real app, next to a minimal Textual app.

    The starts are warm: both apps' modules are imported before the first
    (otherwise the first start of each, all of a ``--quick`` run, counts its imports).
    """
    for module in ("bench_minimal", "poissonnier_tui.shell.app", TABLE_SCREEN_MODULE):
        importlib.import_module(module)

    min_first: list[float] = []
    min_keys: list[float] = []
    real_first: list[float] = []
    answered: list[float] = []
    cursor: list[float] = []
    for _ in range(starts):  # interleaved, so load on the machine hits both alike
        f, k = asyncio.run(minimal_app(presses))
        min_first.append(f)
        min_keys += k
        rf, a, c = asyncio.run(tui_table(presses))
        if rf is not None:
            real_first.append(rf)
        answered += a
        cursor += c

    def fig(name: str, values: list[float], q: float, anchor: str, anchor_q: float) -> Figure:
        return Figure(
            name,
            pct(values, q) if values else None,
            "ms",
            anchor,
            pct(min_keys, anchor_q) if min_keys else None,
            f"{len(values)} presses" if values else "not measured (the app did not answer)",
        )

    return [
        fig(
            "TUI keypress → frame, server answers (place/take back), p50",
            answered,
            50,
            "minimal Textual app keypress → frame p50",
            50,
        ),
        fig(
            "TUI keypress → frame, server answers (place/take back), p95",
            answered,
            95,
            "minimal Textual app keypress → frame p95",
            95,
        ),
        fig(
            "TUI local cursor move → frame, p95",
            cursor,
            95,
            "minimal Textual app keypress → frame p95",
            95,
        ),
        Figure(
            "TUI warm start → first table frame (in process, median)",
            statistics.median(real_first) if real_first else None,
            "ms",
            "minimal Textual app warm start → first frame (median)",
            statistics.median(min_first),
            f"{len(real_first)} starts; modules already imported: App() → first frame",
        ),
    ]


COLD_START = Path(__file__).with_name("bench_start.py")
"""The child program of a cold start (one new process per start)."""


def cold_start(which: str, env: dict[str, str]) -> float | None:
    """One cold start of ``which`` (``minimal`` or ``table``, see scripts/bench_start.py): ms
    from just before the new process is spawned to its first frame; ``None`` if it failed."""
    start = time.monotonic()  # system-wide: the child stamps its frame on the same clock
    try:
        done = subprocess.run(
            [sys.executable, str(COLD_START), which],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    lines = done.stdout.split()
    if done.returncode != 0 or not lines:
        print(f"cold start of {which} failed: {done.stderr.strip()[-500:]}", file=sys.stderr)
        return None
    return (float(lines[-1]) - start) * 1000


def tui_cold_figures(starts: int) -> list[Figure]:
    """Start → first frame of the real command and of the minimal app, each in a new process.

    As a player starts it a second time: Python's bytecode cache in place (the
    bench's own, in a temporary folder, so a ``PYTHONDONTWRITEBYTECODE``
    environment does not make every start compile the sources; one discarded
    start of each fills it). Starts alternate, so load hits both alike.
    """
    minimal: list[float] = []
    table: list[float] = []
    with tempfile.TemporaryDirectory(prefix="poissonnier-bench-pyc-") as pyc:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = pyc
        for i in range(starts + 1):
            for which, into in (("minimal", minimal), ("table", table)):
                got = cold_start(which, env)
                if i > 0 and got is not None:  # the first start of each filled the cache
                    into.append(got)
    return [
        Figure(
            "TUI cold start → first table frame (new process, median)",
            statistics.median(table) if table else None,
            "ms",
            "minimal Textual app cold start → first frame (median)",
            statistics.median(minimal) if minimal else None,
            f"{len(table)} starts each, interleaved; `poissonnier solo --bots 1`, headless 160×50",
        )
    ]


# --------------------------------------------------------------------------- many tables


async def loop_pings(seconds: float, period: float = 0.01) -> list[float]:
    """Lateness (ms) of a timer that should fire every ``period`` s, for ``seconds`` s."""
    late = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        due = loop.time() + period
        await asyncio.sleep(period)
        late.append((loop.time() - due) * 1000)
    return late


async def many_tables(tables: int, seconds: float) -> tuple[list[float], int]:
    """``tables`` four-bot tables (default level, no bot delay) on this loop; pings meanwhile.

    As a process hosting many tables does, the bots think in worker processes
    (:class:`net.thinking.ProcessThinker`, shared by every table), not in threads
    that take the interpreter lock from the loop, and once the tables are open
    the heap is settled (:func:`net.heap.settle_heap`) so that the collector's
    full collections do not walk them.
    """
    thinker = ProcessThinker()
    servers = []
    for t in range(tables):
        bots = {s: make_bot(DEFAULT_LEVEL, t * 8 + s) for s in range(4)}
        server = TableServer(
            PoissonnierGame(),
            name=f"t{t}",
            seats=4,
            seed=t,
            app_version=__version__,
            bots=bots,
            bot_delay=0.0,
            auto_start=True,
            thinker=thinker,
        )
        servers.append(server)
    try:
        for server in servers:
            await server.open()
        settle_heap()  # the tables are the process's long-lived objects (net/heap.py)
        pings = await loop_pings(seconds)
        revs = sum(s.rev for s in servers)
    finally:
        for server in servers:
            await server.close()
        thinker.close()
    return pings, revs


def tables_figures(tables: int, seconds: float) -> list[Figure]:
    """Event-loop ping p99 with ``tables`` bot tables, next to the same ping on an idle loop."""
    idle = asyncio.run(loop_pings(min(seconds, 2.0)))
    pings, revs = asyncio.run(many_tables(tables, seconds))
    return [
        Figure(
            f"{tables} four-bot tables on one loop: ping p99",
            pct(pings, 99),
            "ms",
            "idle loop ping p99",
            pct(idle, 99),
            f"10 ms timer lateness over {seconds:.0f} s; {revs} actions played meanwhile",
        ),
    ]


# --------------------------------------------------------------------------- main


@contextlib.contextmanager
def private_data_dir() -> Iterator[None]:
    """Logs written by the bench's tables go to a temporary directory, removed after."""
    old = os.environ.get(DATA_DIR_ENV)
    with tempfile.TemporaryDirectory(prefix="poissonnier-bench-") as folder:
        os.environ[DATA_DIR_ENV] = folder
        try:
            yield
        finally:
            if old is None:
                os.environ.pop(DATA_DIR_ENV, None)
            else:
                os.environ[DATA_DIR_ENV] = old


def fmt(value: float | None) -> str:
    """A figure for the table: 3 significant digits, thousands separated."""
    if value is None:
        return "—"
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}" if value >= 1 else f"{value:.2g}"


def render(figures: list[Figure], header: str) -> str:
    """The figures as a Markdown table."""
    lines = [
        header,
        "",
        "| figure | value | anchor (same run) | note |",
        "| --- | --- | --- | --- |",
    ]
    for f in figures:
        anchor = f"{f.anchor_name}: {fmt(f.anchor)}" if f.anchor_name else "—"
        lines.append(f"| {f.name} | {fmt(f.value)} {f.unit} | {anchor} | {f.note} |")
    return "\n".join(lines)


def _pinned() -> str:
    """``", run on CPU 0"`` when the bench may run on only some CPUs (``taskset``), else ``""``:
    where the disk's interrupts land matters to the server figure (bench-server.txt, round 10)."""
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if cpus is None or len(cpus) == os.cpu_count():
        return ""
    return f", run on CPU {','.join(map(str, sorted(cpus)))}"


def main(argv: list[str] | None = None) -> int:
    """Run the chosen sections and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="shorter measurements (about a minute on a quiet machine)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections among {', '.join(SECTIONS)}",
    )
    args = parser.parse_args(argv)
    only = [s for s in args.only.split(",") if s]
    for s in only:
        if s not in SECTIONS:
            parser.error(f"unknown section {s!r}; choose from {', '.join(SECTIONS)}")
    quick = args.quick
    figures: list[Figure] = []
    started = time.perf_counter()
    steps: dict[str, Callable[[], Awaitable[None] | None]] = {}
    anchor: list[float] = []

    def engine() -> None:
        got = engine_figures(3.0 if quick else 15.0)
        anchor.append(got[1].value or 0.0)
        figures.extend(got)

    def simulate_() -> None:
        if not anchor:
            anchor.append(engine_figures(2.0)[1].value or 0.0)
        figures.extend(simulate_figures(3.0 if quick else 20.0, anchor[0]))

    steps = {
        "engine": engine,
        "simulate": simulate_,
        "server": lambda: figures.extend(server_figures(40 if quick else 300)),
        "tui": lambda: figures.extend(
            tui_figures(4 if quick else 20, 1 if quick else 4) + tui_cold_figures(3 if quick else 7)
        ),
        "tables": lambda: figures.extend(tables_figures(200, 4.0 if quick else 15.0)),
    }
    with private_data_dir():
        for name in SECTIONS:
            if name in only:
                print(f"… {name}", file=sys.stderr, flush=True)
                steps[name]()
    header = (
        f"poissonnier bench{' --quick' if quick else ''}: Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs{_pinned()}, {time.perf_counter() - started:.0f} s"
    )
    if args.json:
        print(json.dumps({"header": header, "figures": [asdict(f) for f in figures]}, indent=1))
    else:
        print(render(figures, header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
