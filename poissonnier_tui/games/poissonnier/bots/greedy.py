"""GreedyBot: lays out for the queue, serves the best-paying client, buys what it lacks.

A one-step-lookahead heuristic player that sees only its seat's view and its
legal actions (``net.game.Agent``). Each decision does bounded work: at most
C(5, k) ≤ 10 fill layouts scored by a greedy serve down a queue of ≤ 5 clients,
a lookahead for the :data:`SERVES_PER_CLIENT` cheapest legal serves of each of
3 clients, and ≤ 3 clients × (players − 1) sellers × 20 fish additions when
looking for a deal. Measured: 0.2 ms per decision on average, under 20 ms at
worst. Worths are those of :mod:`poissonnier_tui.games.poissonnier.bots.planning` (one point =
one coin).

Policy, by step:

* **Fill (RULES.md §3.2).** First buy a crate if it pays (§7, R11:
  :meth:`GreedyBot.crate_pays`). Then choose which freshnesses to lay out
  (:func:`~poissonnier_tui.games.poissonnier.bots.planning.choose_layout`) for the clients that
  will be within reach after the call (§3.3), and lay *all* fish of those
  freshnesses, one freshness per crate: fish in a crate are never lost (they
  come back at the next fill step) and, on others' turns, are for sale.
  Rotten fish stay in hand (an inspector fines them, §5, R10) unless the bot is
  active and an undecided client within reach can take them.
* **Serve (§3.4, §6).** Serve while it can, choosing the serve whose client
  value plus the greedy serve of the rest of the queue is best.
* **Buy (§4).** When nothing is servable, propose to buy 1–2 fish from another
  seat's crates completing a client within reach, opening at the fish's worth,
  never above the client's coins less one; accept a counter up to that limit.
* **Sell (§4, R8).** Asked to sell, accept a price at least the fish's worth
  plus :data:`RIVAL_SHARE` of what the buyer visibly gains (at two players,
  all of it: the buyer is the only rival); otherwise counter once at that
  price, or decline.
* **Never wait on itself.** A proposal of its own still open when it is asked
  again is withdrawn at the :data:`STALE_ASKS`-th ask; at most
  :data:`MAX_PROPOSALS` proposals a turn; then it ends the turn.
"""

from __future__ import annotations

import math
import random
from typing import Final

from net.game import Wire
from poissonnier_tui.games.poissonnier.bots.planning import (
    FISH_WORTH,
    SPECIAL_WORTH,
    Layout,
    Purchase,
    Stock,
    assign_crates,
    choose_layout,
    client_value,
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
    Place,
    Propose,
    Ready,
    TakeBack,
    Withdraw,
    to_wire,
)

MAX_PROPOSALS: Final = 6
"""Proposals the active bot makes in one turn at most (§4)."""
STALE_ASKS: Final = 2
"""Asks with its own proposal still open before the bot withdraws it."""
MAX_COUNTERS: Final = 2
"""Counter-proposals a selling bot makes in one turn at most."""
RIVAL_SHARE: Final[dict[int, float]] = {2: 1.0, 3: 0.5, 4: 0.33, 5: 0.25}
"""Players → share of the buyer's expected gain a seller adds to its ask: a deal feeds a
rival (§8); at two players, the only one, so the seller wants the whole gain."""
SPEND_LAMBDA: Final = 0.5
"""Weight of the spend when choosing a serve (0 on the last turn, R13: leftovers are worthless)."""
COIN_RESERVE: Final = 1
"""Coins kept after buying a crate, to be able to pay for a missing fish."""
CRATE_TURN_VALUE: Final[dict[int, float]] = {2: 2.5, 3: 2.0, 4: 1.0, 5: 0.25, 6: 0.0}
"""Estimated points per own turn to come of owning the k-th crate (k → points)."""
SERVES_PER_CLIENT: Final = 6
"""Serves of one client looked ahead per decision, cheapest first (bounded work)."""


def _serve_cost(serve: Wire) -> float:
    """Worth spent by a ``serve`` wire action: its fish and its special cards."""
    worth = FISH_WORTH
    return (
        sum([worth[f[0]] for f in serve["fish"]])  # whole numbers: exact in any order
        + len(serve["glacons"]) * SPECIAL_WORTH[cards.GLACON]
        + len(serve["arrivages"]) * SPECIAL_WORTH[cards.ARRIVAGE]
    )


