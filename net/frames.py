"""Wire framing: a 4-byte big-endian length, then one msgpack map.

This module only turns bytes into plain maps and back; what the maps must
contain is :mod:`net.messages`' job. Decoding never builds objects: no ext
types, no timestamps, no binary strings, only ``dict`` (``str`` keys),
``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``.
"""

from __future__ import annotations

import asyncio
import gc
import struct
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgpack

from net.game import Wire

PROTOCOL_VERSION: Final = 1
"""Version of the wire protocol; both ends must use the same one."""

MAX_FRAME: Final = 64 * 1024
"""Largest payload in bytes (not counting the 4-byte length) either side accepts."""

_HEADER: Final = struct.Struct(">I")


class FrameError(Exception):
    """A frame that cannot be read: the stream is unusable and must be closed.

    Raised for a length over :data:`MAX_FRAME` (or zero), a stream that ends
    inside a frame, bytes that are not one msgpack value, or a value that is
    not a map. Also raised by :func:`encode` for a message that cannot be sent.
    """


class ConnectionLost(Exception):
    """The peer closed or reset the connection between two frames."""


@dataclass(frozen=True)
class Limits:
    """Caps on decoded containers, so a small frame cannot expand into a huge object.

    Attributes:
        max_str_len: Longest string, in bytes of UTF-8.
        max_array_len: Most items in any one array.
        max_map_len: Most pairs in any one map.
    """

    max_str_len: int
    max_array_len: int
    max_map_len: int


CLIENT_LIMITS: Final = Limits(max_str_len=1024, max_array_len=256, max_map_len=64)
"""What a server accepts from clients: messages from clients are small."""

SERVER_LIMITS: Final = Limits(max_str_len=MAX_FRAME, max_array_len=MAX_FRAME, max_map_len=MAX_FRAME)
"""What a client accepts from a server: views can be large, the frame cap still bounds them."""


def encode(msg: Mapping[str, Any]) -> bytes:
    """Serialise one message as a complete frame (length prefix included).

    Args:
        msg: A msgpack-able map with ``str`` keys.

    Returns:
        ``4 + n`` bytes, where ``n <= MAX_FRAME``.

    Raises:
        FrameError: ``msg`` holds a value msgpack cannot encode, or is too large.
    """
    try:
        payload: bytes = msgpack.packb(dict(msg), use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise FrameError(f"Cannot encode message: {exc}.") from exc
    if len(payload) > MAX_FRAME:
        raise FrameError(f"Message of {len(payload)} bytes exceeds the {MAX_FRAME}-byte frame cap.")
    return _HEADER.pack(len(payload)) + payload


def decode(payload: bytes, limits: Limits = CLIENT_LIMITS) -> Wire:
    """Decode one frame's payload (without its length prefix) into a map.

    Args:
        payload: Exactly one msgpack value.
        limits: Container caps; :data:`CLIENT_LIMITS` by default (the strict ones).

    Returns:
        The decoded map.

    Raises:
        FrameError: Not exactly one msgpack value, a cap exceeded, a non-``str``
            key in the top-level map, an ext or non-empty bin value, or a
            top-level value that is not a map.
    """
    try:
        value = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=limits.max_str_len,
            # Binary and ext values have no use in this protocol; refusing them
            # also keeps msgpack from building Timestamp/ExtType objects.
            max_bin_len=0,
            max_ext_len=0,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
        )
    # msgpack documents "other exceptions can be raised during unpacking";
    # anything it raises here means the bytes are bad, never a bug of ours.
    except Exception as exc:
        raise FrameError(f"Undecodable frame: {exc or type(exc).__name__}.") from exc
    if not isinstance(value, dict):
        raise FrameError(f"A frame must hold a map, not {type(value).__name__}.")
    # max_bin_len=0 still lets an empty bin through; deeper levels are
    # checked by the message schemas, which accept only str keys.
    if not all(isinstance(key, str) for key in value):
        raise FrameError("Map keys must be strings.")
    return value


