"""``net.messages.parse_server_frame`` gives, for every payload, exactly what the
reference ``parse_server_message(decode(payload, SERVER_LIMITS))`` gives: the same
message, or an error of the same type with the same sentence and data.

The frames: one of every server message type, real game views, each field of
each made hostile, bytes mutated at random, views nested around their depth
bound (64) and around the count of maps and lists that proves it, oversize
frames, bin, ext and float tokens; and all of these again with a byte that could
begin a float, bin, ext or uint 64 token, outside the view (``rev`` 202 is ``0xcc
0xca``, which sends them through ``net.frames.decode_fields``; ``rev`` 200, ``0xcc
0xc8``, which the next byte rules out) or in it, with duplicate keys, trailing
bytes, odd keys and unknown fields of every kind. And the schema's quick tests
(``Spec.quick``), which the fast path uses, never pass a value its check refuses.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any, Final

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_net_plain_frames import VIEW_DEPTH, mid_game_view

import net.frames
import net.messages
from net.chat import ChatRequest, Said
from net.drafts import Drafting, DraftRequest
from net.frames import (
    CLIENT_LIMITS,
    MAX_FRAME,
    SERVER_LIMITS,
    FrameError,
    decode,
    decode_fields,
    decode_plain,
    plain_tokens,
)
from net.messages import (
    Ack,
    ActionRequest,
    Bye,
    ErrorReply,
    Hello,
    Lobby,
    Ping,
    Pong,
    RematchAnswer,
    RematchState,
    SeatInfo,
    Start,
    TableInfo,
    View,
    Welcome,
    parse_client_message,
    parse_server_frame,
    parse_server_message,
)
from net.prices import PriceAsk, PriceAsked, Priced, PriceNamed
from net.schema import INT64_MAX, INT64_MIN, BadMessage, Plain


def _outcome(read: Any, payload: bytes) -> tuple[Any, ...]:
    """What ``read(payload)`` gives: the message, or the error's type, sentence and data."""
    try:
        return ("message", read(payload))
    except Exception as exc:  # any difference counts, whatever its type
        code, params = getattr(exc, "code", None), getattr(exc, "params", None)
        return ("error", type(exc), str(exc), code, params)


def _reference(payload: bytes) -> Any:
    return parse_server_message(decode(payload, SERVER_LIMITS))


def _same(payload: bytes) -> tuple[Any, ...]:
    """The outcome, asserted to be the reference's."""
    fast = _outcome(parse_server_frame, payload)
    assert fast == _outcome(_reference, payload), payload[:80]
    return fast


def _pack(wire: object) -> bytes:
    return bytes(msgpack.packb(wire, use_bin_type=True))


SEATS = (SeatInfo("Zoé", "human", True), SeatInfo("", "open", False), SeatInfo("B", "bot", True))
MESSAGES = [
    Welcome(1, "0.1.0", "poissonnier", 0, "t" * 32, TableInfo("Chez Zoé", 4, True)),
    Welcome(1, "0.1.0", "poissonnier", None, None, TableInfo("", 1, False)),
    Lobby(SEATS, False, "lobby"),
    Lobby((SeatInfo("Al", "human", False, away_ms=1200, defaults_in_ms=300),), True, "playing"),
    RematchState(("yes", "waiting", "bot")),
    RematchState(None),
    View(0, {}),
    View(7, mid_game_view(2, None, 30), ends_in_ms=1500, answers_in_ms=((2, 900), (3, 0))),
    View(120, mid_game_view(4, 0)),
    View(120, mid_game_view(5, None)),
    View(452, mid_game_view(2, 1), ends_in_ms=2500),  # 0x01c4, 0x09c4
    Ack(3),
    ErrorReply("not_your_turn", "Not your turn.", 4, {"key": "x", "n": -1}),
    ErrorReply("bad_message", "", None),
    Said(None, "Zoé", "bonjour", 12),
    Drafting(1, 2500),  # 0x09c4: a byte that could begin a bin token
    Drafting(0, None),
    PriceAsked(1, {"give": ["T03"], "take": []}),
    PriceAsked(196, {"give": ["T03"], "take": []}),  # 0xc4
    Priced(2, {"give": ["T03"]}, None, True),
    Ping(),
    Pong(),
    Bye("closing"),
    Bye(),
    # A byte that could begin a token of another kind outside the free-form data:
    View(200, mid_game_view(2, 0)),  # 0xcc 0xc8
    View(202, mid_game_view(2, 0)),  # 0xcc 0xca
    View(207, mid_game_view(4, None), ends_in_ms=203),  # 0xcc 0xcf 0xa4, 0xcc 0xcb
    View(5, {"log_size": 202, "b": [207, "x"]}),  # in the view
    Ack(203),
    View(203, {"a": 1}, ends_in_ms=196, answers_in_ms=((212, 216),)),
    Ack(200),
    ErrorReply("not_your_turn", "Not your turn.", 207, {"n": 214}),
    Said(0, "Zoé", "bonjour", 200),
    Lobby((SeatInfo("Al", "human", False, away_ms=200, defaults_in_ms=196),), True, "playing"),
    Welcome(1, "0.1.0", "poissonnier", 200, "t" * 32, TableInfo("Chez Zoé", 200, True)),
]
FRAMES = [_pack(m.to_wire()) for m in MESSAGES]

