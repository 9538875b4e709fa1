"""MediumBot: the heuristic level — greedy play tuned to how the game is won, and haggling.

It builds on :class:`~poissonnier_tui.games.poissonnier.bots.greedy.GreedyBot` (same one-step
lookahead, same bounded work) and changes what the points are and how deals
go. Everything it reads is its seat's view
(:class:`~poissonnier_tui.games.poissonnier.bots.seen.Seen`) and its legal actions.
Measured: 0.1 ms per decision (median), under 0.5 ms at
p95 (CPU, one core); it wins 63.5 % of 200 two-player games against the
greedy bot and 94 % against the easy one.

* **Points follow the winner rules (RULES.md §8).** A client is worth
  ``w_coins × coins + w_clients + w_stamps × stamps`` with weights per table
  size (:data:`WEIGHTS`): stamps decide the last step of the 3–5 player
  eliminations and are one of the three 2-player tallies, while coins are
  also spent (crates, deals), so a stamp counts more than a coin.
* **Crates shaped to the queue and the clients likely to come (§3.2, §3.3).**
  A layout is scored on the known clients within reach after the call *and*
  on :data:`QUEUE_SAMPLES` completions of the queue drawn from the client
  cards this seat has not seen (the deck), averaged; chosen once per fill step.
* **Crates bought by expected return (§7, R11, R12).** :func:`crate_worth`:
  points per own turn to come of the k-th crate (:data:`CRATE_TURN_VALUE`),
  plus the better layout it allows now when active; bought when that reaches
  the price and a coin remains.
* **Inspector risk (§5, R10).** Rotten fish go in a crate only when active with
  an undecided client within reach, and only if the chance that the call
  reveals an inspector (drawn from the unseen clients) times the fine and the
  lost serve stays below the gain.
* **Deals (§4, R8): haggling.** As buyer it opens at the fish's worth and
  answers a seller's price above its limit (:func:`deal_limit`: what the fish
  let it earn this turn, in coins or in points, less one) with a counter
  half-way, at most :data:`MAX_HAGGLE` times. As seller it asks the fish's
  worth plus a share of the buyer's visible gain
  (:data:`~poissonnier_tui.games.poissonnier.bots.greedy.RIVAL_SHARE`), and concedes half-way
  towards its floor (the fish's worth, one coin, and half that share) on each
  counter: at two players, where the buyer is the only rival, it sells dear.
* **Unasked offers (§4: anyone may propose).** On another seat's turn it
  offers the active player the 1–2 fish from its crates that visibly complete
  a client within their reach, at its ask, when that ask is within what the
  buyer can be seen to gain (:func:`deal_limit` on the buyer's public stock);
  at most :data:`MAX_UNASKED` such offers a turn. At two players the ask (the
  buyer's whole gain) never is, so it offers only at three or more.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Final

from net.game import Wire
from poissonnier_tui.games.poissonnier.bots.greedy import (
    GreedyBot,
    _serve_cost,
    fill_step,
    purchase_wire,
)
from poissonnier_tui.games.poissonnier.bots.planning import (
    CODES,
    EXPOSED_WEIGHT,
    FISH_WORTH,
    SPECIAL_WORTH,
    SPEND_WEIGHT,
    Layout,
    Stock,
    find_purchase,
    fish_worth,
    queue_after_call,
    rollout,
    rotten_cap,
)
from poissonnier_tui.games.poissonnier.bots.seen import Offer, Seen
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    Decline,
    Propose,
    to_wire,
)
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind

WEIGHTS: Final[dict[int, tuple[float, float, float]]] = {
    2: (0.5, 1.0, 1.5),
    3: (0.5, 1.0, 1.5),
    4: (0.5, 1.0, 1.5),
    5: (0.5, 1.0, 1.5),
}
"""Players → points of (one coin, one client card, one stamp) (RULES.md §8).
Measured against greedy's (1, 1, 1): 60.5 % of 200 two-player games."""
CRATE_TURN_VALUE: Final[dict[int, float]] = {2: 2.5, 3: 2.0, 4: 1.0, 5: 0.25, 6: 0.0}
"""Estimated points per own turn to come of owning the k-th crate (k → points)."""
QUEUE_SAMPLES: Final = 4
"""Completions of the queue drawn from the unseen clients when scoring a layout."""
INSPECTOR_FINE: Final = 1
"""Coins an inspector takes from a seat with rotten fish in its crates (R10)."""
MAX_HAGGLE: Final = 2
"""Counter-proposals a bot makes on one deal, as buyer or as seller (§4)."""
MAX_UNASKED: Final = 1
"""Offers a bot makes unasked on another seat's turn, per turn (§4)."""


