"""Pure planning helpers shared by the bots: worths, serve plans, fill layouts, purchases.

Nothing here sees a :class:`~poissonnier_tui.games.poissonnier.rules.state.GameState`: every
function works on what a seat's view shows (freshness codes, client ids, its
own card ids) and on the public card tables of :mod:`poissonnier_tui.games.poissonnier.rules.cards`.
Fish are counted by freshness code in a :class:`Stock`, so the helpers are
cheap and their results can be cached.

Worths are the bots' own estimates, in "points" where one point is one coin:
a client is worth its coins plus its stamps plus :data:`CLIENT_BONUS` (coins,
clients and stamps are the three tallies of RULES.md §8); a fish is worth the
coins it brings in a regular order (RULES.md §1: T=3, F=2, M=1, D=1; rotten 0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Final, NamedTuple

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.rules.orders import ServePlan, plan_caps, serve_plans

CODES: Final = ("T", "F", "M", "D", "P")
"""Freshness codes, best first, in the order :attr:`Stock.fish` counts them."""
FISH_WORTH: Final[Mapping[str, float]] = {"T": 3.0, "F": 2.0, "M": 1.0, "D": 1.0, "P": 0.0}
"""Worth of one fish by freshness code: its coins in a regular order (RULES.md §1)."""
SPECIAL_WORTH: Final[Mapping[str, float]] = {cards.GLACON: 2.0, cards.ARRIVAGE: 3.5}
"""Worth of a special card: an arrivage can stand for any non-rotten fish, so it is
worth more than any fish; a glaçon lifts one fish one level (RULES.md §1, §6)."""
CLIENT_BONUS: Final = 1.0
"""Points for the client card itself (clients won are a §8 tally)."""
_INDEX: Final = {code: i for i, code in enumerate(CODES)}


class Stock(NamedTuple):
    """What a seat could serve with: fish by freshness, and special cards in hand.

    A named tuple rather than a frozen dataclass: stocks are keys of the rollout and
    plan caches, and a tuple hashes and compares without running Python code.

    Attributes:
        fish: fish counts in :data:`CODES` order (T, F, M, D, P).
        glacons: glaçon cards in hand.
        arrivages: arrivage cards in hand.
    """

    fish: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    glacons: int = 0
    arrivages: int = 0

    @classmethod
    def of(cls, fish_codes: Iterable[str], specials: Iterable[str] = ()) -> Stock:
        """Build a stock from fish freshness codes (or ids) and special cards (ids or kinds).

        Args:
            fish_codes: one entry per fish; only the first letter is read.
            specials: hand cards; glaçons and arrivages are counted, others ignored.
        """
        counts = [0, 0, 0, 0, 0]
        for f in fish_codes:
            counts[_INDEX[f[0]]] += 1
        kinds = [c[0] for c in specials]
        return cls(
            (counts[0], counts[1], counts[2], counts[3], counts[4]),
            kinds.count(cards.GLACON),
            kinds.count(cards.ARRIVAGE),
        )

    def counter(self) -> Counter[str]:
        """The fish as a ``Counter`` of freshness codes (the form ``serve_plans`` takes)."""
        return Counter({code: n for code, n in zip(CODES, self.fish, strict=True) if n})

    def count(self, code: str) -> int:
        """Fish of freshness ``code`` held."""
        return self.fish[_INDEX[code]]

    def plus(self, fish: Mapping[str, int]) -> Stock:
        """This stock with more fish (e.g. bought in a deal, RULES.md §4)."""
        counts = list(self.fish)
        for code, n in fish.items():
            counts[_INDEX[code]] += n
        return Stock(
            (counts[0], counts[1], counts[2], counts[3], counts[4]), self.glacons, self.arrivages
        )

    def minus(self, fish: Mapping[str, int], glacons: int = 0, arrivages: int = 0) -> Stock:
        """This stock after spending fish and specials (caller checked they are held)."""
        counts = list(self.fish)
        for code, n in fish.items():
            counts[_INDEX[code]] -= n
        return Stock(
            (counts[0], counts[1], counts[2], counts[3], counts[4]),
            self.glacons - glacons,
            self.arrivages - arrivages,
        )


def client_value(client_id: str) -> float:
    """Points a served client brings: coins + stamps + :data:`CLIENT_BONUS` (RULES.md §8)."""
    c = CLIENTS[client_id]
    return c.coins + c.stamps + CLIENT_BONUS


def fish_worth(fish: Mapping[str, int]) -> float:
    """Total :data:`FISH_WORTH` of fish given as ``{code: count}``."""
    return sum(FISH_WORTH[code] * n for code, n in fish.items())


@lru_cache(maxsize=1 << 12)
def plan_cost(plan: ServePlan) -> float:
    """What a plan spends: the worth of its fish plus the worth of its special cards."""
    iced = sum(n for _, n in plan.iced)
    return (
        fish_worth(plan.fish_needed())
        + iced * SPECIAL_WORTH[cards.GLACON]
        + len(plan.arrivages) * SPECIAL_WORTH[cards.ARRIVAGE]
    )


def plan_specials(plan: ServePlan) -> tuple[int, int]:
    """``(glaçons, arrivages)`` a plan uses."""
    return sum(n for _, n in plan.iced), len(plan.arrivages)


_CAPS: Final = {
    cid: plan_caps(c.order, c.size, False)
    for cid, c in CLIENTS.items()
    if c.kind is ClientKind.REGULAR
}
"""Per regular client, the most fish of each freshness a plan can use (``orders.plan_caps``:
those asked as they are, plus those a glaçon lifts one level into an asked freshness)."""


class Choice(NamedTuple):
    """A client's cheapest plan from a stock with what it costs and spends, worked out
    once (cached) so that a rollout neither costs nor applies the plan again.

    Attributes:
        plan: the plan (:func:`best_plan`).
        cost: :func:`plan_cost` of it.
        fish: the fish it spends, counts in :data:`CODES` order.
        glacons / arrivages: the special cards it spends.
    """

    plan: ServePlan
    cost: float
    fish: tuple[int, int, int, int, int]
    glacons: int
    arrivages: int


def _choice(plan: ServePlan) -> Choice:
    """``plan`` with its cost and spend (see :class:`Choice`)."""
    spent = [0, 0, 0, 0, 0]
    for code, n in plan.fish_needed().items():
        spent[_INDEX[code]] += n
    glacons, arrivages = plan_specials(plan)
    fish = (spent[0], spent[1], spent[2], spent[3], spent[4])
    return Choice(plan, plan_cost(plan), fish, glacons, arrivages)


def best_plan(client_id: str, stock: Stock) -> ServePlan | None:
    """The cheapest way (by :func:`plan_cost`) to serve a client from ``stock`` (RULES.md §6).

    The stock is first capped to what a plan for this client could use (the
    result is the same; the cache behind it then hits far more often).

    Args:
        client_id: a regular or undecided client id (inspectors give ``None``).
        stock: fish by freshness plus special cards.

    Returns:
        A plan, or ``None`` when the client cannot be served from ``stock``.
    """
    choice = cached_choice(client_id, stock.fish, stock.glacons, stock.arrivages)
    return None if choice is None else choice.plan


def best_choice(client_id: str, stock: Stock) -> Choice | None:
    """:func:`best_plan` with its cost and spend (a :class:`Choice`), or ``None``."""
    result: Choice | None = cached_choice(client_id, stock.fish, stock.glacons, stock.arrivages)
    return result


def _choice_from(
    client_id: str, fish: Sequence[int], glacons: int, arrivages: int
) -> Choice | None:
    """:func:`best_plan` for a stock given as its parts (``fish`` counts in :data:`CODES`
    order and the special cards: no :class:`Stock` built for a stock tried only once),
    with the plan's cost and spend."""
    client = CLIENTS[client_id]
    kind = client.kind
    if kind is ClientKind.INSPECTOR:
        return None
    size = client.size
    arrivages = arrivages if arrivages < size else size
    if kind is ClientKind.UNDECIDED:
        t, f, m, d, p = fish
        return _undecided_choice(
            size,
            t if t < size else size,
            f if f < size else size,
            m if m < size else size,
            d if d < size else size,
            p if p < size else size,
            arrivages,
        )
    caps = _CAPS[client_id]
    t, f, m, d = fish[0], fish[1], fish[2], fish[3]
    t = t if t < caps[0] else caps[0]
    f = f if f < caps[1] else caps[1]
    m = m if m < caps[2] else caps[2]
    d = d if d < caps[3] else caps[3]
    if t + f + m + d + arrivages < size:  # each place of the order takes a fish or an arrivage
        return None
    return _best_regular_choice(
        client_id, t, f, m, d, glacons if glacons < size else size, arrivages
    )


