"""Matching a client's order with fish and special cards (RULES.md §6).

Two jobs: :func:`check_order` decides whether a proposed serve satisfies a
client exactly, and :func:`serve_plans` enumerates every distinct way a seat
could serve a client from what it has (legal-action enumeration and bots).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
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
        raise IllegalAction("bad_order", "§5", "an inspector is not a client to serve")
    for code in arrivages:
        if code not in _ARRIVAGE_CODES:
            raise IllegalAction(
                "bad_order",
                "§1",
                "an arrivage stands for très frais, frais, mangeable or douteux fish, never pourri",
            )
    if len(set(glacons)) != len(glacons):
        raise IllegalAction("bad_order", "§6", "each glaçon must ice a different fish")
    for target in glacons:
        if target not in fish:
            raise IllegalAction(
                "bad_order", "§6", f"a glaçon must ice a fish of this order, not {target}"
            )
        if target[0] == "P":
            raise IllegalAction("bad_order", "§1", "a rotten fish cannot be iced")
        if target[0] == "T":
            raise IllegalAction("bad_order", "§1", "a très frais fish cannot get fresher")
    if client.kind is ClientKind.UNDECIDED:
        if glacons:
            raise IllegalAction(
                "bad_order", "§6", "an undecided client takes any fish: a glaçon would be wasted"
            )
        given = len(fish) + len(arrivages)
        if given != client.size:
            raise IllegalAction(
                "bad_order",
                "§6",
                f"this undecided client takes exactly {client.size} fish, not {given}",
            )
        return
    iced = set(glacons)
    effective = Counter(Freshness(f[0]).better().value if f in iced else f[0] for f in fish)
    effective.update(arrivages)
    if effective != Counter(client.order):
        raise IllegalAction(
            "bad_order",
            "§6",
            f"{client.id} asks for {_spell(Counter(client.order))}; this gives {_spell(effective)}",
        )


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


def _splits(k: int) -> Iterator[tuple[int, int, int]]:
    for raw in range(k, -1, -1):
        for iced in range(k - raw, -1, -1):
            yield raw, iced, k - raw - iced


def serve_plans(
    client: ClientCard, fish: Counter[str], glacons: int, arrivages: int
) -> list[ServePlan]:
    """Every distinct plan serving ``client`` with the given resources (RULES.md §6).

    Args:
        client: a regular or undecided client.
        fish: usable fish by freshness code (crates plus fish bought this turn).
        glacons / arrivages: special cards in hand.

    Returns:
        Plans, those using fewer special cards first; empty when none exists.
    """
    if client.kind is ClientKind.INSPECTOR:
        return []
    plans: list[ServePlan] = []
    if client.kind is ClientKind.UNDECIDED:
        codes = [c for c in ("P", "D", "M", "F", "T") if fish[c]]
        for n_arr in range(min(arrivages, client.size) + 1):
            for combo in _multisets(codes, client.size - n_arr):
                need = Counter(combo)
                if all(fish[c] >= n for c, n in need.items()):
                    plans.append(ServePlan(tuple(sorted(need.items())), (), ("D",) * n_arr))
        return plans
    wanted = Counter(client.order)
    per_code = [[(code, split) for split in _splits(k)] for code, k in sorted(wanted.items())]
    for choice in product(*per_code):
        raw: Counter[str] = Counter()
        iced: Counter[str] = Counter()
        arr: list[str] = []
        for code, (r, i, a) in choice:
            if i and code not in _ICED_FROM:
                break
            raw[code] += r
            if i:
                iced[_ICED_FROM[code]] += i
            arr += [code] * a
        else:
            if sum(iced.values()) > glacons or len(arr) > arrivages:
                continue
            need = raw + iced
            if all(fish[c] >= n for c, n in need.items()):
                plans.append(
                    ServePlan(
                        tuple(sorted((+raw).items())),
                        tuple(sorted((+iced).items())),
                        tuple(sorted(arr, key=lambda c: -Freshness(c).level)),
                    )
                )
    plans.sort(key=lambda p: sum(n for _, n in p.iced) + len(p.arrivages))
    return plans


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
