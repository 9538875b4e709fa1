"""µs per client-side check of a server frame (``net.messages.parse_server_frame``),
next to its anchor measured in the same process: ``msgpack.unpackb`` of the same
bytes (what a client that trusted its server would do) and the reference check,
``parse_server_message(decode(payload, SERVER_LIMITS))``.

Frames: the three views of the server figure (``scripts/bench.py``, 300 actions;
≈ 1.3 kB) and spectator and seat-0 views of 2-, 4- and 5-player games 120
decisions in (≈ 3-6 kB); each also with a byte that could begin a token of another
kind: outside the view (``rev`` 452 and ``ends_in_ms`` 2500: ``cd 01 c4``, ``cd 09
c4``, which the next byte rules out; ``rev`` 202: ``cc ca``, a float's head, which
only reading the view's own bytes rules out), in the view (an integer 199: ``cc c7``,
as the bench's ``log_size``), and in the view where only the values' types settle it
(202).

Usage: ``.venv/bin/python scripts/bench_check.py`` (≈ 10 s). Best of 7 runs each.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

import msgpack

sys.path[:0] = [str(Path(__file__).resolve().parent)]

import bench  # noqa: E402  (the server figure's own frames)

from net.frames import SERVER_LIMITS, decode  # noqa: E402
from net.messages import parse_server_frame, parse_server_message  # noqa: E402
from poissonnier_tui.games.poissonnier.rules.engine import (  # noqa: E402
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.view import view_for  # noqa: E402


def game_frames(players: int) -> list[bytes]:
    """Spectator and seat-0 view frames, 120 decisions into a seeded random game."""
    rng = random.Random(players)
    state = new_game(players, players)
    for _ in range(120):
        seat = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.randrange(len(legal))])
    return [
        bytes(msgpack.packb({"type": "view", "rev": 120, "view": view_for(state, seat)}))
        for seat in (None, 0)
    ]


def with_outside(**fields: int) -> Callable[[bytes], bytes]:
    """The same frame, with these top-level fields."""

    def change(payload: bytes) -> bytes:
        return bytes(msgpack.packb({**msgpack.unpackb(payload), **fields}))

    return change


def with_in_view(number: int) -> Callable[[bytes], bytes]:
    """The same frame, its view holding one more integer, ``number``, first."""

    def change(payload: bytes) -> bytes:
        wire = msgpack.unpackb(payload)
        return bytes(msgpack.packb({**wire, "view": {"n": number, **wire["view"]}}))

    return change


VARIANTS: dict[str, Callable[[bytes], bytes]] = {
    "": lambda payload: payload,
    ", 0xc4 outside": with_outside(rev=452, ends_in_ms=2500),
    ", 0xca outside": with_outside(rev=202),
    ", 0xc7 in view": with_in_view(199),
    ", 0xca in view": with_in_view(202),
}
"""Each frame as it is, and with a byte that could begin a token of another kind."""


def micros(call: Callable[[], object], number: int) -> float:
    """Best of 7 runs of ``number`` calls, in µs per call."""
    return min(timeit.repeat(call, number=number, repeat=7)) / number * 1e6


def reference(payload: bytes) -> object:
    return parse_server_message(decode(payload, SERVER_LIMITS))


def main() -> None:
    """Print one row per frame: bytes, then µs for the anchor, the check and the reference."""
    _, frames, _ = asyncio.run(bench.server_fanout(300))
    kinds = {"bench": [f[4:] for f in frames[:3]]}
    kinds.update({f"{n} players": game_frames(n) for n in (2, 4, 5)})
    print(f"load: {os.getloadavg()[0]:.2f}")
    print("| frames | bytes | unpackb (anchor) | parse_server_frame | × unpackb | reference |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, payloads in kinds.items():
        for suffix, change in VARIANTS.items():
            for payload in map(change, payloads):
                label = name + suffix
                assert parse_server_frame(payload) == reference(payload)
                number = max(200, 3_000_000 // (len(payload) * 100))
                anchor = micros(partial(msgpack.unpackb, payload), number)
                fast = micros(partial(parse_server_frame, payload), number)
                full = micros(partial(reference, payload), number // 3)
                print(
                    f"| {label} | {len(payload)} | {anchor:.1f} µs | {fast:.1f} µs "
                    f"| {fast / anchor:.2f} | {full:.1f} µs |"
                )


if __name__ == "__main__":
    main()
