"""TableServer and TableClient over real loopback TCP, with the "count to N" toy game."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, ClassVar

import pytest
from test_net_toygame import (
    BadBot,
    CheerBot,
    CountGame,
    CountMatch,
    FirstBot,
    RandomBot,
    SlowBot,
)

from net.client import JoinError, TableClient
from net.frames import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    SERVER_LIMITS,
    ConnectionLost,
    encode,
    read_frame,
)
from net.game import Agent, Wire
from net.messages import TABLE_CLOSED, Ack, Bye, ErrorReply, Lobby, SeatInfo, ServerMessage, View
from net.server import TableServer, TableSummary, Timing
from net.table import Refused

APP = "1.0"
HOST = "127.0.0.1"
FAST = Timing(ping_interval=5.0, idle_timeout=10.0, hello_timeout=2.0, close_timeout=0.5)


@asynccontextmanager
async def serving(
    *, seats: int = 2, bots: dict[int, Agent] | None = None, **kwargs: Any
) -> AsyncIterator[TableServer]:
    kwargs.setdefault("timing", FAST)
    kwargs.setdefault("bot_delay", 0.0)
    server = TableServer(
        CountGame(), name="Test table", seats=seats, seed=7, app_version=APP, bots=bots, **kwargs
    )
    async with server:
        yield server


def game_of(server: TableServer) -> CountMatch:
    match = server._table.match
    assert isinstance(match, CountMatch)
    return match


class Watch:
    """Reads a TableClient's messages with timeouts, keeping all it saw."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.seen: list[ServerMessage] = []
        self._it = client.messages().__aiter__()

    async def next(self, timeout: float = 2.0) -> ServerMessage:
        async with asyncio.timeout(timeout):
            msg = await anext(self._it)
        self.seen.append(msg)
        return msg

    async def until(self, pred: Callable[[ServerMessage], bool], timeout: float = 2.0) -> Any:
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.next(timeout)
                if pred(msg):
                    return msg

    async def view(self, rev: int | None = None, timeout: float = 2.0) -> View:
        msg = await self.until(
            lambda m: isinstance(m, View) and (rev is None or m.rev == rev), timeout
        )
        assert isinstance(msg, View)
        return msg

    async def ended(self, timeout: float = 2.0) -> list[ServerMessage]:
        """Everything until the iterator ends (the connection closed)."""
        rest: list[ServerMessage] = []
        async with asyncio.timeout(timeout):
            async for msg in self._it:
                rest.append(msg)
        self.seen.extend(rest)
        return rest


async def join(server: TableServer, name: str, **kwargs: Any) -> tuple[TableClient, Watch]:
    kwargs.setdefault("app_version", APP)
    kwargs.setdefault("game", "count")
    client = await TableClient.connect(HOST, server.port, name=name, **kwargs)
    return client, Watch(client)


class Raw:
    """A hand-driven connection that records every byte it receives."""

    opened: ClassVar[list[Raw]] = []  # closed after each test by the `close_raws` fixture

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received = bytearray()
        Raw.opened.append(self)

    @classmethod
    async def open(cls, port: int, rcvbuf: int | None = None) -> Raw:
        if rcvbuf is None:
            reader, writer = await asyncio.open_connection(HOST, port)
        else:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
            reader, writer = await asyncio.open_connection(sock=sock)
        return cls(reader, writer)

    async def hello(self, port_name: str = "Raw", **fields: Any) -> Wire:
        msg = {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "app": APP,
            "game": "count",
            "name": port_name,
            "role": "player",
            **fields,
        }
        await self.send(msg)
        return await self.read()

    async def send(self, msg: Wire) -> None:
        self.writer.write(encode(msg))
        await self.writer.drain()

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def read(self, timeout: float = 2.0) -> Wire:
        async with asyncio.timeout(timeout):
            header = await self.reader.readexactly(4)
            body = await self.reader.readexactly(struct.unpack(">I", header)[0])
        self.received += header + body
        return await read_frame(_one(header + body), SERVER_LIMITS)

    async def read_until(self, pred: Callable[[Wire], bool], timeout: float = 2.0) -> Wire:
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.read(timeout)
                if pred(msg):
                    return msg

    async def closed_by_peer(self, timeout: float = 2.0) -> list[Wire]:
        """Read until EOF; return the frames seen on the way."""
        frames: list[Wire] = []
        async with asyncio.timeout(timeout):
            while True:
                try:
                    frames.append(await self.read(timeout))
                except (asyncio.IncompleteReadError, ConnectionError):
                    return frames

    def close(self) -> None:
        self.writer.close()


