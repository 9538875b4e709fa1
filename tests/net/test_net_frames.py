"""Frames and message schemas, without sockets."""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.frames import (
    CLIENT_LIMITS,
    MAX_FRAME,
    SERVER_LIMITS,
    ConnectionLost,
    FrameError,
    decode,
    encode,
    read_frame,
)
from net.messages import (
    SEQ_MAX,
    Ack,
    ActionRequest,
    Bye,
    ErrorReply,
    Hello,
    Lobby,
    Ping,
    Pong,
    SeatInfo,
    Start,
    TableInfo,
    View,
    Welcome,
    check_action,
    parse_client_message,
    parse_server_message,
)
from net.schema import BadMessage


def _reader(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


def _frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=8), plain, max_size=6))
async def test_round_trip_any_plain_map(msg: dict[str, Any]) -> None:
    frame = encode(msg)
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
    assert await read_frame(_reader(frame), SERVER_LIMITS) == msg


async def test_two_frames_in_one_stream_read_in_order() -> None:
    reader = _reader(encode({"a": 1}) + encode({"b": "é"}))
    assert await read_frame(reader) == {"a": 1}
    assert await read_frame(reader) == {"b": "é"}
    with pytest.raises(ConnectionLost):
        await read_frame(reader)


def test_encode_refuses_oversize_and_unencodable() -> None:
    encode({"x": "a" * (MAX_FRAME - 100)})  # just under the cap is fine
    with pytest.raises(FrameError, match="exceeds"):
        encode({"x": "a" * MAX_FRAME})
    with pytest.raises(FrameError, match="Cannot encode"):
        encode({"x": object()})


async def test_oversize_length_rejected_before_reading_body() -> None:
    # No body and no EOF: a reader that waited for the body would hang here.
    reader = _reader(struct.pack(">I", MAX_FRAME + 1), eof=False)
    async with asyncio.timeout(1):
        with pytest.raises(FrameError, match="outside"):
            await read_frame(reader)


async def test_zero_length_rejected() -> None:
    with pytest.raises(FrameError):
        await read_frame(_reader(struct.pack(">I", 0)))


async def test_truncated_header_and_body() -> None:
    with pytest.raises(FrameError, match="header"):
        await read_frame(_reader(b"\x00\x00"))
    whole = encode({"a": "hello"})
    with pytest.raises(FrameError, match=f"of {len(whole) - 4} bytes"):
        await read_frame(_reader(whole[:-3]))


async def test_clean_eof_is_connection_lost() -> None:
    with pytest.raises(ConnectionLost):
        await read_frame(_reader(b""))


@pytest.mark.parametrize(
    "payload",
    [
        b"\xc1",  # never-used msgpack byte
        b"\xff\xff\xff",  # three values, not one
        msgpack.packb({"a": 1}) + b"\x00",  # trailing data
        msgpack.packb([1, 2]),  # not a map
        msgpack.packb(7),
        msgpack.packb({1: "int key"}),
        msgpack.packb({b"": "empty bin key"}, use_bin_type=True),
        msgpack.packb({"a": b"bytes"}, use_bin_type=True),
        msgpack.packb({"a": msgpack.ExtType(1, b"x")}),
        msgpack.packb({"a": msgpack.Timestamp(1)}),
        msgpack.packb({"a": list(range(CLIENT_LIMITS.max_array_len + 1))}),
        msgpack.packb({"a": "x" * (CLIENT_LIMITS.max_str_len + 1)}),
    ],
)
def test_decode_refuses(payload: bytes) -> None:
    with pytest.raises(FrameError):
        decode(payload, CLIENT_LIMITS)


def test_server_limits_are_looser() -> None:
    payload = msgpack.packb({"a": list(range(1000))})
    assert decode(payload, SERVER_LIMITS) == {"a": list(range(1000))}
    with pytest.raises(FrameError):
        decode(payload, CLIENT_LIMITS)


# --- schemas ----------------------------------------------------------------

HELLO: dict[str, Any] = {
    "type": "hello",
    "protocol": 1,
    "app": "1.0",
    "game": "count",
    "name": "Ana",
    "role": "player",
}