cached_choice: Final = lru_cache(maxsize=1 << 15)(_choice_from)
""":func:`best_choice` for a stock given as its parts, ``(client_id, fish, glacons,
arrivages)`` with ``fish`` a tuple of counts in :data:`CODES` order; cached: a rollout
asks the same few clients of the same few stocks again and again."""


@lru_cache(maxsize=1 << 14)
def _best_regular_choice(
    client_id: str, t: int, f: int, m: int, d: int, glacons: int, arrivages: int
) -> Choice | None:
    """:func:`best_plan` for a regular client and a capped stock (cached; no rotten
    fish, which no regular order uses)."""
    client = CLIENTS[client_id]
    have = Counter({code: n for code, n in zip(CODES, (t, f, m, d), strict=False) if n})
    plans = serve_plans(client, have, glacons, arrivages)
    if not plans:
        return None
    return _choice(min(plans, key=plan_cost))


#: Fish an undecided client is given first: the least worth first (rotten, then douteux…).
_CHEAPEST_FIRST: Final = ("P", "D", "M", "F", "T")


@lru_cache(maxsize=1 << 12)
def _undecided_choice(
    size: int, t: int, f: int, m: int, d: int, p: int, arrivages: int
) -> Choice | None:
    """The cheapest plan for an undecided client (RULES.md §5, §6), built directly, for
    a stock capped at ``size`` of each (cached).

    Costs add up fish by fish, so taking the least worth fish first, and
    arrivages (worth more than any fish) only for the shortfall, is optimal.
    The plan has the form ``serve_plans`` gives (arrivages declared ``"D"``).
    """
    fish = (t, f, m, d, p)
    need: dict[str, int] = {}
    left = size
    for code in _CHEAPEST_FIRST:
        take = min(left, fish[_INDEX[code]])
        if take:
            need[code] = take
            left -= take
    if left > arrivages:
        return None
    return _choice(ServePlan(tuple(sorted(need.items())), (), ("D",) * left))


