"""Matching orders: ``orders.check_order`` and ``orders.serve_plans`` (RULES.md §1, §5, §6)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import chain, combinations, combinations_with_replacement

import pytest

from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.orders import (
    ServePlan,
    check_order,
    plan_caps,
    serve_plans,
)


def ok(
    client: str, fish: Sequence[str], glacons: Sequence[str] = (), arrivages: Sequence[str] = ()
) -> None:
    check_order(CLIENTS[client], fish, glacons, arrivages)


def refused(
    client: str,
    fish: Sequence[str],
    glacons: Sequence[str] = (),
    arrivages: Sequence[str] = (),
) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        check_order(CLIENTS[client], fish, glacons, arrivages)
    assert info.value.code == "bad_order"
    return info.value


# --------------------------------------------------------------------------- check_order


def test_exact_multiset_accepted_in_any_order() -> None:
    """§6: a regular order is served by exactly its multiset of freshness."""
    ok("C23", ["T01", "F01", "M01"])
    ok("C23", ["M01", "T01", "F01"])
    ok("C33", ["M01", "D01", "M02", "D02"])
    ok("C18", ["D01", "D02"])


def test_mismatch_refused_with_a_readable_reason() -> None:
    """§6: fewer, more or other fish are refused; the message spells what is asked and given."""
    err = refused("C23", ["T01", "T02", "M01"])
    assert err.rule == "§6"
    assert err.message == (
        "C23 asks for 1 très frais, 1 frais, 1 mangeable; this gives 2 très frais, 1 mangeable"
    )
    assert refused("C23", ["T01", "F01"]).rule == "§6"
    assert refused("C23", ["T01", "F01", "M01", "D01"]).rule == "§6"
    assert refused("C07", ["P01"]).rule == "§6"  # rotten is not douteux
    assert refused("C01", []).message.endswith("this gives nothing")


@pytest.mark.parametrize(("client", "fish"), [("C01", "F01"), ("C03", "M01"), ("C05", "D01")])
def test_glacon_raises_exactly_one_level(client: str, fish: str) -> None:
    """§1: a glaçon makes douteux mangeable, mangeable frais, frais très frais."""
    ok(client, [fish], glacons=[fish])
    refused(client, [fish])  # without it, one level short


def test_glacon_refusals() -> None:
    """§1, §6, R17: not on rotten or très frais, only a fish of this order, one per fish."""
    assert refused("C07", ["P01"], glacons=["P01"]).rule == "§1"
    assert refused("C01", ["T01"], glacons=["T01"]).rule == "§1"
    assert refused("C01", ["T01"], glacons=["F01"]).rule == "§6"
    assert refused("C01", ["M01"], glacons=["M01", "M01"]).rule == "§6"
    assert refused("C03", ["F01"], glacons=["F01"]).rule == "§6"  # iced F is T, not F
    ok("C08", ["F01", "F02"], glacons=["F01", "F02"])
    ok("C20", ["T01", "F01", "M01"], glacons=["F01", "M01"])  # TTF from T, F↑, M↑


@pytest.mark.parametrize("code", ["T", "F", "M", "D"])
def test_arrivage_counts_as_declared(code: str) -> None:
    """§1, §6: an arrivage stands for one fish of a declared freshness, never rotten."""
    client = {"T": "C01", "F": "C03", "M": "C05", "D": "C07"}[code]
    ok(client, [], arrivages=[code])
    other = {"T": "F", "F": "M", "M": "D", "D": "T"}[code]
    refused(client, [], arrivages=[other])


def test_arrivage_refusals() -> None:
    """§1: the declared freshness is T, F, M or D."""
    assert refused("C07", [], arrivages=["P"]).rule == "§1"
    assert refused("U1", ["P01"], arrivages=["P"]).rule == "§1"
    assert refused("C07", [], arrivages=["X"]).rule == "§1"
    ok("C32", ["T01", "M01"], arrivages=["D", "F"])
    refused("C32", ["T01", "M01"], arrivages=["D"])


def test_undecided_clients() -> None:
    """§5, §6, R17: any fish, rotten and mixed included, exactly the number printed; no glaçon."""
    ok("U1", ["P01", "T01"])
    ok("U2", ["P01", "P02"])
    ok("U3", ["D01", "M01"], arrivages=["T"])
    ok("U4", [], arrivages=["T", "F", "M"])
    assert refused("U3", ["P01", "P02"]).message.endswith("exactly 3 fish, not 2")
    assert refused("U1", ["P01", "P02", "T01"]).rule == "§6"
    assert refused("U1", ["D01", "T01"], glacons=["D01"]).rule == "§6"


def test_inspector_is_not_served() -> None:
    """§5: an inspector is no client to serve."""
    assert refused("I1", []).rule == "§5"


# --------------------------------------------------------------------------- serve_plans


def plans(
    client: str, fish: dict[str, int], glacons: int = 0, arrivages: int = 0
) -> list[ServePlan]:
    return serve_plans(CLIENTS[client], Counter(fish), glacons, arrivages)


def test_plans_single_fish() -> None:
    """§6: a T client from a T fish, an iced F, or an arrivage: fewest specials first."""
    assert plans("C01", {"T": 1}) == [ServePlan((("T", 1),), (), ())]
    assert plans("C01", {"F": 1}) == []
    assert plans("C01", {"F": 1}, glacons=1) == [ServePlan((), (("F", 1),), ())]
    assert plans("C01", {"T": 1, "F": 1}, glacons=1, arrivages=1) == [
        ServePlan((("T", 1),), (), ()),
        ServePlan((), (("F", 1),), ()),
        ServePlan((), (), ("T",)),
    ]
    assert plans("C01", {"P": 3, "D": 2}, glacons=2) == []


def test_plans_pairs() -> None:
    """§6: TT from T + iced F; two glaçons for two F; a missing glaçon means no plan."""
    assert plans("C08", {"T": 1, "F": 1}, glacons=1) == [ServePlan((("T", 1),), (("F", 1),), ())]
    assert plans("C08", {"F": 2}, glacons=1) == []
    assert plans("C08", {"F": 2}, glacons=2) == [ServePlan((), (("F", 2),), ())]
    # TF from F + F: one F raw, the other iced.
    assert plans("C09", {"F": 2}, glacons=1) == [ServePlan((("F", 1),), (("F", 1),), ())]
    assert ServePlan((("F", 1),), (("F", 1),), ()).fish_needed() == Counter({"F": 2})


def test_plans_arrivages_sorted_best_first() -> None:
    """§6: the arrivages of a plan are listed best freshness first."""
    assert plans("C32", {}, arrivages=4) == [ServePlan((), (), ("T", "F", "M", "D"))]


def test_plans_undecided() -> None:
    """§5: any fish; an arrivage may count as one (declared douteux in plans)."""
    assert plans("U1", {"P": 1, "T": 1}) == [ServePlan((("P", 1), ("T", 1)), (), ())]
    assert plans("U1", {"P": 2}, arrivages=1) == [
        ServePlan((("P", 2),), (), ()),
        ServePlan((("P", 1),), (), ("D",)),
    ]
    assert plans("U1", {}, arrivages=2) == [ServePlan((), (), ("D", "D"))]
    assert plans("U3", {"P": 2}) == []
    assert plans("U1", {"T": 5}, glacons=5) == [ServePlan((("T", 2),), (), ())]


def test_plans_inspector() -> None:
    """§5: an inspector has no plan."""
    assert plans("I2", {"T": 5}, 2, 2) == []


POOL = ["T01", "F01", "F02", "M01", "D01", "D02", "P01"]


def _subsets(items: Sequence[str]) -> chain[tuple[str, ...]]:
    return chain.from_iterable(combinations(items, r) for r in range(len(items) + 1))


def _key(
    client: str, raw: Counter[str], iced: Counter[str], arr: Sequence[str]
) -> tuple[object, ...]:
    if CLIENTS[client].kind is ClientKind.UNDECIDED:
        arr = ["D"] * len(arr)  # any declaration counts the same for an undecided client
    return (
        tuple(sorted((+raw).items())),
        tuple(sorted((+iced).items())),
        tuple(sorted(arr, key="TFMD".index)),
    )


@pytest.mark.parametrize(
    "client", [c for c in CLIENTS if CLIENTS[c].kind is not ClientKind.INSPECTOR]
)
@pytest.mark.parametrize(("glacons", "arrivages"), [(0, 0), (1, 1), (2, 1)])
def test_plans_are_exactly_the_accepted_serves(client: str, glacons: int, arrivages: int) -> None:
    """§6: serve_plans lists exactly the serves check_order accepts (brute force over a pool)."""
    accepted = set()
    card = CLIENTS[client]
    for fish in _subsets(POOL):
        if len(fish) > card.size:
            continue
        for ng in range(glacons + 1):
            for iced in combinations(fish, ng):
                for na in range(arrivages + 1):
                    for arr in combinations_with_replacement("TFMD", na):
                        try:
                            check_order(card, fish, iced, arr)
                        except IllegalAction:
                            continue
                        raw = Counter(f[0] for f in fish if f not in iced)
                        accepted.add(_key(client, raw, Counter(f[0] for f in iced), arr))
    listed = plans(client, dict(Counter(f[0] for f in POOL)), glacons, arrivages)
    assert len(listed) == len(set(listed))
    assert {(p.raw, p.iced, p.arrivages) for p in listed} == accepted
    counts = [len(p.arrivages) + sum(n for _, n in p.iced) for p in listed]
    assert counts == sorted(counts)  # fewest special cards first


def _reference_plans(
    client_id: str, fish: Counter[str], glacons: int, arrivages: int
) -> list[ServePlan]:
    """The first, unpruned enumeration of ``serve_plans`` (regular clients), kept as the oracle:
    every split of each wanted freshness into raw / iced / arrivage fish, in that order."""
    from itertools import product

    from poissonnier_tui.games.poissonnier.rules.cards import Freshness

    iced_from = {"T": "F", "F": "M", "M": "D"}
    wanted = Counter(CLIENTS[client_id].order)

    def splits(k: int) -> list[tuple[int, int, int]]:
        return [(r, i, k - r - i) for r in range(k, -1, -1) for i in range(k - r, -1, -1)]

    plans = []
    for choice in product(*[[(c, sp) for sp in splits(k)] for c, k in sorted(wanted.items())]):
        raw: Counter[str] = Counter()
        iced: Counter[str] = Counter()
        arr: list[str] = []
        if any(i and c not in iced_from for c, (_, i, _) in choice):
            continue
        for code, (r, i, a) in choice:
            raw[code] += r
            if i:
                iced[iced_from[code]] += i
            arr += [code] * a
        if sum(iced.values()) > glacons or len(arr) > arrivages:
            continue
        if all(fish[c] >= n for c, n in (raw + iced).items()):
            plans.append(
                ServePlan(
                    tuple(sorted((+raw).items())),
                    tuple(sorted((+iced).items())),
                    tuple(sorted(arr, key=lambda c: -Freshness(c).level)),
                )
            )
    plans.sort(key=lambda p: sum(n for _, n in p.iced) + len(p.arrivages))
    return plans


def test_serve_plans_match_the_unpruned_enumeration_in_order() -> None:
    """The pruned, cached search gives exactly the plans of the full one, in the same order,
    for every regular client and many stocks (0-2 fish of each freshness, 0-3 specials)."""
    stocks = [
        Counter(dict(zip("TFMDP", counts, strict=True)))
        for counts in [(0, 0, 0, 0, 0), (1, 1, 1, 1, 1), (2, 0, 1, 0, 2), (0, 2, 2, 1, 0),
                       (2, 2, 2, 2, 2), (1, 0, 2, 2, 1), (0, 1, 0, 2, 2), (3, 1, 0, 0, 0)]
    ]  # fmt: skip
    checked = 0
    for client_id, card in CLIENTS.items():
        if card.kind is not ClientKind.REGULAR:
            continue
        for stock in stocks:
            for glacons in range(4):
                for arrivages in range(4):
                    want = _reference_plans(client_id, stock, glacons, arrivages)
                    assert serve_plans(card, stock, glacons, arrivages) == want
                    checked += bool(want)
    assert checked > 1000  # most cases have plans: the comparison is not vacuous


def test_serve_plans_past_the_caps_match_the_unpruned_enumeration() -> None:
    """Plans are cached by resources cut to ``plan_caps`` (the most a plan for the client
    can use): larger stocks (up to 6 fish of a freshness, 5 glaçons or arrivages) give
    exactly the full search's plans, for every client that can be served."""
    rng = random.Random(15)
    checked = 0
    for client_id, card in CLIENTS.items():
        if card.kind is ClientKind.INSPECTOR:
            continue
        caps = plan_caps(card.order, card.size, card.kind is ClientKind.UNDECIDED)
        assert caps[6] == card.size  # every place may be an arrivage
        for _ in range(12):
            stock = Counter({code: rng.randint(0, 6) for code in "TFMDP"})
            glacons, arrivages = rng.randint(0, 5), rng.randint(0, 5)
            got = serve_plans(card, stock, glacons, arrivages)
            if card.kind is ClientKind.REGULAR:
                assert got == _reference_plans(client_id, stock, glacons, arrivages)
            cut = Counter(
                {code: min(stock[code], cap) for code, cap in zip("TFMDP", caps[:5], strict=True)}
            )
            assert serve_plans(card, cut, min(glacons, caps[5]), min(arrivages, caps[6])) == got
            checked += bool(got)
    assert checked > 100
