"""A small declarative checker for decoded wire values.

A spec is a frozen dataclass with ``check(value, where)``: it returns nothing
when ``value`` fits and raises :class:`BadMessage` with a plain sentence
naming the field (``where``) otherwise. Specs never convert or coerce.

Example:
    >>> spec = Record({"seq": Int(0, 10)})
    >>> spec.check({"seq": 3}, "action")
    >>> spec.check({"seq": "3"}, "action")
    Traceback (most recent call last):
    ...
    net.schema.BadMessage: Field 'action.seq' must be an integer from 0 to 10.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, Protocol, cast

import msgpack

from net.frames import plain_containers
from net.wording import WordedParams, worded

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

BLANK_LETTERS: Final = "\u115f\u1160\u3164\uffa0\u2800"
"""Printable characters that draw nothing: the Hangul fillers (choseong, jungseong,
compatibility, halfwidth) and the braille blank. A name or a chat line made of them,
and spaces, would show as blank; they count as spaces wherever text must show."""

_AS_SPACES: Final = str.maketrans(dict.fromkeys(BLANK_LETTERS, " "))


def shows(text: str) -> bool:
    """Whether ``text`` draws something: not empty, and not only spaces and
    :data:`BLANK_LETTERS`."""
    return not text.translate(_AS_SPACES).isspace() and bool(text)


class BadMessage(Exception):
    """A message that does not fit its schema; nothing was done with it.

    Args:
        code: Machine-readable code, ``"bad_message"`` unless stated otherwise.
        message: A plain sentence naming the field and what it must be.
        params: The sentence as data (:func:`net.wording.worded`), for a client to
            say it in its own language; none by default.
    """

    def __init__(
        self, code: str, message: str, params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: WordedParams = dict(params or {})


def _bad(where: str, key: str, **values: str | int) -> BadMessage:
    return BadMessage("bad_message", *worded(key, field=where, **values))


Quick = Callable[[object], bool]
"""A spec's quick test of one value (:meth:`Spec.quick`)."""


class Spec(Protocol):
    """Anything that can check one decoded value."""

    def check(self, value: object, where: str) -> None:
        """Return if ``value`` fits, else raise :class:`BadMessage` naming ``where``."""
        ...

    def quick(self) -> Quick:
        """This spec as a test that is True only for values :meth:`check` accepts.

        Made once per spec, from the spec's own fields; it looks only at the
        exact plain types (``type(x) is int``: no ``bool``, no subclass), builds
        no field names and no errors. False proves nothing: the caller then
        calls :meth:`check`, which decides and words the refusal. On values
        decoded from the wire (exact types only) both say the same, but for a
        :class:`Plain` deeper than its quick walk goes (:data:`_QUICK_DEPTH`).
        """
        ...


def _never(_value: object) -> bool:
    return False


def _is_map(value: object) -> bool:
    return type(value) is dict


@dataclass(frozen=True)
class Int:
    """An integer (never a bool) in ``lo..hi`` inclusive."""

    lo: int = INT64_MIN
    hi: int = INT64_MAX

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        # bool is a subclass of int in Python; on the wire they are distinct.
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise _bad(where, "field_int", lo=self.lo, hi=self.hi)

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        lo, hi = self.lo, self.hi
        return lambda value: type(value) is int and lo <= value <= hi


@dataclass(frozen=True)
class Bool:
    """``true`` or ``false``."""

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if not isinstance(value, bool):
            raise _bad(where, "field_bool")

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        return lambda value: type(value) is bool