@dataclass(frozen=True, slots=True)
class Rollout:
    """The outcome of serving greedily down a queue.

    Attributes:
        value: total :func:`client_value` of the clients served.
        coins: coins earned.
        cost: total :func:`plan_cost` spent.
        served: client ids, in serving order.
        left: the stock afterwards.
    """

    value: float
    coins: int
    cost: float
    served: tuple[str, ...]
    left: Stock


def rollout(
    queue: Sequence[str],
    stock: Stock,
    window: int = cards.SERVABLE,
    *,
    value_of: Callable[[str], float] = client_value,
) -> Rollout:
    """Serve greedily: best-paying servable client first, until none is servable.

    Follows RULES.md §3.4: only the first ``window`` (3) clients can be served,
    one at a time, and the queue closes up after each serve, so later clients
    move into reach. Ties in value go to the cheaper plan. At most
    ``len(queue)`` serves, each trying at most ``window`` clients.

    Args:
        queue: client ids, front first.
        stock: what the server holds.
        window: how many front clients are servable.
        value_of: the points of a client (default :func:`client_value`).

    Returns:
        The :class:`Rollout`; its ``value`` sums ``value_of``.
    """
    return _rollout(tuple(queue), stock, window, value_of)


@lru_cache(maxsize=1 << 13)
def _rollout(
    queue: tuple[str, ...], stock: Stock, window: int, value_of: Callable[[str], float]
) -> Rollout:
    """:func:`rollout`, cached: a pure function of immutable arguments (``value_of`` is
    :func:`client_value` or one of ``medium.points_of``'s cached functions)."""
    q = list(queue)
    value = 0.0
    coins = 0
    cost = 0.0
    served: list[str] = []
    while q:
        # The best (value, -cost) of the servable clients in the window; the first on ties.
        best_cid = ""
        best: Choice | None = None
        best_value = best_cost = 0.0
        fish, glacons, arrivages = stock.fish, stock.glacons, stock.arrivages
        for cid in q[:window]:
            choice = cached_choice(cid, fish, glacons, arrivages)
            if choice is None:
                continue
            v = value_of(cid)
            c = choice.cost
            if best is None or v > best_value or (v == best_value and c < best_cost):
                best_cid, best, best_value, best_cost = cid, choice, v, c
        if best is None:
            break
        # The stock after serving with best.plan, from the spend worked out with it.
        spent = best.fish
        stock = Stock(
            (fish[0] - spent[0], fish[1] - spent[1], fish[2] - spent[2], fish[3] - spent[3],
             fish[4] - spent[4]),
            glacons - best.glacons,
            arrivages - best.arrivages,
        )  # fmt: skip
        q.remove(best_cid)
        value += best_value
        coins += CLIENTS[best_cid].coins
        cost += best_cost
        served.append(best_cid)
    return Rollout(value, coins, cost, tuple(served), stock)


