"""Helpers for driving the app under ``run_test``: wait for a state, never for a fixed time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.screen import Screen


async def until(pilot: Pilot[None], ready: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``ready()`` holds; fail after ``timeout`` seconds.

    A ``ready`` that queries a widget of a screen still being put together (Textual's
    ``NoMatches``: the screen is shown, that widget not mounted yet) is not ready yet.
    """
    for _ in range(int(timeout / 0.02)):
        try:
            if ready():
                return
        except NoMatches:
            pass
        await pilot.pause(0.02)
    raise AssertionError("the app did not reach the expected state in time")


def mounted(screen: Screen[Any]) -> bool:
    """``screen`` and every widget in it have been mounted (their ``on_mount`` ran):
    the app can quit without tearing a screen down halfway through its mounting."""
    return all(widget.is_mounted for widget in screen.walk_children(with_self=True))