def deal_limit(
    queue: Sequence[str],
    stock: Stock,
    codes: Mapping[str, int],
    value_of: Callable[[str], float],
    *,
    glacons: int = 0,
    arrivages: int = 0,
) -> int:
    """Most coins worth paying for fish ``codes`` (RULES.md §4): what they let the buyer
    earn this turn, less one — counted in coins, or in points when the clients they
    complete are worth more in stamps and cards than in coins (a 1-coin client with
    stamps is still worth buying for). Negative when the fish are worth nothing.

    Args:
        queue: the queue, front first.
        stock: what the buyer serves with now (its own, or as others see it).
        codes: the fish bought, ``{freshness code: count}``.
        value_of: points of a client (:func:`points_of`).
        glacons / arrivages: special cards the buyer gets in the deal.

    Returns:
        Coins; not capped by the coins the buyer holds.
    """
    after = Stock(stock.fish, stock.glacons + glacons, stock.arrivages + arrivages).plus(codes)
    with_fish = rollout(queue, after, value_of=value_of)
    without = rollout(queue, stock, value_of=value_of)
    return math.floor(max(with_fish.coins - without.coins, with_fish.value - without.value) - 1)


@lru_cache(maxsize=64)
def points_of(weights: tuple[float, float, float]) -> Callable[[str], float]:
    """``client id → points`` for ``(coin, client, stamp)`` weights (RULES.md §8 tallies).

    The same function for the same weights (cached): the planning caches
    (``planning.rollout``, ``choose_layout``) are keyed by it, so a new one per
    decision or per playout would never find what an earlier one worked out.
    """
    w_coin, w_client, w_stamp = weights

    @lru_cache(maxsize=64)
    def value(client_id: str) -> float:
        c = CLIENTS[client_id]
        return w_coin * c.coins + w_client + w_stamp * c.stamps

    return value


def rank_layouts(
    pool: Mapping[str, int],
    crates: int,
    queues: Sequence[Sequence[str]],
    glacons: int,
    arrivages: int,
    rotten: int,
    value_of: Callable[[str], float],
) -> list[Layout]:
    """Every layout filling ``crates`` crates, best first, scored over several queues (§3.2).

    Like :func:`~poissonnier_tui.games.poissonnier.bots.planning.choose_layout`, but a layout's
    score is its mean over ``queues`` (the known clients plus likely ones),
    and all layouts are returned, so a search can try the runners-up.

    Args:
        pool: fish the seat can lay out (hand plus crates) by freshness code.
        crates: crates owned.
        queues: the queues to score against, front first; at least one.
        glacons / arrivages: special cards in hand.
        rotten: rotten fish that may be laid (0: none, §5).
        value_of: points of a client.

    Returns:
        Layouts, best score first (ties: fresher subsets first); ``plan`` is the
        greedy serve down ``queues[0]``. One empty layout when nothing can be laid.
    """
    counts = {code: n for code in CODES if (n := pool.get(code, 0)) > 0}
    if "P" in counts:
        if rotten > 0:
            counts["P"] = min(counts["P"], rotten)
        else:
            del counts["P"]
    size = min(crates, len(counts))
    out: list[tuple[float, int, Layout]] = []
    base = Stock((0, 0, 0, 0, 0), glacons, arrivages)
    for i, subset in enumerate(combinations(list(counts), size)):
        chosen = tuple((code, counts[code]) for code in subset)
        stock = base.plus(dict(chosen))
        shown = sum(n * (FISH_WORTH[code] + 1.0) for code, n in chosen)
        total = 0.0
        first = None
        for queue in queues:
            plan = rollout(queue, stock, value_of=value_of)
            first = first or plan
            total += plan.value - SPEND_WEIGHT * plan.cost
        assert first is not None
        score = total / len(queues) + EXPOSED_WEIGHT * shown
        out.append((-score, i, Layout(chosen, score, first)))
    if not out:
        return [Layout((), 0.0, rollout(queues[0], base, value_of=value_of))]
    return [layout for _, _, layout in sorted(out, key=lambda t: (t[0], t[1]))]


