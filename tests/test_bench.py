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