def queue_after_call(queue: Sequence[str]) -> list[str]:
    """The known clients of the queue once the coming call is done (RULES.md §3.3).

    A full queue (5) loses its first client and gains an unknown one at its
    end; a shorter one only gains unknown clients at its end. Unknown clients
    are left out.
    """
    return list(queue[1:]) if len(queue) >= cards.QUEUE_MAX else list(queue)


# --------------------------------------------------------------------------- fill step

#: Weight of the spend in a layout's score: spending fish now is not free, but
#: unused fish may never find a client either.
SPEND_WEIGHT: Final = 0.25
#: Weight of the fish exposed in a layout's score: more fish on the stall means
#: more chances with unknown clients and more to sell (a tie-breaker).
EXPOSED_WEIGHT: Final = 0.05


@dataclass(frozen=True, slots=True)
class Layout:
    """A chosen fill: which freshness goes in a crate, and how many fish (RULES.md §3.2).

    Attributes:
        crates: ``(code, count)`` per crate used; one freshness per crate.
        score: the layout's estimated worth (higher is better).
        plan: the greedy serve it expects from these crates.
    """

    crates: tuple[tuple[str, int], ...]
    score: float
    plan: Rollout


def rotten_cap(queue: Sequence[str], window: int = cards.SERVABLE) -> int:
    """Rotten fish worth showing: the sizes of the undecided clients within reach (§5).

    Only an undecided client takes rotten fish, and an inspector fines any
    rotten fish in a crate (RULES.md §5, R10), so rotten fish go in a crate
    only for an undecided client among the first ``window`` of ``queue``.
    """
    return sum(CLIENTS[c].size for c in queue[:window] if CLIENTS[c].kind is ClientKind.UNDECIDED)


def choose_layout(
    pool: Mapping[str, int],
    crates: int,
    queue: Sequence[str],
    glacons: int,
    arrivages: int,
    allow_rotten: bool,
    *,
    value_of: Callable[[str], float] = client_value,
) -> Layout:
    """The best set of freshnesses to lay out in ``crates`` crates (RULES.md §3.2).

    Every subset of the freshnesses in ``pool`` that fills the crates (one
    freshness per crate) is scored by the greedy serve it allows down
    ``queue``, minus :data:`SPEND_WEIGHT` × its spend, plus
    :data:`EXPOSED_WEIGHT` × the fish shown. All fish of a chosen freshness are
    laid, except rotten fish, capped by :func:`rotten_cap` (and none unless
    ``allow_rotten``). At most C(5, k) ≤ 10 subsets are scored.

    Args:
        pool: fish the seat holds (hand plus crates) by code.
        crates: crates owned.
        queue: the clients expected within reach, front first.
        glacons / arrivages: special cards in hand.
        allow_rotten: whether rotten fish may be shown at all.
        value_of: the points of a client (default :func:`client_value`).

    Returns:
        The best :class:`Layout`; ties go to the earlier (fresher) subset.
    """
    counts = {code: n for code in CODES if (n := pool.get(code, 0)) > 0}
    if "P" in counts:
        cap = rotten_cap(queue) if allow_rotten else 0
        if cap:
            counts["P"] = min(counts["P"], cap)
        else:
            del counts["P"]
    size = min(crates, len(counts))
    best: Layout | None = None
    queue = tuple(queue)
    for subset in combinations(list(counts), size):
        chosen = tuple([(code, counts[code]) for code in subset])
        fish = [0, 0, 0, 0, 0]
        shown = 0.0
        for code, n in chosen:
            fish[_INDEX[code]] = n
            shown += n * (FISH_WORTH[code] + 1.0)
        stock = Stock((fish[0], fish[1], fish[2], fish[3], fish[4]), glacons, arrivages)
        plan = _rollout(queue, stock, cards.SERVABLE, value_of)
        score = plan.value - SPEND_WEIGHT * plan.cost + EXPOSED_WEIGHT * shown
        if best is None or score > best.score:
            best = Layout(chosen, score, plan)
    if best is None:  # no crate or no fish
        empty = Stock((0, 0, 0, 0, 0), glacons, arrivages)
        return Layout((), 0.0, rollout(queue, empty, value_of=value_of))
    return best