class GreedyBot:
    """A heuristic seat player; satisfies ``net.game.Agent``.

    Args:
        rng: a ``random.Random`` or a seed. The policy is deterministic; the
            generator is kept for reproducible variants and for the registry's
            uniform signature.
        crate_turn_value: overrides :data:`CRATE_TURN_VALUE`.
        rival_share: overrides :data:`RIVAL_SHARE`.
        coin_reserve: overrides :data:`COIN_RESERVE`.
        max_proposals: overrides :data:`MAX_PROPOSALS` (0: never buys fish).
        stale_asks: overrides :data:`STALE_ASKS` (patience with an unanswered proposal).
    """

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        crate_turn_value: dict[int, float] | None = None,
        rival_share: dict[int, float] | None = None,
        coin_reserve: int = COIN_RESERVE,
        max_proposals: int = MAX_PROPOSALS,
        stale_asks: int = STALE_ASKS,
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.crate_turn_value = dict(crate_turn_value or CRATE_TURN_VALUE)
        self.rival_share = dict(RIVAL_SHARE if rival_share is None else rival_share)
        self.stale_asks = stale_asks
        self.coin_reserve = coin_reserve
        self.max_proposals = max_proposals
        self._turn = -1
        self._tried: set[tuple[int, str, tuple[tuple[str, int], ...]]] = set()
        self._proposals = 0
        self._counters = 0
        self._countered: set[tuple[tuple[int, int, str], ...]] = set()
        self._stale: dict[int, int] = {}
        self._kept_layout: tuple[tuple[object, ...], Layout] | None = None  # see _fill_layout

    # ------------------------------------------------------------------ entry

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """Choose an action for the seat whose ``view`` this is.

        Args:
            view: the seat's view (VIEW SHAPE in ``poissonnier_tui.games.poissonnier.rules.view``).
            legal: the seat's legal actions as wire maps (``legal_actions``).

        Returns:
            A wire action the engine accepts (ACTION WIRE FORMS in
            ``poissonnier_tui.games.poissonnier.rules.actions``): one of ``legal`` or one built
            from the view under the rules cited in the module docstring;
            ``None`` when there is nothing to do now.
        """
        if not legal:
            return None
        seen = Seen.read(view)
        if seen.turn != self._turn:
            self._new_turn(seen.turn)
        if seen.phase == "fill":
            types = {a["type"] for a in legal}
            return self._fill(seen, types) if "ready" in types else None
        if seen.phase == "serve":
            return self._serve(seen, legal)
        return None

    @property
    def acts_unasked(self) -> bool:
        """Whether this bot ever acts when the game does not wait on it (§4: an offer to
        the active seat nobody asked for); read by ``arena.play.acts_unasked``.

        ``False`` for the greedy bot itself: asked then, it passes (:meth:`_offer_unasked`)
        and changes nothing of its own (a new turn it notices is noticed as well at its
        next ask). ``True`` for a level that overrides :meth:`_offer_unasked`.
        """
        return type(self)._offer_unasked is not GreedyBot._offer_unasked

    def _new_turn(self, turn: int) -> None:
        self._turn = turn
        self._tried.clear()
        self._proposals = 0
        self._counters = 0
        self._countered.clear()
        self._stale.clear()

    # ------------------------------------------------------------------ fill step

    def _fill(self, seen: Seen, types: set[str]) -> Wire:
        """One step toward the chosen layout, then ``ready`` (RULES.md §3.2)."""
        if "buy_crate" in types and self.crate_pays(seen):
            return to_wire(BuyCrate())
        return fill_step(seen, self._fill_layout(seen))

    def _fill_layout(self, seen: Seen) -> Layout:
        """:func:`choose_layout` for this seat's fill step, kept while what it depends on
        stays the same: placing and taking back fish (§3.2) move fish between the hand
        and the crates, so the steps of one fill step share one layout."""
        glacons, arrivages = seen.specials()
        pool = seen.pool()
        key = (tuple(sorted(pool.items())), len(seen.crates), seen.queue, glacons, arrivages,
               seen.is_active)  # fmt: skip
        if self._kept_layout is not None and self._kept_layout[0] == key:
            return self._kept_layout[1]
        layout = choose_layout(
            pool,
            len(seen.crates),
            queue_after_call(seen.queue),
            glacons,
            arrivages,
            allow_rotten=seen.is_active,
        )
        self._kept_layout = (key, layout)
        return layout

    def crate_pays(self, seen: Seen) -> bool:
        """Whether buying the next crate now is worth its price (RULES.md §7, R11, R12).

        Worth = the better layout it allows this turn (active seat only) plus
        :data:`CRATE_TURN_VALUE` × the seat's expected turns to come; it must
        reach the price, and :data:`COIN_RESERVE` coins must remain.
        """
        price = seen.crate_price
        owned = len(seen.crates)
        if (
            owned >= cards.MAX_CRATES
            or seen.my_coins - price < self.coin_reserve
            or seen.fish_deck <= 0
        ):
            return False
        worth = self.crate_turn_value.get(owned + 1, 0.0) * seen.own_turns_left()
        if seen.is_active:
            pool = seen.pool()
            if sum(1 for code in "TFMD" if pool[code]) > owned:
                glacons, arrivages = seen.specials()
                queue = queue_after_call(seen.queue)
                now = choose_layout(pool, owned, queue, glacons, arrivages, True)
                more = choose_layout(pool, owned + 1, queue, glacons, arrivages, True)
                worth += max(0.0, more.plan.value - now.plan.value)
        return worth >= price

    # ------------------------------------------------------------------ serve step

    def _serve(self, seen: Seen, legal: list[Wire]) -> Wire | None:
        for offer in seen.proposals:
            if offer.answerer == seen.seat:
                if seen.is_active:
                    return self._answer_as_buyer(seen, offer)
                return self._answer_as_seller(seen, offer)
        if not seen.is_active:
            if any(seen.seat in (p.seller, p.proposer) for p in seen.proposals):
                return None  # one deal at a time with the active player
            return self._offer_unasked(seen)
        own = [p for p in seen.proposals if p.proposer == seen.seat]
        if own:
            p = own[0]
            self._stale[p.id] = self._stale.get(p.id, 0) + 1
            if self._stale[p.id] >= self.stale_asks:
                return to_wire(Withdraw(p.id))
            return None
        serves = [a for a in legal if a["type"] == "serve"]
        if serves:
            return self._best_serve(seen, serves)
        if self._proposals < self.max_proposals:
            deal = self._purchase(seen)
            if deal is not None:
                return deal
        return to_wire(EndTurn())

    def _offer_unasked(self, seen: Seen) -> Wire | None:
        """An offer to the active seat nobody asked for (§4), made in its serve step by a
        seat with no deal open with it; the greedy bot makes none."""
        return None

    def _best_serve(self, seen: Seen, serves: list[Wire]) -> Wire:
        """The legal serve maximising client value plus the greedy rest (§3.4, §6).

        Only the :data:`SERVES_PER_CLIENT` cheapest serves of each client are
        looked ahead (an undecided client alone may have dozens), so a
        decision makes at most 3 × that many rollouts.
        """
        stock = seen.serve_stock()
        lam = 0.0 if seen.last_turn else SPEND_LAMBDA
        costed: dict[str, list[tuple[float, int, Wire]]] = {}
        for i, a in enumerate(serves):
            costed.setdefault(a["client"], []).append((_serve_cost(a), i, a))
        best: tuple[float, Wire] | None = None
        for client, options in costed.items():
            rest = [c for c in seen.queue if c != client]
            for cost, _, a in sorted(options)[:SERVES_PER_CLIENT]:
                fish: dict[str, int] = {}
                for f in a["fish"]:
                    fish[f[0]] = fish.get(f[0], 0) + 1
                after = rollout(rest, stock.minus(fish, len(a["glacons"]), len(a["arrivages"])))
                score = client_value(client) - lam * cost + after.value - lam * after.cost
                if best is None or score > best[0]:
                    best = (score, a)
        assert best is not None
        return best[1]

    def _purchase(self, seen: Seen) -> Wire | None:
        """A proposal buying 1–2 fish that complete a client (§4), or ``None``."""
        sellers = {s: seen.stalls[s] for s in range(seen.players) if s != seen.seat}
        deal = find_purchase(seen.queue, seen.serve_stock(), sellers, seen.my_coins, self._tried)
        if deal is None:
            return None
        self._tried.add((deal.seller, deal.client, deal.codes))
        self._proposals += 1
        return purchase_wire(deal)

    def _answer_as_buyer(self, seen: Seen, offer: Offer) -> Wire:
        """Accept a seller's proposal if the fish earn more coins than they cost (§4, R8)."""
        glacons, arrivages = seen.specials()
        decline = to_wire(Decline(offer.id))
        if offer.buyer_glacons or offer.buyer_arrivages or offer.coins > seen.my_coins:
            return decline
        stock = seen.serve_stock()
        gained = Stock(
            stock.fish, glacons + offer.seller_glacons, arrivages + offer.seller_arrivages
        )
        gained = gained.plus(offer.codes())
        coins_gain = rollout(seen.queue, gained).coins - rollout(seen.queue, stock).coins
        if offer.coins <= coins_gain - 1:
            return to_wire(Accept(offer.id))
        return decline

    def seller_ask(self, seen: Seen, offer: Offer) -> int:
        """Coins this seat wants for what ``offer`` takes from it (§4).

        The fish's worth plus the worth of the specials given, less the worth
        of the specials received, plus :data:`RIVAL_SHARE` of the gain the
        buyer can be seen to make (the clients the fish complete, judged from
        its stall, the fish it bought and the queue; its hand is hidden).
        """
        ask = (
            fish_worth(offer.codes())
            + offer.seller_glacons * SPECIAL_WORTH[cards.GLACON]
            + offer.seller_arrivages * SPECIAL_WORTH[cards.ARRIVAGE]
            - offer.buyer_glacons * SPECIAL_WORTH[cards.GLACON]
            - offer.buyer_arrivages * SPECIAL_WORTH[cards.ARRIVAGE]
        )
        share = self.rival_share.get(seen.players, 0.0)
        if share and offer.fish:
            stock = seen.public_stock(seen.active)
            gain = rollout(seen.queue, stock.plus(offer.codes())).value
            ask += share * max(0.0, gain - rollout(seen.queue, stock).value)
        return max(0, math.ceil(ask))

    def _answer_as_seller(self, seen: Seen, offer: Offer) -> Wire:
        """Accept at the ask, counter once at it, or decline (§4, R8)."""
        decline = to_wire(Decline(offer.id))
        glacons, arrivages = seen.specials()
        if offer.seller_glacons > glacons or offer.seller_arrivages > arrivages:
            return decline
        ask = self.seller_ask(seen, offer)
        if offer.coins >= ask:
            return to_wire(Accept(offer.id))
        if (
            self._counters < MAX_COUNTERS
            and offer.fish not in self._countered
            and ask <= seen.coins[seen.active]
        ):
            self._counters += 1
            self._countered.add(offer.fish)
            return to_wire(
                Propose(
                    seen.seat,
                    offer.fish_pairs(),
                    offer.seller_glacons,
                    offer.seller_arrivages,
                    ask,
                    offer.buyer_glacons,
                    offer.buyer_arrivages,
                    counter=offer.id,
                )
            )
        return decline


def fill_step(seen: Seen, layout: Layout) -> Wire:
    """The next action moving this seat's draft crates toward ``layout``, or ``ready`` (§3.2).

    Crates holding a freshness the layout does not keep there, or too many
    fish, are taken back first; then missing fish are placed from the hand.
    """
    targets = assign_crates(seen.crates, layout)
    for i, (fish, target) in enumerate(zip(seen.crates, targets, strict=True)):
        if fish and (target is None or fish[0][0] != target[0] or len(fish) > target[1]):
            return to_wire(TakeBack(i))
    for i, (fish, target) in enumerate(zip(seen.crates, targets, strict=True)):
        if target is None or len(fish) >= target[1]:
            continue
        code, count = target
        free = sorted(c for c in seen.hand if c[0] == code)
        missing = free[: count - len(fish)]
        if missing:
            return to_wire(Place(tuple(missing), i))
    return to_wire(Ready())


def purchase_wire(deal: Purchase) -> Wire:
    """The ``propose`` wire action asking ``deal.seller`` for ``deal.fish`` (``[crate index,
    count]`` pairs) at ``deal.offer`` coins: the active seat buys (RULES.md §4)."""
    return to_wire(Propose(deal.seller, tuple(deal.fish), coins=deal.offer))