@dataclass(frozen=True)
class Str:
    """Text of ``lo..hi`` characters; with ``printable``, no control or format characters.

    ``printable`` also refuses text that is only spaces and :data:`BLANK_LETTERS`, so a
    name always shows.
    """

    lo: int = 0
    hi: int = 256
    printable: bool = False

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if not isinstance(value, str) or not self.lo <= len(value) <= self.hi:
            kind = "field_printable" if self.printable else "field_text"
            raise _bad(where, kind, lo=self.lo, hi=self.hi)
        # str.isprintable() is False for newlines, tabs, zero-width and bidi
        # controls: the characters that could forge or hide text in a UI.
        if self.printable and (not value.isprintable() or (value and not shows(value))):
            raise _bad(where, "field_printable", lo=self.lo, hi=self.hi)

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        lo, hi = self.lo, self.hi
        if not self.printable:
            return lambda value: type(value) is str and lo <= len(value) <= hi

        def fits(value: object) -> bool:
            return (
                type(value) is str
                and lo <= len(value) <= hi
                and value.isprintable()
                and not value.translate(_AS_SPACES).isspace()  # as check's shows()
            )

        return fits


@dataclass(frozen=True)
class OneOf:
    """One of a fixed set of strings."""

    choices: tuple[str, ...]

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if not isinstance(value, str) or value not in self.choices:
            raise _bad(where, "field_choice", choices=", ".join(repr(c) for c in self.choices))

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        choices = frozenset(self.choices)
        return lambda value: type(value) is str and value in choices


@dataclass(frozen=True)
class Nullable:
    """``None`` or whatever ``inner`` accepts."""

    inner: Spec

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if value is not None:
            self.inner.check(value, where)

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        inner = self.inner.quick()
        return lambda value: value is None or inner(value)


@dataclass(frozen=True)
class ListOf:
    """A list of at most ``hi`` items, each accepted by ``item``."""

    item: Spec
    hi: int = 64

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if not isinstance(value, list) or len(value) > self.hi:
            raise _bad(where, "field_list", hi=self.hi)
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        item, hi = self.item.quick(), self.hi
        return lambda value: type(value) is list and len(value) <= hi and all(map(item, value))


@dataclass(frozen=True)
class Params:
    """Named values: a map of at most ``hi`` entries, each key text of 1 to 32
    characters, each value text of at most 256 characters or a 64-bit integer."""

    hi: int = 16

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        must = partial(_bad, where, "field_params", hi=self.hi)  # built only when raised
        if not isinstance(value, dict) or len(value) > self.hi:
            raise must()
        for key, item in value.items():
            if not isinstance(key, str) or not 1 <= len(key) <= 32:
                raise must()
            text = isinstance(item, str) and len(item) <= 256
            number = isinstance(item, int) and not isinstance(item, bool)
            if not (text or (number and INT64_MIN <= cast(int, item) <= INT64_MAX)):
                raise must()

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        hi = self.hi

        def fits(value: object) -> bool:
            if type(value) is not dict or len(value) > hi:
                return False
            for key, item in value.items():
                if type(key) is not str or not 1 <= len(key) <= 32:
                    return False
                kind = type(item)
                if not (
                    (kind is str and len(item) <= 256)
                    or (kind is int and INT64_MIN <= item <= INT64_MAX)
                ):
                    return False
            return True

        return fits


