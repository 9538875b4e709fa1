"""A new view repaints only the widgets whose drawing changed, and lays out only on a size change.

The table screen on a stacked game (``tablekit``, no server, no clock) is
given new snapshots as the server's views would come. The test counts, per
widget, what :class:`~poissonnier_tui.games.poissonnier.ui.widgets.redraw.Drawn`
repainted, how often the hand's ``render`` ran, how often the footer's keys
were redrawn, and how many times the screen was laid out:

* the same view again (a new snapshot object, as after another seat's
  private move) repaints nothing and lays nothing out;
* a view whose only change is a new log line writes that line and leaves the
  hand, the status line, the other stalls, the market and the footer alone;
* a view that changes the hand repaints the hand (the counters do count).
"""

from __future__ import annotations

from typing import Any

from pilot import until
from tablekit import SEATS, TableApp, midgame
from textual.pilot import Pilot

from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.market import MarketInfo
from poissonnier_tui.games.poissonnier.ui.widgets.other_stalls import OtherStalls
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.shell.screens.footer import KeyBar


class Counted:
    """Counters on the table screen of ``app``: hand paints, screen layouts, repaints."""

    def __init__(self, app: TableApp) -> None:
        screen = app.table
        self.hand = screen.query_one(HandView)
        self.widgets = {
            "hand": self.hand,
            "status": screen.query_one(StatusLine),
            "others": screen.query_one(OtherStalls),
            "market": screen.query_one(MarketInfo),
        }
        self.footer = screen.query_one(KeyBar)
        self.log = screen.query_one(GameLog)
        self.paints = 0
        self.layouts = 0
        paint = self.hand.render_lines
        layout = screen._refresh_layout

        def counted_paint(crop: Any) -> Any:
            self.paints += 1
            return paint(crop)

        def counted_layout(*args: Any, **kwargs: Any) -> None:
            self.layouts += 1
            layout(*args, **kwargs)

        self.hand.render_lines = counted_paint  # type: ignore[method-assign]
        screen._refresh_layout = counted_layout  # type: ignore[method-assign]

    def repaints(self) -> dict[str, int]:
        """Repaints so far, per widget, and the footer's."""
        counts = {name: w.drawn.repaints for name, w in self.widgets.items()}  # type: ignore[attr-defined]
        return {**counts, "footer": self.footer.repaints}


async def settle(pilot: Pilot[None]) -> None:
    for _ in range(4):
        await pilot.pause()


def show(app: TableApp, view: dict[str, Any]) -> None:
    """Hand the screen a new snapshot of ``view``, one revision on (as a server's view)."""
    app.rev += 1
    app.table.snapshot = TableSnapshot(view, SEATS[: app.state.players], app.rev)


async def test_a_view_repaints_only_what_changed() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.table.snapshot is not None)
        await settle(pilot)
        counted = Counted(app)
        before = counted.repaints()

        # The same view again: nothing to draw.
        show(app, view_for(app.state, 0))
        await settle(pilot)
        assert counted.repaints() == before
        assert (counted.paints, counted.layouts) == (0, 0)

        # Only the log changed: one more line in it, nothing else drawn again.
        view = view_for(app.state, 0)
        lines = len(counted.log.lines)
        view["log"] = [*view["log"], view["log"][-1]]
        view["log_size"] = int(view["log_size"]) + 1
        show(app, view)
        await settle(pilot)
        assert len(counted.log.lines) > lines
        assert counted.repaints() == before
        assert counted.paints == 0  # the hand was not painted again

        # The hand changed (one more fish in it): the hand is drawn again.
        view = view_for(app.state, 0)
        view["me"] = {**view["me"], "hand": [*view["me"]["hand"], "T40"]}
        show(app, view)
        await settle(pilot)
        assert counted.repaints()["hand"] == before["hand"] + 1
        assert counted.paints >= 1
