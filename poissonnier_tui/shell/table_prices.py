"""Prices asked before an offer, for the app (``net.prices``).

A game's screen (Le Poissonnier: the deal dialog) posts
:class:`~poissonnier_tui.shell.messages.PriceWanted`; the app asks the
table. The answer (:class:`~poissonnier_tui.shell.messages.PriceHeard`, to
this client only) goes to the screen on top if it shows prices
(:class:`ShowsPrices`), else to the table screen if it does. A question
from another seat (:class:`~poissonnier_tui.shell.messages.PriceQuestion`)
goes to the table screen if it can ask its player (:class:`AsksPrices`);
the player's answer (:class:`~poissonnier_tui.shell.messages.PriceGiven`) is
sent back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from poissonnier_tui.shell.messages import PriceGiven, PriceHeard, PriceQuestion, PriceWanted
from poissonnier_tui.shell.table_app import TableApp


@runtime_checkable
class ShowsPrices(Protocol):
    """A screen that shows the prices its player asked for."""

    def show_price(self, seat: int, deal: Mapping[str, Any], coins: int | None, bot: bool) -> None:
        """``seat`` would make ``deal`` for ``coins`` (``None``: at no price)."""


@runtime_checkable
class AsksPrices(Protocol):
    """A game's table screen that asks its player a price another seat wants to know."""

    def price_asked(self, by: int, deal: Mapping[str, Any]) -> None:
        """Seat ``by`` asks our player's price on ``deal``; answer with :class:`PriceGiven`."""


class TablePrices(TableApp):
    """The app's side of prices (a mixin of the app)."""

    def on_price_wanted(self, event: PriceWanted) -> None:
        """A screen asks a seat its price: tell the table (nothing if not connected)."""
        self.relay.ask_price(event.seat, event.deal)

    def on_price_heard(self, event: PriceHeard) -> None:
        """A price came back: to the screen on top if it shows prices, else the table's."""
        for screen in (self.screen, self._table):
            if isinstance(screen, ShowsPrices):
                screen.show_price(event.seat, event.deal, event.coins, event.bot)
                return

    def on_price_question(self, event: PriceQuestion) -> None:
        """Another seat asks our price: the table screen asks our player (no obligation)."""
        if isinstance(self._table, AsksPrices):
            self._table.price_asked(event.by, event.deal)

    def on_price_given(self, event: PriceGiven) -> None:
        """Our player named a price (or none): only the asker hears it."""
        self.relay.name_price(event.to, event.deal, event.coins)