HOSTILE: list[object] = [
    None, True, False, 0, -1, 1, 200, -60, 255, 256, 2**31, INT64_MIN, INT64_MAX, 2**64 - 1,
    1.5, "", "x", " ", "\n", "\u3164", "\u2800 ", "a\u3164", "é" * 40, "y" * 300, b"", b"x",
    [], [1], [None], {}, {"a": 1},
    {"id": 1, "ms": 2}, [{"id": 1, "ms": 2}], [{"id": -1, "ms": 2}], {1: 2},
    msgpack.ExtType(5, b"ab"), ["yes"], ["maybe"], "lobby", "human", [{"name": "a"}],
    ["no"] * 256, ["no"] * 257, [{"id": 1, "ms": 2}] * 257, {f"k{i}": i for i in range(17)},
    {"": 1}, {"k" * 32: "v" * 256}, {"k" * 33: 1}, {"k": "v" * 257},
]  # fmt: skip
"""Values put in place of each field: every type the wire carries, around each bound."""


def _variants(wire: dict[str, Any]) -> list[dict[str, Any]]:
    """``wire`` with one field left out, made hostile or given a hostile value inside,
    an unknown field added, or its type changed."""
    variants: list[dict[str, Any]] = [{**wire, "type": "nope"}]
    variants.extend({**wire, "extra": value} for value in HOSTILE)  # read past, not checked
    for name, field in wire.items():
        variants.append({k: v for k, v in wire.items() if k != name})
        variants.extend({**wire, name: value} for value in HOSTILE)
        if isinstance(field, dict):
            variants.extend({**wire, name: {**field, "k": value}} for value in HOSTILE)
            variants.extend({**wire, name: dict.fromkeys(field, value)} for value in HOSTILE)
        if isinstance(field, list) and field:
            variants.extend({**wire, name: [*field, value]} for value in HOSTILE)
            if isinstance(field[0], dict):
                variants.extend(
                    {**wire, name: [{**field[0], k: value}]}
                    for k in [*field[0], "extra"]
                    for value in HOSTILE
                )
    return variants


def test_every_server_message_is_read_without_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path proves every real message by itself (the reference is never called),
    whether its bytes are plain tokens or not."""
    assert {plain_tokens(p) for p in FRAMES} == {True, False}
    for payload, message in zip(FRAMES, MESSAGES, strict=True):
        assert parse_server_frame(payload) == _reference(payload) == message
    monkeypatch.setattr(net.messages, "parse_server_message", None)
    for payload, message in zip(FRAMES, MESSAGES, strict=True):
        assert parse_server_frame(payload) == message


ODD: Final = 202
"""An unknown field's value whose bytes (0xcc 0xca) could begin a float token: a doubt
only reading the fields one by one settles."""


@pytest.fixture
def by_fields(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of ``net.frames.decode_fields`` by ``parse_server_frame`` read the map."""
    reads: list[bool] = []

    def counted(payload: bytes, scanned: Any) -> Any:
        fields = decode_fields(payload, scanned)
        reads.append(fields is not None)
        return fields

    monkeypatch.setattr(net.messages, "decode_fields", counted)
    return reads


def test_each_field_made_hostile_is_read_as_the_reference_reads_it(
    by_fields: list[bool],
) -> None:
    """Also with an unknown field whose bytes the plain path cannot read past, first or
    last: the map is then read a field at a time."""
    outcomes = set()
    for message in MESSAGES:
        for i, variant in enumerate(_variants(message.to_wire())):
            outcomes.add(_same(_pack(variant))[0])
            odd = {"zz": ODD, **variant} if i % 2 else {**variant, "zz": ODD}
            outcomes.add(_same(_pack(odd))[0])
    assert outcomes == {"message", "error"}
    assert by_fields.count(True) > 5000


def test_mutated_bytes_of_real_frames_are_read_as_the_reference_reads_them(
    by_fields: list[bool],
) -> None:
    rng = random.Random(15)
    accepted = []
    for _ in range(6000):
        payload = bytearray(rng.choice(FRAMES))
        for _ in range(rng.randint(1, 3)):
            payload[rng.randrange(len(payload))] = rng.randrange(256)
        if _same(bytes(payload))[0] == "message":
            accepted.append(plain_tokens(payload))
    assert 100 < len(accepted) < 6000  # both sides of the line were reached
    assert accepted.count(False) > 30  # also where the bytes prove nothing
    assert by_fields.count(True) > 50 and by_fields.count(False) > 200


