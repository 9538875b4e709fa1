"""Negotiations of this turn, read from a view: who said what, at what price (RULES.md §4).

Only the active player deals (§4), so a negotiation is everything said
between the active player and one seller during the current turn: offers and
counter-offers (a counter replaces the offer it answers, R8), declines (with
the reason and the price the decliner would take, when the event carries
them), withdrawals (by the proposer, or by the table when nobody answered in
time, R25), lapses and the deal that closes it. The offers pane shows a
negotiation still open as a thread (``#7 → #8 → #9``) under its open offer,
and folds a settled one into a line.

Everything comes from the view's public log tail (``rules/view.py``) and open
proposals; events older than the tail are simply not shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

StepKind = Literal["offer", "decline", "withdraw", "lapse", "deal"]
"""What a step of a negotiation is."""


@dataclass(frozen=True)
class Step:
    """One thing said in a negotiation.

    Attributes:
        kind: an offer (or counter-offer), a decline, a withdrawal, a lapse or the deal.
        offer: the proposal it is about (its id).
        seat: who said it (the proposer of an offer, the decliner…); ``None`` for a lapse.
        coins: the price of the offer it is about, in coins.
        counter: for a counter-offer, the id of the offer it answers (R8).
        reason: a decline's reason as the event gives it, if any.
        price: the coins the decliner would deal at, if the event gives it.
        by_table: the table played it (a withdrawal when the time ran out, R25).
    """

    kind: StepKind
    offer: int
    seat: int | None
    coins: int
    counter: int | None = None
    reason: str | None = None
    price: int | None = None
    by_table: bool = False


@dataclass
class Negotiation:
    """Everything said this turn between the active player and one seller.

    Attributes:
        seller: the seller's seat (the buyer is always the active player, §4).
        steps: oldest first.
        open: the ids of its proposals still open (from the view's proposals).
    """

    seller: int
    steps: list[Step] = field(default_factory=list)
    open: list[int] = field(default_factory=list)

    @property
    def settled(self) -> bool:
        """No proposal of it is open any more."""
        return not self.open

    def thread_of(self, offer: int) -> list[Step]:
        """What was said up to ``offer``: the steps about it and the offers made before it
        in this negotiation (their counters, declines, withdrawals), oldest first."""
        return [s for s in self.steps if s.offer <= offer]


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def negotiations(view: Mapping[str, Any]) -> list[Negotiation]:
    """This turn's negotiations in a view, in the order they began.

    Raises nothing: events of an unexpected shape are skipped.
    """
    log: list[Mapping[str, Any]] = [e for e in view.get("log", []) if isinstance(e, Mapping)]
    start = max((i for i, e in enumerate(log) if e.get("t") == "turn"), default=-1) + 1
    by_seller: dict[int, Negotiation] = {}
    seller_of: dict[int, int] = {}  # offer id -> seller seat
    coins_of: dict[int, int] = {}
    for event in log[start:]:
        kind = event.get("t")
        if kind in ("propose", "deal"):
            p = event.get("proposal")
            if not isinstance(p, Mapping):
                continue
            pid, seller = _int(p.get("id"), -1), _int(p.get("seller"), -1)
            seller_of[pid], coins_of[pid] = seller, _int(p.get("coins"))
            talk = by_seller.setdefault(seller, Negotiation(seller))
            if kind == "propose":
                counter = event.get("counter")
                talk.steps.append(
                    Step(
                        "offer", pid, _int(event.get("seat"), -1), coins_of[pid],
                        counter=counter if isinstance(counter, int) else None,
                    )
                )  # fmt: skip
            else:
                talk.steps.append(Step("deal", pid, _int(event.get("seat"), -1), coins_of[pid]))
        elif kind in ("decline", "withdraw", "lapse"):
            pid = _int(event.get("proposal"), -1)
            if pid not in seller_of:
                continue  # made before the log tail: nothing to attach it to
            reason, price = event.get("reason"), event.get("price")
            seat = event.get("seat")
            by_seller[seller_of[pid]].steps.append(
                Step(
                    kind, pid, seat if isinstance(seat, int) else None, coins_of[pid],
                    reason=reason if isinstance(reason, str) and reason.strip() else None,
                    price=price if isinstance(price, int) and not isinstance(price, bool) else None,
                    by_table=event.get("by") == "table",
                )
            )  # fmt: skip
    for p in view.get("proposals", []):
        if not isinstance(p, Mapping):
            continue
        seller, pid = _int(p.get("seller"), -1), _int(p.get("id"), -1)
        talk = by_seller.setdefault(seller, Negotiation(seller))
        if not any(s.kind == "offer" and s.offer == pid for s in talk.steps):
            # Made before the log tail: the open proposal alone starts the thread.
            talk.steps.append(
                Step("offer", pid, _int(p.get("proposer"), -1), _int(p.get("coins")),
                     counter=p.get("counters") if isinstance(p.get("counters"), int) else None)
            )  # fmt: skip
        talk.open.append(pid)
    return sorted(by_seller.values(), key=lambda n: n.steps[0].offer if n.steps else 0)
