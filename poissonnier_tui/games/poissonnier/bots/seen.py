"""A bot's reading of one seat's view: the shared reader plus stock arithmetic.

:class:`Seen` is :class:`poissonnier_tui.games.poissonnier.reader.SeatView`
(the one reader of Le Poissonnier's view, shared with the screens) with what
the bots' planning needs on top: the stock a seat can serve with.
"""

from __future__ import annotations

from poissonnier_tui.games.poissonnier.bots.planning import Stock
from poissonnier_tui.games.poissonnier.reader import Offer, SeatView

__all__ = ["Offer", "Seen"]


class Seen(SeatView):
    """What one seat knows, read off its view (:meth:`SeatView.read`), for a bot."""

    __slots__ = ()

    def serve_stock(self) -> Stock:
        """What this seat can serve with now: crate fish, bought fish and specials (§3.4)."""
        fish = [f for crate in self.crates for f in crate] + list(self.bought)
        return Stock.of(fish, self.hand)

    def public_stock(self, seat: int) -> Stock:
        """What anyone can see ``seat`` could serve with: its crates, plus the fish
        bought this turn if active; its specials are hidden, so counted as none (§9)."""
        fish = [code for crate in self.stalls[seat] for code in crate]
        if seat == self.active:
            fish += list(self.bought_codes)
        return Stock.of(fish)
