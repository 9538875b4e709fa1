"""scripts/bench.py's server figure: the table and its anchor measured in turns.

The figures themselves are measured by running the script, never asserted here; this
checks that the harness measures what its docstrings say (docs/measurements/
bench-server.txt, round 14): both servers on one loop, a warm-up on each, then turns
of measured rounds, each after one round not measured.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import bench


def _recording(
    calls: list[tuple[str, int]], kind: str, rounds: Callable[[Any, int], Awaitable[list[float]]]
) -> Callable[[Any, int], Awaitable[list[float]]]:
    async def counted(where: Any, count: int) -> list[float]:
        calls.append((kind, count))
        return await rounds(where, count)

    return counted


def test_the_table_and_its_anchor_run_in_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 warm-up rounds each, then turns of 3 measured rounds after one not measured,
    the last turn short; seat 0 left unready (13 actions: one more), as the lean
    model's first action, a ready, needs."""
    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(bench, "table_rounds", _recording(calls, "table", bench.table_rounds))
    monkeypatch.setattr(bench, "_bare_rounds", _recording(calls, "bare", bench._bare_rounds))
    monkeypatch.setattr(bench, "_settle", lambda: None)  # no process-wide gc.freeze in tests

    table, bare, frames, game = asyncio.run(bench.fanout_side_by_side(7, warmup=3, block=3))

    assert calls == [
        ("table", 3),
        ("bare", 3),
        ("table", 4),
        ("bare", 4),
        ("table", 4),
        ("bare", 4),
        ("table", 2),
        ("bare", 2),
        ("table", 1),
    ]
    assert len(table) == len(bare) == 7
    assert all(ms > 0 for ms in table + bare)
    assert len(frames) == 22 and frames[2:] == [frames[2]] * 20  # seat 0, seat 1, spectators
    assert frames[0] != frames[1] != frames[2]  # each seat sees its own hand
    lean = asyncio.run(bench.lean_fanout(game, 2, "none"))  # ready, unready: both legal
    assert len(lean) == 2


def test_the_anchor_sends_the_frames_the_table_sent_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """The anchor's peers decode the very bytes the table's 22 clients got in the
    round before each of its turns ("a bare asyncio fan-out of the same frames"), not
    those of the warm-up: the views grow with the log's tail until it holds 40 entries,
    so frames taken after a short warm-up would be smaller than those measured."""
    from net.client import TableClient

    got: dict[int, bytes] = {}  # each table client's last view payload, by client
    real_take = TableClient._take

    def take(self: TableClient, payload: bytes) -> bool:
        if payload.startswith(b"\xa4type\xa4view", 1):  # a map whose first entry says "view"
            got[id(self)] = payload
        return real_take(self, payload)

    monkeypatch.setattr(TableClient, "_take", take)
    sent_before: list[list[bytes]] = []  # the table's last payloads, before each bare turn
    decoded: list[list[bytes]] = []  # what the anchor's peers decoded in each bare turn
    real_table_rounds = bench.table_rounds

    async def table_rounds(where: Any, count: int) -> list[float]:
        out = await real_table_rounds(where, count)
        sent_before.append(sorted(got.values()))
        return out

    async def bare_rounds(peers: Any, count: int) -> list[float]:
        seen: list[bytes] = []
        out = await bench.fan_rounds(peers, count, lambda _i: b"\0\0\0\0", seen.append)
        decoded.append(seen)
        return out

    monkeypatch.setattr(bench, "table_rounds", table_rounds)
    monkeypatch.setattr(bench, "_bare_rounds", bare_rounds)
    monkeypatch.setattr(bench, "_settle", lambda: None)

    asyncio.run(bench.fanout_side_by_side(4, warmup=3, block=2))

    assert len(decoded) == 3  # the warm-up, then two turns
    for seen, table in zip(decoded[1:], sent_before[1:3], strict=True):
        rounds = [sorted(seen[i : i + 22]) for i in range(0, len(seen), 22)]
        assert len(rounds) == 3 and all(r == table for r in rounds), "not the table's last frames"
    assert len(set(sent_before[1])) == 3 and sent_before[1] != sent_before[2]  # views move on
