"""SVG snapshots of Go Fish's table at 80×24 and 160×50, and of its results.

The table shows :func:`gofish_tablekit.stacked_midgame` (no server, no bots, no
clock), so the pictures change only when the layout or the panes do. Update them
with ``pytest --snapshot-update`` and look at the SVGs before committing.
"""

from __future__ import annotations

from typing import Any

import pytest
from gofish_tablekit import GoFishTableApp, stacked_midgame
from textual.pilot import Pilot


async def settle(pilot: Pilot[None]) -> None:
    """Let the layout settle and the log fit its pane."""
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_waiting(snap_compare: Any, size: tuple[int, int]) -> None:
    """Ana's table while Cleo is to ask: hand by rank, Ben's book, what the asks prove."""
    assert snap_compare(GoFishTableApp(stacked_midgame(), 0), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_asking(snap_compare: Any, size: tuple[int, int]) -> None:
    """Cleo's turn, after pressing 4: the status line asks for a rank, Dom is marked."""
    assert snap_compare(
        GoFishTableApp(stacked_midgame(), 2), terminal_size=size, press=["4"], run_before=settle
    )