def _chain(depth: int, leaf: object, lists: int) -> Any:
    """A value whose ``leaf`` lies ``depth - 1`` containers down (depth 1 is the value
    itself); every ``lists``-th container a list, the others one-key maps."""
    value: Any = leaf
    for i in range(depth - 1):
        value = [value] if lists and i % lists == 0 else {"k": value}
    return value


# 452 = cd 01 c4: a doubt the next byte settles; 202 = cc ca: the fields are read one by one
@pytest.mark.parametrize("rev", [3, 452, 202])
@pytest.mark.parametrize("depth", [1, 2, 3, 62, 63, 64, 65, 66, 67, 200])
def test_views_nested_around_the_bound_are_read_as_the_reference_reads_them(
    depth: int, rev: int
) -> None:
    """Chains of maps alone put the count of maps and lists right at the bound that
    proves the depth (64 in the frame, 63 in the view): a count of one more, or a
    view one level deeper, must not pass unseen."""
    leaves: list[object] = [1, "x", None, {}, [], {"a": 1, "b": [None]}, {"a": 1}, [1, 2]]
    seen = set()
    for leaf in leaves:
        for lists in (0, 1, 2, 3):
            view = _chain(depth, leaf, lists)
            for wrapped in (view, {"seats": [{"n": 1}], "deep": view}):
                if isinstance(wrapped, dict):
                    seen.add(_same(_pack({"type": "view", "rev": rev, "view": wrapped}))[0])
    if depth <= 3:
        assert seen == {"message"}
    elif depth <= VIEW_DEPTH:
        assert seen == {"message", "error"}
    else:
        assert seen == {"error"}


@pytest.mark.parametrize("rev", [3, 452, 202])
def test_a_chain_of_maps_at_the_count_bound(rev: int) -> None:
    """A frame of 64 maps (the frame's own, the view and 62 more) nests the view's
    leaf at depth 64: accepted; at 65 maps, refused as the reference does."""
    deepest = _pack({"type": "view", "rev": rev, "view": _chain(VIEW_DEPTH, 1, 0)})
    too_deep = _pack({"type": "view", "rev": rev, "view": _chain(VIEW_DEPTH + 1, 1, 0)})
    if rev == 202:  # read field by field: the view's own maps
        scans = [decode_fields(p, {"view"}) for p in (deepest, too_deep)]
        assert [f[1]["view"] for f in scans if f is not None] == [63, 64]
    else:
        assert [decode_plain(p)[1] for p in (deepest, too_deep)] == [64, 65]  # type: ignore[index]
    assert _same(deepest)[0] == "message"
    assert _same(too_deep)[1] is BadMessage


def test_oversize_and_odd_token_frames_are_read_as_the_reference_reads_them() -> None:
    big = "x" * (MAX_FRAME - 100)
    frames = [
        _pack({"type": "view", "rev": 1, "view": {"a": big}}),  # just under the cap
        _pack({"type": "view", "rev": 1, "view": {"a": big + "y" * 200}}),  # over it
        _pack({"type": "view", "rev": 1, "view": {"a": 1.5}}),
        _pack({"type": "view", "rev": 1, "view": {"a": b""}}),
        _pack({"type": "view", "rev": 1, "view": {b"k": 1}}),
        _pack({"type": "view", "rev": 1, "view": {"a": msgpack.ExtType(1, b"")}}),
        _pack({"type": "view", "rev": 1, "view": {"a": 2**64 - 1}}),
        _pack({"type": "view", "rev": 1, "view": {"a": "\u02ca"}}),  # a 0xca byte in text
        _pack({"type": "view", "rev": 2**32, "view": {}}),  # uint 64 token, in range
        _pack({"type": "ack", "seq": 1.0}),
        _pack({"type": "said", "seat": None, "name": "a", "text": "b" * 1025}),
        _pack([1]),
        _pack({1: 2}),
        b"",
        b"\xc1",
        _pack({"type": "ping"}) + b"\x00",
        _pack({"type": "ping"})[:-1],
    ]
    assert {_same(p)[0] for p in frames} == {"message", "error"}


def _pairs(*pairs: tuple[object, object], header: bytes | None = None) -> bytes:
    """A map's bytes made by hand, its pairs in order (duplicate keys allowed)."""
    if header is None:
        header = bytes([0x80 | len(pairs)])
    return header + b"".join(_pack(key) + _pack(value) for key, value in pairs)


def _raw_field(kind: str, field: str, value: bytes) -> bytes:
    """A frame ``{type: kind, <200 in its int field>, field: value}``, ``value`` given
    as raw bytes (nested deeper than msgpack packs, or heads it never writes)."""
    number = "rev" if kind == "view" else "seq"
    return _pairs(("type", kind), (number, 200), header=b"\x83") + _pack(field) + value