def assign_crates(current: Sequence[Sequence[str]], layout: Layout) -> list[tuple[str, int] | None]:
    """Map a layout onto crate indices, keeping fish where they already are.

    Args:
        current: the seat's crates now, as lists of fish ids.
        layout: the wanted freshnesses and counts.

    Returns:
        One target per crate: ``(code, count)`` or ``None`` for an empty crate.
        A freshness already in a crate keeps that crate; the others take the
        empty crates first, then the rest, in index order.
    """
    targets: list[tuple[str, int] | None] = [None] * len(current)
    todo = list(layout.crates)
    for code, n in list(todo):
        for i, fish in enumerate(current):
            if targets[i] is None and fish and fish[0][0] == code:
                targets[i] = (code, n)
                todo.remove((code, n))
                break
    free = [i for i, fish in enumerate(current) if targets[i] is None and not fish]
    free += [i for i, fish in enumerate(current) if targets[i] is None and fish]
    for (code, n), i in zip(todo, free, strict=False):
        targets[i] = (code, n)
    return targets


# --------------------------------------------------------------------------- deals


@dataclass(frozen=True, slots=True)
class Purchase:
    """A deal worth proposing (RULES.md §4): fish from one seller's crates for coins.

    Attributes:
        seller: the selling seat.
        fish: ``(crate index, count)`` pairs in the seller's crates.
        codes: the freshness bought, ``{code: count}``.
        client: the client the fish complete.
        offer: the opening price in coins.
        limit: the highest price worth paying (keeps a profit on the client).
        gain: points expected from the deal at the opening price.
    """

    seller: int
    fish: tuple[tuple[int, int], ...]
    codes: tuple[tuple[str, int], ...]
    client: str
    offer: int
    limit: int
    gain: float


def crate_pairs(crates: Sequence[str], want: Mapping[str, int]) -> tuple[tuple[int, int], ...]:
    """``(crate index, count)`` pairs taking ``want`` fish from crates shown as code strings.

    Fuller crates are taken from first. Raises ``ValueError`` if they do not hold enough.
    """
    pairs: list[tuple[int, int]] = []
    for code, n in want.items():
        holders = sorted(
            (i for i, c in enumerate(crates) if c and c[0] == code), key=lambda i: -len(crates[i])
        )
        for i in holders:
            if n <= 0:
                break
            take = min(n, len(crates[i]))
            pairs.append((i, take))
            n -= take
        if n > 0:
            raise ValueError(f"the crates do not hold {code} × {want[code]}")
    return tuple(sorted(pairs))


def price_limit(client_id: str, coins_held: int) -> int:
    """Most coins worth paying for fish completing ``client_id``: its coins less one, at most
    what the buyer holds (RULES.md §4: never more coins than held)."""
    return max(0, min(coins_held, CLIENTS[client_id].coins - 1))


