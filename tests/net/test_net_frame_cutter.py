"""Frames handed on as their bytes arrive (net/frames.py ``FrameCutter``,
net/connection.py ``FrameReader`` and ``FramedConnection.deliver``): the same
payloads, and the same refusals, as awaiting them one by one with ``read_payload``."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.client import TableClient
from net.connection import FramedConnection, FrameReader, open_stream
from net.frames import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    SERVER_LIMITS,
    ConnectionLost,
    FrameCutter,
    FrameError,
    encode,
    read_payload,
)
from net.messages import Lobby, TableInfo, View, Welcome, parse_server_frame

Outcome = tuple[list[bytes], str]
"""The payloads read, then how the stream ended: the error's type and text."""


def _frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


async def _awaited(stream: bytes) -> Outcome:
    """What ``read_payload`` reads from ``stream``, then ends with."""
    reader = asyncio.StreamReader()
    reader.feed_data(stream)
    reader.feed_eof()
    payloads: list[bytes] = []
    while True:
        try:
            payloads.append(await read_payload(reader))
        except (ConnectionLost, FrameError) as exc:
            return payloads, f"{type(exc).__name__}: {exc}"


def _cut(stream: bytes, cuts: list[int]) -> Outcome:
    """What a cutter fed ``stream`` in pieces (ending at the offsets ``cuts``) delivers."""
    payloads: list[bytes] = []
    ends: list[str] = []
    cutter = FrameCutter(
        lambda p: payloads.append(p) is not None,  # never stops
        lambda why: ends.append(f"{type(why).__name__}: {why}"),
    )
    start = 0
    for end in [*sorted(c for c in cuts if c < len(stream)), len(stream)]:
        cutter.feed(stream[start:end])
        start = end
    cutter.end()
    cutter.end()  # a second end changes nothing
    assert len(ends) == 1
    return payloads, ends[0]


payload = st.binary(min_size=1, max_size=300)
streams = st.lists(payload, max_size=6).map(lambda ps: b"".join(map(_frame, ps)))
garbled = st.one_of(
    streams,
    # a well-formed start, then anything: short headers, zero or huge lengths, cut frames
    st.tuples(streams, st.binary(max_size=40)).map(lambda t: t[0] + t[1]),
    st.tuples(streams, st.sampled_from([0, MAX_FRAME, MAX_FRAME + 1, 2**32 - 1])).map(
        lambda t: t[0] + struct.pack(">I", t[1]) + b"xy"
    ),
)


@settings(max_examples=300, deadline=None)
@given(garbled, st.lists(st.integers(0, 2000), max_size=12))
async def test_cut_frames_are_what_read_payload_reads_however_the_bytes_come(
    stream: bytes, cuts: list[int]
) -> None:
    assert _cut(stream, cuts) == await _awaited(stream)


def test_one_byte_at_a_time_delivers_each_frame_on_its_last_byte() -> None:
    delivered: list[tuple[int, bytes]] = []
    stream = _frame(b"abc") + _frame(b"d")
    fed = 0
    cutter = FrameCutter(lambda p: delivered.append((fed, p)) is not None, lambda why: None)
    for byte in stream:
        fed += 1
        cutter.feed(bytes([byte]))
    assert delivered == [(7, b"abc"), (12, b"d")]


def test_a_length_out_of_bounds_is_refused_before_its_body_comes() -> None:
    ends: list[Exception] = []
    cutter = FrameCutter(lambda p: False, ends.append)
    cutter.feed(_frame(b"ok")[:3])
    cutter.feed(_frame(b"ok")[3:] + struct.pack(">I", MAX_FRAME + 1)[:2])
    assert ends == []
    cutter.feed(struct.pack(">I", MAX_FRAME + 1)[2:])
    assert [str(e) for e in ends] == [
        f"Frame length {MAX_FRAME + 1} is outside 1..{MAX_FRAME} bytes."
    ]
    assert cutter.stopped
    cutter.feed(_frame(b"later"))  # nothing after a refusal is delivered
    cutter.end()
    assert len(ends) == 1


def test_on_payload_stops_the_cutter_after_that_frame() -> None:
    delivered: list[bytes] = []
    ends: list[Exception] = []
    cutter = FrameCutter(lambda p: delivered.append(p) is None and p == b"bye", ends.append)
    cutter.feed(_frame(b"one") + _frame(b"bye") + _frame(b"after"))
    cutter.end()
    assert delivered == [b"one", b"bye"]
    assert ends == []  # stopped by its consumer: no end reported