def test_hello_parses_with_optional_fields_absent() -> None:
    assert parse_client_message(HELLO) == Hello(1, "1.0", "count", "Ana", "player", None, None)
    full = {**HELLO, "token": "tok", "code": "1234", "role": "spectator"}
    assert parse_client_message(full) == Hello(1, "1.0", "count", "Ana", "spectator", "tok", "1234")


@pytest.mark.parametrize(
    ("msg", "needle"),
    [
        ({**HELLO, "name": ""}, "hello.name"),
        ({**HELLO, "name": "x" * 25}, "hello.name"),
        ({**HELLO, "name": "a\nb"}, "hello.name"),
        ({**HELLO, "name": "ab\u202e"}, "hello.name"),  # right-to-left override
        ({**HELLO, "name": "   "}, "hello.name"),
        ({**HELLO, "role": "admin"}, "hello.role"),
        ({**HELLO, "protocol": True}, "hello.protocol"),
        ({**HELLO, "protocol": "1"}, "hello.protocol"),
        ({**HELLO, "token": 5}, "hello.token"),
        ({**HELLO, "admin": True}, "unknown field(s): admin"),
        ({k: v for k, v in HELLO.items() if k != "game"}, "'hello.game' is missing"),
        ({"type": "launch"}, "Unknown message type 'launch'"),
        ({"kind": "hello"}, "'type' field"),
        ({"type": "action", "seq": 1, "action": [1]}, "action.action"),
        ({"type": "action", "seq": 1, "action": {"add": 1.5}}, "action.action"),
        ({"type": "action", "seq": -1, "action": {}}, "action.seq"),
        ({"type": "action", "seq": SEQ_MAX + 1, "action": {}}, "action.seq"),
        ({"type": "action", "action": {}}, "'action.seq' is missing"),
        ({"type": "start", "now": True}, "unknown field(s): now"),
    ],
)
def test_bad_client_messages(msg: dict[str, Any], needle: str) -> None:
    with pytest.raises(BadMessage) as info:
        parse_client_message(msg)
    assert info.value.code == "bad_message"
    assert needle in info.value.message


def test_client_messages_parse_to_types() -> None:
    assert parse_client_message({"type": "action", "seq": 3, "action": {"add": 2}}) == (
        ActionRequest(3, {"add": 2})
    )
    assert parse_client_message({"type": "start"}) == Start()
    assert parse_client_message({"type": "ping"}) == Ping()
    assert parse_client_message({"type": "pong"}) == Pong()
    assert parse_client_message({"type": "bye"}) == Bye(None)


def test_action_contents_bounded_without_recursion() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(100_000):  # far past Python's recursion limit
        node["k"] = {}
        node = node["k"]
    with pytest.raises(BadMessage):
        check_action(deep)
    with pytest.raises(BadMessage):
        check_action({"cards": list(range(600))})
    ok = {"cards": [1, 2, 3], "to": {"seat": 1, "note": None, "flag": False}}
    assert check_action(ok) is ok


@pytest.mark.parametrize(
    "msg",
    [
        Welcome(1, "1.0", "count", 0, "tok", TableInfo("T", 2, True)),
        Welcome(1, "1.0", "count", None, None, TableInfo("T", 4, False)),
        Lobby((SeatInfo("Ana", "human", True), SeatInfo("", "open", False)), False, "lobby"),
        View(3, {"total": 4, "moves": [[0, 1]]}),
        Ack(9),
        ErrorReply("not_your_turn", "Wait.", 9),
        ErrorReply("bad_message", "No.", None),
        Ping(),
        Pong(),
        Bye("closing"),
    ],
)
def test_server_messages_round_trip(msg: Any) -> None:
    wire = msg.to_wire()
    assert decode(encode(wire)[4:], SERVER_LIMITS) == wire
    assert parse_server_message(wire) == msg


def test_server_messages_tolerate_extra_fields_but_not_wrong_ones() -> None:
    assert parse_server_message({"type": "ack", "seq": 1, "later": True}) == Ack(1)
    with pytest.raises(BadMessage):
        parse_server_message({"type": "view", "rev": -1, "view": {}})
    with pytest.raises(BadMessage):
        parse_server_message(
            {"type": "lobby", "seats": [{"name": "A"}], "started": False, "phase": "lobby"}
        )
