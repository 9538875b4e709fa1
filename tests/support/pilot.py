"""Helpers for driving the app under ``run_test``: wait for a state, never for a fixed time."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot


async def until(pilot: Pilot[None], ready: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``ready()`` holds; fail after ``timeout`` seconds."""
    for _ in range(int(timeout / 0.02)):
        if ready():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app did not reach the expected state in time")
