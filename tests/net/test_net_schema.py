"""``Plain``'s quick check (net/schema.py ``_fits``) says exactly what its reference walk says."""

from __future__ import annotations

import enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.messages import check_action
from net.schema import _QUICK_DEPTH, INT64_MAX, INT64_MIN, BadMessage, Plain, _fits


class Suit(enum.IntEnum):
    """An int subclass: plain to ``isinstance``, not to ``type() is``."""

    FISH = 3


class Name(str):
    """A str subclass."""


# Leaves a hostile or buggy peer could send, around every bound the check has.
leaves = (
    st.none()
    | st.booleans()
    | st.integers(INT64_MIN - 2, INT64_MIN + 1)
    | st.integers(-3, 3)
    | st.integers(INT64_MAX - 1, INT64_MAX + 2)
    | st.text(max_size=6)
    | st.floats(allow_nan=False)
    | st.binary(max_size=2)
    | st.just(Suit.FISH)
    | st.just(Name("cod"))
    | st.just((1, 2))
)
keys = st.text(max_size=6) | st.integers(0, 2) | st.just(Name("k")) | st.binary(max_size=1)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=40,
)


def _outcome(check: Any, value: object) -> tuple[str, dict[str, Any]] | None:
    """``None`` if ``check`` accepts ``value``, else its error's code, sentence and params."""
    try:
        check(value, "view")
    except BadMessage as exc:
        return exc.message, {"code": exc.code, **exc.params}
    return None


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(keys, values, max_size=5),
    st.integers(1, 5),
    st.integers(1, 40),
    st.integers(0, 6),
)
def test_quick_check_agrees_with_the_walk(
    value: dict[Any, Any], depth: int, nodes: int, chars: int
) -> None:
    spec = Plain(max_depth=depth, max_nodes=nodes, max_str=chars)
    assert _outcome(spec.check, value) == _outcome(spec.walk, value)


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-9, 9) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.text(max_size=6), plain, max_size=5),
    st.integers(1, 6),
    st.integers(1, 40),
    st.integers(0, 6),
)
def test_quick_check_bounds_agree_with_the_walk(
    value: dict[str, Any], depth: int, nodes: int, chars: int
) -> None:
    spec = Plain(max_depth=depth, max_nodes=nodes, max_str=chars)
    assert _outcome(spec.check, value) == _outcome(spec.walk, value)


ODD = [1.5, b"", b"x", INT64_MAX + 1, INT64_MIN - 1, (1, 2), {1}, object()]
"""Leaves no plain value holds: both checks refuse them, wherever they are."""


@pytest.mark.parametrize("odd", ODD, ids=repr)
@pytest.mark.parametrize(
    "place",
    [
        lambda x: {"a": x},
        lambda x: {"a": [True, None, x]},
        lambda x: {"a": {"b": ["c", {"d": x}]}, "e": 1},
        lambda x: {"a": [1], x: 2} if isinstance(x, bytes | int) else {"a": [[x]]},
    ],
)
def test_odd_leaves_are_refused_by_both(odd: object, place: Any) -> None:
    value = place(odd)
    spec = Plain()
    said = _outcome(spec.check, value)
    assert said is not None and said[1]["code"] == "bad_message"
    assert said == _outcome(spec.walk, value)


def test_quick_check_stops_at_each_bound() -> None:
    spec = (4, 6, 4)  # max_depth, max_nodes, max_str
    fits = {"ab": [1, {"k": "abcd"}]}  # 5 values, "abcd" at depth 4, 4 characters
    assert _fits(fits, 1, 1, *spec) == 5
    assert _fits({"ab": [1, {"k": "abcde"}]}, 1, 1, *spec) == -1  # text too long
    assert _fits({"abcde": 1}, 1, 1, *spec) == -1  # key too long
    assert _fits({"ab": [1, {"k": ["x"]}]}, 1, 1, *spec) == -1  # "x" at depth 5
    assert _fits({"ab": [1, 2, 3, 4, 5, 6]}, 1, 1, *spec) == -1  # 8 values
    assert _fits({"n": INT64_MAX + 1}, 1, 1, *spec) == -1
    assert _fits({"n": INT64_MIN}, 1, 1, *spec) == 2
    assert _fits({"n": 1.0}, 1, 1, *spec) == -1
    assert _fits({"n": b""}, 1, 1, *spec) == -1
    assert _fits({"n": Suit.FISH}, 1, 1, *spec) == -1  # left to the walk, which accepts it
    assert Plain(*spec).check({"n": Suit.FISH}, "action") is None


def test_specs_deeper_than_the_quick_check_still_refuse_depth() -> None:
    spec = Plain(max_depth=_QUICK_DEPTH + 5, max_nodes=10_000, max_str=8)
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(_QUICK_DEPTH + 3):
        node["k"] = {}
        node = node["k"]
    spec.check(deep, "view")  # depth _QUICK_DEPTH + 4 fits
    node["k"] = {"k": 1}
    with pytest.raises(BadMessage) as info:
        spec.check(deep, "view")
    assert info.value.params["depth"] == _QUICK_DEPTH + 5


def test_actions_with_enum_members_still_pass() -> None:
    action = {"type": "buy", "count": Suit.FISH, "who": Name("Ana")}
    assert check_action(action) is action
