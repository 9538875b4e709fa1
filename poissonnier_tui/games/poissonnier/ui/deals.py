"""Deal terms being edited in the deal dialog, and their wire form (RULES.md §4).

A deal is always between the active player (the buyer) and one other player
(the seller): the seller gives fish from their crates and/or special cards
from their hand; the buyer gives coins and/or special cards. Either side may
propose; a counter-offer replaces the proposal it answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from poissonnier_tui.games.poissonnier.rules.actions import Propose, to_wire


@dataclass(frozen=True, slots=True)
class DealDraft:
    """The terms of a proposal before it is sent.

    Attributes:
        seller: the seat giving fish (never the active seat).
        fish: ``(crate index, count)`` pairs from the seller's crates.
        coins: coins the buyer pays (R8: never more than they hold).
        seller_glacons / seller_arrivages: special cards the seller adds.
        buyer_glacons / buyer_arrivages: special cards the buyer adds to the price.
        counter: the proposal this one answers, or ``None`` for a fresh offer.
    """

    seller: int
    fish: tuple[tuple[int, int], ...] = ()
    coins: int = 0
    seller_glacons: int = 0
    seller_arrivages: int = 0
    buyer_glacons: int = 0
    buyer_arrivages: int = 0
    counter: int | None = None

    @classmethod
    def from_proposal(cls, proposal: Mapping[str, Any], *, counter: bool = True) -> DealDraft:
        """Start from an open proposal's terms, e.g. to counter it with edits."""
        return cls(
            seller=int(proposal["seller"]),
            fish=tuple((int(k), int(n)) for k, n, _code in proposal["fish"]),
            coins=int(proposal.get("coins", 0)),
            seller_glacons=int(proposal.get("seller_glacons", 0)),
            seller_arrivages=int(proposal.get("seller_arrivages", 0)),
            buyer_glacons=int(proposal.get("buyer_glacons", 0)),
            buyer_arrivages=int(proposal.get("buyer_arrivages", 0)),
            counter=int(proposal["id"]) if counter else None,
        )

    def with_count(self, crate: int, count: int) -> DealDraft:
        """These terms with ``count`` fish from ``crate`` (0 removes the crate)."""
        others = tuple((k, n) for k, n in self.fish if k != crate)
        fish = tuple(sorted((*others, (crate, count)) if count > 0 else others))
        return replace(self, fish=fish)

    def count(self, crate: int) -> int:
        """How many fish these terms take from ``crate``."""
        return next((n for k, n in self.fish if k == crate), 0)

    @property
    def empty(self) -> bool:
        """The buyer would get nothing (R18: a deal gives at least one fish or card)."""
        return not self.fish and not self.seller_glacons and not self.seller_arrivages

    def to_action(self) -> dict[str, Any]:
        """The ``propose`` action wire map (see
        :mod:`poissonnier_tui.games.poissonnier.rules.actions`)."""
        return to_wire(
            Propose(
                self.seller,
                tuple((k, n) for k, n in self.fish),
                self.seller_glacons,
                self.seller_arrivages,
                self.coins,
                self.buyer_glacons,
                self.buyer_arrivages,
                self.counter,
            )
        )
