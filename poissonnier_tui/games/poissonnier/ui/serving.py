"""Ways to serve a client from what this seat holds (RULES.md §3.4, §6).

The serve dialog lists concrete ``serve`` actions computed here with
:func:`poissonnier_tui.games.poissonnier.rules.orders.serve_plans`, from the seat's own view
only: crate fish, fish bought this turn and the special cards in hand. This
pre-check is a convenience (docs/ARCHITECTURE.md: the client may pre-check a move for
the UI); the server still validates every serve.

When nothing works, :func:`shortfall` says what is missing and
:func:`suggest_deal` drafts a deal after which the order can be served (never
one that leaves it short); when there is none, :func:`nobody_sells` says why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from poissonnier_tui.games.poissonnier.rules.actions import Serve, to_wire
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind, Freshness
from poissonnier_tui.games.poissonnier.rules.orders import ServePlan, serve_plans
from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
from poissonnier_tui.games.poissonnier.ui.palette import chip, chips, spell
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import _, ngettext

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
        return _("bought")
    for i, crate in enumerate(snap.crates):
        if fish_id in crate:
            return _("crate {n}").format(n=i + 1)
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
    label = "  ".join(
        _("{where}: {fish}").format(where=where, fish="".join(marks))
        for where, marks in parts.items()
    )
    if plan.arrivages:
        arr = " ".join(
            _("{arrivage} as {fish}").format(arrivage=chip("A"), fish=chip(code))
            for code in plan.arrivages
        )
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
    if client.kind is ClientKind.UNDECIDED:
        return _(
            "{client} takes exactly {size} fish of any freshness; you have {usable} in your "
            "crates and {arrivages}."
        ).format(
            client=client_id,
            size=client.size,
            usable=ngettext("{n} fish", "{n} fish", usable).format(n=usable),
            arrivages=ngettext("{n} arrivage", "{n} arrivages", arrivages).format(n=arrivages),
        )
    missing = "".join(
        code * n
        for code, n in sorted(
            _missing(snap, client_id).items(), key=lambda kv: -Freshness(kv[0]).level
        )
    )
    return _(
        "{client} asks for {order}. You lack {missing} ({spelled}) in your crates, even "
        "counting the {glacons} and {arrivages} in your hand. Fish in your hand cannot "
        "serve (§3.4)."
    ).format(
        client=client_id,
        order=chips(client.order),
        missing=chips(missing),
        spelled=spell(missing),
        glacons=ngettext("{n} glaçon", "{n} glaçons", glacons).format(n=glacons),
        arrivages=ngettext("{n} arrivage", "{n} arrivages", arrivages).format(n=arrivages),
    )


def _completing_purchase(
    snap: TableSnapshot, client_id: str, seller: int
) -> tuple[tuple[int, int], ...] | None:
    """The smallest purchase from ``seller``'s crates after which this seat can serve
    ``client_id`` (a serve plan exists, RULES.md §3.4, §6), as ``((crate, count), ...)``;
    the cheapest of equal size (:data:`FISH_VALUE`); ``None`` if no purchase from that
    stall completes the order."""
    client = CLIENTS[client_id]
    have = Counter(f[0] for f in snap.usable_fish())
    glacons, arrivages = snap.specials()
    crates: list[str] = ["".join(c) for c in snap.seat(seller)["crates"]]
    ranges = [range(min(len(codes), client.size) + 1) for codes in crates]
    best: tuple[tuple[int, int], tuple[tuple[int, int], ...]] | None = None
    for counts in product(*ranges):
        total = sum(counts)
        if total == 0 or (best is not None and total > best[0][0]):
            continue
        bought = Counter("".join(codes[:n] for codes, n in zip(crates, counts, strict=True)))
        if not serve_plans(client, have + bought, glacons, arrivages):
            continue
        value = sum(FISH_VALUE.get(code, 1) * n for code, n in bought.items())
        key = (total, value)
        if best is None or key < best[0]:
            best = (key, tuple((k, n) for k, n in enumerate(counts) if n))
    return None if best is None else best[1]


def suggest_deal(snap: TableSnapshot, client_id: str) -> DealDraft | None:
    """A deal after which this seat can serve ``client_id``, or ``None`` if no single
    stall sells what completes the order (see :func:`nobody_sells` for why).

    Only the active player may ask (RULES.md §4), from one stall per deal. The
    deal buys the fewest fish that complete the order (the cheapest such, then
    the first stall in seat order); the price is prefilled with what those fish
    earn from a client (§1: T=3, F=2, M=1, D=1) less one, at least 1, capped by
    the buyer's coins.
    """
    if not snap.my_turn or snap.me is None:
        return None
    best: tuple[tuple[int, int], int, tuple[tuple[int, int], ...]] | None = None
    for seller in snap.others():
        fish = _completing_purchase(snap, client_id, seller)
        if fish is None:
            continue
        crates = snap.seat(seller)["crates"]
        value = sum(FISH_VALUE.get(crates[k][0], 1) * n for k, n in fish)
        key = (sum(n for _k, n in fish), value)
        if best is None or key < best[0]:
            best = (key, seller, fish)
    if best is None:
        return None
    (_total, value), seller, fish = best
    coins = int(snap.seat(snap.me)["coins"])
    return DealDraft(seller, fish, coins=min(coins, max(1, value - 1)))


def nobody_sells(snap: TableSnapshot, client_id: str) -> str:
    """Why no deal is suggested for ``client_id`` (when :func:`suggest_deal` finds none):
    the missing fish that no other stall holds, or that no single stall holds all of
    what is missing (a deal buys from one stall, RULES.md §4); ``""`` when a deal
    exists or it is not this seat's turn to ask."""
    if not snap.my_turn or snap.me is None or suggest_deal(snap, client_id) is not None:
        return ""
    client = CLIENTS[client_id]
    sold = Counter("".join("".join(c) for o in snap.others() for c in snap.seat(o)["crates"]))
    if client.kind is ClientKind.UNDECIDED:
        return _("No other stall has enough fish in its crates to make up this order.")
    missing = _missing(snap, client_id)
    unsold = "".join(
        code * (n - min(n, sold[code]))
        for code, n in sorted(missing.items(), key=lambda kv: -Freshness(kv[0]).level)
    )
    if unsold:
        return _(
            "Nobody can sell you {fish} ({words}): no other stall has it in a crate, "
            "so no deal completes this order."
        ).format(fish=chips(unsold), words=spell(unsold))
    return _(
        "No single stall sells all that is missing, and a deal buys from one stall "
        "(§4): no deal completes this order."
    )
