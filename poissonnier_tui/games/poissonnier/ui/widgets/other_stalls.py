"""The other players' stalls: every crate, face up (RULES.md §9).

During the fill step others' new arrangements are hidden until everyone is
ready (R15), so their crates show as they were, with a note. On this
player's turn, clicking a crate of another stall opens the deal dialog
asking that player for those fish (§4).
"""

from __future__ import annotations

from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.palette import chip
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot


class OtherStalls(Static):
    """One line per other player: name, then each crate as chips."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, layout=True)
    """The table; stalls are ``view["seats"][i]["crates"]`` (freshness codes)."""

    def on_mount(self) -> None:
        """Title the pane."""
        self.border_title = "Other stalls"

    def render(self) -> str:
        """Name column, then ``[1] TTT  [2] FF …`` per player."""
        snap = self.snapshot
        if snap is None:
            return ""
        can_ask = snap.my_turn and snap.phase == "serve"
        width = max((len(snap.name(s)) for s in snap.others()), default=6) + 2
        lines = []
        for seat in snap.others():
            row = snap.seat(seat)
            name = escape(snap.name(seat)).ljust(width)
            marker = "[b]▶[/b]" if seat == snap.active else " "
            crates = []
            for k, codes in enumerate(row["crates"]):
                if not codes:
                    crates.append(f"[dim]{k + 1}[/]·[dim]empty[/]")
                    continue
                crate = f"[b]{k + 1}[/]·" + "".join(chip(c) for c in codes)
                if can_ask:
                    crate = f"[@click=screen.ask_for({seat},{k})]{crate}[/]"
                crates.append(crate)
            note = ""
            if snap.phase == "fill":
                note = "  [dim]ready[/]" if row["ready"] else "  [dim italic]arranging…[/]"
            lines.append(f"{marker} [b]{name}[/b] {'  '.join(crates)}{note}")
        hint = "\n[dim]Click a crate to ask for its fish.[/]" if can_ask else ""
        return "\n".join(lines) + hint