@pytest.fixture(autouse=True)
async def close_raws() -> AsyncIterator[None]:
    yield
    while Raw.opened:
        raw = Raw.opened.pop()
        raw.close()
        with contextlib.suppress(OSError):
            await raw.writer.wait_closed()


def _one(data: bytes) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    return reader


# --- joining ------------------------------------------------------------------


async def test_players_get_seats_tokens_and_lobby() -> None:
    async with serving() as server:
        ana, ana_w = await join(server, "Ana")
        bob, _ = await join(server, "Bob")
        spec, _ = await join(server, "Eve", role="spectator")
        assert (ana.seat, bob.seat, spec.seat) == (0, 1, None)
        assert ana.token and bob.token and ana.token != bob.token and spec.token is None
        assert ana.table.name == "Test table" and ana.table.seats == 2 and ana.table.spectators
        lobby = await ana_w.until(lambda m: isinstance(m, Lobby) and m.seats[1].kind == "human")
        assert lobby.seats == (SeatInfo("Ana", "human", True), SeatInfo("Bob", "human", True))
        assert (lobby.started, lobby.phase) == (False, "lobby")
        assert server.summary().taken == 2 and server.phase == "lobby"
        for c in (ana, bob, spec):
            await c.close()


async def test_version_mismatch_names_both_protocols_and_apps() -> None:
    async with serving() as server:
        raw = await Raw.open(server.port)
        reply = await raw.hello(protocol=PROTOCOL_VERSION + 1, app="0.9")
        assert reply["type"] == "error" and reply["code"] == "version_mismatch"
        ours, theirs = f"protocol {PROTOCOL_VERSION}", f"protocol {PROTOCOL_VERSION + 1}"
        for part in (ours, f"app {APP}", theirs, "app 0.9"):
            assert part in reply["message"]
        assert await raw.closed_by_peer() == []
        with pytest.raises(JoinError) as info:
            await join(server, "Old", app_version="0.9")
        assert info.value.code == "version_mismatch" and "0.9" in info.value.message
        assert server.seats()[0].kind == "open"  # the refusal changed nothing


async def test_wrong_game_and_bad_code_and_no_spectators() -> None:
    async with serving(code="4711", allow_spectators=False) as server:
        with pytest.raises(JoinError) as info:
            await join(server, "A", game="chess", code="4711")
        assert info.value.code == "wrong_game" and "'count'" in info.value.message
        for code in (None, "1234"):
            with pytest.raises(JoinError) as info:
                await join(server, "A", code=code)
            assert info.value.code == "bad_code"
        with pytest.raises(JoinError) as info:
            await join(server, "A", code="4711", role="spectator")
        assert info.value.code == "spectators_not_allowed"
        assert all(s.kind == "open" for s in server.seats())
        ok, _ = await join(server, "A", code="4711")
        assert ok.seat == 0
        await ok.close()


async def test_table_full_then_already_started_suggest_spectating() -> None:
    async with serving() as server:
        a, _ = await join(server, "A")
        b, _ = await join(server, "B")
        with pytest.raises(JoinError) as info:
            await join(server, "C")
        assert info.value.code == "table_full" and "spectator" in info.value.message
        await server.start()
        await b.close()  # a free seat after the start is still not for newcomers
        with pytest.raises(JoinError) as info:
            await join(server, "D")
        assert info.value.code == "already_started" and "spectator" in info.value.message
        watcher, watch = await join(server, "D", role="spectator")
        assert (await watch.view()).rev == 0
        await a.close()
        await watcher.close()


async def test_leaving_the_lobby_frees_the_seat() -> None:
    async with serving() as server:
        a, _ = await join(server, "A")
        b, b_watch = await join(server, "B")
        await a.close()
        lobby = await b_watch.until(lambda m: isinstance(m, Lobby) and m.seats[0].kind == "open")
        assert lobby.seats[1] == SeatInfo("B", "human", True)
        c, _ = await join(server, "C")
        assert c.seat == 0
        await b.close()
        await c.close()


async def test_no_hello_in_time_is_closed() -> None:
    timing = Timing(hello_timeout=0.1, close_timeout=0.5)
    async with serving(timing=timing) as server:
        raw = await Raw.open(server.port)
        frames = await raw.closed_by_peer()
        assert [f["code"] for f in frames] == ["timeout"]


# --- starting -------------------------------------------------------------------


async def test_only_the_host_starts_and_everyone_gets_rev_0() -> None:
    async with serving() as server:
        host, host_w = await join(server, "Host")
        guest, guest_w = await join(server, "Guest")
        await guest.start()
        err = await guest_w.until(lambda m: isinstance(m, ErrorReply))
        assert err.code == "not_host" and server.phase == "lobby"
        await host.start()
        for watch, seat in ((host_w, 0), (guest_w, 1)):
            view = await watch.view()
            assert view.rev == 0 and view.view["seat"] == seat and view.view["total"] == 0
        await host.start()
        err = await host_w.until(lambda m: isinstance(m, ErrorReply))
        assert err.code == "already_started"
        await host.close()
        await guest.close()