VIEW = ("view", {"a": 1, "b": ["x", None]})
ODD_FRAMES = {
    "view, rev 200": _pairs(("type", "view"), ("rev", 200), VIEW),
    "rev given twice": _pairs(("type", "view"), ("rev", 1.5), VIEW, ("rev", 200)),
    "rev given twice, float last": _pairs(("type", "view"), ("rev", 200), VIEW, ("rev", 1.5)),
    "view given twice, float first": _pairs(
        ("type", "view"), ("rev", 200), ("view", {"a": 1.5}), VIEW
    ),
    "view given twice, float last": _pairs(
        ("type", "view"), ("rev", 200), VIEW, ("view", {"a": 1.5})
    ),
    "view given twice, bytes first": _pairs(("type", "view"), ("rev", 200), ("view", b""), VIEW),
    "view given twice, bin last": _pairs(("type", "view"), ("rev", 200), VIEW, ("view", b"")),
    "type given twice": _pairs(("type", "ack"), ("rev", 200), VIEW, ("type", "view")),
    "view of bytes": _pairs(("type", "view"), ("rev", 200), ("view", b"")),
    "float in view": _pairs(("type", "view"), ("rev", 1), ("view", {"a": [1.5]})),
    "0xcc in view, rev 200": _pairs(("type", "view"), ("rev", 200), ("view", {"n": [200]})),
    "bytes key in view": _pairs(("type", "view"), ("rev", 200), ("view", {b"k": 1})),
    "ext in view": _pairs(("type", "view"), ("rev", 200), ("view", msgpack.ExtType(1, b""))),
    "odd answer times": _pairs(
        ("type", "view"), ("rev", 200), VIEW, ("answers_in_ms", [{"id": 200, "ms": 1.5}])
    ),
    "answer time, extra float": _pairs(
        ("type", "view"), ("rev", 200), VIEW, ("answers_in_ms", [{"id": 1, "ms": 2, "x": 1.5}])
    ),
    "ends_in_ms float": _pairs(("type", "view"), ("rev", 200), VIEW, ("ends_in_ms", 1.5)),
    "deal with a float": _pairs(("type", "price_asked"), ("by", 1), ("deal", {"a": 1.5})),
    "deal, by 200": _pairs(("type", "price_asked"), ("by", 200), ("deal", {"a": 1})),
    "deal, odd extra": _pairs(("type", "price_asked"), ("by", 1), ("deal", {"a": 1}), ("z", 1.5)),
    "ack, uint 64 seq": _pairs(("type", "ack"), ("seq", 2**64 - 1)),
    "ack, negative seq": _pairs(("type", "ack"), ("seq", -60)),
    **{
        f"ack, extra {name}": _pairs(("type", "ack"), ("seq", 200), ("x", value))
        for name, value in {
            "float": 1.5,
            "empty bin": b"",
            "bin": b"x",
            "empty ext": msgpack.ExtType(1, b""),
            "ext": msgpack.ExtType(1, b"a"),
            "uint 64": 2**64 - 1,
            "float nested": [{"a": [1.5]}],
            "bytes key nested": [{b"k": 1}],
            "int key nested": [{1: 1}],
            "long text": "é" * 30_000,
        }.items()
    },
    "ack, extra first": _pairs(("x", 1.5), ("type", "ack"), ("seq", 7)),
    "ack, int key": _pairs(("type", "ack"), ("seq", 200), (1, 2)),
    "ack, bytes key": _pairs(("type", "ack"), ("seq", 200), (b"x", 2)),
    "ack, empty bytes key": _pairs(("type", "ack"), ("seq", 200), (b"", 2)),  # max_bin_len=0
    "ack, nil key": _pairs(("type", "ack"), ("seq", 200), (None, 2)),
    "ack, bytes type key": _pairs((b"type", "ack"), ("seq", 200)),
    "ack, list key": _pairs(("type", "ack"), ("seq", 200), header=b"\x83") + b"\x91\x01\x01",
    "ack, map 16": _pairs(("type", "ack"), ("seq", 200), header=b"\xde\x00\x02"),
    "ack, map 32": _pairs(("type", "ack"), ("seq", 200), header=b"\xdf\x00\x00\x00\x02"),
    "ack, one pair short": _pairs(("type", "ack"), ("seq", 200), header=b"\x83"),
    "ack, one pair over": _pairs(("type", "ack"), ("seq", 200), ("x", 1), header=b"\x82"),
    "ack, trailing nil": _pairs(("type", "ack"), ("seq", 200)) + b"\xc0",
    "ack, trailing bin": _pairs(("type", "ack"), ("seq", 200)) + b"\xc4\x00",
    "ack, cut": _pairs(("type", "ack"), ("seq", 200))[:-1],
    "ack, text not utf-8": _raw_field("ack", "x", b"\xa1\xff"),
    "not a map": _pack([200, {"type": "ack"}]),
    "ack, 1023 lists deep": _raw_field("ack", "x", b"\x91" * 1023 + b"\x01"),
    "ack, 1024 lists deep": _raw_field("ack", "x", b"\x91" * 1024 + b"\x01"),
    "ack, 1024 deep in a long list": _raw_field("ack", "x", b"\x91" * 1024 + b"\xc0" * 5),
    "view, 1024 lists deep": _raw_field("view", "view", b"\x81\xa1k" + b"\x91" * 1023 + b"\x01"),
    **{  # heads msgpack reads but never writes for these: {"k": [<token>, 1, 1]}
        f"view holding {name}": _raw_field("view", "view", b"\x81\xa1k\x93" + token + b"\x01\x01")
        for name, token in {
            "an empty bin 16": b"\xc5\x00\x00",
            "an empty bin 32": b"\xc6\x00\x00\x00\x00",
            "an empty ext 16": b"\xc8\x00\x00\x05",
            "an empty ext 32": b"\xc9\x00\x00\x00\x00\x05",
            "a short float": b"\xca\x3f\xc0\x00\x00",
            "an int 16 of 0xc4c4": b"\xcd\xc4\xc4",
            "an int 64 of 1": b"\xd3" + bytes(7) + b"\x01",
            "a uint 64 of 2**63 - 1": b"\xcf\x7f" + b"\xff" * 7,
            "a uint 64 of 2**63": b"\xcf\x80" + bytes(7),
        }.items()
    },
    **{
        f"view holding {name}": _pairs(("type", "view"), ("rev", rev), ("view", {"n": value}))
        for rev in (3, 200)
        for name, value in {
            "202 (cc ca)": [202, "x", 203],
            "207 (cc cf) then a key": {"a": 207, "b": 1},
            "207 (cc cf) then 0x80": [207, {}],
            "2**63": [2**63],
            "2**63 - 1": [2**63 - 1, 2**32],
            "2**64 - 1 and 207": [207, 2**64 - 1],
            "1.5 and 202": [202, 1.5],
            "nan": [float("nan"), 202],
            "2.0 and 2": [2.0, 2],
            "an empty ext": [msgpack.ExtType(5, b""), 202],
            "an empty bin": [b"", 202],
            "an empty bin key": {b"": 202},
            "196-201 then zeros": [196, 0, 197, 0, 198, 0, 199, 0, 200, 0, 201, 0],
            "16 odd bytes then a float": [*range(196, 212), 1.5],
            "16 odd bytes, no float": [*range(196, 212), 1],
            "greek text": "πϏϐ" * 5,
            "greek text, 2**64 - 1": ["π", 2**64 - 1],
        }.items()
    },
}
"""Frames whose bytes the plain path cannot read past (a byte of another kind of token
outside the free-form data), around every refusal ``unpackb`` and the reference make."""


