"""EasyBot: the learning level — plays sensibly, but slips.

A :class:`~poissonnier_tui.games.poissonnier.bots.greedy.GreedyBot` (coins + stamps + 1 points,
known clients only) that makes the mistakes a beginner makes, each with a
chance set by :attr:`EasyBot.slip` (default :data:`SLIP`). Every action it
sends is legal: a slip only picks a worse legal option.

* **Fill (RULES.md §3.2).** With chance ``slip`` it lays out a random set of
  freshnesses instead of the one suiting the queue; with chance ``slip / 2``
  it also shows its rotten fish, inspector or not (§5, R10). It buys a crate
  only when it has twice the price in coins, whatever the turns left (§7, R11).
* **Serve (§3.4, §6).** With chance ``slip`` it serves the first servable
  client of the queue rather than the best, and with chance ``slip / 2`` it
  ends its turn although it could still serve.
* **Deals (§4, R8).** It asks for missing fish like the greedy bot. As buyer
  it accepts any price below the client's coins; as seller it asks the fish's
  worth plus one coin, accepts from there, counters once. On another seat's
  turn it offers once a turn, unasked, the fish from its crates that visibly
  complete one of that seat's clients, at that same cheap ask.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations
from typing import Final

from net.game import Wire
from poissonnier_tui.games.poissonnier.bots.greedy import GreedyBot, fill_step
from poissonnier_tui.games.poissonnier.bots.planning import (
    CODES,
    Layout,
    Stock,
    choose_layout,
    find_purchase,
    fish_worth,
    queue_after_call,
    rollout,
)
from poissonnier_tui.games.poissonnier.bots.seen import Offer, Seen
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    Decline,
    EndTurn,
    Propose,
    to_wire,
)

SLIP: Final = 0.3
"""Chance of each kind of mistake (see the module docstring)."""


class EasyBot(GreedyBot):
    """The beginner level; satisfies ``net.game.Agent``.

    Args:
        rng: a ``random.Random`` or a seed: its slips are reproducible (R3).
        slip: overrides :data:`SLIP` (0: a plain greedy bot with naive deals).
    """

    def __init__(self, rng: random.Random | int | None = None, *, slip: float = SLIP) -> None:
        super().__init__(rng, max_proposals=3)
        self.slip = slip
        self._layout_turn = -1
        self._layout: Layout | None = None
        self._ended_early = -1
        self._offered_turn = -1

    # ------------------------------------------------------------------ fill step

    def _fill(self, seen: Seen, types: set[str]) -> Wire:
        if "buy_crate" in types and self.crate_pays(seen):
            return to_wire(BuyCrate())
        if self._layout_turn != seen.turn or self._layout is None or self._layout_outdated(seen):
            self._layout_turn = seen.turn
            self._layout = self._pick_layout(seen)
        return fill_step(seen, self._layout)

    def _layout_outdated(self, seen: Seen) -> bool:
        """The layout no longer fits (a crate was bought since it was chosen)."""
        assert self._layout is not None
        return len(self._layout.crates) > len(seen.crates)

    def _pick_layout(self, seen: Seen) -> Layout:
        glacons, arrivages = seen.specials()
        pool = seen.pool()
        careless = self.rng.random() < self.slip / 2
        if self.rng.random() >= self.slip:
            best = choose_layout(
                pool,
                len(seen.crates),
                queue_after_call(seen.queue),
                glacons,
                arrivages,
                allow_rotten=seen.is_active,
            )
            if (
                not careless
                or not pool["P"]
                or len(best.crates) >= len(seen.crates)
                or any(code == "P" for code, _ in best.crates)
            ):
                return best
            return Layout((*best.crates, ("P", pool["P"])), 0.0, best.plan)
        codes = [c for c in CODES if pool[c] and (c != "P" or careless)]
        size = min(len(seen.crates), len(codes))
        subsets = list(combinations(codes, size))
        chosen = self.rng.choice(subsets) if subsets else ()
        crates = tuple((code, pool[code]) for code in chosen)
        stock = Stock((0, 0, 0, 0, 0), glacons, arrivages).plus(dict(crates))
        return Layout(crates, 0.0, rollout(queue_after_call(seen.queue), stock))

    def crate_pays(self, seen: Seen) -> bool:
        """Buys when it holds twice the price (and the rules allow it, §7, R11, R12)."""
        return (
            len(seen.crates) < cards.MAX_CRATES
            and seen.fish_deck > 0
            and seen.my_coins >= 2 * seen.crate_price
        )

    # ------------------------------------------------------------------ serve step

    def _serve(self, seen: Seen, legal: list[Wire]) -> Wire | None:
        if (
            seen.is_active
            and any(a["type"] == "serve" for a in legal)
            and not any(p.answerer == seen.seat for p in seen.proposals)
            and not any(p.proposer == seen.seat for p in seen.proposals)
            and self._ended_early != seen.turn
            and self.rng.random() < self.slip / 2
        ):
            self._ended_early = seen.turn
            return to_wire(EndTurn())
        return super()._serve(seen, legal)

    def _best_serve(self, seen: Seen, serves: list[Wire]) -> Wire:
        if self.rng.random() < self.slip:
            order = {c: i for i, c in enumerate(seen.queue)}
            return min(serves, key=lambda a: (order.get(a["client"], 9), len(a["arrivages"])))
        return super()._best_serve(seen, serves)

    # ------------------------------------------------------------------ deals

    def _answer_as_buyer(self, seen: Seen, offer: Offer) -> Wire:
        """Accept any price below the coins of a client the fish complete (§4)."""
        decline = to_wire(Decline(offer.id))
        if offer.buyer_glacons or offer.buyer_arrivages or offer.coins > seen.my_coins:
            return decline
        glacons, arrivages = seen.specials()
        stock = seen.serve_stock()
        more = Stock(
            stock.fish, glacons + offer.seller_glacons, arrivages + offer.seller_arrivages
        ).plus(offer.codes())
        gain = rollout(seen.queue, more).coins - rollout(seen.queue, stock).coins
        if offer.coins < gain:
            return to_wire(Accept(offer.id))
        return decline

    def _offer_unasked(self, seen: Seen) -> Wire | None:
        """Once a turn, offer the active seat the fish from this seat's crates that
        visibly complete one of its clients, at :meth:`seller_ask` (§4); else ``None``."""
        if self._offered_turn == seen.turn:
            return None
        buyer_coins = seen.coins[seen.active]
        mine = {seen.seat: seen.stalls[seen.seat]}
        deal = find_purchase(seen.queue, seen.public_stock(seen.active), mine, buyer_coins)
        if deal is None:
            return None
        ask = math.ceil(fish_worth(dict(deal.codes))) + 1
        if ask > buyer_coins:
            return None
        self._offered_turn = seen.turn
        return to_wire(Propose(seen.seat, tuple(deal.fish), coins=ask))

    def seller_ask(self, seen: Seen, offer: Offer) -> int:
        """The fish's worth plus one coin (§4)."""
        codes: Counter[str] = Counter(offer.codes())
        return math.ceil(fish_worth(codes)) + 1
