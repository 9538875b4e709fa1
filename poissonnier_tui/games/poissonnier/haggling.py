"""A bot at a table haggles out loud: it says why it declines, names its price, keeps it.

RULES.md §4 (deals, table talk), R8 (two yeses), §9 (a bot sees only its
seat's view). :class:`TableBot` wraps any bot seated at a table (not the
arena's, whose pinned games stay as they are):

* **Reasons.** When the bot declines a proposal, the decline carries a reason
  (``rules/actions.py:DECLINE_REASONS``) and, where it would deal at another
  price, that price: its quote (:mod:`poissonnier_tui.games.poissonnier.quotes`),
  computed from its own view with the declined proposal gone.
* **Quotes.** :meth:`TableBot.quote` names the price at which it would say
  yes to a deal, asked before the deal is made (the deal dialog).
* **A price named is a price kept.** Every price it names (in a decline or a
  quote) is remembered for the rest of the turn: offered that deal at that
  price or better for it, it accepts. The quote is what the bot itself
  answers, so this only matters where a bot's answer may move between the
  quote and the offer (the hard bot's search draws from its generator).

The hard bot haggles with its medium heuristic (its search only checks the
answers), so its quotes are that heuristic's, probed on a copy; the promise
above makes them hold.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from net.game import Agent, Wire
from poissonnier_tui.games.poissonnier.bots.hard import HardBot
from poissonnier_tui.games.poissonnier.quotes import DEAL_FIELDS, quote

_DealKey = tuple[Any, ...]


def deal_of(proposal: Mapping[str, Any]) -> Wire:
    """The deal a proposal map names, without price or id (``quotes.DEAL_FIELDS``)."""
    return {k: proposal[k] for k in DEAL_FIELDS}


def _key(turn: int, deal: Mapping[str, Any]) -> _DealKey:
    return (
        turn,
        int(deal["proposer"]),
        int(deal["seller"]),
        tuple(tuple(int(x) if not isinstance(x, str) else x for x in f) for f in deal["fish"]),
        int(deal["seller_glacons"]),
        int(deal["seller_arrivages"]),
        int(deal["buyer_glacons"]),
        int(deal["buyer_arrivages"]),
    )


class TableBot:
    """A seated bot that explains its declines and keeps its quotes (``net.game.Agent``).

    Args:
        bot: the bot choosing the moves (any level of ``bots.make_bot``).

    Attributes:
        bot: the wrapped bot.
    """

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self._promises: dict[_DealKey, int] = {}  # this turn's named prices
        self._turn = -1
        self._lock = threading.Lock()  # act and quote may come from two worker threads

    @property
    def kind(self) -> str | None:
        """The wrapped bot's ``kind`` attribute, if it has one."""
        kind = getattr(self.bot, "kind", None)
        return kind if isinstance(kind, str) else None

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """The wrapped bot's move, a kept price first, and a reason on each decline.

        Args:
            view: the seat's view (``rules/view.py``).
            legal: its legal actions as wire maps.

        Returns:
            An accept of a proposal at a price this bot named this turn (when
            legal); else the wrapped bot's action, a ``decline`` completed with
            ``reason`` and, where it would deal at another price, ``price``.
        """
        with self._lock:
            self._forget_old(view)
            kept = self._kept(view, legal)
            if kept is not None:
                return kept
            action = self.bot.act(view, legal)
            if action is not None and action.get("type") == "decline" and "reason" not in action:
                return self._explained(view, action)
            return action

    def quote(self, view: Wire, deal: Mapping[str, Any]) -> int | None:
        """The price at which this bot says yes to ``deal`` now (``quotes.quote``), kept
        for the turn; ``None``: no price.

        Raises:
            ValueError: this seat does not answer ``deal`` (R8), or ``deal`` lacks a field.
        """
        with self._lock:
            self._forget_old(view)
            return self._quote(view, deal)

    # ------------------------------------------------------------------ inside

    def _forget_old(self, view: Mapping[str, Any]) -> None:
        turn = int(view.get("turn", -1))
        if turn != self._turn:
            self._turn = turn
            self._promises.clear()

    def _quote(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> int | None:
        prober = self.bot.medium if isinstance(self.bot, HardBot) else self.bot
        price = quote(prober, view, deal)
        if price is not None:
            self._promises[_key(self._turn, deal)] = price
        return price

    def _kept(self, view: Mapping[str, Any], legal: list[Wire]) -> Wire | None:
        """An accept of a proposal to this seat at a price it named, or better (§4)."""
        if not self._promises:
            return None
        me = view["seat"]
        for p in view.get("proposals", []):
            if p.get("answerer") != me:
                continue
            named = self._promises.get(_key(self._turn, deal_of(p)))
            if named is None:
                continue
            selling = p["seller"] == me
            coins = int(p["coins"])
            if coins >= named if selling else coins <= named:
                accept = {"type": "accept", "proposal": p["id"]}
                if accept in legal:
                    return accept
        return None

    def _explained(self, view: Wire, decline: Wire) -> Wire:
        """``decline`` with its reason and, where the bot would deal, its price (§4)."""
        pid = decline.get("proposal")
        declined = next((p for p in view.get("proposals", []) if p.get("id") == pid), None)
        if declined is None:
            return decline
        after = dict(view)
        after["proposals"] = [p for p in view["proposals"] if p.get("id") != pid]
        selling = declined["seller"] == view["seat"]
        offered = int(declined["coins"])
        try:
            price = self._quote(after, deal_of(declined))
        except (KeyError, ValueError, TypeError):
            price = None
        if selling and price is not None and price > offered:
            return {**decline, "reason": "too_cheap", "price": price}
        if not selling and price is not None and price < offered:
            return {**decline, "reason": "too_dear", "price": price}
        if price is None:
            return {**decline, "reason": "not_selling" if selling else "no_use"}
        return {**decline, "reason": "no_thanks"}


def seat_bot(bot: Agent) -> Agent:
    """``bot`` as seated at a table: a :class:`TableBot` (the ``GameEntry.seat_bot`` hook)."""
    return TableBot(bot)
