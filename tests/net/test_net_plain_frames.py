"""A client's quick read of a server frame (``net.messages.parse_server_frame``) says
exactly what decoding it and checking it in full says, hostile frames included."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_net_schema import plain

import net.schema
from net.frames import SERVER_LIMITS, FrameError, decode, plain_tokens
from net.messages import View, parse_server_frame, parse_server_message
from net.schema import INT64_MAX, INT64_MIN, BadMessage, Plain
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.view import view_for

VIEW_DEPTH = 64
"""The depth bound of a view's free-form data (``net.messages._VIEW_SPEC``)."""


def _outcome(read: Any, payload: bytes) -> tuple[Any, ...]:
    """What ``read(payload)`` gives: the message, or the error with its sentence and data."""
    try:
        return ("message", read(payload))
    except BadMessage as exc:
        return ("refused", exc.code, exc.message, exc.params)
    except FrameError as exc:
        return ("garbled", str(exc))


def _full(payload: bytes) -> Any:
    """The reference: decode, then check every value (``Plain.check``)."""
    return parse_server_message(decode(payload, SERVER_LIMITS))


def _view_frame(view: object, **extra: object) -> bytes:
    return bytes(msgpack.packb({"type": "view", "rev": 3, "view": view, **extra}))


def _nested(depth: int, leaf: object = 1) -> dict[str, Any]:
    """Maps nested so that ``leaf`` is at ``depth`` (at least 2; the outer map is depth 1)."""
    value: Any = leaf
    for _ in range(depth - 1):
        value = {"k": value}
    return dict(value)


# Leaves a hostile or buggy server could send, around every bound.
leaves = (
    st.none()
    | st.booleans()
    | st.integers(INT64_MIN, INT64_MIN + 1)
    | st.integers(-300, 300)
    | st.integers(INT64_MAX - 1, 2**64 - 1)
    | st.text(max_size=6)
    | st.sampled_from(["Ê", "ʊ", "\u02ca", "œ", "Ċ", "ϊ"])  # UTF-8 bytes 0xc4–0xcf
    | st.floats(allow_nan=False)
    | st.binary(max_size=2)
)
keys = st.text(max_size=4) | st.integers(0, 2) | st.binary(max_size=1)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(keys, values, max_size=5), st.integers(2, 80))
def test_quick_read_agrees_with_the_full_check(view: dict[Any, Any], depth: int) -> None:
    for value in (view, {"deep": _nested(depth, view)}):
        payload = _view_frame(value)
        assert _outcome(parse_server_frame, payload) == _outcome(_full, payload)


HOSTILE = {
    "float": _view_frame({"a": [1, 1.5]}),
    "float32": _view_frame({"a": 1})[:-1] + b"\xca\x3f\x80\x00\x00",
    "uint64 over int64": _view_frame({"a": INT64_MAX + 1}),
    "uint64 at 2**64-1": _view_frame({"a": 2**64 - 1}),
    "empty bin": _view_frame({"a": b""}),
    "bin key": _view_frame({b"": 1}),
    "empty ext": _view_frame({"a": 1})[:-1] + b"\xc7\x00\x05",
    "fixext": _view_frame({"a": 1})[:-1] + b"\xd4\x05\x00",
    "int key": _view_frame({1: 1}),
    "depth 65": _view_frame(_nested(VIEW_DEPTH + 1)),
    "empty map at depth 65": _view_frame(_nested(VIEW_DEPTH + 1, {})),
    "list at depth 65": _view_frame(_nested(VIEW_DEPTH, [1])),
    "depth 900": _view_frame(_nested(900)),
    "view not a map": _view_frame([1, 2]),
    "view is nil": _view_frame(None),
    "rev negative": bytes(msgpack.packb({"type": "view", "rev": -1, "view": {}})),
    "no view": bytes(msgpack.packb({"type": "view", "rev": 1})),
    "bad ends_in_ms": _view_frame({}, ends_in_ms=-5),
    "truncated": _view_frame({"a": "text"})[:-2],
    "two values": _view_frame({}) + b"\xc0",
    "not a map": bytes(msgpack.packb([1])),
}