_NOT_PLAIN_TOKENS: Final = bytes(
    (
        *(0xC4, 0xC5, 0xC6),  # bin 8/16/32
        *(0xC7, 0xC8, 0xC9),  # ext 8/16/32
        *(0xCA, 0xCB),  # float 32/64
        0xCF,  # uint 64 (may exceed a signed 64-bit integer)
        *(0xD4, 0xD5, 0xD6, 0xD7, 0xD8),  # fixext 1/2/4/8/16
    )
)
"""The first bytes of every msgpack token that decodes to something other than a map,
an array, a string, a signed-64-bit-range integer, a bool or nil."""


def plain_tokens(payload: bytes) -> bool:
    """True when no byte of ``payload`` could begin a float, bin, ext or uint 64 token.

    A conservative test of the bytes, not a parse: such a byte inside a
    string or a number's body also makes it False (then nothing is proven and
    the caller checks the decoded value in full). When it is True, whatever
    :func:`decode` makes of ``payload`` holds only ``dict`` (``str`` keys: a
    bytes key needs a bin token), ``list``, ``str``, ``int`` from −2⁶³ to
    2⁶³ − 1, ``bool`` and ``None``, of exactly those types; it holds at most
    ``len(payload)`` values and no string longer than ``len(payload)``
    characters (every value, and every character, takes at least one byte).
    About 0.5 µs for a 1.3 kB payload (one C pass over the bytes).
    """
    return len(payload.translate(None, _NOT_PLAIN_TOKENS)) == len(payload)


_CONTAINER_STARTS: Final = bytes((*range(0x80, 0xA0), 0xDC, 0xDD, 0xDE, 0xDF))
"""The first bytes of every msgpack map or array token (fixmap, fixarray, array and map 16/32)."""

_TOKEN_KINDS: Final = bytes(
    2 if byte in _NOT_PLAIN_TOKENS else 1 if byte in _CONTAINER_STARTS else 0 for byte in range(256)
)
"""Each byte's kind for :func:`plain_containers`' one pass: 2 for a byte of
:data:`_NOT_PLAIN_TOKENS`, 1 for one of :data:`_CONTAINER_STARTS`, 0 otherwise."""


def plain_containers(data: bytes) -> int | None:
    """When :func:`plain_tokens` passes ``data``: how many of its bytes could begin a map
    or an array token, at least as many as the maps and lists msgpack makes of it;
    ``None`` otherwise. One pass over the bytes, in C: ≈ 1 µs for 1.3 kB.
    """
    kinds = data.translate(_TOKEN_KINDS)
    return None if 2 in kinds else kinds.count(1)


_SERVER_OPTIONS: Final[dict[str, Any]] = {
    "raw": False,
    "strict_map_key": True,
    "use_list": True,
    "max_str_len": SERVER_LIMITS.max_str_len,
    "max_bin_len": 0,
    "max_ext_len": 0,
    "max_array_len": SERVER_LIMITS.max_array_len,
    "max_map_len": SERVER_LIMITS.max_map_len,
}
"""``decode(payload, SERVER_LIMITS)``'s options for msgpack, for :func:`decode_plain`
and :func:`decode_fields`, which must make the very values it makes."""


def decode_plain(payload: bytes) -> tuple[Wire, int] | None:
    """``decode(payload, SERVER_LIMITS)``'s map, more cheaply, with what the bytes prove.

    The payload is decoded with :func:`decode`'s own options and limits
    (:data:`_SERVER_OPTIONS`: the very map, when it is one); then, when
    :func:`decoded_containers` passes its bytes, everything :func:`plain_tokens`
    says of a value holds of it: only exact plain types, ``str`` keys, 64-bit
    integers, at most ``len(payload)`` values and no longer string.

    Returns:
        ``(the map, containers)``, where ``containers`` is the number of bytes of
        ``payload`` that could begin a map or an array token: at least the number
        of maps and lists in the map, itself included. ``None`` when nothing is
        proven: the payload is longer than :data:`MAX_FRAME`, holds a token
        :func:`decoded_containers` cannot rule out, msgpack refuses it, or it is
        not a map; then :func:`decode` decides (and words the error). A 1.3 kB
        view: ≈ 1 µs over msgpack's own decoding.
    """
    containers = decoded_containers(payload) if len(payload) <= MAX_FRAME else None
    if containers is None:
        return None
    try:
        value = msgpack.unpackb(payload, **_SERVER_OPTIONS)
    except Exception:  # msgpack's errors are many; decode() raises the frame's own
        return None
    if type(value) is not dict:
        return None
    return value, containers


