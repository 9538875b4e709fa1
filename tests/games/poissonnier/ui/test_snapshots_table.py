"""SVG snapshots of the table at every supported size, in the dark and light themes.

The table shows :func:`tablekit.midgame` (a stacked deck: no server, no bots, no
clock), so the pictures only change when the layout or the widgets do. Update
them with ``pytest --snapshot-update`` and look at the SVGs before committing.
"""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import TableApp, midgame
from textual.pilot import Pilot

SIZES = [(80, 24), (100, 30), (120, 36), (160, 50)]
"""Terminal sizes (columns, rows) the table is drawn for (screens/board.py)."""


async def settle(pilot: Pilot[None]) -> None:
    """Let the first view reach every widget and the layout settle."""
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_dark(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(TableApp(midgame()), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_light(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(
        TableApp(midgame(), theme="textual-light"), terminal_size=size, run_before=settle
    )


def test_table_narrow_log_pane(snap_compare: Any) -> None:
    """At 80×24, ``l`` puts the log beside the hand."""
    assert snap_compare(TableApp(midgame()), terminal_size=(80, 24), press=["l"], run_before=settle)


def test_table_too_small(snap_compare: Any) -> None:
    """Below 80×24, a notice instead of a broken table."""
    assert snap_compare(TableApp(midgame()), terminal_size=(70, 20), run_before=settle)