@dataclass(frozen=True)
class Plain:
    """Free-form game data: a map of plain values, within size bounds.

    Plain values are ``dict`` with ``str`` keys, ``list``, ``str``, ``int``
    (64-bit), ``bool`` and ``None``. Floats and bytes are refused: games speak
    in whole numbers and text, and equality of floats is not worth the trouble.

    Attributes:
        max_depth: Deepest nesting of containers; the top map is depth 1.
        max_nodes: Most values in total, containers included.
        max_str: Longest string or key, in characters.
    """

    max_depth: int = 8
    max_nodes: int = 512
    max_str: int = 256

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`.

        Most values are checked by :func:`_fits`, a quick walk that accepts only
        the exact plain types; anything it is not sure of (a refusal, a subclass
        such as an ``IntEnum``, a spec deeper than it recurses) is decided by
        :meth:`walk`, so the answer and its error are always :meth:`walk`'s.
        """
        if not isinstance(value, dict):
            raise _bad(where, "field_map")
        # _fits reads only exact maps: it would take a dict subclass for a list of its keys.
        if type(value) is dict and self.max_nodes >= 1 and 1 <= self.max_depth <= _QUICK_DEPTH:
            try:
                limits = (self.max_depth, self.max_nodes, self.max_str)
                if not value or _fits(value, 1, 1, *limits) >= 0:
                    return
            except RecursionError:  # called from deep in a stack: walk without recursing
                pass
        self.walk(value, where)

    def quick(self) -> Quick:
        """See :class:`Spec`: :meth:`check`'s quick walk (:func:`_fits`) alone."""
        if not (self.max_nodes >= 1 and 1 <= self.max_depth <= _QUICK_DEPTH):
            return _never
        limits = (self.max_depth, self.max_nodes, self.max_str)

        def fits(value: object) -> bool:
            if type(value) is not dict:
                return False
            try:
                return not value or _fits(value, 1, 1, *limits) >= 0
            except RecursionError:  # called from deep in a stack: check() walks
                return False

        return fits

    def given_plain_tokens(self, size: int, containers: int | None = None) -> Spec:
        """This spec, for values that :func:`net.frames.decode` made of a payload of at
        most ``size`` bytes which :func:`net.frames.plain_tokens` passed, or which
        :func:`net.frames.decode_plain` proved plain, or whose own bytes, at most
        ``size`` of them, :func:`net.frames.decode_fields` proved plain.

        Such a value holds only the exact plain types, 64-bit integers, ``str``
        keys, at most ``size`` values and no string longer than ``size``: when
        :attr:`max_nodes` and :attr:`max_str` are both at least ``size``, only
        the depth is left to check, and the spec returned (:class:`PlainDepth`)
        checks only that. Otherwise it is this spec itself.

        Args:
            containers: When given, the payload holds at most this many maps and
                lists, the frame's own map included (:func:`net.frames.decode_plain`),
                or the value's own bytes hold at most ``containers - 1`` bytes that
                could begin one (:func:`net.frames.decode_fields`).
                A field's value then holds at most ``containers - 1`` of them, so a
                value at depth ``d`` inside it (the field's map is depth 1) has
                ``d - 1`` of them above it and ``d <= containers``: when that is at
                most :attr:`max_depth`, the depth is proven too, and the spec
                returned checks only that the value is a map.

        Never use the result on a value of any other origin: it would let
        through floats, bytes and other types it no longer looks at.
        """
        if self.max_nodes >= size and self.max_str >= size and self.max_depth >= 1:
            shallow = containers is not None and containers <= self.max_depth
            return PlainDepth(self, proven=shallow)
        return self

    def given_decoded(self) -> Spec:
        """This spec, for values that ``msgpack.unpackb`` built with its default
        ``strict_map_key`` (as :func:`net.frames.decode` does): a map's keys are
        ``str`` or ``bytes``. The spec returned (:class:`PlainDecoded`) reads the
        value's own encoding instead of walking it.

        Never use the result on a value of any other origin: a map with ``int``
        keys would pass it.
        """
        return PlainDecoded(self)

    def walk(self, value: dict[object, object], where: str) -> None:
        """:meth:`check` of a map, one value at a time with an explicit stack.

        The reference check (slower than :func:`_fits`); it also accepts
        subclasses of the plain types (``isinstance``), as values built in this
        process (a bot's action) may hold.

        Raises:
            BadMessage: ``field_plain``, for anything out of bounds or not plain.
        """
        must = partial(
            _bad, where, "field_plain", depth=self.max_depth, nodes=self.max_nodes,
            chars=self.max_str,
        )  # fmt: skip
        # An explicit stack instead of recursion: a hostile value can never
        # reach Python's recursion limit, and the node budget stops early.
        stack: list[tuple[object, int]] = [(value, 1)]
        nodes = 0
        while stack:
            item, depth = stack.pop()
            nodes += 1
            if nodes > self.max_nodes or depth > self.max_depth:
                raise must()
            if item is None or isinstance(item, bool):
                continue
            if isinstance(item, int):
                if not INT64_MIN <= item <= INT64_MAX:
                    raise must()
            elif isinstance(item, str):
                if len(item) > self.max_str:
                    raise must()
            elif isinstance(item, list):
                stack.extend((child, depth + 1) for child in item)
            elif isinstance(item, dict):
                for key, child in item.items():
                    if not isinstance(key, str) or len(key) > self.max_str:
                        raise must()
                    stack.append((child, depth + 1))
            else:
                raise must()


_QUICK_DEPTH: Final = 100
"""Deepest ``Plain.max_depth`` that :func:`_fits` recurses to (well within Python's
recursion limit); deeper specs are checked by :meth:`Plain.walk` alone."""


def _fits(
    item: dict[object, object] | list[object],
    depth: int,
    nodes: int,
    max_depth: int,
    max_nodes: int,
    max_str: int,
) -> int:
    """:meth:`Plain.check`'s quick walk of the non-empty container ``item`` at ``depth``.

    Only the exact types ``dict``, ``list``, ``str``, ``int``, ``bool`` and
    ``None`` are looked at (``type(x) is ...``, cheaper than ``isinstance``);
    leaves are checked in their container's loop and only containers recurse,
    so a value of ``n`` nodes costs ``n`` cheap steps, not ``n`` stack pushes.

    Args:
        nodes: values counted so far, ``item`` included.

    Returns:
        The values counted once ``item``'s are added, or ``-1`` when ``item``
        is not certainly within bounds and plain (the caller then walks it
        with :meth:`Plain.walk`, which decides). Never more lenient than
        :meth:`Plain.walk`: the same depth, node and length bounds.
    """
    if depth >= max_depth:  # its children would be deeper than allowed
        return -1
    nodes += len(item)
    if nodes > max_nodes:
        return -1
    # Any: the type tests below are exact (type() is), which mypy does not narrow on.
    children: Iterable[Any] = item
    if type(item) is dict:
        for key in item:
            if type(key) is not str or len(key) > max_str:
                return -1
        children = item.values()
    for child in children:
        kind = type(child)
        if kind is str:
            if len(child) > max_str:
                return -1
        elif kind is int:
            if not INT64_MIN <= child <= INT64_MAX:
                return -1
        elif kind is dict or kind is list:
            if child:
                nodes = _fits(child, depth + 1, nodes, max_depth, max_nodes, max_str)
                if nodes < 0:
                    return -1
        elif child is not None and kind is not bool:
            return -1
    return nodes


@dataclass(frozen=True)
class PlainDepth:
    """:class:`Plain` for values whose every other bound is already proven: only the
    depth is checked (see :meth:`Plain.given_plain_tokens`, which makes it).

    The answer is always ``plain``'s: a map within ``plain.max_depth`` is accepted,
    anything else is handed to ``plain.check``, which raises its own error.
    One 1.3 kB view: ≈ 2.2 µs, against ≈ 19 µs for :meth:`Plain.check`.

    Attributes:
        plain: the spec whose depth bound applies.
        proven: the depth too is proven (the payload holds at most ``plain.max_depth``
            maps and lists): any map is accepted.
    """

    plain: Plain
    proven: bool = False

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if type(value) is dict and (
            self.proven or not value or _within_depth(value, self.plain.max_depth)
        ):
            return
        self.plain.check(value, where)

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        if self.proven:
            return _is_map
        max_depth = self.plain.max_depth
        return lambda value: type(value) is dict and (not value or _within_depth(value, max_depth))


@dataclass(frozen=True)
class PlainDecoded:
    """:class:`Plain` for values that ``msgpack.unpackb`` built (see
    :meth:`Plain.given_decoded`), checked by encoding them again, in C.

    The rule: such a value holds only ``dict`` (``str`` or ``bytes`` keys), ``list``,
    ``str``, ``int``, ``float``, ``bool``, ``None``, ``bytes`` and ``ExtType``, and
    msgpack encodes each of them with tokens of its own (exact types only:
    ``strict_types``). So when the encoding passes :func:`net.frames.plain_tokens`,
    the value holds only the plain types, integers within 64 bits and ``str``
    keys; it holds at most as many values as the encoding has bytes, and no
    longer string. It holds at most ``C`` maps and lists, itself included
    (:func:`net.frames.plain_containers`), so a value at depth ``d`` in it (the
    value is depth 1), having ``d - 1`` of them above it, has ``d <= C + 1``.
    What that does not prove is decided by ``plain``'s quick walk, and then by
    ``plain.check``, whose error it raises.

    A 1.3 kB view: ≈ 8 µs, against ≈ 21 µs for :meth:`Plain.check`.

    Attributes:
        plain: the spec whose bounds apply.
    """

    plain: Plain

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if not _fits_encoded(value, self.plain):
            self.plain.check(value, where)

    def quick(self) -> Quick:
        """See :class:`Spec`."""
        plain, walk = self.plain, self.plain.quick()
        return lambda value: _fits_encoded(value, plain) or walk(value)


def _fits_encoded(value: object, plain: Plain) -> bool:
    """:class:`PlainDecoded`'s test of ``value`` (built by ``msgpack.unpackb``) against
    ``plain``: True only if it is a map within ``plain``'s bounds; False proves nothing."""
    if type(value) is not dict:
        return False
    try:
        encoded: bytes = msgpack.packb(value, strict_types=True)
    except Exception:  # e.g. nested past the packer's own limit
        return False
    containers = plain_containers(encoded)
    if containers is None or len(encoded) > min(plain.max_nodes, plain.max_str):
        return False
    return containers < plain.max_depth or _within_depth(value, plain.max_depth)


def _within_depth(top: dict[Any, Any], max_depth: int) -> bool:
    """True when no value inside the non-empty map ``top`` (depth 1) is deeper than
    ``max_depth``.

    Usually answered by :func:`_shallow_by_collector` (the levels walked in C); when
    that proves nothing (a value near the bound), by the walk below, which is exact.
    A 1.3 kB view: ≈ 2.2 µs, against ≈ 3.4 µs for the walk below alone.

    Level by level, keeping only the non-empty maps and lists (exact types) of
    each level: no recursion, and leaves cost one type test each. For values
    already known to hold nothing but plain types (:meth:`Plain.given_plain_tokens`).

    A map the collector does not track holds no map or list (CPython tracks a
    map as soon as one is put in it: :data:`_LEAF_MAPS_UNTRACKED`), so its
    values are not looked at: only its own depth counts. Views are mostly such
    small maps (a card, an event): a 1.3 kB view is checked in ≈ 3.4 µs instead
    of ≈ 7.9, a 4 kB view of a 2- to 5-player game in ≈ 16-20 µs instead of ≈ 19-23.
    """
    if _LEAF_MAPS_UNTRACKED and _shallow_by_collector(top, max_depth):
        return True
    level: list[Any] = [top]
    depth = 1
    tracked = gc.is_tracked if _LEAF_MAPS_UNTRACKED else _always
    while level:  # non-empty containers at ``depth``
        if depth >= max_depth:  # their children would be deeper than allowed
            return False
        deeper: list[Any] = []
        for item in level:
            for child in item.values() if type(item) is dict else item:
                kind = type(child)
                if kind is list:
                    if child:
                        deeper.append(child)
                elif kind is dict and child:
                    if tracked(child):
                        deeper.append(child)
                    elif depth + 1 >= max_depth:  # a map of leaves, one level too deep
                        return False
        level = deeper
        depth += 1
    return True


def _shallow_by_collector(top: dict[Any, Any], max_depth: int) -> bool:
    """True only if no value inside the map ``top`` (depth 1, plain types only) is
    deeper than ``max_depth``; False proves nothing.

    Each level is the containers the collector tracks among the previous level's
    references (``gc.get_referents``: a map's keys and values, a list's items), found
    in C. Tracked are every list and every map holding a map or a list; a map it
    leaves untracked holds only leaves (:data:`_LEAF_MAPS_UNTRACKED`, which the caller
    checks). So once the tracked levels stop before depth ``max_depth - 1``, every
    container lies at depth ``max_depth - 1`` or less and every value at ``max_depth``
    or less. It gives up one level early (an untracked map of leaves at
    ``max_depth`` would not be seen), which is when the exact walk decides.
    """
    level: list[Any] = [top]
    depth = 1
    tracked, referents = gc.is_tracked, gc.get_referents
    while level:  # the tracked containers at ``depth``
        if depth >= max_depth - 1:
            return False
        level = list(filter(tracked, referents(*level)))
        depth += 1
    return True


def _always(_value: object) -> bool:
    return True


def _leaf_maps_untracked() -> bool:
    """Whether this interpreter leaves a map of plain leaves untracked by the collector
    and tracks one holding a map or a list, as CPython does (the invariant the
    collector needs: an untracked map must hold nothing it could find a cycle through)."""
    leaves: dict[str, Any] = msgpack.unpackb(msgpack.packb({"a": 1, "b": "c", "d": None}))
    inners: tuple[object, ...] = ({}, [], {"b": 1})
    holders = [msgpack.unpackb(msgpack.packb({"a": inner})) for inner in inners]
    return not gc.is_tracked(leaves) and all(gc.is_tracked(h) for h in holders)


_LEAF_MAPS_UNTRACKED: Final = _leaf_maps_untracked()
""":func:`_within_depth` skips the values of untracked maps (checked once, at import)."""


@dataclass(frozen=True)
class Record:
    """A map with named fields.

    Attributes:
        required: Fields that must be present, with their specs.
        optional: Fields that may be absent (absent reads as ``None`` to the caller).
        open: Accept unknown extra fields (used when reading a server, which
            may add fields); closed records refuse them, catching typos early.
    """

    required: Mapping[str, Spec] = field(default_factory=dict)
    optional: Mapping[str, Spec] = field(default_factory=dict)
    open: bool = False

    def check(self, value: object, where: str) -> None:
        """See :class:`Spec`."""
        if not isinstance(value, dict):
            raise _bad(where, "field_map")
        for name, spec in self.required.items():
            if name not in value:
                raise BadMessage("bad_message", *worded("field_missing", field=f"{where}.{name}"))
            spec.check(value[name], f"{where}.{name}")
        for name, spec in self.optional.items():
            if name in value:
                spec.check(value[name], f"{where}.{name}")
        if not self.open:
            known = self.required.keys() | self.optional.keys()
            extra = sorted(str(k) for k in value if k not in known)
            if extra:
                raise BadMessage(
                    "bad_message", *worded("field_unknown", field=where, fields=", ".join(extra))
                )

    def quick(self) -> Quick:
        """See :class:`Spec`: each field's own quick test, in one loop, naming nothing.

        A view frame (five fields, its data's depth proven): ≈ 0.35 µs, against
        ≈ 0.9 µs for :meth:`check`.
        """
        required = tuple((name, spec.quick()) for name, spec in self.required.items())
        optional = tuple((name, spec.quick()) for name, spec in self.optional.items())
        known = None if self.open else self.required.keys() | self.optional.keys()

        def fits(value: object) -> bool:
            if type(value) is not dict:
                return False
            for name, test in required:
                if name not in value or not test(value[name]):
                    return False
            for name, test in optional:
                if name in value and not test(value[name]):
                    return False
            return known is None or value.keys() <= known

        return fits