async def test_start_refused_while_seats_open_and_auto_start() -> None:
    async with serving(auto_start=True) as server:
        with pytest.raises(Refused) as info:
            await server.start()
        assert info.value.code == "seats_open"
        a, a_w = await join(server, "A")
        assert server.phase == "lobby"
        b, _ = await join(server, "B")
        assert server.summary().phase == "playing"
        assert (await a_w.view()).rev == 0
        await a.close()
        await b.close()


async def test_host_fills_a_seat_with_a_bot_in_the_lobby() -> None:
    async with serving(auto_start=True) as server:
        a, a_w = await join(server, "A")
        await server.set_bot(1, FirstBot())
        assert server.seats()[1] == SeatInfo("First", "bot", True)  # the agent's own name
        assert (await a_w.view(0)).view["turn"] == 0  # no seat open: auto-started
        with pytest.raises(Refused) as info:
            await server.set_bot(0, FirstBot())  # a connected player keeps their seat
        assert info.value.code == "seat_taken"
        with pytest.raises(Refused) as info:
            await server.set_bot(1, None)  # no seat opens once the game is on
        assert info.value.code == "already_started"
        await a.send_action({"add": 2})
        assert (await a_w.view(2)).view["moves"] == [[0, 2], [1, 1]]
        await a.close()


@pytest.mark.parametrize(
    "kwargs",
    [{"name": ""}, {"name": "x" * 65}, {"app_version": ""}, {"bot_names": {1: "a\nb"}}],
)
def test_bad_names_refused_at_construction(kwargs: dict[str, Any]) -> None:
    settings: dict[str, Any] = {"name": "T", "seats": 2, "seed": 1, "app_version": APP}
    with pytest.raises(ValueError):
        TableServer(CountGame(), **{**settings, **kwargs})


async def test_too_many_spectators_turned_away() -> None:
    async with serving(timing=Timing(max_spectators=1, close_timeout=0.5)) as server:
        a, _ = await join(server, "A", role="spectator")
        with pytest.raises(JoinError) as info:
            await join(server, "B", role="spectator")
        assert info.value.code == "busy"
        await a.close()
        await until_true(lambda: not server._clients)
        c, _ = await join(server, "C", role="spectator")  # room again
        assert c.seat is None
        await c.close()


async def test_on_change_reports_seats_and_phase() -> None:
    summaries: list[TableSummary] = []
    async with serving(bots={1: FirstBot()}, on_change=summaries.append) as server:
        assert summaries[-1].port == server.port and summaries[-1].taken == 1
        a, _ = await join(server, "A")
        assert (summaries[-1].taken, summaries[-1].phase) == (2, "lobby")
        await server.start()
        assert summaries[-1].phase == "playing"
        await a.close()


# --- actions ----------------------------------------------------------------


async def test_ack_then_view_to_all_and_illegal_moves_change_nothing() -> None:
    async with serving() as server:
        a, a_w = await join(server, "A")
        b, b_w = await join(server, "B")
        await server.start()
        await a_w.view(0)
        await b_w.view(0)
        seq = await b.send_action({"add": 1})  # not B's turn
        err = await b_w.until(lambda m: isinstance(m, ErrorReply))
        assert (err.code, err.seq) == ("not_your_turn", seq)
        assert err.message == "It is seat 0's turn, not 1's."  # the game's sentence
        seq = await a.send_action({"add": 3})
        err = await a_w.until(lambda m: isinstance(m, ErrorReply))
        assert (err.code, err.seq, server.rev, game_of(server).total) == ("bad_add", seq, 0, 0)
        seq = await a.send_action({"add": 2})
        assert await a_w.next() == Ack(seq)  # the ack comes before the view
        view = await a_w.next()
        assert isinstance(view, View) and view.rev == 1 and view.view["total"] == 2
        assert (await b_w.view(1)).view["turn"] == 1
        await a.close()
        await b.close()