@lru_cache(maxsize=1 << 12)
def _additions(crates: tuple[str, ...], max_fish: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every ``1..max_fish`` fish one could buy from a stall shown as ``crates`` (freshness
    code strings), as sorted ``(code, count)`` pairs, fewest fish first (cached)."""
    shown: Counter[str] = Counter()
    for c in crates:
        if c:
            shown[c[0]] += len(c)
    options = sorted(shown)
    adds: list[tuple[tuple[str, int], ...]] = []
    for size in range(1, max_fish + 1):
        for combo in combinations_with_replacement(options, size):
            need = Counter(combo)
            if all(shown[k] >= n for k, n in need.items()):
                adds.append(tuple(sorted(need.items())))
    return tuple(adds)


@lru_cache(maxsize=1 << 12)
def _priced_additions(
    crates: tuple[str, ...], max_fish: int
) -> tuple[tuple[tuple[tuple[str, int], ...], int, tuple[tuple[int, int], ...]], ...]:
    """:func:`_additions` with what :func:`_addition_costs` needs of each (cached): the
    addition, its opening worth in whole coins (its :func:`fish_worth`, at least 1), and
    its fish as ``(index in Stock.fish, count)`` steps."""
    return tuple(
        (
            add,
            max(1, int(fish_worth(dict(add)))),
            tuple([(_INDEX[code], n) for code, n in add]),
        )
        for add in _additions(crates, max_fish)
    )


@lru_cache(maxsize=1 << 13)
def _addition_costs(
    client_id: str, crates: tuple[str, ...], stock: Stock, max_fish: int
) -> tuple[tuple[tuple[tuple[str, int], ...], int, float | None], ...]:
    """Per addition of :func:`_priced_additions` (same order): the addition, its opening
    worth, and the cost of the cheapest plan serving ``client_id`` from ``stock`` plus
    it (``None``: still not servable). Cached: the active seat asks again after each
    refusal with the same stock and stalls (RULES.md §4)."""
    have, glacons, arrivages = stock.fish, stock.glacons, stock.arrivages
    out: list[tuple[tuple[tuple[str, int], ...], int, float | None]] = []
    for add, worth, steps in _priced_additions(crates, max_fish):
        fish = list(have)
        for index, n in steps:
            fish[index] += n
        choice = _choice_from(client_id, fish, glacons, arrivages)
        out.append((add, worth, None if choice is None else choice.cost))
    return tuple(out)


def find_purchase(
    queue: Sequence[str],
    stock: Stock,
    sellers: Mapping[int, Sequence[str]],
    coins_held: int,
    skip: Iterable[tuple[int, str, tuple[tuple[str, int], ...]]] = (),
    max_fish: int = 2,
    *,
    value_of: Callable[[str], float] = client_value,
) -> Purchase | None:
    """The best 1–2 fish to buy so that a client within reach can be served (RULES.md §4, §6).

    For each of the first 3 clients not servable from ``stock``, and each other
    seat, tries every addition of ``1..max_fish`` fish of the freshnesses on
    that seat's stall (at most 15 per seat), cheapest worth first. The opening
    offer is the fish's :data:`FISH_WORTH` (at least 1 coin), capped by
    :func:`price_limit`; a purchase needs a positive expected gain.

    Args:
        queue: the queue, front first.
        stock: the buyer's crate fish plus fish bought this turn, and specials.
        sellers: other seats' crates as freshness-code strings (the view's form).
        coins_held: the buyer's coins.
        skip: ``(seller, client, codes)`` already tried this turn.
        max_fish: most fish bought in one deal.
        value_of: the points of a client (default :func:`client_value`).

    Returns:
        The best :class:`Purchase`, or ``None``.
    """
    tried = set(skip)
    best: Purchase | None = None
    stalls = [(seller, crates, tuple(crates)) for seller, crates in sellers.items()]
    for cid in dict.fromkeys(queue[: cards.SERVABLE]):
        if best_plan(cid, stock) is not None:
            continue
        limit = price_limit(cid, coins_held)
        value = value_of(cid)
        for seller, crates, shown in stalls:
            for add, worth, cost in _addition_costs(cid, shown, stock, max_fish):
                offer = limit if limit < worth else worth
                if offer > coins_held:
                    continue
                # A plan costs >= 0, so the gain is at most value - offer: an addition
                # that could not beat the best or pay at all is turned down unplanned.
                if value - offer <= 0 or (best is not None and value - offer <= best.gain):
                    continue
                if cost is None or (seller, cid, add) in tried:
                    continue
                gain = value - offer - SPEND_WEIGHT * cost
                if gain <= 0 or (best is not None and gain <= best.gain):
                    continue
                best = Purchase(
                    seller, crate_pairs(crates, dict(add)), add, cid, offer, limit, gain
                )
                break  # smaller additions first: no need for a bigger one for this seller
    return best