def crate_worth(
    pool: Mapping[str, int],
    owned: int,
    queue: Sequence[str],
    glacons: int,
    arrivages: int,
    active: bool,
    turns_left: float,
    turn_value: Mapping[int, float] = CRATE_TURN_VALUE,
    value_of: Callable[[str], float] | None = None,
) -> float:
    """Points the next crate is worth (RULES.md §7, R11, R12), to compare with its price.

    Args:
        pool: fish the seat can lay out (hand plus crates) by freshness code.
        owned: crates owned now.
        queue: the clients known to be within reach after the call (§3.3).
        glacons / arrivages: special cards in hand.
        active: the seat serves this turn, so a better layout pays at once.
        turns_left: the seat's expected turns after this one.
        turn_value: points per own turn to come of owning the k-th crate.
        value_of: points of a client (default: :data:`WEIGHTS` for 4 players).

    Returns:
        ``turn_value[owned + 1] × turns_left`` plus, when active and the pool
        holds more freshnesses than crates, the gain of the better layout.
    """
    if owned >= cards.MAX_CRATES:
        return 0.0
    value = value_of or points_of(WEIGHTS[4])
    worth = turn_value.get(owned + 1, 0.0) * turns_left
    if active and sum(1 for code in "TFMD" if pool.get(code, 0)) > owned:
        rotten = rotten_cap(queue)
        now = rank_layouts(pool, owned, [queue], glacons, arrivages, rotten, value)[0]
        more = rank_layouts(pool, owned + 1, [queue], glacons, arrivages, rotten, value)[0]
        worth += max(0.0, more.plan.value - now.plan.value)
    return worth


def inspector_chance(seen: Seen) -> float:
    """Chance that the coming call of clients reveals an inspector (RULES.md §3.3, §5).

    The call draws ``5 − known`` clients from the deck, whose cards are the
    ones this seat has not seen; without replacement, and an inspector is
    itself replaced by another draw, so this is 1 − P(no inspector among the draws).
    """
    unseen = seen.unseen_clients()
    draws = cards.QUEUE_MAX - len(queue_after_call(seen.queue))
    inspectors = sum(1 for c in unseen if cards.is_inspector(c))
    if not unseen or draws <= 0 or not inspectors:
        return 0.0
    p_none = 1.0
    left = len(unseen)
    for k in range(min(draws, left)):
        p_none *= max(0.0, (left - k - inspectors) / (left - k))
    return 1.0 - p_none


def likely_queues(seen: Seen, rng: random.Random, samples: int) -> list[list[str]]:
    """The known queue after the call, then ``samples`` completions from unseen clients (§3.3).

    Returns:
        ``[known, known + draw_1, ...]``; only ``[known]`` when nothing is drawn.
    """
    known = queue_after_call(seen.queue)
    draws = cards.QUEUE_MAX - len(known)
    pool = [c for c in seen.unseen_clients() if not cards.is_inspector(c)]
    if draws <= 0 or not pool or samples <= 0:
        return [known]
    return [known] + [known + rng.sample(pool, min(draws, len(pool))) for _ in range(samples)]