def test_a_reset_is_a_lost_connection() -> None:
    ends: list[Exception] = []
    cutter = FrameCutter(lambda p: False, ends.append)
    cutter.feed(_frame(b"half")[:5])
    cutter.end(ConnectionResetError("reset by peer"))
    assert [(type(e), str(e)) for e in ends] == [
        (ConnectionLost, "Connection lost: reset by peer.")
    ]


# --------------------------------------------------------------------------- over sockets


@asynccontextmanager
async def _peer(first: bytes) -> AsyncIterator[tuple[int, list[asyncio.StreamWriter]]]:
    """A listening socket that writes ``first`` in one write to whoever connects;
    yields its port and its writers (to write more, or close)."""
    writers: list[asyncio.StreamWriter] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        writer.write(first)
        while await reader.read(4096):
            pass

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], writers
    finally:
        for w in writers:
            w.close()
        server.close()
        await server.wait_closed()


async def _writer_of(writers: list[asyncio.StreamWriter]) -> asyncio.StreamWriter:
    """The peer's side of the one connection, once it is accepted (bounded wait)."""
    for _ in range(500):
        if writers:
            return writers[0]
        await asyncio.sleep(0.01)
    raise AssertionError("the peer never accepted")


OPENERS = {"open_stream": open_stream, "asyncio.open_connection": asyncio.open_connection}


@pytest.mark.parametrize("opener", OPENERS)
async def test_frames_that_came_with_the_awaited_one_are_delivered_then_the_rest(
    opener: str,
) -> None:
    """A FrameReader hands on what its buffer held at the switch, then cuts in its
    own callback; a plain reader goes through a reading task: the same frames."""
    first = encode({"type": "first"}) + _frame(b"second") + _frame(b"third")[:6]
    async with _peer(first) as (port, writers):
        reader, writer = await OPENERS[opener]("127.0.0.1", port)
        assert isinstance(reader, FrameReader) == (opener == "open_stream")
        conn = FramedConnection(reader, writer, limits=SERVER_LIMITS)
        assert await conn.recv() == {"type": "first"}  # awaited, as a handshake does
        await asyncio.sleep(0.05)  # the rest of the first write is in the reader's buffer
        got: list[bytes] = []
        ended: asyncio.Future[Exception] = asyncio.get_running_loop().create_future()
        conn.deliver(lambda p: got.append(p) is not None, ended.set_result)
        peer = await _writer_of(writers)
        peer.write(b"ird" + _frame(b"fourth"))
        await peer.drain()
        peer.close()
        why = await asyncio.wait_for(ended, 5.0)
        assert got == [b"second", b"third", b"fourth"]
        assert (type(why), str(why)) == (ConnectionLost, "Connection closed.")
        conn.abort("done")
        await conn.wait_closed(1.0)


def _table_frames(*messages: dict[str, object]) -> bytes:
    return b"".join(encode(m) for m in messages)


WELCOME = Welcome(PROTOCOL_VERSION, "0", "count", 1, "tok", TableInfo("T", 2, False)).to_wire()


@pytest.mark.parametrize("opener", OPENERS)
async def test_a_client_gets_what_came_with_its_welcome_then_the_rest_then_the_end(
    opener: str,
) -> None:
    lobby = Lobby((), False, "lobby").to_wire()
    async with _peer(_table_frames(WELCOME, lobby)) as (port, writers):
        reader, writer = await OPENERS[opener]("127.0.0.1", port)
        client = await TableClient.handshake(
            reader, writer, "here", name="A", app_version="0", game="count"
        )
        assert client.seat == 1
        assert isinstance(await asyncio.wait_for(client.receive(), 5.0), Lobby)
        if isinstance(reader, FrameReader):  # handed on in the callback that got the bytes
            reader.feed_data(encode({"type": "view", "rev": 2, "view": {}}))
            assert client._inbox.qsize() == 1
            assert (await client.receive()).to_wire()["rev"] == 2
        peer = await _writer_of(writers)
        peer.write(_table_frames({"type": "ping"}, {"type": "view", "rev": 3, "view": {}}))
        msg = await asyncio.wait_for(client.receive(), 5.0)
        assert isinstance(msg, View) and msg.rev == 3
        peer.write(
            _table_frames(
                {"type": "bye", "reason": "closing"}, {"type": "view", "rev": 4, "view": {}}
            )
        )
        assert (await asyncio.wait_for(client.receive(), 5.0)).to_wire()["type"] == "bye"
        with pytest.raises(ConnectionLost):
            await asyncio.wait_for(client.receive(), 5.0)  # nothing after the bye
        assert client.lost_reason is not None and "closing" in client.lost_reason
        await client.close()