async def test_schema_errors_answered_and_state_unchanged() -> None:
    async with serving() as server:
        raw = await Raw.open(server.port)
        assert (await raw.hello())["type"] == "welcome"
        b, _ = await join(server, "B")
        await server.start()
        bad: list[dict[str, Any]] = [
            {"type": "action", "seq": 5, "action": {"add": 1.5}},
            {"type": "action", "seq": 6, "action": "add"},
            {"type": "action", "seq": 7},
            {"type": "dance"},
            {
                "type": "hello",
                "protocol": 1,
                "app": APP,
                "game": "count",
                "name": "X",
                "role": "player",
            },
        ]
        for msg in bad:
            await raw.send(msg)
            err = await raw.read_until(lambda m: m["type"] == "error")
            assert err["code"] == "bad_message"
            assert err["seq"] == msg.get("seq")
        assert server.rev == 0 and game_of(server).total == 0
        await raw.send({"type": "action", "seq": 8, "action": {"add": 1}})
        assert await raw.read_until(lambda m: m["type"] in ("ack", "error")) == {
            "type": "ack",
            "seq": 8,
        }
        assert server.rev == 1
        raw.close()
        await b.close()


async def test_not_started_game_over_and_spectator_actions() -> None:
    async with serving(bots={1: FirstBot()}) as server:
        a, a_w = await join(server, "A")
        spec, s_w = await join(server, "S", role="spectator")
        await a.send_action({"add": 1})
        assert (await a_w.until(lambda m: isinstance(m, ErrorReply))).code == "not_started"
        await server.start()
        await spec.send_action({"add": 1})
        assert (await s_w.until(lambda m: isinstance(m, ErrorReply))).code == "not_a_player"
        while server.phase != "over":
            view = await a_w.view()
            if view.view["turn"] == 0 and view.view["winner"] is None:
                await a.send_action({"add": 2})
        await a.send_action({"add": 1})
        assert (await a_w.until(lambda m: isinstance(m, ErrorReply))).code == "game_over"
        await a.close()
        await spec.close()


async def test_many_bad_messages_close_only_that_connection() -> None:
    async with serving(timing=Timing(max_strikes=5, close_timeout=0.5)) as server:
        raw = await Raw.open(server.port)
        await raw.hello()
        good, good_w = await join(server, "Good")
        for _ in range(4):
            await raw.send({"type": "nonsense"})
        await raw.send({"type": "ping"})  # answered, but no excuse: the count goes on
        before = await raw.read_until(lambda m: m["type"] == "pong")
        await raw.send({"type": "nonsense"})
        frames = await raw.closed_by_peer()
        assert before == {"type": "pong"}
        assert [f["type"] for f in frames if f["type"] != "lobby"] == ["error", "bye"]
        assert frames[-1]["reason"] == "too_many_errors"
        # Raw left the lobby, so its seat is free again; Good is untouched.
        lobby = await good_w.until(lambda m: isinstance(m, Lobby) and m.seats[0].kind == "open")
        assert lobby.seats[1] == SeatInfo("Good", "human", True) and not good.closed
        await good.close()


# --- bad frames ---------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        struct.pack(">I", MAX_FRAME + 1) + b"x" * 100,  # oversize length
        struct.pack(">I", 100) + b"x" * 10,  # truncated, then the stream ends
        b"\x00\x00\x00\x03\xc1\xc1\xc1",  # garbage msgpack
        struct.pack(">I", 4) + b"\x93\x01\x02\x03",  # the list [1, 2, 3]
    ],
    ids=["oversize", "truncated", "garbage", "not-a-map"],
)
async def test_bad_frame_closes_only_that_connection(data: bytes) -> None:
    async with serving() as server:
        a, a_w = await join(server, "A")
        b, b_w = await join(server, "B")
        await server.start()
        await a_w.view(0)
        raw = await Raw.open(server.port)
        assert (await raw.hello("Spy", role="spectator"))["type"] == "welcome"
        await raw.send_bytes(data)
        if data.startswith(struct.pack(">I", 100)):
            raw.writer.write_eof()  # the stream ends mid-frame
        frames = await raw.closed_by_peer()
        errors = [f for f in frames if f["type"] == "error"]
        assert [e["code"] for e in errors] == ["bad_frame"]
        # The table carries on for everyone else.
        seq = await a.send_action({"add": 1})
        assert await a_w.until(lambda m: isinstance(m, Ack)) == Ack(seq)
        assert (await b_w.view(1)).view["total"] == 1
        await a.close()
        await b.close()


async def test_bad_first_frame_gets_error_and_close() -> None:
    async with serving() as server:
        raw = await Raw.open(server.port)
        await raw.send_bytes(struct.pack(">I", MAX_FRAME * 4))
        assert [f["code"] for f in await raw.closed_by_peer()] == ["bad_frame"]
        raw = await Raw.open(server.port)
        await raw.send({"type": "ping"})
        frames = await raw.closed_by_peer()
        assert [f["code"] for f in frames] == ["bad_message"]
        assert "hello" in frames[0]["message"]


# --- reconnect, spectators, hidden information ------------------------------------