@pytest.mark.parametrize("name", sorted(ODD_FRAMES))
def test_odd_frames_are_read_as_the_reference_reads_them(name: str) -> None:
    _same(ODD_FRAMES[name])


def test_odd_frames_reach_both_outcomes_through_the_fields(by_fields: list[bool]) -> None:
    outcomes = {_same(payload)[0] for payload in ODD_FRAMES.values()}
    assert outcomes == {"message", "error"}
    assert by_fields.count(True) >= 20 and by_fields.count(False) >= 10


def test_the_limits_let_through_only_empty_bins_and_exts() -> None:
    """What ``net.frames.decoded_containers`` relies on: with the reference's options,
    msgpack reads a bin or an ext token only when it is empty, a fixext never."""
    read = {}
    for first in [*range(0xC4, 0xCA), *range(0xD4, 0xD9)]:
        for length in (0, 1, 2):
            size = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xC7: 1, 0xC8: 2, 0xC9: 4}.get(first)
            head = bytes([first]) if size is None else bytes([first]) + length.to_bytes(size)
            kind = b"\x05" if first >= 0xC7 else b""
            token = head + kind + b"a" * (length if size else 2 ** (first - 0xD4))
            payload = _pairs(("type", "ack"), header=b"\x82") + _pack("x") + token
            with contextlib.suppress(FrameError):
                read[token] = decode(payload, SERVER_LIMITS)["x"]
    assert read == {
        b"\xc4\x00": b"",
        b"\xc5\x00\x00": b"",
        b"\xc6\x00\x00\x00\x00": b"",
        b"\xc7\x00\x05": msgpack.ExtType(5, b""),
        b"\xc8\x00\x00\x05": msgpack.ExtType(5, b""),
        b"\xc9\x00\x00\x00\x00\x05": msgpack.ExtType(5, b""),
    }
    assert net.frames._REFERENTS_ARE_ITEMS  # the type walk is on in this interpreter