class MediumBot(GreedyBot):
    """The heuristic level; satisfies ``net.game.Agent``.

    Args:
        rng: a ``random.Random`` or a seed (draws the likely clients).
        weights: ``players → (coin, client, stamp)`` points; overrides :data:`WEIGHTS`.
        crate_turn_value: overrides :data:`CRATE_TURN_VALUE`.
        queue_samples: overrides :data:`QUEUE_SAMPLES` (0: known clients only).
        max_haggle: overrides :data:`MAX_HAGGLE` (0: accept or decline only).
        **greedy: other :class:`GreedyBot` options (``rival_share``, ``coin_reserve``…).
    """

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        weights: Mapping[int, tuple[float, float, float]] | None = None,
        crate_turn_value: dict[int, float] | None = None,
        queue_samples: int = QUEUE_SAMPLES,
        max_haggle: int = MAX_HAGGLE,
        **greedy: Any,
    ) -> None:
        super().__init__(rng, crate_turn_value=crate_turn_value or CRATE_TURN_VALUE, **greedy)
        self.weights = dict(weights or WEIGHTS)
        self.queue_samples = queue_samples
        self.max_haggle = max_haggle
        self._layout_key: tuple[Any, ...] | None = None
        self._layout: Layout | None = None
        self._bids: dict[tuple[Any, ...], int] = {}
        self._asks: dict[tuple[Any, ...], int] = {}
        self._rounds: Counter[tuple[Any, ...]] = Counter()
        self.max_unasked = MAX_UNASKED
        self._unasked = 0

    def value_of(self, seen: Seen) -> Callable[[str], float]:
        """Points of a client at this table size (:data:`WEIGHTS`, RULES.md §8)."""
        return points_of(self.weights.get(seen.players, WEIGHTS[4]))

    def _new_turn(self, turn: int) -> None:
        super()._new_turn(turn)
        self._bids.clear()
        self._asks.clear()
        self._rounds.clear()
        self._unasked = 0

    # ------------------------------------------------------------------ fill step

    def plan_layouts(self, seen: Seen) -> list[Layout]:
        """Every layout for this fill step, best first (RULES.md §3.2, §5, R10)."""
        value = self.value_of(seen)
        glacons, arrivages = seen.specials()
        queues = likely_queues(seen, self.rng, self.queue_samples)
        rotten = 0
        if seen.is_active:
            rotten = rotten_cap(queues[0])
            if rotten:
                risk = inspector_chance(seen)
                undecided = [
                    c for c in queues[0][: cards.SERVABLE]
                    if CLIENTS[c].kind is ClientKind.UNDECIDED
                ]  # fmt: skip
                gain = sum(value(c) for c in undecided)
                lost = risk * (gain + INSPECTOR_FINE * self.weights.get(seen.players, (1,))[0])
                if (1 - risk) * gain <= lost:
                    rotten = 0
        return rank_layouts(
            seen.pool(), len(seen.crates), queues, glacons, arrivages, rotten, value
        )

    def _chosen_layout(self, seen: Seen) -> Layout:
        """The layout for this fill step, chosen once (so the likely clients stay the same)."""
        key = (seen.turn, len(seen.crates), tuple(sorted(seen.pool().items())), seen.specials())
        if key != self._layout_key or self._layout is None:
            self._layout_key = key
            self._layout = self.plan_layouts(seen)[0]
        return self._layout

    def _fill(self, seen: Seen, types: set[str]) -> Wire:
        """One step toward the chosen layout, then ``ready`` (RULES.md §3.2)."""
        if "buy_crate" in types and self.crate_pays(seen):
            return to_wire(BuyCrate())
        return fill_step(seen, self._chosen_layout(seen))

    def crate_pays(self, seen: Seen) -> bool:
        """Whether the next crate's :func:`crate_worth` reaches its price (§7, R11, R12)."""
        price = seen.crate_price
        owned = len(seen.crates)
        if (
            owned >= cards.MAX_CRATES
            or seen.my_coins - price < self.coin_reserve
            or seen.fish_deck <= 0
        ):
            return False
        glacons, arrivages = seen.specials()
        worth = crate_worth(
            seen.pool(),
            owned,
            queue_after_call(seen.queue),
            glacons,
            arrivages,
            seen.is_active,
            seen.own_turns_left(),
            self.crate_turn_value,
            self.value_of(seen),
        )
        return worth >= price

    # ------------------------------------------------------------------ serve step

    def serve_scores(self, seen: Seen, serves: list[Wire]) -> list[tuple[float, Wire]]:
        """Each legal serve scored: its client's points plus the greedy rest (§3.4, §6).

        Only the 6 cheapest serves of each client are scored. Best first.
        """
        value = self.value_of(seen)
        stock = seen.serve_stock()
        lam = 0.0 if seen.last_turn else 0.5
        costed: dict[str, list[tuple[float, int, Wire]]] = {}
        for i, a in enumerate(serves):
            costed.setdefault(a["client"], []).append((_serve_cost(a), i, a))
        scored: list[tuple[float, int, Wire]] = []
        for client, options in costed.items():
            rest = [c for c in seen.queue if c != client]
            for cost, i, a in sorted(options)[:6]:
                fish = Counter(f[0] for f in a["fish"])
                left = stock.minus(fish, len(a["glacons"]), len(a["arrivages"]))
                after = rollout(rest, left, value_of=value)
                score = value(client) - lam * cost + after.value - lam * after.cost
                scored.append((-score, i, a))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [(-s, a) for s, _, a in scored]

    def _best_serve(self, seen: Seen, serves: list[Wire]) -> Wire:
        return self.serve_scores(seen, serves)[0][1]

    def _purchase(self, seen: Seen) -> Wire | None:
        """A proposal buying 1–2 fish that complete a client (§4), or ``None``."""
        sellers = {s: seen.stalls[s] for s in range(seen.players) if s != seen.seat}
        deal = find_purchase(
            seen.queue,
            seen.serve_stock(),
            sellers,
            seen.my_coins,
            self._tried,
            value_of=self.value_of(seen),
        )
        if deal is None:
            return None
        self._tried.add((deal.seller, deal.client, deal.codes))
        limit = min(
            seen.my_coins,
            deal_limit(seen.queue, seen.serve_stock(), dict(deal.codes), self.value_of(seen)),
        )
        if deal.offer == 0 and limit >= 1:  # a cheap client's stamps are worth a coin
            deal = replace(deal, offer=1, limit=limit)
        self._proposals += 1
        self._bids[(deal.seller, deal.fish, 0, 0)] = deal.offer
        return purchase_wire(deal)

    # ------------------------------------------------------------------ deals

    def buyer_limit(self, seen: Seen, offer: Offer) -> int:
        """Most coins worth paying for ``offer`` (§4): :func:`deal_limit` of its fish and
        specials for this seat, less the worth of specials it gives; at most the coins
        held. Negative when the deal is worth nothing."""
        glacons, arrivages = seen.specials()
        if offer.buyer_glacons > glacons or offer.buyer_arrivages > arrivages:
            return -1
        limit = deal_limit(
            seen.queue,
            seen.serve_stock(),
            offer.codes(),
            self.value_of(seen),
            glacons=offer.seller_glacons - offer.buyer_glacons,
            arrivages=offer.seller_arrivages - offer.buyer_arrivages,
        )
        given = (
            offer.buyer_glacons * SPECIAL_WORTH[cards.GLACON]
            + offer.buyer_arrivages * SPECIAL_WORTH[cards.ARRIVAGE]
        )
        return min(seen.my_coins, math.floor(limit - given))

    def _answer_as_buyer(self, seen: Seen, offer: Offer) -> Wire:
        """Accept a price within the limit; else counter half-way, at most :data:`MAX_HAGGLE`
        times on one deal; else decline (§4, R8)."""
        limit = self.buyer_limit(seen, offer)
        if 0 <= offer.coins <= limit:
            return to_wire(Accept(offer.id))
        key = _deal_key(offer)
        bid = self._bids.get(key)
        rounds = self._rounds[key]
        if limit >= 1 and rounds < self.max_haggle:
            start = bid if bid is not None else math.floor(fish_worth(offer.codes()))
            price = min(limit, math.ceil((start + offer.coins) / 2))
            if price > (bid if bid is not None else -1) and price < offer.coins:
                self._bids[key] = price
                self._rounds[key] += 1
                return _counter(offer, price)
        return to_wire(Decline(offer.id))

    def buyer_gain(self, seen: Seen, offer: Offer) -> float:
        """Points the active seat can be seen to gain from ``offer``'s fish this turn: the
        clients they complete, judged from its stall, its bought fish and the queue (its
        hand, and so its specials, are hidden, §9)."""
        if not offer.fish:
            return 0.0
        value = self.value_of(seen)
        stock = seen.public_stock(seen.active)
        with_fish = rollout(seen.queue, stock.plus(offer.codes()), value_of=value).value
        return max(0.0, with_fish - rollout(seen.queue, stock, value_of=value).value)

    def seller_ask(self, seen: Seen, offer: Offer) -> int:
        """Coins this seat first asks for what ``offer`` takes from it (§4): the worth of
        the fish and specials it gives, less the specials it gets, plus its
        :data:`~poissonnier_tui.games.poissonnier.bots.greedy.RIVAL_SHARE` of the buyer's gain."""
        share = self.rival_share.get(seen.players, 0.0)
        return max(0, math.ceil(_cards_worth(offer) + share * self.buyer_gain(seen, offer)))

    def seller_floor(self, seen: Seen, offer: Offer) -> int:
        """Least coins this seat takes for what ``offer`` takes from it (§4): the worth of
        the fish and specials it gives, less the specials it gets, plus one coin, plus
        half its :data:`~poissonnier_tui.games.poissonnier.bots.greedy.RIVAL_SHARE` of the
        buyer's gain
        (a deal feeds a rival, §8)."""
        share = self.rival_share.get(seen.players, 0.0) / 2
        return max(0, math.ceil(_cards_worth(offer) + share * self.buyer_gain(seen, offer)) + 1)

    def _answer_as_seller(self, seen: Seen, offer: Offer) -> Wire:
        """Accept at the ask; else counter at it, then half-way toward the floor, at most
        :data:`MAX_HAGGLE` times on one deal; else decline (§4, R8)."""
        decline = to_wire(Decline(offer.id))
        glacons, arrivages = seen.specials()
        if offer.seller_glacons > glacons or offer.seller_arrivages > arrivages:
            return decline
        key = _deal_key(offer)
        floor = self.seller_floor(seen, offer)
        last = self._asks.get(key)
        ask = max(floor, self.seller_ask(seen, offer))
        target = ask if last is None else max(floor, math.ceil((offer.coins + last) / 2))
        if offer.coins >= target:
            return to_wire(Accept(offer.id))
        rounds = self._rounds[key]
        buyer_coins = seen.coins[seen.active]
        if (
            rounds < self.max_haggle
            and self._counters < 2 * self.max_haggle
            and target <= buyer_coins
            and (last is None or target < last)
        ):
            self._counters += 1
            self._asks[key] = target
            self._rounds[key] += 1
            return _counter(offer, target)
        if last is not None and offer.coins >= floor:
            return to_wire(Accept(offer.id))
        return decline

    def _offer_unasked(self, seen: Seen) -> Wire | None:
        """On another seat's turn, offer it fish from this seat's crates that visibly
        complete one of its clients, at this seat's ask (RULES.md §4: anyone may
        propose); ``None`` when no such offer is worth making or one is already open."""
        if self._unasked >= self.max_unasked:
            return None
        value = self.value_of(seen)
        buyer_stock = seen.public_stock(seen.active)
        buyer_coins = seen.coins[seen.active]
        mine = {seen.seat: seen.stalls[seen.seat]}
        deal = find_purchase(seen.queue, buyer_stock, mine, buyer_coins, value_of=value)
        if deal is None:
            return None
        crates = seen.stalls[seen.seat]
        offer = Offer(
            id=-1, proposer=seen.seat, seller=seen.seat,
            fish=tuple((k, n, crates[k][0]) for k, n in deal.fish),
            seller_glacons=0, seller_arrivages=0, coins=0, buyer_glacons=0, buyer_arrivages=0,
            answerer=seen.active,
        )  # fmt: skip
        ask = max(self.seller_floor(seen, offer), self.seller_ask(seen, offer))
        visible = deal_limit(seen.queue, buyer_stock, offer.codes(), value)
        if ask > min(buyer_coins, visible):
            return None  # more than the buyer can be seen to gain: it would decline
        self._unasked += 1
        key = _deal_key(offer)
        self._asks[key] = ask
        self._rounds[key] += 1
        return to_wire(Propose(seen.seat, offer.fish_pairs(), coins=ask))


