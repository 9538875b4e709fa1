"""The player's own stall (étal): six crate slots and the fish bought this turn.

During the fill step it shows the *draft* arrangement from
``view["me"]["crates"]``: only this player sees it until everyone is ready
(R15). In the serve step the fish bought in deals wait beside the stall,
usable only this turn (§4, R9).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.rules.cards import MAX_CRATES
from poissonnier_tui.games.poissonnier.ui.palette import chips
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox


class MyStall(Widget):
    """Six :class:`CrateBox` slots and a line for bought fish."""

    snapshot: reactive[TableSnapshot | None] = reactive(None)
    """The table; crates come from ``snapshot.crates`` (drafts in the fill step)."""

    def compose(self) -> ComposeResult:
        """Six slots side by side, then the bought-fish line."""
        with Horizontal(id="crates"):
            for i in range(MAX_CRATES):
                yield CrateBox(i, id=f"crate-{i + 1}")
        yield Static(id="bought")

    def crate(self, index: int) -> CrateBox:
        """The slot for crate ``index`` (0-based)."""
        return self.query_one(f"#crate-{index + 1}", CrateBox)

    def on_mount(self) -> None:
        """Show whatever snapshot was set before the boxes existed."""
        self.watch_snapshot(self.snapshot)

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Push each crate's fish and state down to its box."""
        if snap is None or snap.me is None:
            return
        crates = snap.crates
        row = snap.seat(snap.me)
        # query(), not query_one(): this may run before the boxes are mounted.
        for box in self.query(CrateBox):
            i = box.index
            if i < len(crates):
                box.state = "owned"
                box.fish = "".join(sorted((f[0] for f in crates[i]), key="TFMDP".index))
            else:
                box.fish = ""
                box.state = "buyable" if i == len(crates) else "locked"
                box.price = int(row["crate_price"])
        draft = snap.phase == "fill"
        self.border_title = "Your stall" + (
            " [dim](draft: hidden from others until everyone is ready, R15)[/]" if draft else ""
        )
        bought = snap.bought
        for line in self.query("#bought").results(Static):
            line.display = bool(bought)
            codes = "".join(f[0] for f in bought)
            line.update(f"Bought this turn (serve with them now, R9): {chips(codes)}")
