"""Ways to serve a client from what this seat holds (RULES.md §3.4, §6).

The serve dialog lists concrete ``serve`` actions computed here with
:func:`poissonnier_tui.games.poissonnier.rules.orders.serve_plans`, from the seat's own view
only: crate fish, fish bought this turn and the special cards in hand. This
pre-check is a convenience (docs/ARCHITECTURE.md: the client may pre-check a move for
the UI); the server still validates every serve.

When nothing works, :func:`shortfall` says what is missing and
:func:`suggest_deal` drafts a deal that would buy it from another stall.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from poissonnier_tui.games.poissonnier.rules.actions import Serve, to_wire
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind, Freshness
from poissonnier_tui.games.poissonnier.rules.orders import ServePlan, serve_plans
from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
from poissonnier_tui.games.poissonnier.ui.palette import chip, chips, spell
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot

FISH_VALUE = {"T": 3, "F": 2, "M": 1, "D": 1, "P": 0}
"""What a client pays per fish of each freshness (RULES.md §1): a fair price guide."""


@dataclass(frozen=True, slots=True)
class ServeOption:
    """One concrete way to serve a client.

    Attributes:
        label: content markup describing the fish and specials used and their origin.
        action: the ``serve`` action wire map to send.
        specials: how many special cards it spends (fewer is usually better).
    """

    label: str
    action: dict[str, Any]
    specials: int


def _origin(snap: TableSnapshot, fish_id: str) -> str:
    """Where a fish comes from, for the label: ``"crate 2"`` or ``"bought"``."""
    if fish_id in snap.bought:
        return "bought"
    for i, crate in enumerate(snap.crates):
        if fish_id in crate:
            return f"crate {i + 1}"
    return "?"


def _concrete(snap: TableSnapshot, client_id: str, plan: ServePlan) -> ServeOption:
    """Pick actual card ids for ``plan``: bought fish first, as they would go to hand (R9)."""
    by_code: dict[str, list[str]] = {}
    for f in snap.usable_fish():
        by_code.setdefault(f[0], []).append(f)
    taken: Counter[str] = Counter()
    fish: list[str] = []
    glacons: list[str] = []

    def take(code: str, n: int) -> list[str]:
        got = by_code[code][taken[code] : taken[code] + n]
        taken[code] += n
        return got

    for code, n in plan.raw:
        fish += take(code, n)
    for code, n in plan.iced:
        iced = take(code, n)
        fish += iced
        glacons += iced
    parts: dict[str, list[str]] = {}
    for f in fish:
        mark = chip(f[0])
        if f in glacons:
            mark += f"❄→{chip(Freshness(f[0]).better().value)}"
        parts.setdefault(_origin(snap, f), []).append(mark)
    label = "  ".join(f"{where}: {''.join(marks)}" for where, marks in parts.items())
    if plan.arrivages:
        arr = " ".join(f"{chip('A')} as {chip(code)}" for code in plan.arrivages)
        label = f"{label}  {arr}" if label else arr
    action = to_wire(Serve(client_id, tuple(fish), tuple(glacons), tuple(plan.arrivages)))
    return ServeOption(label, action, len(glacons) + len(plan.arrivages))


def serve_options(snap: TableSnapshot, client_id: str) -> list[ServeOption]:
    """Every distinct way this seat can serve ``client_id`` now, fewest specials first.

    Empty for a spectator, an inspector, or when nothing fits.
    """
    if snap.me is None:
        return []
    client = CLIENTS[client_id]
    have = Counter(f[0] for f in snap.usable_fish())
    glacons, arrivages = snap.specials()
    plans = serve_plans(client, have, glacons, arrivages)
    return [_concrete(snap, client_id, plan) for plan in plans]


def _missing(snap: TableSnapshot, client_id: str) -> Counter[str]:
    """The fewest fish by freshness this seat must get to serve a regular client, its
    glaçons and arrivages in hand counted (RULES.md §6): the smallest part of what the
    order lacks in the crates that, added, lets a serve plan exist."""
    client = CLIENTS[client_id]
    have = Counter(f[0] for f in snap.usable_fish())
    lacking = sorted((Counter(client.order) - have).elements())
    glacons, arrivages = snap.specials()
    for size in range(len(lacking) + 1):
        for part in dict.fromkeys(combinations(lacking, size)):
            if serve_plans(client, have + Counter(part), glacons, arrivages):
                return Counter(part)
    return Counter(lacking)


def shortfall(snap: TableSnapshot, client_id: str) -> str:
    """Why this seat cannot serve ``client_id``: what is missing, in words (RULES.md §6)."""
    client = CLIENTS[client_id]
    glacons, arrivages = snap.specials()
    usable = len(snap.usable_fish())
    specials = f"{glacons} glaçon(s) and {arrivages} arrivage(s) in hand"
    if client.kind is ClientKind.UNDECIDED:
        return (
            f"{client_id} takes exactly {client.size} fish of any freshness; you have "
            f"{usable} fish in your crates and {arrivages} arrivage(s)."
        )
    missing = "".join(
        code * n
        for code, n in sorted(
            _missing(snap, client_id).items(), key=lambda kv: -Freshness(kv[0]).level
        )
    )
    return (
        f"{client_id} asks for {chips(client.order)}. You lack {chips(missing)} "
        f"({spell(missing)}) in your crates, even counting {specials}. "
        "Fish in your hand cannot serve (§3.4)."
    )


def suggest_deal(snap: TableSnapshot, client_id: str) -> DealDraft | None:
    """A deal that would buy what ``client_id`` needs from one other stall, or ``None``.

    Only the active player may ask (RULES.md §4). The seller is the stall that
    covers most of the missing fish; the price is prefilled with what those
    fish earn from a client (§1: T=3, F=2, M=1, D=1), capped by the buyer's coins.
    """
    if not snap.my_turn or snap.me is None:
        return None
    client = CLIENTS[client_id]
    if client.kind is ClientKind.UNDECIDED:
        missing: Counter[str] = Counter({"any": client.size - len(snap.usable_fish())})
    else:
        missing = _missing(snap, client_id)
    if sum(missing.values()) <= 0:
        return None
    best: DealDraft | None = None
    best_cover = 0
    for seller in snap.others():
        draft = DealDraft(seller)
        covered = 0
        need = Counter(missing)
        for k, codes in enumerate(snap.seat(seller)["crates"]):
            if not codes:
                continue
            key = "any" if "any" in need else codes[0]
            n = min(need[key], len(codes))
            if n > 0:
                draft = draft.with_count(k, n)
                need[key] -= n
                covered += n
        if covered > best_cover:
            best, best_cover = draft, covered
    if best is None:
        return None
    value = 0
    for k, n in best.fish:
        value += FISH_VALUE.get(snap.seat(best.seller)["crates"][k][0], 1) * n
    coins = int(snap.seat(snap.me)["coins"])
    return DealDraft(best.seller, best.fish, coins=min(coins, max(1, value - 1)))