def _cards_worth(offer: Offer) -> float:
    """Worth to the seller of what ``offer`` moves: the fish and specials it gives, less
    the specials it gets
    (:data:`~poissonnier_tui.games.poissonnier.bots.planning.FISH_WORTH`, ``SPECIAL_WORTH``)."""
    return (
        fish_worth(offer.codes())
        + offer.seller_glacons * SPECIAL_WORTH[cards.GLACON]
        + offer.seller_arrivages * SPECIAL_WORTH[cards.ARRIVAGE]
        - offer.buyer_glacons * SPECIAL_WORTH[cards.GLACON]
        - offer.buyer_arrivages * SPECIAL_WORTH[cards.ARRIVAGE]
    )


def _deal_key(offer: Offer) -> tuple[Any, ...]:
    """What identifies one deal across counters: the seller, the fish, the specials."""
    return (
        offer.seller,
        tuple((k, n) for k, n, _ in offer.fish),
        offer.seller_glacons + 10 * offer.seller_arrivages,
        offer.buyer_glacons + 10 * offer.buyer_arrivages,
    )


def _counter(offer: Offer, coins: int) -> Wire:
    """A counter-proposal to ``offer``: the same cards at ``coins`` (§4)."""
    return to_wire(
        Propose(
            offer.seller,
            offer.fish_pairs(),
            offer.seller_glacons,
            offer.seller_arrivages,
            coins,
            offer.buyer_glacons,
            offer.buyer_arrivages,
            counter=offer.id,
        )
    )