_MAYBE_NOT_PLAIN: Final = bytes((*range(0xC4, 0xCC), 0xCF))
"""The first bytes of the tokens that :data:`_SERVER_OPTIONS` let through and that may
decode to something other than a plain value: bin 8/16/32 and ext 8/16/32 (when
empty), float 32/64, uint 64. (A fixext token always holds data: refused.)"""

_DECODED_KINDS: Final = bytes(
    2 if byte in _MAYBE_NOT_PLAIN else 1 if byte in _CONTAINER_STARTS else 0 for byte in range(256)
)
"""Each byte's kind for :func:`decoded_containers`: 2 for a byte of
:data:`_MAYBE_NOT_PLAIN`, 1 for one of :data:`_CONTAINER_STARTS`, 0 otherwise."""

_NEITHER_KIND: Final = bytes(byte for byte in range(256) if not _DECODED_KINDS[byte])
"""The bytes of kind 0 (:data:`_DECODED_KINDS`), which :func:`decoded_containers` leaves
out: what is left of the bytes, translated, tells both of its answers in one pass (≈ 0.3 µs
less than translating them all and counting)."""

_EMPTY_LENGTH: Final = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xC7: 1, 0xC8: 2, 0xC9: 4}
"""Bin and ext 8/16/32: the bytes of their length, which must be all zero for
:data:`_SERVER_OPTIONS` to let the token through."""

_UNREAD: Final = object()
"""No value given (:func:`_decoded_plain`)."""

_MAYBE_NOT_PLAIN_MAX: Final = 16
"""Most bytes of :data:`_MAYBE_NOT_PLAIN` :func:`decoded_containers` looks at one by
one (≈ 0.2 µs each) before it gives up."""


def decoded_containers(data: bytes) -> int | None:
    """:func:`plain_containers` for the bytes of a value that msgpack read with
    :data:`_SERVER_OPTIONS` (:func:`decode`'s own with :data:`SERVER_LIMITS`), which
    may hold more bytes of :data:`_NOT_PLAIN_TOKENS` and still prove the same.

    The rule: with ``max_bin_len=0`` and ``max_ext_len=0``, msgpack reads a bin or an
    ext token only when it is empty, its length all zero bytes (``c4 00``, ``c5 00
    00``, ``c6 00 00 00 00`` for ``b""``; ``c7 00``, ``c8 00 00``, ``c9 00 00 00 00``
    then the type for an empty ``ExtType``); a fixext token (``d4``-``d8``) always
    holds data and is refused. A float begins with ``ca`` or ``cb``; an integer
    above 2⁶³ − 1 with ``cf`` then 8 bytes (big-endian), the first at least
    ``0x80``. So when ``data`` holds none of those sequences (whole: a token lies
    within the value's bytes), it holds no token that is not plain, and what
    :func:`plain_tokens` says of a value holds of the value read from it. A
    byte such as ``0xc8`` in ``rev`` 200 (``cc c8``), followed by the next key's
    header, is no longer a doubt.

    Returns:
        At least the number of maps and lists in the value, itself included (the
        bytes that could begin one); ``None`` when ``data`` holds one of those
        sequences, or more than :data:`_MAYBE_NOT_PLAIN_MAX` bytes that could begin
        one. ≈ 0.6 µs for 1.3 kB (one pass, in C); ≈ 1.7 µs with one byte that could
        begin such a sequence (a second pass, to find it), plus ≈ 0.2 µs per further one.

    Never use it on bytes read with other options: a bin token with data, or a
    fixext one, would pass.
    """
    marks = data.translate(_DECODED_KINDS, _NEITHER_KIND)  # one byte per byte of kind 1 or 2
    if 2 not in marks:
        return len(marks)
    if not _decoded_plain(data, data.translate(_DECODED_KINDS), 0, len(data)):
        return None
    return len(marks) - marks.count(2)


