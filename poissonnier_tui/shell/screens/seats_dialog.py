"""The host's seat list during a game (F2): hand an absent player's seat to a bot.

Only the host (``poissonnier host``) gets it: the table lives in its
process. Each seat shows who holds it and whether they are connected. Enter
on a disconnected player gives the seat to a bot until they come back (their
``poissonnier join`` takes it back with the saved token); Enter on such a
stand-in bot gives the seat back to the absent player at once. Other seats
are greyed out. The list follows the table live.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.seats import SeatLabel, shown_name


def seat_line(seat: int, label: SeatLabel, stand_in: bool) -> tuple[Text, bool]:
    """The line for one seat and whether Enter can do something with it."""
    text = Text(f"{seat + 1}. ")
    text.append(shown_name(label) or _("open"), style="bold")
    if label.kind == "bot" and stand_in:
        return text.append("  " + _("played by a bot — Enter: give it back"), style="yellow"), True
    if label.kind == "bot":
        return text.append("  " + _("bot"), style="dim"), False
    if label.kind == "open":
        return text, False  # nobody there: nothing to say, nothing to do
    if label.kind == "human" and not label.connected:
        return text.append(
            "  " + _("disconnected — Enter: a bot plays for them"), style="red"
        ), True
    return text.append("  " + _("connected"), style="green"), False


class SeatsDialog(ModalScreen[None]):
    """The seats, live; Enter acts on the highlighted one; Escape closes.

    Args:
        seats: reads the app's current seat labels.
        stand_in: whether a bot seat is a stand-in the host can take back.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f2", "close", N_("Close"))]

    @dataclass
    class SeatPicked(Message):
        """The host wants to change ``seat``: to a bot (``to_bot``) or back to its player."""

        seat: int
        to_bot: bool

    def __init__(
        self, seats: Callable[[], tuple[SeatLabel, ...]], stand_in: Callable[[int], bool]
    ) -> None:
        super().__init__()
        self._seats = seats
        self._stand_in = stand_in

    def compose(self) -> ComposeResult:
        """A title line and the list."""
        translate_bindings(self)
        with Vertical(id="dialog", classes="small") as box:
            box.border_title = _("Seats")
            yield Static(_("A player who dropped out can be replaced by a bot until they return."))
            yield OptionList(id="seats")

    def on_mount(self) -> None:
        """Fill the list and follow the app's seats."""
        self.refresh_seats()
        self.watch(self.app, "seats", lambda _seats: self.refresh_seats(), init=False)
        self.query_one(OptionList).focus()

    def refresh_seats(self) -> None:
        """Redraw the list, keeping the cursor."""
        options = self.query_one(OptionList)
        keep = options.highlighted
        options.clear_options()
        for seat, label in enumerate(self._seats()):
            line, usable = seat_line(seat, label, self._stand_in(seat))
            options.add_option(Option(line, id=str(seat), disabled=not usable))
        if keep is not None and keep < options.option_count:
            options.highlighted = keep

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        seat = int(event.option.id or 0)
        label = self._seats()[seat]
        self.post_message(self.SeatPicked(seat, to_bot=label.kind == "human"))

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
