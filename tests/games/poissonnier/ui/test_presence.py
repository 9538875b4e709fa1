"""Who is away, for how long, and when the table plays for them, at every size.

The players pane shows an absent player as ``offline m:ss ⏱Ns`` (RULES.md R6:
the table plays their default when the countdown ends), from the lobby's
``away_ms`` / ``defaults_in_ms`` turned into this machine's clock by
:func:`poissonnier_tui.shell.seats.seat_names`; the whole cell fits its column
from 80×24 to 160×50, long bot names included.
"""

from __future__ import annotations

import time

import pytest
from tablekit import SEATS, TableApp, midgame
from test_table_sizes import settle

from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.players import COLUMNS, PlayersTable
from poissonnier_tui.shell.seats import seat_names


class AwayApp(TableApp):
    """The table with seat 1 a person who went away 75 s ago; the table plays in 48 s."""

    def publish(self) -> None:
        self.rev += 1
        now = time.monotonic()
        wire = [
            {"name": s.name, "kind": s.kind, "connected": True} for s in SEATS[: self.state.players]
        ]
        wire[1] = {
            "name": "Ben", "kind": "human", "connected": False, "away_ms": 75_400,
            "defaults_in_ms": 47_600,
        }  # fmt: skip
        seats = seat_names(wire, now)
        self.table.snapshot = TableSnapshot(view_for(self.state, self.seat), seats, self.rev)


def test_lobby_times_become_local_clock_times() -> None:
    [label] = seat_names(
        [{"name": "B", "kind": "human", "connected": False, "away_ms": 5000,
          "defaults_in_ms": 60_000}], now=100.0
    )  # fmt: skip
    assert (label.away_since, label.defaults_at) == (95.0, 160.0)
    assert (label.away_for(130.5), label.defaults_in(130.5)) == (35, 30)
    assert label.defaults_in(999.0) == 0
    [here] = seat_names([{"name": "C", "kind": "human", "connected": True}], now=1.0)
    assert here.away_for() is None and here.defaults_in() is None


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 36), (160, 50)])
async def test_everyone_sees_who_is_away_and_the_countdown(size: tuple[int, int]) -> None:
    app = AwayApp(midgame())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if size[0] < 100:
            await pilot.press("p")  # the players pane, behind the pane bar
            await settle(pilot)
        players = app.table.query_one(PlayersTable)
        assert players.region.width > 0 and players.display
        cell = players.get_cell_at((1, COLUMNS.index("Now")))
        lines = cell.plain.split("\n")  # a second line on a narrow pane
        assert " ".join(lines).startswith("offline 1:1"), lines  # 75 s, maybe 76 by now
        assert "⏱4" in cell.plain  # 48 s, maybe 47
        column = list(players.columns.values())[COLUMNS.index("Now")]
        assert column.width >= max(len(line) for line in lines)  # nothing of it cut off
        assert players.rows[next(k for k in players.rows if k.value == "1")].height == len(lines)
        used = sum(c.get_render_width(players) for c in players.columns.values())
        assert used <= players.scrollable_content_region.width
        assert "Ben" in str(players.get_cell_at((1, 0)))
