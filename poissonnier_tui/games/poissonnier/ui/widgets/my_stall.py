"""The player's own stall (étal): six crate slots and the fish bought this turn.

During the fill step it shows the *draft* arrangement from
``view["me"]["crates"]``: only this player sees it until everyone is ready
(R15). In the serve step the fish bought in deals wait beside the stall,
usable only this turn (§4, R9).
"""

from __future__ import annotations

from typing import Final

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.rules.cards import MAX_CRATES
from poissonnier_tui.games.poissonnier.ui.palette import chips
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import retitle
from poissonnier_tui.i18n import _, ngettext

NARROW_BELOW: Final = 100
"""Below this many columns the stall's title says its draft note in short."""


class MyStall(Widget):
    """Six :class:`CrateBox` slots and a line for bought fish."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
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

    def on_resize(self) -> None:
        """The title's draft note fits the new width."""
        snap = self.snapshot
        if snap is not None and snap.me is not None:
            retitle(self, self._title(snap))

    def _title(self, snap: TableSnapshot) -> str:
        """``Your stall`` with your tallies (RULES.md §8: on the stall's rim, in sight at
        every size) and, in the fill step, that the crates are a hidden draft (R15), said
        shorter below 100 columns so that the whole title shows."""
        row = snap.seat(snap.me or 0)
        coins = ngettext("{n} coin", "{n} coins", int(row["coins"])).format(n=row["coins"])
        won = len(row["clients"])
        clients = ngettext("{n} client", "{n} clients", won).format(n=won)
        stamps = ngettext("{n} stamp", "{n} stamps", int(row["stamps"])).format(n=row["stamps"])
        title = _("Your stall") + (
            f" · [$text-warning]●[/] {coins} · {clients} · [$text-accent]★[/] {stamps}"
        )
        if snap.phase == "fill":
            if self.app.size.width >= NARROW_BELOW:
                title += " · " + _("[dim]draft, hidden until all are ready (R15)[/]")
            else:
                title += " · " + _("[dim]draft, hidden (R15)[/]")
        return title

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Push each crate's fish and state down to its box."""
        if snap is None or snap.me is None:
            return
        crates = snap.crates
        row = snap.seat(snap.me)
        # query(), not query_one(): this may run before the boxes are mounted.
        price, affordable = int(row["crate_price"]), snap.can_buy_crate()
        for box in self.query(CrateBox):
            i = box.index
            if i < len(crates):
                fish = "".join(sorted((f[0] for f in crates[i]), key="TFMDP".index))
                box.show("owned", fish, box.price, box.affordable)
            else:
                box.show("buyable" if i == len(crates) else "locked", "", price, affordable)
        retitle(self, self._title(snap))
        bought = snap.bought
        for line in self.query("#bought").results(Static):
            line.display = bool(bought)
            codes = "".join(f[0] for f in bought)
            text = _("Bought this turn (serve with them now, R9): {chips}").format(
                chips=chips(codes)
            )
            if text != line.content:  # an update lays the screen out: only on a change
                line.update(text)