async def test_reconnect_with_token_replaces_old_connection_with_fresh_view() -> None:
    async with serving(bots={1: FirstBot()}) as server:
        a, a_w = await join(server, "Ana")
        await server.start()
        await a.send_action({"add": 2})
        await a_w.view(2)  # our move, then the bot's
        again, again_w = await join(server, "Whoever", token=a.token)
        assert (again.seat, again.token) == (0, a.token)
        old_tail = await a_w.ended()
        assert old_tail and old_tail[-1] == Bye("replaced")
        view = await again_w.view()
        assert (
            view.rev == 2
            and view.view["total"] == 3
            and view.view["secret"] == (game_of(server).secrets[0])
        )
        assert server.seats()[0] == SeatInfo("Ana", "human", True)  # the name stays
        seq = await again.send_action({"add": 1})
        assert await again_w.until(lambda m: isinstance(m, Ack)) == Ack(seq)
        with pytest.raises(ConnectionLost):
            await a.send_action({"add": 1})
        await again.close()


async def test_spectators_see_the_public_view_only() -> None:
    async with serving() as server:
        a, _ = await join(server, "A")
        b, _ = await join(server, "B")
        spec, s_w = await join(server, "S", role="spectator")
        await server.start()
        await a.send_action({"add": 1})
        view = await s_w.view(1)
        assert view.view == game_of(server).view(None)
        assert "secret" not in view.view and "seat" not in view.view and view.view["total"] == 1
        for c in (a, b, spec):
            await c.close()


async def test_no_frame_carries_another_seats_secret() -> None:
    async with serving(
        seats=3, bots={1: RandomBot(1), 2: RandomBot(2)}, options={"target": 30}
    ) as server:
        me = await Raw.open(server.port)
        assert (await me.hello("Me"))["seat"] == 0
        spy = await Raw.open(server.port)
        assert (await spy.hello("Spy", role="spectator"))["seat"] is None
        await server.start()
        while True:
            msg = await me.read()
            if msg["type"] != "view":
                continue
            view = msg["view"]
            if view["winner"] is not None:
                break
            if view["turn"] == 0:
                await me.send({"type": "action", "seq": msg["rev"], "action": {"add": 1}})
        assert server.phase == "over"
        await spy.read_until(lambda m: m["type"] == "view" and m["view"]["winner"] is not None)
        mine, theirs = game_of(server).secrets[0], game_of(server).secrets[1:]
        assert mine.encode() in me.received  # the capture does see secrets...
        for secret in theirs:  # ...and never anyone else's
            assert secret.encode() not in me.received
        for secret in game_of(server).secrets:
            assert secret.encode() not in spy.received
        me.close()
        spy.close()


# --- bots -------------------------------------------------------------------------


async def test_bot_game_over_tcp_ends_with_result_for_every_client() -> None:
    bots: dict[int, Agent] = {0: RandomBot(3), 1: RandomBot(4)}
    async with serving(bots=bots) as server:
        s1, w1 = await join(server, "S1", role="spectator")
        s2, w2 = await join(server, "S2", role="spectator")
        assert [s.kind for s in server.seats()] == ["bot", "bot"]
        await server.start()
        async with asyncio.timeout(5):
            result = await server.wait_over()
        assert result is not None and result == game_of(server).result()
        assert result["total"] >= 10 and result["winner"] in (0, 1)
        for watch in (w1, w2):
            last = await watch.view(server.rev)
            assert last.view["winner"] == result["winner"]
            assert last.view["total"] == result["total"]
            lobby = await watch.until(lambda m: isinstance(m, Lobby) and m.phase == "over")
            assert lobby.started
        revs = [m.rev for m in w1.seen if isinstance(m, View)]
        assert revs == list(range(server.rev + 1))  # every action seen, in order
        await s1.close()
        await s2.close()


async def test_bots_see_only_their_own_view() -> None:
    bot0, bot1 = FirstBot(), FirstBot()
    async with serving(bots={0: bot0, 1: bot1}) as server:
        await server.start()
        await server.wait_over()
        match = game_of(server)
        assert bot0.views and bot1.views
        assert all(v["secret"] == match.secrets[0] for v in bot0.views)
        assert all(v["secret"] == match.secrets[1] for v in bot1.views)


@pytest.mark.parametrize("explode", [False, True], ids=["illegal", "raises"])
async def test_failing_bot_gets_its_default_after_retries(explode: bool) -> None:
    applied: list[tuple[int, Wire]] = []

    async def log(seat: int, action: Wire) -> None:
        applied.append((seat, action))

    bad = BadBot(explode)
    async with serving(bots={1: bad}, on_action=log) as server:
        a, a_w = await join(server, "A")
        await server.start()
        await a.send_action({"add": 2})
        await a_w.view(2)
        assert applied == [(0, {"add": 2}), (1, {"add": 1})]  # {"add": 1} is the default
        assert bad.calls == 3
        await a.close()