def _decoded_plain(
    data: bytes, kinds: bytes, start: int, end: int, value: object = _UNREAD
) -> bool:
    """:func:`decoded_containers`' test of ``data[start:end]``, whose kinds
    (:data:`_DECODED_KINDS`) are ``kinds[start:end]``: True when no sequence there
    could begin a token that is not plain.

    Given ``value``, the value msgpack read from those bytes with
    :data:`_SERVER_OPTIONS`, a float or an empty ext (``ca``, ``cb``, ``c7 00``...)
    or an integer above 2⁶³ − 1 (``cf`` then a byte of at least ``0x80``) that
    the bytes cannot rule out is ruled out in ``value`` itself
    (:func:`_plain_by_type`); an empty bin still proves nothing.
    """
    at = kinds.find(2, start, end)
    doubt = False  # a token a value's type tells
    big: list[int] = []  # what an integer above 2⁶³ − 1 would be
    for _ in range(_MAYBE_NOT_PLAIN_MAX):
        if at < 0:
            break
        byte = data[at]
        if byte == 0xCF:  # uint 64: 8 bytes, out of range only from 2⁶³ on
            if at + 9 <= end and data[at + 1] >= 0x80:
                doubt = True
                big.append(int.from_bytes(data[at + 1 : at + 9], "big"))
        elif byte in _EMPTY_LENGTH:  # bin or ext: let through only when empty
            width = _EMPTY_LENGTH[byte]
            if at + 1 + width <= end and not any(data[at + 1 : at + 1 + width]):
                if byte <= 0xC6:  # an empty bin: a bytes key, which a value does not tell
                    return False
                doubt = True
        else:  # float 32/64
            doubt = True
        at = kinds.find(2, at + 1, end)
    else:
        if at >= 0:
            return False  # too many to look at
    return not doubt or (value is not _UNREAD and _plain_by_type(value, big))


_PLAIN_TYPES: Final = frozenset((dict, list, str, int, bool, type(None)))


def _plain_by_type(value: object, big: list[int]) -> bool:
    """True only if ``value``, read with :data:`_SERVER_OPTIONS` from bytes that hold
    no empty bin, holds only plain values: every value inside it of an exact type
    of :data:`_PLAIN_TYPES`, and no integer equal to one of ``big``.

    The proof: such a value holds only ``dict`` (``str`` keys: a bytes key needs a
    bin token, the options refuse any other), ``list``, ``str``, ``int``,
    ``float``, ``bool``, ``None`` and ``ExtType``; the types tell all but an
    integer above 2⁶³ − 1, which only a uint 64 token makes (``cf`` then 8 bytes,
    big-endian, the first at least ``0x80``): ``big`` holds the value of every such
    token its bytes may hold. The values are found level by level in C
    (``gc.get_referents``: a map's values, a list's items; checked at import,
    :data:`_REFERENTS_ARE_ITEMS`). A 1.3 kB view: ≈ 6 µs.
    """
    if not _REFERENTS_ARE_ITEMS:
        return False
    level = [value]
    referents = gc.get_referents
    while level:
        if not _PLAIN_TYPES.issuperset(map(type, level)):
            return False
        if big and any(number in level for number in big):  # no float among them: exact
            return False
        level = referents(*level)
    return True


def _referents_are_items() -> bool:
    """Whether ``gc.get_referents`` gives every value of a map with ``str`` keys and
    every item of a list that msgpack built, as CPython's do (checked once, at import)."""
    sample = msgpack.unpackb(msgpack.packb({"a": [1.5, None, "x", 2**64 - 1], "b": {"c": 2}}))
    return all(
        sorted(map(id, gc.get_referents(container))) == sorted(map(id, items))
        for container, items in (
            (sample, sample.values()),
            (sample["a"], sample["a"]),
            (sample["b"], sample["b"].values()),
        )
    )


_REFERENTS_ARE_ITEMS: Final = _referents_are_items()
""":func:`_plain_by_type` may read a value's values with ``gc.get_referents``."""


_UNPACK_STACK: Final = 1024
"""How many maps and lists msgpack's C unpacker holds open at once (its
``MSGPACK_EMBED_STACK_SIZE``): ``unpackb`` refuses a map holding a value nested
1024 containers deep (the map takes one place), but :func:`decode_fields`, which
unpacks that value on its own, would read it."""


