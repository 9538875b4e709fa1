"""The planning shortcuts give the answers of the plain search (RULES.md §4, §6).

``best_plan`` turns down a client with more places than usable cards before
its cache, ``find_purchase`` turns down additions that cannot pay before
planning them, and ``rollout`` spends each plan from its cached cost and spend;
all must choose exactly what the full enumeration chooses.
"""

from __future__ import annotations

import random

from poissonnier_tui.games.poissonnier.bots.planning import (
    CODES,
    SPEND_WEIGHT,
    Purchase,
    Stock,
    best_plan,
    client_value,
    crate_pairs,
    find_purchase,
    fish_worth,
    plan_cost,
    price_limit,
    rollout,
)
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.rules.orders import serve_plans


def _stock(rng: random.Random) -> Stock:
    t, f, m, d, p = (rng.choice((0, 0, 1, 1, 2, 3)) for _ in CODES)
    return Stock((t, f, m, d, p), rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1, 2)))


def test_best_plan_costs_what_the_cheapest_serve_plan_costs() -> None:
    """For every client and 150 seeded stocks: a plan exactly when ``serve_plans`` has
    one, at the cost of its cheapest."""
    rng = random.Random(7)
    stocks = [_stock(rng) for _ in range(150)]
    servable = none = 0
    for cid, client in CLIENTS.items():
        for stock in stocks:
            plans = serve_plans(client, stock.counter(), stock.glacons, stock.arrivages)
            got = best_plan(cid, stock)
            if not plans:
                assert got is None, (cid, stock)
                none += 1
            else:
                assert got is not None, (cid, stock)
                assert plan_cost(got) == min(plan_cost(p) for p in plans), (cid, stock)
                servable += 1
    assert servable > 1000 and none > 1000  # both answers were checked many times


def _plain_purchase(
    queue: list[str], stock: Stock, sellers: dict[int, tuple[str, ...]], coins: int
) -> Purchase | None:
    """``find_purchase`` without its shortcuts: every addition planned, then judged."""
    best: Purchase | None = None
    for cid in dict.fromkeys(queue[:3]):
        if best_plan(cid, stock) is not None:
            continue
        for seller, crates in sellers.items():
            shown = sorted({c[0] for c in crates if c})
            adds = [((a, 1),) for a in shown]
            adds += [((a, 2),) if a == b else ((a, 1), (b, 1))
                     for i, a in enumerate(shown) for b in shown[i:]]  # fmt: skip
            for add in adds:
                held = {code: sum(len(c) for c in crates if c and c[0] == code) for code in shown}
                if any(held[code] < n for code, n in add):
                    continue
                plan = best_plan(cid, stock.plus(dict(add)))
                if plan is None:
                    continue
                limit = price_limit(cid, coins)
                offer = min(limit, max(1, int(fish_worth(dict(add)))))
                gain = client_value(cid) - offer - SPEND_WEIGHT * plan_cost(plan)
                if gain <= 0 or (best is not None and gain <= best.gain):
                    continue
                best = Purchase(seller, crate_pairs(crates, dict(add)), add, cid, offer, limit,
                                gain)  # fmt: skip
                break
    return best


def test_find_purchase_chooses_what_the_plain_search_chooses() -> None:
    """400 seeded situations: the same purchase (or none) with and without the shortcuts."""
    rng = random.Random(11)
    ids = sorted(CLIENTS)
    found = 0
    for _ in range(400):
        queue = rng.sample(ids, 5)
        stock = _stock(rng)
        sellers: dict[int, tuple[str, ...]] = {
            seat: tuple(rng.choice("TFMD") * rng.randint(0, 3) for _ in range(rng.randint(1, 3)))
            for seat in (1, 2, 3)
        }
        coins = rng.randint(0, 8)
        want = _plain_purchase(queue, stock, sellers, coins)
        assert find_purchase(queue, stock, sellers, coins) == want
        found += want is not None
    assert found > 50  # purchases were found, not only refused


def _plain_rollout(
    queue: list[str], stock: Stock
) -> tuple[float, int, float, tuple[str, ...], Stock]:
    """``rollout`` without its caches: every plan of every client within reach listed by
    ``serve_plans``, the best-paying client served first (ties: the cheaper plan, then
    the first in the queue), its fish and specials taken off the stock (§3.4)."""
    q = list(queue)
    value = cost = 0.0
    coins = 0
    served: list[str] = []
    while True:
        best = None
        for cid in q[:3]:
            client = CLIENTS[cid]
            if client.kind is ClientKind.INSPECTOR:
                continue
            plans = serve_plans(client, stock.counter(), stock.glacons, stock.arrivages)
            if not plans:
                continue
            plan = min(plans, key=plan_cost)
            worth = client_value(cid)
            if best is None or (worth, -plan_cost(plan)) > (best[0], -plan_cost(best[2])):
                best = (worth, cid, plan)
        if best is None:
            return value, coins, cost, tuple(served), stock
        worth, cid, plan = best
        glacons = sum(n for _, n in plan.iced)
        stock = stock.minus(plan.fish_needed(), glacons, len(plan.arrivages))
        q.remove(cid)
        value += worth
        coins += CLIENTS[cid].coins
        cost += plan_cost(plan)
        served.append(cid)


def test_rollout_serves_what_the_plain_greedy_loop_serves() -> None:
    """300 seeded queues and stocks: the same clients served, in the same order, for the
    same value, coins and cost, leaving the same stock."""
    rng = random.Random(5)
    ids = sorted(CLIENTS)
    served = 0
    for _ in range(300):
        queue = rng.sample(ids, 5)
        stock = _stock(rng)
        got = rollout(queue, stock)
        want = _plain_rollout(queue, stock)
        assert (got.value, got.coins, got.cost, got.served, got.left) == want, (queue, stock)
        served += len(got.served) >= 2
    assert served > 30  # rollouts that served more than one client were compared
