"""Every seat's hand at once: only when replaying a game that is over (RULES.md §9).

Fed by :func:`poissonnier_tui.games.poissonnier.rules.view.all_hands_view` (``view["hands"]``),
which refuses to build such a view unless the game has ended. One line per
seat: the hand as chips, then the seat's own arrangement of its crates
(its draft during the fill step) and the fish it bought this turn.
"""

from __future__ import annotations

from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.palette import KINDS, chip
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import Drawn
from poissonnier_tui.i18n import _


class AllHands(Static):
    """One line per seat: name, hand, crates and bought fish, as chips by kind."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """A snapshot whose view carries ``"hands"`` (else the widget shows nothing). A new
    one repaints only if the hands drawn changed (:mod:`.redraw`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn = Drawn()
        """What the pane shows now."""

    def on_mount(self) -> None:
        """Title the pane."""
        self.border_title = _("Every hand (the game is over, RULES.md §9)")

    def watch_snapshot(self) -> None:
        """Repaint if the hands drawn changed (lay out if their number of lines did)."""
        if self.is_attached:
            self.drawn.show(self, self.render())

    def render(self) -> str:
        """``Name  hand: …  crates: [1]… [2]…  bought: …`` per seat."""
        snap = self.snapshot
        hands = snap.view.get("hands") if snap is not None else None
        if snap is None or not hands:
            return ""
        width = max(len(snap.name(s)) for s in range(snap.players)) + 1
        lines = []
        for seat, row in enumerate(hands):
            hand = sorted(row["hand"], key=lambda c: (KINDS.index(c[0]), c))
            crates = "  ".join(
                f"[b]{k + 1}[/]·" + ("".join(chip(f[0]) for f in crate) or _("[dim]empty[/]"))
                for k, crate in enumerate(row["crates"])
            )
            bought = "".join(chip(f[0]) for f in row["bought"])
            cards = "".join(chip(c[0]) for c in hand) or _("[dim]no cards[/]")
            line = f"[b]{escape(snap.name(seat)).ljust(width)}[/b] {cards}  " + _(
                "[dim]crates[/] {crates}"
            ).format(crates=crates)
            if bought:
                line += "  " + _("[dim]bought[/] {bought}").format(bought=bought)
            lines.append(line)
        return "\n".join(lines)