def decode_fields(
    payload: bytes, scanned: Container[str]
) -> tuple[Wire, dict[str, int | None]] | None:
    """``decode(payload, SERVER_LIMITS)``'s map, with what the bytes of some of its values prove.

    The map is read one entry at a time (``msgpack.Unpacker`` with
    :data:`_SERVER_OPTIONS`), so the bytes of each value are known (``tell()``
    before and after it): a token of a float in ``rev``, say, says nothing about
    the ``view``. It is the very map :func:`decode` returns: each value is unpacked
    by the same C code with the same options and limits; and whatever ``unpackb``
    refuses at the top level is refused here too, so that :func:`decode` decides:
    a key that is not ``str``, bytes after the map, a value of
    :data:`_UNPACK_STACK` maps and lists nested in each other (``unpackb``
    refuses it, not ``unpack``: such a value has at least that many bytes that
    could begin one). A key given twice keeps its last value, as ``unpackb``'s
    ``dict`` does. (``read_map_header`` does not check
    :attr:`Limits.max_map_len`, but no map of more pairs fits in :data:`MAX_FRAME`
    bytes: each pair takes two.)

    Args:
        payload: One frame's payload (at most :data:`MAX_FRAME` bytes).
        scanned: The keys whose values' bytes are read (say ``{"view"}``).

    Returns:
        ``(the map, scans)``: for each key of ``scanned`` in the map, what its
        value's own bytes prove (those of the last value, for a key given twice):
        when they, or else the value's types (:func:`_decoded_plain`), prove it
        plain (what :func:`plain_tokens` says of a value holds of it), the number
        of those bytes that could begin a map or an array, at least the number of
        maps and lists in it, itself included; ``None`` when they may hold an
        empty bin or a token its types do not rule out. The whole call returns
        ``None`` when the payload is longer than :data:`MAX_FRAME`, msgpack
        refuses it in any way, or it is refused above; then :func:`decode`
        decides (and words the error). A 1.3 kB view: ≈ 3 µs over
        ``msgpack.unpackb``, its bytes' scan included; ≈ 6 µs more when its
        types are read.
    """
    if len(payload) > MAX_FRAME:
        return None
    kinds = payload.translate(_DECODED_KINDS)
    deep = kinds.count(1) >= _UNPACK_STACK  # then a value may be nested too deep
    unpacker = msgpack.Unpacker(None, max_buffer_size=MAX_FRAME, **_SERVER_OPTIONS)
    value: Wire = {}
    scans: dict[str, int | None] = {}
    try:
        unpacker.feed(payload)
        unpack, tell = unpacker.unpack, unpacker.tell
        for _ in range(unpacker.read_map_header()):
            key = unpack()
            if type(key) is not str:
                return None  # before it is used as a key: it may be unhashable
            start = tell()
            value[key] = unpack()
            end = tell()
            if deep and kinds.count(1, start, end) >= _UNPACK_STACK:
                return None
            if key in scanned:
                plain = _decoded_plain(payload, kinds, start, end, value[key])
                scans[key] = kinds.count(1, start, end) if plain else None
        if tell() != len(payload):
            return None
    except Exception:  # msgpack's errors are many; decode() raises the frame's own
        return None
    return value, scans


async def read_payload(reader: asyncio.StreamReader) -> bytes:
    """Read one whole frame from ``reader`` and return its payload, undecoded.

    Args:
        reader: The stream; after a :class:`FrameError` it is out of step and
            must be closed.

    Returns:
        The payload: 1 to :data:`MAX_FRAME` bytes, without the length prefix.

    Raises:
        ConnectionLost: The stream ended cleanly before a new frame, or was reset.
        FrameError: Oversize or zero length, or a stream ending inside a frame.
    """
    try:
        header = await reader.readexactly(_HEADER.size)
    except asyncio.IncompleteReadError as exc:
        if exc.partial:
            raise FrameError("Stream ended inside a frame header.") from exc
        raise ConnectionLost("Connection closed.") from exc
    except OSError as exc:
        raise ConnectionLost(f"Connection lost: {exc}.") from exc
    (length,) = _HEADER.unpack(header)
    if length == 0 or length > MAX_FRAME:
        raise FrameError(f"Frame length {length} is outside 1..{MAX_FRAME} bytes.")
    try:
        payload = await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise FrameError(f"Stream ended after {len(exc.partial)} of {length} bytes.") from exc
    except OSError as exc:
        raise ConnectionLost(f"Connection lost: {exc}.") from exc
    return payload


