"""A bot's quote: the price at which it says yes to a deal, asked before the deal is made.

RULES.md §4 (deals), R8 (a deal binds on two yeses). A person drafting an
offer to a bot wants to know its price. The quote is honest by construction:
it is what the bot itself answers. Each probe hands a *copy* of the bot its
own seat's view with the deal added as a proposal made to it, at one price,
and reads whether its ``act`` says ``accept``. The bot's own state (its
haggling memory, its generator) is never touched, so the bot asked for real
at the quoted price, from the same view, answers exactly as the probe did.
Nothing but the seat's view and the deal is read: no game state.

As the seller (the active player asks it for fish), the quote is the fewest
coins it accepts; as the active buyer (another seat offers it fish), the most
coins it pays. Prices run from 0 to the buyer's coins (§4: the buyer can
never pay more than it holds).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from net.game import Agent, Wire
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view

DEAL_FIELDS = (
    "proposer",
    "seller",
    "fish",
    "seller_glacons",
    "seller_arrivages",
    "buyer_glacons",
    "buyer_arrivages",
)
"""What a deal map names (``engine.proposal_wire`` without id, coins, counters)."""


def asked_view(view: Mapping[str, Any], deal: Mapping[str, Any], coins: int) -> Wire:
    """The seat's ``view`` with ``deal`` at ``coins`` added as the first proposal it answers.

    The proposal's id is the next the table would give (one more than any
    open proposal's); its ``answerer`` is the seat whose view this is (R8).

    Raises:
        KeyError: ``deal`` lacks one of :data:`DEAL_FIELDS`.
    """
    shown: Wire = copy.deepcopy(dict(view))
    proposals = list(shown.get("proposals", []))
    pid = max((int(p["id"]) for p in proposals), default=0) + 1
    proposal = {k: copy.deepcopy(deal[k]) for k in DEAL_FIELDS}
    proposal.update(id=pid, coins=coins, counters=None, answerer=view["seat"])
    shown["proposals"] = [proposal, *proposals]
    return shown


def says_yes(bot: Agent, view: Mapping[str, Any], deal: Mapping[str, Any], coins: int) -> bool:
    """Whether ``bot`` (a copy of it: the bot is left as it was) accepts ``deal`` at ``coins``."""
    shown = asked_view(view, deal, coins)
    pid = shown["proposals"][0]["id"]
    answer = copy.deepcopy(bot).act(shown, legal_from_view(shown))
    return answer is not None and answer.get("type") == "accept" and answer.get("proposal") == pid


def quote(bot: Agent, view: Mapping[str, Any], deal: Mapping[str, Any]) -> int | None:
    """The price at which ``bot``, seated at ``view["seat"]``, says yes to ``deal`` now.

    Args:
        bot: the bot; only copies of it are asked.
        view: its seat's view (``rules/view.py``), in the serve step.
        deal: the deal as a proposal map without price (:data:`DEAL_FIELDS`);
            the seat must be the side that answers it (R8): the seller the
            active player asks, or the active player a seller offers fish.

    Returns:
        As the seller, the fewest coins it accepts; as the buyer, the most it
        pays; ``None`` when it says no at every price it could be asked.

    Raises:
        ValueError: the seat is not the side that answers ``deal``.
    """
    seat, active = view["seat"], view["active"]
    proposer, seller = deal["proposer"], deal["seller"]
    answers = active if proposer == seller else seller
    if seat != answers:
        raise ValueError(f"seat {seat} does not answer this deal; seat {answers} does (R8)")
    most = int(view["seats"][active]["coins"])

    def yes(coins: int) -> bool:
        return says_yes(bot, view, deal, coins)

    # As the seller, yes is expected to hold from some price up (the fewest coins
    # it takes); as the buyer, up to some price (the most it pays).
    found = _first(0, most, yes) if seat == seller else _last(0, most, yes)
    # A bot whose answer is not monotonic in the price (a search) is still
    # quoted only a price it was seen to accept.
    return found if found is not None and yes(found) else None


def _first(lo: int, hi: int, yes: Callable[[int], bool]) -> int | None:
    """The least price in ``lo..hi`` with ``yes``, by bisection (assumes yes holds upward)."""
    if not yes(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if yes(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _last(lo: int, hi: int, yes: Callable[[int], bool]) -> int | None:
    """The greatest price in ``lo..hi`` with ``yes``, by bisection (assumes yes holds downward)."""
    if not yes(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if yes(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