def test_decode_plain_unpacks_with_the_reference_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """``decode_plain`` unpacks with ``_SERVER_OPTIONS``: the very options that
    ``decode(payload, SERVER_LIMITS)`` uses."""
    seen: list[dict[str, Any]] = []
    unpackb = msgpack.unpackb

    def spy(payload: bytes, **options: Any) -> Any:
        seen.append(options)
        return unpackb(payload, **options)

    monkeypatch.setattr(net.frames.msgpack, "unpackb", spy)
    assert decode_plain(FRAMES[0]) is not None
    decode(FRAMES[0], SERVER_LIMITS)
    assert seen == [net.frames._SERVER_OPTIONS, net.frames._SERVER_OPTIONS]


def _container_bytes(data: bytes) -> int:
    """How many bytes of ``data`` could begin a map or an array."""
    return sum(0x80 <= byte <= 0x9F or 0xDC <= byte <= 0xDF for byte in data)


def test_a_map_read_field_by_field_is_the_one_decode_makes() -> None:
    """``decode_fields``' map equals ``decode``'s whenever it reads one, and it reads
    every real frame; its scans are those of the last value's own bytes."""
    shallow = [payload for name, payload in ODD_FRAMES.items() if "deep" not in name]
    payloads = [*FRAMES, *shallow]  # comparing the deep ones would recurse too deep
    payloads += [_pack(v) for m in MESSAGES[:12] for v in _variants(m.to_wire())]
    read = 0
    for payload in payloads:
        fields = decode_fields(payload, {"view", "deal"})
        if fields is not None:
            read += 1
            # the same bytes again: the same values of the same types, NaN included
            assert _pack(fields[0]) == _pack(decode(payload, SERVER_LIMITS))
    assert read > len(payloads) // 2
    names = ("view", "deal", "rev")
    for payload in FRAMES:  # plain values, whatever their bytes: proven
        fields = decode_fields(payload, set(names))
        assert fields is not None
        raw, scans = fields
        assert scans == {k: _container_bytes(_pack(raw[k])) for k in names if k in raw}
    fields = decode_fields(ODD_FRAMES["view given twice, float first"], {"view"})
    assert fields is not None and fields[1] == {"view": 2} and fields[0]["view"] == VIEW[1]
    deep = decode_fields(ODD_FRAMES["ack, 1023 lists deep"], ())
    assert deep is not None and len(deep[0]) == 3
    assert decode_fields(ODD_FRAMES["ack, 1024 lists deep"], ()) is None  # unpackb: too deep