async def test_slow_bot_blocks_nobody_and_stale_move_is_dropped() -> None:
    applied: list[tuple[int, Wire]] = []

    async def log(seat: int, action: Wire) -> None:
        applied.append((seat, action))

    # The bot needs 0.4 s, the turn limit is 0.15 s: every answer comes too late.
    slow = SlowBot(0.4, {"add": 2})
    async with serving(bots={1: slow}, on_action=log, turn_timeout=0.15) as server:
        a, a_w = await join(server, "A")
        await server.start()
        await a.send_action({"add": 1})
        await asyncio.to_thread(slow.started.wait, 2)
        spec, _ = await join(server, "S", role="spectator")
        assert slow.answered == 0  # the loop is free: joined while the bot still thinks
        await a_w.view(2)  # the timeout played the bot's seat
        assert applied == [(0, {"add": 1}), (1, {"add": 1})]
        async with asyncio.timeout(2):
            while slow.answered < 1:
                await asyncio.sleep(0.01)
        await a_w.view(server.rev + 1)  # the late answer has been submitted by now
        assert (1, {"add": 2}) not in applied  # its seat had moved (the timeout): dropped
        assert applied[2] == (0, {"add": 1})  # A's own turn timed out too
        await a.close()
        await spec.close()


async def test_bot_answer_survives_other_seats_moves() -> None:
    applied: list[tuple[int, Wire]] = []

    async def log(seat: int, action: Wire) -> None:
        applied.append((seat, action))

    # "free" counting: both seats are waited on all the time, as in a
    # simultaneous phase. The human moves while the bot is thinking.
    slow = SlowBot(0.3, {"add": 2})
    slow.after_first = {"add": 1}  # a re-asked bot would add 1: we must see its first 2
    async with serving(bots={1: slow}, on_action=log, options={"free": True}) as server:
        a, a_w = await join(server, "A")
        await server.start()
        await asyncio.to_thread(slow.started.wait, 2)
        await a.send_action({"add": 1})
        await a_w.view(1)
        view = await a_w.view(2)  # the bot's answer, decided before rev 1, still counts
        assert applied[:2] == [(0, {"add": 1}), (1, {"add": 2})]
        assert view.view["total"] == 3
        await a.close()