@pytest.mark.parametrize("payload", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_frames_are_refused_alike(payload: bytes) -> None:
    quick = _outcome(parse_server_frame, payload)
    assert quick[0] in ("refused", "garbled")
    assert quick == _outcome(_full, payload)


def test_the_deepest_view_allowed_is_read() -> None:
    payload = _view_frame(_nested(VIEW_DEPTH))
    msg = parse_server_frame(payload)
    assert isinstance(msg, View) and msg.view == _nested(VIEW_DEPTH)
    # One level more is refused, with the full check's own sentence.
    with pytest.raises(BadMessage) as info:
        parse_server_frame(_view_frame(_nested(VIEW_DEPTH + 1)))
    assert info.value.params["depth"] == VIEW_DEPTH


def test_a_view_of_plain_tokens_skips_the_full_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the quick read: a view's data is only walked for its depth."""

    def walked(*_args: object) -> None:
        raise AssertionError("the full check ran")

    view = {"seats": [{"coins": 3, "name": "Zoé", "crates": ["", "TTF"]}], "log": [None, True]}
    payload = _view_frame(view, ends_in_ms=1500, answers_in_ms=[{"id": 2, "ms": 900}])
    assert plain_tokens(payload)
    monkeypatch.setattr(Plain, "check", walked)
    msg = parse_server_frame(payload)
    assert msg == View(rev=3, view=view, ends_in_ms=1500, answers_in_ms=((2, 900),))
    with pytest.raises(AssertionError):  # and a frame with a float token is checked in full
        parse_server_frame(_view_frame({"a": 0.5}))
    assert net.schema.PlainDepth(Plain()).plain == Plain()


def test_plain_tokens_is_conservative() -> None:
    assert plain_tokens(_view_frame({"a": [1, -(2**63), 2**32 - 1, "texte", None, True]}))
    assert not plain_tokens(_view_frame({"a": 0.5}))
    assert not plain_tokens(_view_frame({"a": 2**63}))
    assert not plain_tokens(_view_frame({"a": 2**32}))  # msgpack says uint 64 from 2**32 up
    assert not plain_tokens(_view_frame({"a": b""}))
    # a string whose UTF-8 holds 0xca: nothing is proven, the full check then decides
    assert not plain_tokens(_view_frame({"a": "\u02ca"}))
    assert parse_server_frame(_view_frame({"a": "\u02ca"})) == View(3, {"a": "\u02ca"})


@settings(max_examples=300, deadline=None)
@given(
    view=st.dictionaries(st.text(max_size=6), plain, min_size=1, max_size=4),
    bound=st.integers(1, 8),
)
def test_the_depth_walk_says_the_same_with_and_without_skipping_maps_of_leaves(
    view: dict[str, Any], bound: int
) -> None:
    decoded = msgpack.unpackb(msgpack.packb(view))  # maps as a client gets them
    for outer in (decoded, msgpack.unpackb(msgpack.packb(_nested(bound, view)))):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(net.schema, "_LEAF_MAPS_UNTRACKED", False)
            walked = net.schema._within_depth(outer, bound)
        assert net.schema._within_depth(outer, bound) == walked


def test_maps_of_leaves_are_skipped_on_this_interpreter() -> None:
    """CPython leaves a map of plain leaves untracked, so the walk skips its values;
    a map of leaves one level too deep is still refused."""
    assert net.schema._LEAF_MAPS_UNTRACKED
    fits, deeper = (msgpack.unpackb(msgpack.packb(_nested(d, {"a": 1}))) for d in (4, 5))
    assert net.schema._within_depth(fits, 5)  # the map of leaves at depth 4, its leaf at 5
    assert not net.schema._within_depth(deeper, 5)


def _walked_in_python(value: dict[str, Any], bound: int) -> bool:
    """The exact walk alone: every map looked into, no help from the collector."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(net.schema, "_LEAF_MAPS_UNTRACKED", False)
        return net.schema._within_depth(value, bound)


@settings(max_examples=400, deadline=None)
@given(
    view=st.dictionaries(st.text(max_size=6), plain, min_size=1, max_size=4),
    bound=st.integers(1, 9),
    wrap=st.integers(0, 8),
)
def test_the_collectors_levels_never_pass_a_value_the_exact_walk_refuses(
    view: dict[str, Any], bound: int, wrap: int
) -> None:
    """The quick depth proof (``gc.get_referents``, level by level in C) may give up where
    the exact walk would accept, never the other way round: near the bound, the exact
    walk decides."""
    decoded = msgpack.unpackb(msgpack.packb(_nested(wrap + 2, view) if wrap else view))
    if net.schema._shallow_by_collector(decoded, bound):
        assert _walked_in_python(decoded, bound)
    assert net.schema._within_depth(decoded, bound) == _walked_in_python(decoded, bound)


def mid_game_view(players: int, seat: int | None, decisions: int = 120) -> dict[str, Any]:
    """A real view, ``decisions`` into a seeded random game, as a client decodes it."""
    rng = random.Random(players)
    state = new_game(players, players)
    for _ in range(decisions):
        who = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, who)
        apply(state, who, legal[rng.randrange(len(legal))])
    return dict(msgpack.unpackb(msgpack.packb(view_for(state, seat))))


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_mid_game_view_is_proven_shallow_by_the_collectors_levels(players: int) -> None:
    """A real view (120 decisions into a seeded random game) never needs the exact walk."""
    for seat in (None, 0):
        view = mid_game_view(players, seat)
        assert net.schema._shallow_by_collector(view, VIEW_DEPTH)
        assert not net.schema._shallow_by_collector(view, 3)  # nor is it shallow by default
