"""Matching a client's order with fish and special cards (RULES.md §6).

Two jobs: :func:`check_order` decides whether a proposed serve satisfies a
client exactly, and :func:`serve_plans` enumerates every distinct way a seat
could serve a client from what it has (legal-action enumeration and bots).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from poissonnier_tui.games.poissonnier.rules.cards import ClientCard, ClientKind, Freshness
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction

_ARRIVAGE_CODES = ("T", "F", "M", "D")
# Freshness a glaçon raises into each level: target code -> source code.
_ICED_FROM = {"T": "F", "F": "M", "M": "D"}


def check_order(
    client: ClientCard,
    fish: Sequence[str],
    glacons: Sequence[str],
    arrivages: Sequence[str],
) -> None:
    """Check that fish plus specials give exactly what ``client`` asks (RULES.md §6).

    Args:
        client: a regular or undecided client (inspectors cannot be served).
        fish: fish card ids used (their freshness is their first letter).
        glacons: one fish id per glaçon used; each must be in ``fish``, at most
            one glaçon per fish (R17: "one fish counts one freshness
            better"), never on a rotten or already très frais fish.
        arrivages: the freshness code each arrivage stands for: T, F, M or D.

    Raises:
        IllegalAction: code ``"bad_order"`` naming what does not match.
    """
    if client.kind is ClientKind.INSPECTOR:
        raise IllegalAction(
            "bad_order", "§5", "an inspector is not a client to serve", key="serve_inspector"
        )
    for code in arrivages:
        if code not in _ARRIVAGE_CODES:
            raise IllegalAction(
                "bad_order",
                "§1",
                "an arrivage stands for très frais, frais, mangeable or douteux fish, never pourri",
                key="arrivage_pourri",
            )
    if len(set(glacons)) != len(glacons):
        raise IllegalAction(
            "bad_order", "§6", "each glaçon must ice a different fish", key="glacon_twice"
        )
    for target in glacons:
        if target not in fish:
            raise IllegalAction(
                "bad_order",
                "§6",
                "a glaçon must ice a fish of this order, not {fish}",
                {"fish": target},
                key="glacon_elsewhere",
            )
        if target[0] == "P":
            raise IllegalAction("bad_order", "§1", "a rotten fish cannot be iced", key="ice_rotten")
        if target[0] == "T":
            raise IllegalAction(
                "bad_order", "§1", "a très frais fish cannot get fresher", key="ice_tres_frais"
            )
    if client.kind is ClientKind.UNDECIDED:
        if glacons:
            raise IllegalAction(
                "bad_order",
                "§6",
                "an undecided client takes any fish: a glaçon would be wasted",
                key="undecided_glacon",
            )
        given = len(fish) + len(arrivages)
        if given != client.size:
            raise IllegalAction(
                "bad_order",
                "§6",
                "this undecided client takes exactly {size} fish, not {given}",
                {"size": client.size, "given": given},
                key="undecided_size",
            )
        return
    iced = set(glacons)
    served = [_better(f[0]) if f in iced else f[0] for f in fish]
    served += arrivages
    served.sort()
    if served != sorted(client.order):  # the same freshness codes, as many of each
        effective = Counter(served)
        raise IllegalAction(
            "bad_order",
            "§6",
            "{client} asks for {asks}; this gives {gives}",
            {
                "client": client.id,
                "asks": _spell(Counter(client.order)),
                "gives": _spell(effective),
            },
            key="order_mismatch",
        )


@lru_cache(maxsize=16)
def _better(code: str) -> str:
    """The freshness code one level better than ``code`` (a glaçon's effect, RULES.md §1)."""
    return Freshness(code).better().value


def _spell(counts: Counter[str]) -> str:
    parts = [
        f"{n} {Freshness(code).french}"
        for code, n in sorted(counts.items(), key=lambda kv: -Freshness(kv[0]).level)
        if n
    ]
    return ", ".join(parts) if parts else "nothing"


@dataclass(frozen=True, slots=True)
class ServePlan:
    """One way to serve a client, by freshness rather than by card.

    Attributes:
        raw: freshness code -> number of fish used as they are.
        iced: freshness code of the *source* fish -> number iced one level up.
        arrivages: the codes the arrivages stand for, sorted best first.
    """

    raw: tuple[tuple[str, int], ...]
    iced: tuple[tuple[str, int], ...]
    arrivages: tuple[str, ...]

    def fish_needed(self) -> Counter[str]:
        """Fish by freshness code the plan consumes (raw and iced together)."""
        need: Counter[str] = Counter(dict(self.raw))
        need.update(dict(self.iced))
        return need


@lru_cache(maxsize=64)
def _wanted(order: str) -> tuple[tuple[str, int], ...]:
    """A client's order as ``(freshness code, how many)``, codes in sorted order."""
    return tuple(sorted(Counter(order).items()))


@lru_cache(maxsize=16)
def _split_list(k: int) -> tuple[tuple[int, int, int], ...]:
    """:func:`_splits` of ``k``, in its order."""
    return tuple(_splits(k))


def _splits(k: int) -> Iterator[tuple[int, int, int]]:
    for raw in range(k, -1, -1):
        for iced in range(k - raw, -1, -1):
            yield raw, iced, k - raw - iced


def serve_plans(
    client: ClientCard, fish: Mapping[str, int], glacons: int, arrivages: int
) -> list[ServePlan]:
    """Every distinct plan serving ``client`` with the given resources (RULES.md §6).

    A pure function of its arguments, so results are cached (keyed by the
    client's order and the resources that could matter: never more of any fish
    code, glaçons or arrivages than a plan for this client could use, see
    :func:`plan_caps`); each call returns a new list.

    Args:
        client: a regular or undecided client.
        fish: usable fish by freshness code (crates plus fish bought this turn).
        glacons / arrivages: special cards in hand.

    Returns:
        Plans, those using fewer special cards first; empty when none exists.
    """
    if client.kind is ClientKind.INSPECTOR:
        return []
    get = fish.get
    t, f, m, d, p, g, a = plan_caps(client.order, client.size, client.kind is ClientKind.UNDECIDED)
    n_t, n_f, n_m, n_d, n_p = get("T", 0), get("F", 0), get("M", 0), get("D", 0), get("P", 0)
    counts = (  # in _FISH_CODES order, spelt out: this runs for every client asked about
        n_t if n_t < t else t,
        n_f if n_f < f else f,
        n_m if n_m < m else m,
        n_d if n_d < d else d,
        n_p if n_p < p else p,
    )
    return list(
        _cached_plans(
            client.order,
            client.size,
            client.kind is ClientKind.UNDECIDED,
            counts,
            glacons if glacons < g else g,
            arrivages if arrivages < a else a,
        )
    )


@lru_cache(maxsize=256)
def plan_caps(order: str, size: int, undecided: bool) -> tuple[int, int, int, int, int, int, int]:
    """The most fish of each freshness (T, F, M, D, P), glaçons and arrivages that one
    plan of :func:`serve_plans` can use for a client (RULES.md §6), in that order.

    A regular client's code ``c`` is used raw for each ``c`` it asks and iced (R17:
    one level better) for each code one level better that it asks; a glaçon makes a
    fish into a T, F or M asked (nothing is iced into D, and a P never); every place
    may be an arrivage. An undecided client takes any fish, never a glaçon (§6), at most
    ``size`` of anything. Holding more than a cap changes no plan, so the caps bound
    the cache keys.

    Args:
        order: the client's order (freshness codes asked; empty for an undecided one).
        size: the number of places of the order.
        undecided: whether it is an undecided client.
    """
    if undecided:
        return size, size, size, size, size, 0, size
    k = Counter(order)
    return (
        k["T"],
        k["F"] + k["T"],
        k["M"] + k["F"],
        k["D"] + k["M"],
        k["P"],
        k["T"] + k["F"] + k["M"],
        size,
    )


_FISH_CODES = ("T", "F", "M", "D", "P")
"""Freshness codes a fish can have; the cache key's order."""
_LEVEL = {code: Freshness(code).level for code in _FISH_CODES}


@lru_cache(maxsize=1 << 15)
def _cached_plans(
    order: str,
    size: int,
    undecided: bool,
    counts: tuple[int, ...],
    glacons: int,
    arrivages: int,
) -> tuple[ServePlan, ...]:
    """:func:`serve_plans` for a client given by what its plans depend on (its order, its
    size, whether it is undecided) and fish counts in :data:`_FISH_CODES` order.

    Keyed by plain strings and numbers rather than the client card, whose dataclass and
    enum hashes run in Python at every lookup.
    """
    fish = dict(zip(_FISH_CODES, counts, strict=True))
    plans: list[ServePlan] = []
    if undecided:
        codes = [c for c in ("P", "D", "M", "F", "T") if fish[c]]
        for n_arr in range(min(arrivages, size) + 1):
            for combo in _multisets(codes, size - n_arr):
                need = Counter(combo)
                if all(fish[c] >= n for c, n in need.items()):
                    plans.append(ServePlan(tuple(sorted(need.items())), (), ("D",) * n_arr))
        return tuple(plans)
    # Each wanted code is split into raw / iced / arrivage fish. Splits that could
    # never fit alone (more raw fish than there are, a glaçon on a code nothing can
    # be iced into, more specials than held) are left out; the product keeps the
    # order of the full enumeration, so the plans and their order are unchanged.
    per_code = []
    for code, k in _wanted(order):
        source = _ICED_FROM.get(code)
        have_raw = fish.get(code, 0)
        have_src = fish.get(source, 0) if source is not None else 0
        per_code.append(
            [
                (code, r, i, a)
                for r, i, a in _split_list(k)
                if r <= have_raw
                and i <= glacons
                and (not i or (source is not None and i <= have_src))
                and a <= arrivages
            ]
        )
    for choice in product(*per_code):
        raw: dict[str, int] = {}
        iced: dict[str, int] = {}
        arr: list[str] = []
        n_iced = 0
        for code, r, i, a in choice:
            if r:
                raw[code] = raw.get(code, 0) + r
            if i:
                source = _ICED_FROM[code]
                iced[source] = iced.get(source, 0) + i
                n_iced += i
            if a:
                arr += [code] * a
        if n_iced > glacons or len(arr) > arrivages:
            continue
        fish_used = dict(raw)
        for code, n in iced.items():
            fish_used[code] = fish_used.get(code, 0) + n
        if all(fish.get(c, 0) >= n for c, n in fish_used.items()):
            plans.append(
                ServePlan(
                    tuple(sorted(raw.items())),
                    tuple(sorted(iced.items())),
                    tuple(sorted(arr, key=lambda c: -_LEVEL[c])),
                )
            )
    plans.sort(key=lambda p: sum(n for _, n in p.iced) + len(p.arrivages))
    return tuple(plans)


def _multisets(codes: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    if size == 0:
        yield ()
        return
    if not codes:
        return
    head, rest = codes[0], codes[1:]
    for n in range(size, -1, -1):
        for tail in _multisets(rest, size - n):
            yield (head,) * n + tail
