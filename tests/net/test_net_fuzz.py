"""A property-based fuzzer against a live table with a game in progress.

Hypothesis makes connections that say anything: frames of random bytes,
lengths that lie, strings that are not UTF-8, huge or deeply nested values,
unknown types, and every client message with fields dropped, added or given
the wrong type, in any order (an action before the hello, a second hello...).
After each connection, the table must have answered only with well-formed
frames (an ``error`` frame always with a code) and closed cleanly; nothing
may be logged at ERROR; a player and a spectator playing alongside must see
the game go on as if nothing happened; and at the end the game finishes and
its log of actions replays to the same result.

The table runs in an event loop on a thread of its own, so that Hypothesis
drives plain blocking sockets from the test's thread.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import struct
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rawwire import Wire, frame, hello
from test_net_toygame import CountGame, FirstBot

from net.frames import MAX_FRAME, PROTOCOL_VERSION
from net.game import Wire as WireMap
from net.server import TableServer, Timing

APP = "1.0"
CODE = "café"
EXAMPLES = 360
"""Connections made per run; with 4 to 30 frames each, well over 2,000 frames."""
TARGET = 2 * EXAMPLES + 20
"""The count the game goes to: each connection is followed by one move of each seat."""
SERVER_TYPES = {"welcome", "lobby", "view", "ack", "error", "ping", "pong", "bye"}

T = TypeVar("T")


class LiveTable:
    """A table in an event loop on its own thread, with a player and a spectator."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.actions: list[tuple[int, WireMap]] = []
        self.server = TableServer(
            CountGame(),
            name="Fuzzed",
            seats=2,
            seed=11,
            app_version=APP,
            options={"target": TARGET},
            bots={1: FirstBot()},
            bot_delay=0.0,
            code=CODE,
            auto_start=True,
            on_action=self._record,
            # The player moves once per fuzzed connection, faster than a person:
            # the seat's rate limit is the flood test's business, not this one's.
            timing=Timing(
                ping_interval=30.0,
                idle_timeout=60.0,
                hello_timeout=1.0,
                action_rate=1000.0,
                message_rate=1000.0,
            ),
        )
        self.player: Wire | None = None
        self.watcher: Wire | None = None
        self.watcher_task: asyncio.Task[None] | None = None
        self.seq = 0
        self.frames_sent = 0

    async def _record(self, seat: int, action: WireMap) -> None:
        self.actions.append((seat, dict(action)))

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 10.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def open(self) -> None:
        await self.server.open()
        self.watcher = await Wire.open(self.server.port)
        await self.watcher.send(hello("count", APP, "Watcher", role="spectator", code=CODE))
        self.watcher_task = asyncio.create_task(self._watch())
        self.player = await Wire.open(self.server.port)
        welcome = await self.player.answer(hello("count", APP, "Player", code=CODE))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
        await self.player.until("view")

    async def _watch(self) -> None:
        assert self.watcher is not None
        while True:
            try:
                await self.watcher.read(timeout=120.0)
            except (asyncio.IncompleteReadError, ConnectionError):
                return

    async def move(self) -> WireMap:
        """The player adds 1 and waits for its turn again (the bot moves at once)."""
        assert self.player is not None
        self.seq += 1
        reply = await self.player.answer({"type": "action", "seq": self.seq, "action": {"add": 1}})
        assert reply == {"type": "ack", "seq": self.seq}, reply  # undisturbed
        while True:
            view = (await self.player.until("view"))["view"]
            if view["turn"] == 0 or view["winner"] is not None:
                return view

    async def close(self) -> None:
        await self.server.close()
        for wire in (self.player, self.watcher):
            if wire is not None:
                wire.close()
        if self.watcher_task is not None:
            await asyncio.wait({self.watcher_task}, timeout=2.0)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveTable]:
    table = LiveTable()
    table.run(table.open())
    yield table
    table.run(table.close())
    table.loop.call_soon_threadsafe(table.loop.stop)
    table.thread.join(5.0)
    table.loop.close()


# --- strategies -------------------------------------------------------------------------

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True),
    text,
    st.binary(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.one_of(text, st.integers()), inner, max_size=6),
    ),
    max_leaves=20,
)

VALID: dict[str, dict[str, Any]] = {
    "hello": hello("count", APP, "Fuzz", role="spectator", code=CODE),
    "action": {"type": "action", "seq": 1, "action": {"add": 1}},
    "start": {"type": "start"},
    "ping": {"type": "ping"},
    "pong": {"type": "pong"},
    "bye": {"type": "bye", "reason": "done"},
}


