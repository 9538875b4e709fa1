"""One crate (caisse) of the player's stall: its number, fish and freshness.

RULES.md §1: a crate holds fish of one freshness, face up. A player owns 1 to
6 crates (R12); the slots not owned yet show what the next one costs (R11).
Clicking a crate posts :class:`CrateBox.Clicked`; the table screen decides
what that means (place the selection, or take the fish back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from textual import events
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.palette import COLOURS, INK, NAMES, chip, text_colour
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import set_quietly
from poissonnier_tui.i18n import _, ngettext

SlotState = Literal["owned", "buyable", "locked"]
"""An owned crate; the next crate (it can be bought, §7); a slot beyond it."""


class CrateBox(Static):
    """Shows one crate slot. The screen sets :attr:`fish`, :attr:`state` and :attr:`price`."""

    DEFAULT_CLASSES = "-locked"
    """The classes of a locked slot (:meth:`_restyle`): a box starts with the classes its
    first look gives it, or that look would restyle it."""

    fish: reactive[str] = reactive("")
    """Freshness codes of the fish in the crate, e.g. ``"FFF"`` (all the same, §3.2)."""
    state: reactive[SlotState] = reactive("locked")
    """Whether the slot is an owned crate, the next one to buy, or further away."""
    price: reactive[int] = reactive(0)
    """Coins the next crate costs (R11), shown on the buyable slot."""
    affordable: reactive[bool] = reactive(True)
    """The buy key applies now (enough coins, fish deck not empty: §7, R11)."""

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
        """Chips and a caption such as ``3 frais``, or the slot's price.

        The chips shrink with the crate: three cells each, then one, then
        ``F×7`` — the count and the freshness always show.
        """
        if self.state == "locked":
            return "[dim]—[/]"
        if self.state == "buyable":
            price = ngettext("{n} coin", "{n} coins", self.price).format(n=self.price)
            if self.affordable:
                return _("[b]b[/b] buys it\n[dim]{price}[/]").format(price=price)
            return _("[dim]next crate\n{price}[/]").format(price=price)
        if not self.fish:
            return _("[dim]empty[/]")
        code, count = self.fish[0], len(self.fish)
        room = self.content_size.width
        if 3 * count <= room:
            faces = "".join(chip(c) for c in self.fish)
        elif count <= room:
            faces = "".join(f"[{INK} on {COLOURS[c]}]{c}[/]" for c in self.fish)
        else:
            faces = chip(code, f"{code}×{count}")
        ink = text_colour(code, self.app.current_theme.dark)
        return f"{faces}\n[b {ink}]{count} {NAMES[code]}[/]"

    def on_mount(self) -> None:
        """The caption's colour follows the theme: draw again when it changes."""
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def on_resize(self) -> None:
        """The chips depend on the crate's width: draw again."""
        self.refresh()

    def show(self, state: SlotState, fish: str, price: int, affordable: bool) -> None:
        """Set :attr:`state`, :attr:`fish`, :attr:`price` and :attr:`affordable` together:
        one restyle and one repaint if any changed (set one by one, each change restyles
        the box)."""
        values: dict[Reactive[Any], object] = {
            CrateBox.state: state,
            CrateBox.fish: fish,
            CrateBox.price: price,
            CrateBox.affordable: affordable,
        }
        if set_quietly(self, values):
            self._restyle()
            self.refresh()

    def _restyle(self) -> None:
        """CSS classes follow the slot's state, its fish and whether it is affordable (the
        styles live in the .tcss), in one batch: each class set apart restyles the box."""
        state, fish = self.state, self.fish
        classes = {
            "-unaffordable": not self.affordable,
            "-owned": state == "owned",
            "-buyable": state == "buyable",
            "-locked": state == "locked",
        }
        for code in "TFMDP":
            classes[f"-fish-{code}"] = bool(fish) and fish[0] == code
        self.update_classes(classes)

    def watch_affordable(self) -> None:
        """A crate too dear for now looks out of reach (table.tcss)."""
        self._restyle()

    def watch_state(self) -> None:
        """CSS classes follow the slot state."""
        self._restyle()

    def watch_fish(self) -> None:
        """A filled crate gets its freshness colour on the border (see table.tcss)."""
        self._restyle()

    def on_click(self, event: events.Click) -> None:
        """Report the click; the screen knows the phase and the selection."""
        event.stop()
        self.post_message(self.Clicked(self, self.index))
