"""The players: name, coins, clients, stamps, hand size, crates, and what they are doing.

The three tallies that decide the game (RULES.md §8: coins, clients won,
stamps) come first after the name. The last column shows who is ready in the
fill step (§3.2), who is serving or must answer an offer (§4), and who is
disconnected (their seat is kept for a reconnect): for how long, and the
countdown before the table plays for them (R6), ticking every second.
▶ marks the active player.
No column is ever dropped: on a narrow pane the number columns get short
headers and a long name ends in … so that the last column always shows.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widgets import DataTable

from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import N_, _

COLUMNS = ("Player", "Coins", "Clients", "Stamps", "Hand", "Crates", "Now")
"""Column keys, in order (the active player's name carries a ▶). Never fewer."""
LABELS = {
    "Player": N_("Player"),
    "Coins": N_("Coins"),
    "Clients": N_("Clients"),
    "Stamps": N_("Stamps"),
    "Hand": N_("Hand"),
    "Crates": N_("Crates"),
    "Now": N_("Now"),
}
"""Column headers when the pane is wide enough for them."""
SHORT_LABELS = {
    "Player": N_("Player"),
    "Coins": N_("¤"),
    "Clients": N_("Cl"),
    "Stamps": N_("★"),
    "Hand": N_("Hd"),
    "Crates": N_("Cr"),
    "Now": N_("Now"),
}
"""Column headers on a narrow pane: the numbers stay, only their headers shrink."""
PADDING = 1
"""Cells of padding each side of a column (DataTable's ``cell_padding``)."""
MIN_NAME = 8
"""The player column never gets narrower than this (longer names end in …)."""


class PlayersTable(DataTable[Text]):
    """A read-only :class:`DataTable`, one row per seat, in seat order.

    Cells are Rich :class:`~rich.text.Text` built from plain strings, so a
    player's name is never read as markup.
    """

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False, init=False)
    """The table; tallies come from ``view["seats"]``, names from the lobby. (Mounting
    builds the rows itself: no call of the watcher then.)"""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id, cursor_type="none", zebra_stripes=True, show_cursor=False, cell_padding=PADDING
        )
        self.can_focus = False  # nothing to select here: keys stay with the game
        self._fitted_to = -1
        self._built: list[dict[str, Text]] | None = None  # the rows shown, as _rows made them
        self._palette: tuple[str, dict[str, str]] | None = None  # (theme, _colours())

    def on_mount(self) -> None:
        """Title the pane and set up the columns."""
        self.border_title = _("Players")
        self._rebuild()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._rebuild())
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """Once a second: move the clocks of absent players (nothing to do otherwise)."""
        snap = self.snapshot
        if snap is not None and any(
            snap.label(seat).away_since is not None for seat in range(snap.players)
        ):
            self._rebuild()

    def on_resize(self, event: events.Resize) -> None:
        """Fit the columns to the new width."""
        if event.size.width != self._fitted_to:
            self._rebuild()

    def watch_snapshot(self) -> None:
        """New tallies: rewrite the rows, if they changed (a rebuild lays the screen out)."""
        snap = self.snapshot
        if snap is None or self._rows(snap) != self._built:
            self._rebuild()

    def _rows(self, snap: TableSnapshot, compact: bool = False) -> list[dict[str, Text]]:
        """Every seat's cells by column key; ``compact``: an absent seat's state on two
        lines, to fit a narrow pane."""
        rows = []
        for seat in range(snap.players):
            row = snap.seat(seat)
            active = seat == snap.active and not snap.over
            name = Text("▶ " if active else "  ", style="bold")
            name.append(snap.name(seat), style="bold" if seat == snap.me else "")
            if seat == snap.me:
                name.append(_(" (you)"), style="dim")
            elif snap.label(seat).kind == "bot":
                name.append(_(" (bot)"), style="dim")
            rows.append(
                {
                    "Player": name,
                    "Coins": Text(str(row["coins"]), justify="right"),
                    "Clients": Text(str(len(row["clients"])), justify="right"),
                    "Stamps": Text(str(row["stamps"]), justify="right"),
                    "Hand": Text(str(row["hand_size"]), justify="right"),
                    "Crates": Text(str(len(row["crates"])), justify="right"),
                    "Now": self._doing(snap, seat, self._colours(), compact),
                }
            )
        return rows

    def _rebuild(self) -> None:
        """Columns fitted to the width, then the rows (at most 5: simpler than diffing).

        Each number column is as wide as its header or its widest number; the
        player column gets what is left (at least :data:`MIN_NAME`).
        """
        snap = self.snapshot
        rows = self._rows(snap) if snap is not None else []
        self._built = [{k: cell.copy() for k, cell in row.items()} for row in rows]
        room = self.scrollable_content_region.width or self.size.width
        self._fitted_to = self.size.width

        def widths(labels: dict[str, str]) -> dict[str, int]:
            return {
                key: max([len(_(labels[key]))] + [_cells(row[key]) for row in rows])
                for key in COLUMNS
            }

        def fits(sized: dict[str, int]) -> bool:
            named = {**sized, "Player": MIN_NAME}
            return sum(named.values()) + 2 * PADDING * len(COLUMNS) <= room

        labels = LABELS
        full = widths(labels)
        if sum(full.values()) + 2 * PADDING * len(COLUMNS) > room:
            labels = SHORT_LABELS
        if snap is not None and not fits(widths(labels)):
            rows = self._rows(snap, compact=True)  # an absent seat's clocks on a second line
        sized = widths(labels)
        self.border_subtitle = (
            _("¤ coins ★ stamps Cl:clients Hd:hand Cr:crates") if labels is SHORT_LABELS else ""
        )
        others = sum(w for key, w in sized.items() if key != "Player")
        name_room = room - others - 2 * PADDING * len(COLUMNS)
        sized["Player"] = max(MIN_NAME, min(sized["Player"], name_room))
        self.clear(columns=True)
        for key in COLUMNS:  # Text, not markup: nothing to parse (nor emoji to look up)
            self.add_column(Text(_(labels[key])), width=sized[key], key=key)
        for seat, cells in enumerate(rows):
            name = cells["Player"]
            if name.cell_len > sized["Player"]:
                name.truncate(sized["Player"], overflow="ellipsis")
            height = max(len(cell.plain.split("\n")) for cell in cells.values())
            self.add_row(*(cells[key] for key in COLUMNS), key=str(seat), height=height)

    def _colours(self) -> dict[str, str]:
        """The theme's error/success/warning text colours (readable on light and dark);
        worked out once per theme (the theme's variables take a millisecond to make)."""
        theme = self.app.theme
        if self._palette is None or self._palette[0] != theme:
            variables = self.app.get_css_variables()
            pairs = (("error", "red"), ("success", "green"), ("warning", "yellow"))
            colours = {name: variables.get(f"text-{name}", fallback) for name, fallback in pairs}
            self._palette = theme, colours
        return self._palette[1]

    @staticmethod
    def _doing(
        snap: TableSnapshot, seat: int, colours: dict[str, str], compact: bool = False
    ) -> Text:
        """What the seat is up to: offline (for how long, and the countdown before the
        table plays for it), ready, arranging, serving, answering…"""
        label = snap.label(seat)
        if not label.connected:
            return away_text(label.away_for(), label.defaults_in(), colours["error"], compact)
        if snap.over:
            return Text("")
        if snap.phase == "fill":
            if snap.seat(seat)["ready"]:
                return Text(_("ready ✓"), style=colours["success"])
            return Text(_("arranging"), style="dim")
        if seat == snap.active:
            return Text(_("serving"), style="bold")
        if seat in snap.waiting_on:
            return Text(_("answering"), style=colours["warning"])
        return Text("")


def clock(seconds: int) -> str:
    """``"0:07"``, ``"12:40"``: minutes and seconds."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def away_text(
    away: int | None, defaults_in: int | None, colour: str, compact: bool = False
) -> Text:
    """``"offline 0:12 ⏱48s"``: an absent player, how long they have been away, and
    the seconds before the table plays for them (RULES.md R6; omitted if nothing is due).
    ``compact``: ``"offline"`` then ``"0:12 ⏱48"`` on a second line, for a narrow pane.
    """
    text = Text(_("offline"), style=f"bold {colour}")
    if away is None and defaults_in is None:
        return text
    text.append("\n" if compact else " ")
    if away is not None:
        text.append(clock(away), style=colour)
    if defaults_in is not None:
        left = str(defaults_in) if compact else _("{seconds}s").format(seconds=defaults_in)
        text.append((" ⏱" if away is not None else "⏱") + left, style="bold")
    return text


def _cells(text: Text) -> int:
    """Cells the widest line of ``text`` takes."""
    return max(cell_len(line) for line in text.plain.split("\n"))