class FrameCutter:
    """Cuts a stream's bytes, fed as they arrive, into frames: what
    :func:`read_payload` reads, without a task waiting on the stream.

    Args:
        on_payload: called with each whole frame's payload (1 to :data:`MAX_FRAME`
            bytes, without its length prefix), in order, as soon as its last byte
            is fed; it returns True to stop: nothing after that frame is delivered.
        on_end: called once when the stream ends, with why:
            :class:`ConnectionLost` (closed cleanly between two frames, or reset) or
            :class:`FrameError` (a length out of bounds, or the stream ending inside
            a frame: the stream is out of step). Not called after ``on_payload``
            stopped the cutter.
    """

    __slots__ = ("_on_end", "_on_payload", "_partial", "_stopped")

    def __init__(
        self, on_payload: Callable[[bytes], bool], on_end: Callable[[Exception], None]
    ) -> None:
        self._on_payload = on_payload
        self._on_end = on_end
        self._partial = bytearray()  # the start of a frame whose end has not come yet
        self._stopped = False

    @property
    def stopped(self) -> bool:
        """True once the stream ended, was garbled, or ``on_payload`` asked to stop."""
        return self._stopped

    def feed(self, data: bytes) -> None:
        """Take the next bytes of the stream and deliver every frame they complete."""
        if self._stopped or not data:
            return
        if partial := self._partial:
            partial += data
            if len(partial) < _HEADER.size:
                return
            (length,) = _HEADER.unpack_from(partial)
            if 0 < length <= MAX_FRAME and len(partial) < _HEADER.size + length:
                return  # still inside the frame (a length out of bounds is refused below)
            data = bytes(partial)
            partial.clear()
        end = len(data)
        at = 0
        while end - at >= _HEADER.size:
            (length,) = _HEADER.unpack_from(data, at)
            if length == 0 or length > MAX_FRAME:
                self._end(FrameError(f"Frame length {length} is outside 1..{MAX_FRAME} bytes."))
                return
            after = at + _HEADER.size + length
            if after > end:
                break
            if self._on_payload(data[at + _HEADER.size : after]):
                self._stopped = True
                return
            at = after
        if at < end:
            self._partial += data[at:]

    def end(self, error: BaseException | None = None) -> None:
        """The stream ended: cleanly (``error`` None) or with ``error`` (a reset)."""
        if self._stopped:
            return
        if error is not None:
            self._end(ConnectionLost(f"Connection lost: {error}."))
        elif len(self._partial) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self._partial)
            got = len(self._partial) - _HEADER.size
            self._end(FrameError(f"Stream ended after {got} of {length} bytes."))
        elif self._partial:
            self._end(FrameError("Stream ended inside a frame header."))
        else:
            self._end(ConnectionLost("Connection closed."))

    def _end(self, why: Exception) -> None:
        self._stopped = True
        self._partial.clear()
        self._on_end(why)


async def read_frame(reader: asyncio.StreamReader, limits: Limits = CLIENT_LIMITS) -> Wire:
    """Read one whole frame from ``reader`` and decode it.

    Args:
        reader: The stream; after a :class:`FrameError` it is out of step and
            must be closed.
        limits: Container caps for :func:`decode`.

    Returns:
        The decoded map.

    Raises:
        ConnectionLost: The stream ended cleanly before a new frame, or was reset.
        FrameError: Oversize or zero length, a stream ending inside a frame,
            or a payload :func:`decode` refuses.
    """
    return decode(await read_payload(reader), limits)


def wire_copy(value: Any) -> Any:
    """A deep copy of ``value`` made by encoding and decoding it, as a peer would see it.

    Used to hand bots exactly what a client would receive: no references
    into the match, nothing that could not be sent.

    Raises:
        FrameError: ``value`` holds something msgpack cannot encode.
    """
    try:
        return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)
    except (TypeError, ValueError, OverflowError) as exc:
        raise FrameError(f"Cannot encode value: {exc}.") from exc