async def until_true(ready: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``ready()`` until it holds; fail after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not ready():
            await asyncio.sleep(0.01)


async def test_a_bot_free_to_act_out_of_turn_is_asked_once_per_change() -> None:
    """``Match.volunteers()``: a bot nobody waits on is given one chance per change
    (RULES.md §4's unasked offers use this); it passes without being retried."""
    applied: list[tuple[int, Wire]] = []

    async def log(seat: int, action: Wire) -> None:
        applied.append((seat, action))

    cheer = CheerBot()
    async with serving(bots={1: cheer}, on_action=log, options={"cheers": True}) as server:
        a, a_w = await join(server, "A")
        await server.start()
        first = await a_w.view(1)  # before A moves: the bot acted unasked
        assert first.view["cheers"] == [[1, 0]] and applied == [(1, {"cheer": 1})]
        await until_true(lambda: len(cheer.asked_out_of_turn) >= 2)
        await asyncio.sleep(0.2)
        assert server.rev == 1  # asked again after its own cheer, it passed: once
        assert cheer.asked_out_of_turn == [0, 0]
        await a.send_action({"add": 1})  # the bot's turn, then A's again: it cheers anew
        view = await a_w.until(lambda m: isinstance(m, View) and len(m.view["cheers"]) == 2)
        assert view.view["cheers"] == [[1, 0], [1, 2]] and view.view["total"] == 2
        assert [seat for seat, action in applied if "add" in action] == [0, 1]
        await a.close()


async def test_a_wrong_move_out_of_turn_is_refused_and_not_replaced_by_a_default() -> None:
    applied: list[tuple[int, Wire]] = []

    async def log(seat: int, action: Wire) -> None:
        applied.append((seat, action))

    wrong = CheerBot(wrong=True)
    async with serving(bots={1: wrong}, on_action=log, options={"cheers": True}) as server:
        a, a_w = await join(server, "A")
        await server.start()
        await a_w.view(0)
        await until_true(lambda: bool(wrong.asked_out_of_turn))
        await asyncio.sleep(0.2)
        assert wrong.asked_out_of_turn == [0]  # refused, not retried on the same state
        assert server.rev == 0 and applied == []  # nothing played for it
        await a.send_action({"add": 2})
        await a_w.view(2)  # its own turn: the bot plays (first legal: add 1)
        assert applied == [(0, {"add": 2}), (1, {"add": 1})]
        await a.close()


# --- time ---------------------------------------------------------------------------


async def test_turn_timeout_plays_the_default() -> None:
    applied: list[tuple[int, Wire]] = []

    async def log(seat: int, action: Wire) -> None:
        applied.append((seat, action))

    async with serving(on_action=log, turn_timeout=0.2) as server:
        a, _ = await join(server, "A")
        b, b_w = await join(server, "B")
        await server.start()
        t0 = time.monotonic()
        view = await b_w.view(1)
        assert time.monotonic() - t0 >= 0.19
        assert view.view["total"] == 1 and view.view["moves"] == [[0, 1]]
        assert applied == [(0, {"add": 1})]
        # B acts in time: its clock restarts, so A times out once more, not B.
        await b.send_action({"add": 2})
        await b_w.view(3)
        assert applied == [(0, {"add": 1}), (1, {"add": 2}), (0, {"add": 1})]
        await a.close()
        await b.close()


async def test_absent_player_gets_default_after_grace_and_can_come_back() -> None:
    async with serving(bots={1: FirstBot()}, absent_grace=0.15) as server:
        a, a_w = await join(server, "A")
        spec, s_w = await join(server, "S", role="spectator")
        await server.start()
        await a_w.view(0)
        token = a.token
        await a.close()
        lobby = await s_w.until(lambda m: isinstance(m, Lobby) and not m.seats[0].connected)
        info = lobby.seats[0]
        assert (info.name, info.kind, info.connected) == ("A", "human", False)
        assert info.away_ms is not None and info.away_ms < 1000  # away, and since when
        if info.defaults_in_ms is not None:  # waited on: the table plays within the grace
            assert info.defaults_in_ms <= 150
        await s_w.view(4)  # defaults for A, moves of the bot, four times over
        assert game_of(server).moves[:4] == [[0, 1], [1, 1], [0, 1], [1, 1]]
        back, back_w = await join(server, "A", token=token)
        assert back.seat == 0
        view = await back_w.view()
        assert view.rev == server.rev and view.view["secret"] == game_of(server).secrets[0]
        await back.close()
        await spec.close()


async def test_silent_client_dropped_answering_client_kept() -> None:
    timing = Timing(ping_interval=0.05, idle_timeout=0.3, close_timeout=0.5)
    async with serving(timing=timing) as server:
        raw = await Raw.open(server.port)
        await raw.hello()
        good, _ = await join(server, "Good")
        t0 = time.monotonic()
        frames = await raw.closed_by_peer(timeout=2)
        assert time.monotonic() - t0 >= 0.25
        assert {"type": "ping"} in frames and frames[-1] == {"type": "bye", "reason": "timeout"}
        await asyncio.sleep(0.35)  # past Good's own idle limit: its pongs keep it in
        assert not good.closed
        assert server.seats()[1] == SeatInfo("Good", "human", True)
        await good.close()


async def test_client_gives_up_on_a_silent_server() -> None:
    async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)
        writer.write(
            encode(
                {
                    "type": "welcome",
                    "protocol": PROTOCOL_VERSION,
                    "app": APP,
                    "game": "count",
                    "seat": 0,
                    "token": "t",
                    "table": {"name": "M", "seats": 2},
                }
            )
        )
        await reader.read()  # say nothing more; wait for the client to hang up
        writer.close()
        finished.set()

    finished = asyncio.Event()

    server = await asyncio.start_server(mute, HOST, 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        client = await TableClient.connect(
            HOST, port, name="A", app_version=APP, game="count", idle_timeout=0.2
        )
        assert (client.seat, client.table.spectators) == (0, False)
        assert await Watch(client).ended(timeout=1) == []
        assert client.lost_reason is not None and "silent" in client.lost_reason
        await client.close()
        await asyncio.wait_for(finished.wait(), 1)


async def test_client_keeps_a_server_that_talks_past_its_idle_timeout() -> None:
    talked = asyncio.Event()

    async def chatty(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)
        welcome = {"protocol": PROTOCOL_VERSION, "app": APP, "game": "count", "seat": 0}
        table = {"name": "C", "seats": 2}
        writer.write(encode({"type": "welcome", **welcome, "token": "t", "table": table}))
        for _ in range(20):  # 2 s of pings, each well within the client's 0.6 s
            writer.write(encode({"type": "ping"}))
            await asyncio.sleep(0.1)
        talked.set()
        await reader.read()  # then silence until the client hangs up
        writer.close()

    server = await asyncio.start_server(chatty, HOST, 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        client = await TableClient.connect(
            HOST, port, name="A", app_version=APP, game="count", idle_timeout=0.6
        )
        await asyncio.wait_for(talked.wait(), 10)
        assert not client.closed and client.lost_reason is None
        assert await Watch(client).ended(timeout=5) == []
        assert client.lost_reason is not None and "silent" in client.lost_reason
        await client.close()


async def test_unreachable_table_is_a_join_error() -> None:
    sock = socket.socket()
    sock.bind((HOST, 0))
    port = sock.getsockname()[1]
    sock.close()
    with pytest.raises(JoinError) as info:
        await TableClient.connect(HOST, port, name="A", app_version=APP, game="count")
    assert info.value.code == "unreachable"


# --- hooks and shutdown -----------------------------------------------------------


async def test_on_action_is_awaited_before_anyone_hears() -> None:
    gate = asyncio.Event()
    logged: list[tuple[int, Wire]] = []

    async def slow_log(seat: int, action: Wire) -> None:
        logged.append((seat, action))
        await gate.wait()

    async with serving(on_action=slow_log) as server:
        a, a_w = await join(server, "A")
        b, b_w = await join(server, "B")
        await server.start()
        await a_w.view(0)
        await b_w.view(0)
        seq = await a.send_action({"add": 2})
        async with asyncio.timeout(2):
            while not logged:
                await asyncio.sleep(0.01)
        with pytest.raises(TimeoutError):
            await b_w.next(timeout=0.2)  # logged but not flushed: nobody knows yet
        with pytest.raises(TimeoutError):
            await a_w.next(timeout=0.01)
        gate.set()
        assert await a_w.next() == Ack(seq)
        assert (await b_w.view(1)).view["total"] == 2
        await a.close()
        await b.close()


async def test_slow_reader_is_dropped_others_finish(caplog: pytest.LogCaptureFixture) -> None:
    # Big views, a tiny send queue and a client that never reads.
    timing = Timing(queue_size=8, write_timeout=5.0, close_timeout=0.5)
    bots: dict[int, Agent] = {0: FirstBot(), 1: FirstBot()}
    options = {"target": 300, "pad": 40_000}
    async with serving(bots=bots, timing=timing, options=options) as server:
        sloth = await Raw.open(server.port, rcvbuf=4096)
        assert (await sloth.hello("Sloth", role="spectator"))["type"] == "welcome"
        fan, fan_w = await join(server, "Fan", role="spectator")
        await server.start()
        async with asyncio.timeout(10):
            await server.wait_over()
        last = await fan_w.view(server.rev, timeout=5)
        assert last.view["winner"] is not None
        # The sloth was cut off: draining its socket ends in EOF/reset well
        # before it could have received every view.
        got = 0
        with pytest.raises((asyncio.IncompleteReadError, ConnectionError)):
            async with asyncio.timeout(5):
                while True:
                    await sloth.read()
                    got += 1
        assert got < server.rev
        assert "8 frames unsent" in caplog.text
        await fan.close()


async def test_close_says_bye_and_releases_waiters() -> None:
    async with serving() as server:
        a, a_w = await join(server, "A")
        spec, s_w = await join(server, "S", role="spectator")
        waiter = asyncio.create_task(server.wait_over())
        await server.close()
        # Closed in its lobby: nothing of the table remains (no seat kept).
        assert (await a_w.ended())[-1] == Bye(TABLE_CLOSED)
        assert (await s_w.ended())[-1] == Bye(TABLE_CLOSED)
        assert await asyncio.wait_for(waiter, 1) is None
        with pytest.raises(JoinError):
            await join(server, "Late")
        await a.close()
        await spec.close()


async def test_spectators_coming_and_going_send_no_lobby_frame_that_changes_nothing() -> None:
    """A lobby lists seats, not spectators: one who comes or goes leaves every other
    client's lobby as it was, and nothing is sent to it (a churn of strangers must not
    make the players redraw); a seat taken still reaches everyone."""
    async with serving(seats=3) as server:
        ana, ana_w = await join(server, "Ana")
        await ana_w.until(lambda m: isinstance(m, Lobby))
        for k in range(5):
            eve, _ = await join(server, f"Eve{k}", role="spectator")
            await eve.close()
        bob, _ = await join(server, "Bob")
        lobby = await ana_w.until(lambda m: isinstance(m, Lobby))
        assert [s.name for s in lobby.seats[:2]] == ["Ana", "Bob"]
        assert sum(isinstance(m, Lobby) for m in ana_w.seen) == 2  # Ana's seat, then Bob's
        for client in (ana, bob):
            await client.close()