@st.composite
def messages(draw: st.DrawFn) -> dict[Any, Any]:
    """A client message, valid or with one field dropped, added or of the wrong kind."""
    msg = dict(VALID[draw(st.sampled_from(sorted(VALID)))])
    how = draw(st.sampled_from(["as is", "drop", "add", "retype", "type", "hello"]))
    if how == "drop" and msg:
        del msg[draw(st.sampled_from(sorted(msg)))]
    elif how == "add":
        msg[draw(st.one_of(text, st.integers()))] = draw(values)
    elif how == "retype":
        msg[draw(st.sampled_from(sorted(msg)))] = draw(values)
    elif how == "type":
        msg["type"] = draw(st.one_of(text, values))
    elif how == "hello":  # a hello with odd texts: names, tokens and codes of any kind
        msg = hello(
            "count", APP, draw(text), role=draw(st.sampled_from(["player", "spectator", "x"]))
        )
        msg["token"] = draw(st.one_of(st.none(), text, values))
        msg["code"] = draw(st.one_of(st.just(CODE), text, values))
        msg["protocol"] = draw(st.sampled_from([PROTOCOL_VERSION, PROTOCOL_VERSION + 1, -1]))
    return msg


def packed(msg: Any) -> bytes:
    try:
        return frame(msg)
    except (TypeError, ValueError, OverflowError):  # msgpack cannot say it: say nil
        return frame(None)


NON_UTF8 = struct.pack(">I", 10) + b"\x82\xa4type\xa2\xff\xfe\x01\x02"  # a str of bad UTF-8
DEEP = msgpack.packb({"type": "action", "seq": 1, "action": {"a": [[[[[[[[[[[[1]]]]]]]]]]]]}})


def wide(n: int) -> bytes:
    return frame({"type": "action", "seq": 1, "action": {"a": [[0]] * n}})


def packed_raw(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


frames = st.one_of(
    messages().map(packed),
    values.map(packed),
    st.just(NON_UTF8),
    st.just(struct.pack(">I", len(DEEP)) + DEEP),
    st.integers(1, 3000).map(wide),  # long lists
    st.integers(1, 5000).map(lambda n: packed_raw(b"\x91" * n + b"\xc0")),  # deep lists
    st.binary(max_size=64).map(lambda b: struct.pack(">I", len(b) or 1) + (b or b"\xc1")),
    st.just(struct.pack(">I", MAX_FRAME + 1)),  # a length over the cap
    st.just(struct.pack(">I", 0)),  # an empty frame
    st.binary(min_size=1, max_size=3),  # part of a header
    st.just(frame({"type": "x" * 2000})),  # over the string cap
)  # fmt: skip


connections = st.tuples(
    st.sampled_from(["none", "spectator", "player", "twice"]),
    st.lists(frames, min_size=4, max_size=30),
)


# --- the fuzzer -------------------------------------------------------------------------------


def talk(port: int, opening: str, sent: list[bytes]) -> list[dict[str, Any]]:
    """Send everything, a ping, then end our side; read the table's frames until it closes."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5.0)
    try:
        start = {
            "none": [],
            "spectator": [frame(VALID["hello"])],
            "player": [frame(hello("count", APP, "Late", code=CODE))],  # the game has begun
            "twice": [frame(VALID["hello"])] * 2,
        }[opening]
        try:
            sock.sendall(b"".join([*start, *sent, frame({"type": "ping"})]))
            sock.shutdown(socket.SHUT_WR)
        except OSError:  # the table closed on us mid-way: fine, read what it said
            pass
        data = bytearray()
        while chunk := _recv(sock):
            data += chunk
    finally:
        sock.close()
    out: list[dict[str, Any]] = []
    while data:
        assert len(data) >= 4, f"half a frame from the table: {bytes(data)!r}"
        (length,) = struct.unpack(">I", data[:4])
        body = bytes(data[4 : 4 + length])
        assert len(body) == length, "the table sent half a frame"
        out.append(msgpack.unpackb(body, raw=False))
        del data[: 4 + length]
    return out


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except ConnectionResetError:
        return b""


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)
@given(connection=connections)
def test_fuzzed_connections_get_answers_and_leave_the_game_alone(
    live: LiveTable, connection: tuple[str, list[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    opening, sent = connection
    live.frames_sent += len(sent)
    replies = talk(live.server.port, opening, sent)
    for reply in replies:
        assert isinstance(reply, dict) and reply.get("type") in SERVER_TYPES, reply
        if reply["type"] == "error":
            assert isinstance(reply["code"], str) and reply["code"], reply
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    view = live.run(live.move())  # the player's next move goes through as usual
    assert view["winner"] is None, "the game must outlast the fuzzing"


def test_after_the_fuzzing_the_game_finishes_and_its_log_replays(live: LiveTable) -> None:
    if live.frames_sent == 0:
        pytest.skip("the fuzzer above did not run (selected alone)")
    print(f"fuzzed frames sent: {live.frames_sent}")
    assert live.frames_sent >= 2000
    view: WireMap = {"winner": None}
    for _ in range(TARGET):
        if view["winner"] is not None:
            break
        view = live.run(live.move())
    assert live.server.phase == "over"
    replayed = CountGame().new_match(11, 2, {"target": TARGET})
    for seat, action in live.actions:
        replayed.apply(seat, action)
    assert replayed.result() == live.server.result() and replayed.is_over
    assert live.watcher is not None
    final = [f for f in live.watcher.frames if f["type"] == "view"][-1]["view"]
    assert final["winner"] == view["winner"]  # the spectator saw the end too