def test_frames_with_odd_bytes_outside_the_data_are_not_read_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where a free-form field's own bytes prove it, the map is read once and no data
    is encoded again, whatever lies in the other fields."""
    payloads = [p for p in FRAMES if not plain_tokens(p)]
    payloads += [_pack({**m.to_wire(), "z": 1.5}) for m in MESSAGES]
    expected = [_reference(p) for p in payloads]
    monkeypatch.setattr(net.messages, "decode", None)
    monkeypatch.setattr(net.messages, "decode_plain", lambda _payload: None)
    monkeypatch.setattr(net.messages, "_SERVER_DECODED", {})
    assert [parse_server_frame(p) for p in payloads] == expected


# Wire values around every bound the server messages have.
leaves = (
    st.none()
    | st.booleans()
    | st.integers(-2, 300)
    | st.integers(2**31 - 2, 2**31 + 1)
    | st.integers(INT64_MAX - 1, 2**64 - 1)
    | st.integers(INT64_MIN, INT64_MIN + 1)
    | st.sampled_from(["", " ", "Zoé", "\u200b", "x" * 33, "y" * 65, "yes", "over", "bot"])
    | st.text(max_size=4)
    | st.floats(allow_nan=False, width=32)
    | st.binary(max_size=1)
)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=3) | st.sampled_from(["id", "ms"]), inner, max_size=3),
    max_leaves=12,
)
TYPES = sorted(net.messages._SERVER)


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(range(len(MESSAGES))),
    st.dictionaries(st.sampled_from(["type", "rev", "view", "seq", "seats", "ends_in_ms",
                                     "answers_in_ms", "params", "deal", "coins", "table",
                                     "seat", "name", "text", "x"]), values, max_size=3),
    st.sampled_from(TYPES),
)  # fmt: skip
def test_generated_server_messages_are_read_as_the_reference_reads_them(
    index: int, changes: dict[str, Any], kind: str
) -> None:
    wire = MESSAGES[index].to_wire()
    _same(_pack({**wire, **changes}))
    _same(_pack({**wire, **changes, "type": kind}))


def _plain_count(value: object) -> int | None:
    """How many maps and lists ``value`` holds, itself included, when it holds only
    plain values (exact types, ``str`` keys, 64-bit integers); else ``None``."""
    stack, containers = [value], 0
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            containers += 1
            if any(type(key) is not str for key in item):  # type: ignore[attr-defined]
                return None
            stack.extend(item.values())  # type: ignore[attr-defined]
        elif kind is list:
            containers += 1
            stack.extend(item)  # type: ignore[call-overload]
        elif kind is int:
            if not INT64_MIN <= item <= INT64_MAX:  # type: ignore[operator]
                return None
        elif item is not None and kind not in (str, bool):
            return None
    return containers


ODD_BYTES = st.lists(
    st.sampled_from([0x00, 0x01, 0x05, 0x7F, 0x80, 0x81, 0x91, 0xA1, 0x61, 0xC0, 0xC3,
                     *range(0xC4, 0xD9), 0xDC, 0xDE, 0xFF]),
    max_size=24,
).map(bytes)  # fmt: skip
"""Bytes around every token that could decode to something not plain."""


@settings(max_examples=800, deadline=None)
@given(
    st.sampled_from([3, 200, 202, 207, 2**63 - 1]),
    st.one_of(values.map(lambda value: _pack({"v": value})), ODD_BYTES),
    ODD_BYTES,
)
def test_what_the_bytes_prove_of_a_decoded_value_holds(
    rev: int, view: bytes, extra: bytes
) -> None:
    """Whenever ``decode_plain`` or ``decode_fields`` says a value is plain, it is, and it
    holds no more maps and lists than they count; and the frame is read as the
    reference reads it."""
    payload = _pairs(("type", "view"), ("rev", rev), header=b"\x84") + _pack("view") + view
    payload += _pack("x") + (extra or b"\xc0")
    plain = decode_plain(payload)
    if plain is not None:
        count = _plain_count(plain[0])
        assert count is not None and count <= plain[1]
    fields = decode_fields(payload, {"view", "x"})
    if fields is not None:
        for name, containers in fields[1].items():
            if containers is not None:
                count = _plain_count(fields[0][name])
                assert count is not None and count <= containers, name
    _same(payload)


CLIENT_MESSAGES = [
    Hello(1, "0.1.0", "poissonnier", "Zoé", "player", "t" * 32, None),
    Hello(1, "0.1.0", "gofish", "A B", "spectator"),
    ActionRequest(4, {"type": "play", "cards": ["T03"], "deep": {"a": [[1]]}}),
    Start(),
    RematchAnswer(True),
    ChatRequest("bonjour"),
    DraftRequest(False),
    PriceAsk(1, {"give": ["T03"]}),
    PriceNamed(1, {"give": ["T03"]}, 12),
    Ping(),
    Pong(),
    Bye("closing"),
]
SCHEMAS = [
    ("server", net.messages._SERVER, MESSAGES),
    ("client", net.messages._CLIENT, CLIENT_MESSAGES),
]


def _agree(spec: Any, value: dict[str, Any], where: str) -> bool:
    """Assert that ``spec.quick()`` passes ``value`` only if ``spec.check`` does, and
    says the same of ``value`` as a peer decodes it; return whether it passed."""
    for candidate in (value, dict(msgpack.unpackb(_pack(value), strict_map_key=False))):
        try:
            spec.check(candidate, where)
            accepted = True
        except BadMessage:
            accepted = False
        fits = spec.quick()(candidate)
        assert accepted or not fits, candidate
        if candidate is not value:
            assert fits == accepted, candidate
    return accepted


@pytest.mark.parametrize(("side", "table", "messages"), SCHEMAS, ids=[s for s, *_ in SCHEMAS])
def test_a_schema_quick_test_passes_only_what_its_check_passes(
    side: str, table: dict[str, Any], messages: list[Any]
) -> None:
    """``quick`` (the fast path's test) is True only for values ``check`` accepts, and
    says the same of decoded values, which hold exact types only; every message
    schema of both directions, on real messages with each field made hostile."""
    assert {m.TYPE for m in messages} == set(table)
    seen = set()
    for message in messages:
        spec = table[message.TYPE][0]
        for variant in [message.to_wire(), *_variants(message.to_wire())]:
            seen.add(_agree(spec, variant, message.TYPE))
    assert seen == {True, False}


def test_a_client_frame_is_read_as_the_check_reads_it_and_a_real_one_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``parse_client_message`` gives what the full check gives (the same message, or an
    error of the same type, sentence and data) for every client message with each
    field made hostile, as the server decodes it; a real message never needs the check."""

    def reference(raw: dict[str, Any]) -> Any:
        return net.messages._parse(raw, net.messages._CLIENT)

    outcomes = set()
    for message in CLIENT_MESSAGES:
        for variant in [message.to_wire(), *_variants(message.to_wire())]:
            try:
                raw = decode(_pack(variant), CLIENT_LIMITS)
            except FrameError:
                continue
            fast = _outcome(parse_client_message, raw)
            assert fast == _outcome(reference, raw), variant
            outcomes.add(fast[0])
    assert outcomes == {"message", "error"}
    monkeypatch.setattr(net.messages, "_parse", None)  # a real message: the quick test alone
    for message in CLIENT_MESSAGES:
        assert parse_client_message(decode(_pack(message.to_wire()), CLIENT_LIMITS)) == message


@pytest.mark.parametrize(
    "table",
    [net.messages._SERVER_DECODED, net.messages._SERVER_PLAIN_TOKENS, net.messages._SERVER_SHALLOW],
    ids=["decoded", "plain tokens", "shallow"],
)
def test_the_fast_paths_tests_pass_what_the_schema_passes(table: dict[str, Any]) -> None:
    """Each quick test ``parse_server_frame`` uses says what the message's full schema
    says, on every real message with each field made hostile, as a peer decodes it,
    wherever the frame's bytes prove what that test takes as given."""
    seen = set()
    for message in MESSAGES:
        spec = net.messages._SERVER[message.TYPE][0]
        for variant in [message.to_wire(), *_variants(message.to_wire())]:
            payload = _pack(variant)
            try:
                raw = decode(payload, SERVER_LIMITS)
            except FrameError:
                continue
            plain = decode_plain(payload)
            if table is not net.messages._SERVER_DECODED and (
                plain is None or (table is net.messages._SERVER_SHALLOW) != (plain[1] <= 64)
            ):
                continue  # not a frame this table is for
            if raw.get("type") != message.TYPE:
                continue  # another schema's business
            try:
                spec.check(raw, message.TYPE)
                accepted = True
            except BadMessage:
                accepted = False
            assert table[message.TYPE][0](raw) == accepted, variant
            seen.add(accepted)
    assert seen == {True, False}


def test_the_tables_for_a_map_read_field_by_field_pass_what_the_schema_passes() -> None:
    """The quick tests chosen from the free-form fields' own bytes
    (``net.messages._fields_table``) say what the full schema says, on every real
    message with each field made hostile and an unknown field of odd bytes added."""
    seen, chosen = set(), set()
    for message in MESSAGES:
        spec = net.messages._SERVER[message.TYPE][0]
        for variant in [message.to_wire(), *_variants(message.to_wire())]:
            fields = decode_fields(_pack({**variant, "zz": ODD}), net.messages._PLAIN_FIELDS)
            if fields is None or fields[0].get("type") != message.TYPE:
                continue  # the reference's business, or another schema's
            raw, scans = fields
            try:
                spec.check(raw, message.TYPE)
                accepted = True
            except BadMessage:
                accepted = False
            table = net.messages._fields_table(scans)
            assert table[message.TYPE][0](raw) == accepted, variant
            seen.add(accepted)
            chosen.add(id(table))
    assert seen == {True, False}
    assert len(chosen) == 3  # shallow, plain tokens, and encoded again


def _specs() -> list[tuple[str, Any]]:
    """Every message schema of both directions, by name."""
    tables = (("server", net.messages._SERVER), ("client", net.messages._CLIENT))
    return [(f"{side} {kind}", spec) for side, table in tables for kind, (spec, _) in table.items()]


@pytest.mark.parametrize(("name", "spec"), _specs(), ids=[name for name, _ in _specs()])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_schema_quick_test_agrees_on_generated_maps(
    name: str, spec: Any, data: st.DataObject
) -> None:
    """The same, on maps of the schema's fields with generated values."""
    fields = {**spec.required, **spec.optional}
    value = data.draw(
        st.dictionaries(st.sampled_from([*sorted(fields), "type", "zz"]), values, max_size=6)
    )
    _agree(spec, value, name)


@settings(max_examples=400, deadline=None)
@given(
    view=st.dictionaries(st.text(max_size=3), values, max_size=4),
    bounds=st.tuples(st.integers(1, 6), st.integers(0, 40), st.integers(0, 8)),
    wrap=st.integers(0, 6),
)
def test_a_decoded_value_encoded_again_passes_only_what_the_walk_passes(
    view: dict[str, Any], bounds: tuple[int, int, int], wrap: int
) -> None:
    """``Plain.given_decoded`` (the view's check when the frame's bytes prove nothing)
    says what ``Plain.check`` says of any value msgpack decoded, near every bound."""
    plain = Plain(*bounds)
    value = dict(msgpack.unpackb(_pack(_chain(wrap + 1, view, 0) if wrap else view)))
    try:
        plain.check(value, "v")
        accepted = True
    except BadMessage:
        accepted = False
    assert plain.given_decoded().quick()(value) == accepted
    assert _outcome(lambda v: plain.given_decoded().check(v, "v"), value) == _outcome(
        lambda v: plain.check(v, "v"), value
    )
