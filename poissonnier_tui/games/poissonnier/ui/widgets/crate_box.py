"""One crate (caisse) of the player's stall: its number, fish and freshness.

RULES.md §1: a crate holds fish of one freshness, face up. A player owns 1 to
6 crates (R12); the slots not owned yet show what the next one costs (R11).
Clicking a crate posts :class:`CrateBox.Clicked`; the table screen decides
what that means (place the selection, or take the fish back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.palette import COLOURS, NAMES, chip

SlotState = Literal["owned", "buyable", "locked"]
"""An owned crate; the next crate (it can be bought, §7); a slot beyond it."""


class CrateBox(Static):
    """Shows one crate slot. The screen sets :attr:`fish`, :attr:`state` and :attr:`price`."""

    fish: reactive[str] = reactive("")
    """Freshness codes of the fish in the crate, e.g. ``"FFF"`` (all the same, §3.2)."""
    state: reactive[SlotState] = reactive("locked")
    """Whether the slot is an owned crate, the next one to buy, or further away."""
    price: reactive[int] = reactive(0)
    """Coins the next crate costs (R11), shown on the buyable slot."""

    @dataclass
    class Clicked(Message):
        """The crate numbered ``index + 1`` was clicked."""

        box: CrateBox
        index: int

        @property
        def control(self) -> CrateBox:
            """The clicked crate."""
            return self.box

    def __init__(self, index: int, *, id: str | None = None) -> None:
        """Args: index: the slot, 0..5 (shown as 1..6)."""
        super().__init__(id=id)
        self.index = index
        self.border_title = f"{index + 1}"

    def render(self) -> str:
        """Chips and a caption such as ``3 frais``, or the slot's price."""
        if self.state == "locked":
            return "[dim]—[/]"
        if self.state == "buyable":
            return f"[dim]buy with [b]b[/b]\n{self.price} coins[/]"
        if not self.fish:
            return "[dim]empty[/]"
        code = self.fish[0]
        chips = "".join(chip(c) for c in self.fish[:8]) + ("…" if len(self.fish) > 8 else "")
        return f"{chips}\n[{COLOURS[code]}]{len(self.fish)} {NAMES[code]}[/]"

    def watch_state(self, state: SlotState) -> None:
        """CSS classes follow the slot state (styles live in the .tcss)."""
        self.set_class(state == "owned", "-owned")
        self.set_class(state == "buyable", "-buyable")
        self.set_class(state == "locked", "-locked")

    def watch_fish(self, fish: str) -> None:
        """A filled crate gets its freshness colour on the border (see table.tcss)."""
        for code in "TFMDP":
            self.set_class(bool(fish) and fish[0] == code, f"-fish-{code}")

    def on_click(self, event: events.Click) -> None:
        """Report the click; the screen knows the phase and the selection."""
        event.stop()
        self.post_message(self.Clicked(self, self.index))
