"""The players: name, coins, clients, stamps, hand size, crates, and what they are doing.

The three tallies that decide the game (RULES.md §8: coins, clients won,
stamps) come first after the name. The last column shows who is ready in the
fill step (§3.2), who is serving or must answer an offer (§4), and who is
disconnected (their seat is kept for a reconnect). ▶ marks the active player.
On a narrow terminal the hand and crate counts are dropped (the stalls show
the crates anyway) so that the rest stays readable.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widgets import DataTable

from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot

COLUMNS = ("Player", "Coins", "Clients", "Stamps", "Hand", "Crates", "Now")
"""Column headers (the active player's name carries a ▶)."""
COMPACT_COLUMNS = ("Player", "Coins", "Clients", "Stamps", "Now")
"""Columns kept when the table is narrower than :data:`COMPACT_BELOW`."""
COMPACT_BELOW = 62
"""Width (cells) under which the compact columns are used."""


class PlayersTable(DataTable[Text]):
    """A read-only :class:`DataTable`, one row per seat, in seat order.

    Cells are Rich :class:`~rich.text.Text` built from plain strings, so a
    player's name is never read as markup.
    """

    snapshot: reactive[TableSnapshot | None] = reactive(None)
    """The table; tallies come from ``view["seats"]``, names from the lobby."""
    compact: reactive[bool] = reactive(False)
    """Narrow mode: :data:`COMPACT_COLUMNS` only."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="none", zebra_stripes=True, show_cursor=False)
        self.can_focus = False  # nothing to select here: keys stay with the game

    def on_mount(self) -> None:
        """Title the pane and set up the columns."""
        self.border_title = "Players"
        self._rebuild(columns=True)

    def on_resize(self, event: events.Resize) -> None:
        """Switch to the compact columns on a narrow terminal."""
        self.compact = event.size.width < COMPACT_BELOW

    def watch_compact(self) -> None:
        """Columns changed: rebuild everything."""
        self._rebuild(columns=True)

    def watch_snapshot(self) -> None:
        """New tallies: rewrite the rows."""
        self._rebuild()

    def _rebuild(self, *, columns: bool = False) -> None:
        """Rewrite the rows (at most 5: simpler than diffing), and the columns if asked."""
        shown = COMPACT_COLUMNS if self.compact else COLUMNS
        if columns or not self.columns:
            self.clear(columns=True)
            self.add_columns(*shown)
        else:
            self.clear()
        snap = self.snapshot
        if snap is None:
            return
        for seat in range(snap.players):
            row = snap.seat(seat)
            active = seat == snap.active and not snap.over
            name = Text("▶ " if active else "  ", style="bold")
            name.append(snap.name(seat), style="bold" if seat == snap.me else "")
            if seat == snap.me:
                name.append(" (you)", style="dim")
            elif snap.label(seat).kind == "bot":
                name.append(" (bot)", style="dim")
            cells = {
                "Player": name,
                "Coins": Text(str(row["coins"]), justify="right"),
                "Clients": Text(str(len(row["clients"])), justify="right"),
                "Stamps": Text(str(row["stamps"]), justify="right"),
                "Hand": Text(str(row["hand_size"]), justify="right"),
                "Crates": Text(str(len(row["crates"])), justify="right"),
                "Now": self._doing(snap, seat),
            }
            self.add_row(*(cells[c] for c in shown), key=str(seat))

    @staticmethod
    def _doing(snap: TableSnapshot, seat: int) -> Text:
        """What the seat is up to: offline, ready, arranging, serving, answering…"""
        if not snap.label(seat).connected:
            return Text("offline", style="bold red")
        if snap.over:
            return Text("")
        if snap.phase == "fill":
            if snap.seat(seat)["ready"]:
                return Text("ready ✓", style="green")
            return Text("arranging", style="dim")
        if seat == snap.active:
            return Text("serving", style="bold")
        if seat in snap.waiting_on:
            return Text("answering", style="yellow")
        return Text("")