@pytest.mark.parametrize("opener", OPENERS)
async def test_a_garbled_stream_ends_the_client_with_the_reason(opener: str) -> None:
    async with _peer(_table_frames(WELCOME) + struct.pack(">I", 0)) as (port, _writers):
        reader, writer = await OPENERS[opener]("127.0.0.1", port)
        client = await TableClient.handshake(
            reader, writer, "here", name="A", app_version="0", game="count"
        )
        with pytest.raises(ConnectionLost):
            await asyncio.wait_for(client.receive(), 5.0)
        assert client.lost_params.get("why") == f"Frame length 0 is outside 1..{MAX_FRAME} bytes."
        assert client.closed
        await client.close()


def _view(rev: int) -> dict[str, object]:
    return View(rev, {"seat": None}, None, ()).to_wire()


@asynccontextmanager
async def _fed_client() -> AsyncIterator[tuple[TableClient, FrameReader]]:
    """A client welcomed over a real socket, whose later frames the test feeds to its
    FrameReader by hand (so each call's effect is known when it returns)."""
    async with _peer(_table_frames(WELCOME)) as (port, _writers):
        reader, writer = await open_stream("127.0.0.1", port)
        client = await TableClient.handshake(
            reader, writer, "here", name="A", app_version="0", game="count"
        )
        try:
            yield client, reader
        finally:
            await client.close()


async def test_views_wait_as_bytes_and_are_checked_when_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """22 clients in one process held 22 decoded views at once, and a young collection
    ran on every action (bench-server.txt round 9): a view is checked in receive()."""
    import net.client as client_module

    parsed: list[str] = []

    def counting(payload: bytes) -> object:
        msg = parse_server_frame(payload)
        parsed.append(type(msg).__name__)
        return msg

    monkeypatch.setattr(client_module, "parse_server_frame", counting)
    async with _fed_client() as (client, reader):
        reader.feed_data(_table_frames(_view(2), {"type": "ping"}, _view(3), _view(4)))
        assert parsed == ["Ping"]  # answered at once; the views not yet read
        assert client._inbox.qsize() == 3
        revs = [(await client.receive()).to_wire()["rev"] for _ in range(3)]
        assert revs == [2, 3, 4]
        assert parsed == ["Ping", "View", "View", "View"]


async def test_a_malformed_view_is_skipped_when_taken() -> None:
    async with _fed_client() as (client, reader):
        bad = {"type": "view", "rev": "two", "view": {}}  # rev must be an int
        reader.feed_data(_table_frames(bad, _view(3)))
        msg = await asyncio.wait_for(client.receive(), 5.0)
        assert isinstance(msg, View) and msg.rev == 3
        assert not client.closed


GARBLED_VIEW = _frame(encode({"type": "view", "rev": 2})[4:5] + b"\xa4type\xa4view\xc1")
"""A frame that begins as a view does but is not msgpack (0xc1 is never used)."""


@pytest.mark.parametrize("after", ["a view", "the table's bye"])
async def test_a_garbled_view_ends_the_client_there_when_taken(after: str) -> None:
    """What came after the garbled frame is dropped, as when a frame is cut there: the
    client says why it ended, and no later frame (not even a bye) is heard of."""
    later = _view(5) if after == "a view" else {"type": "bye", "reason": "closing"}
    with pytest.raises(FrameError) as refused:
        parse_server_frame(GARBLED_VIEW[4:])
    async with _fed_client() as (client, reader):
        lobby = Lobby((), False, "lobby").to_wire()
        reader.feed_data(_table_frames(lobby) + GARBLED_VIEW + _table_frames(later))
        assert isinstance(await asyncio.wait_for(client.receive(), 5.0), Lobby)
        for _ in range(2):  # and every later call
            with pytest.raises(ConnectionLost):
                await asyncio.wait_for(client.receive(), 5.0)
        assert client.lost_params.get("why") == str(refused.value)
        assert client.bye_reason is None
        assert client.closed
        reader.feed_data(_table_frames(_view(6)))  # nothing is taken after the end
        assert client._inbox.qsize() == 1  # the end, put back
