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
* **Market talk.** :meth:`TableBot.chat_reply` answers the chat's quick phrases
  that concern it (:mod:`poissonnier_tui.games.poissonnier.talk`): "Anyone have
  M?" from the active player, when M is in one of its crates, with its price
  for one; "How much?" naming it, with its price for one fish of each crate
  (to the active player), or what it pays for one of each of the speaker's
  (when the bot is active). Said in the table's language; prices kept.
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
from collections.abc import Mapping, Sequence
from typing import Any, Final

from net.game import Agent, Wire
from poissonnier_tui.games.poissonnier.bots.hard import HardBot
from poissonnier_tui.games.poissonnier.quotes import DEAL_FIELDS, quote
from poissonnier_tui.games.poissonnier.talk import names_me, read_phrase
from poissonnier_tui.i18n import _, ngettext

_DealKey = tuple[Any, ...]

NO_SPECIALS: Final = {
    "seller_glacons": 0, "seller_arrivages": 0, "buyer_glacons": 0, "buyer_arrivages": 0,
}  # fmt: skip
"""A deal of fish alone."""


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

    def chat_reply(
        self, view: Wire, speaker: int | None, text: str, names: Sequence[str]
    ) -> str | None:
        """What this bot says back to ``text`` said by ``speaker``, or ``None`` (most lines).

        Args:
            view: this seat's view now.
            speaker: the speaker's seat (``None``: a spectator, never answered).
            text: what was said (``net.chat``: cleaned).
            names: every seat's name, in seat order (public).

        Returns:
            One line in the table's language, or ``None``: the phrase does not
            concern it (see the module docstring), or it is not the serve step.
        """
        phrase = read_phrase(text)
        if phrase is None or speaker is None or view.get("phase") != "serve":
            return None
        me, active = int(view["seat"]), int(view["active"])
        with self._lock:
            self._forget_old(view)
            if phrase.kind == "anyone_have":
                return self._have(view, speaker, me, active, str(phrase.fish))
            if me < len(names) and names_me(text, names[me]):
                return self._how_much(view, speaker, me, active)
        return None

    def _have(self, view: Wire, speaker: int, me: int, active: int, fish: str) -> str | None:
        """The answer to "Anyone have M?" from the active player: a crate of M here (§4)."""
        if speaker != active or me == active:
            return None
        crates = [str(c) for c in view["seats"][me]["crates"]]
        crate = next((k for k, c in enumerate(crates) if c and c[0] == fish), None)
        if crate is None:
            return None
        deal = {"proposer": speaker, "seller": me, "fish": [[crate, 1, fish]], **NO_SPECIALS}
        price = self._quote(view, deal)
        if price is None:
            return _("I have {fish}, but it is not for sale.").format(fish=fish)
        return _("I have {fish}: {price} for one.").format(fish=fish, price=_coins(price))

    def _how_much(self, view: Wire, speaker: int, me: int, active: int) -> str | None:
        """The answer to "How much?" naming this bot: a price for one fish of each crate."""
        if speaker == active and me != active:
            seller, selling = me, True
        elif me == active and speaker != me:
            seller, selling = speaker, False
        else:
            return None
        said = []
        for k, codes in enumerate(str(c) for c in view["seats"][seller]["crates"]):
            if not codes:
                continue
            deal = {"proposer": speaker, "seller": seller, "fish": [[k, 1, codes[0]]],
                    **NO_SPECIALS}  # fmt: skip
            price = self._quote(view, deal)
            worth = _("no price") if price is None else _coins(price)
            said.append(_("one {fish}: {price}").format(fish=codes[0], price=worth))
        if not said:
            return None
        if selling:
            return _("My prices — {prices}.").format(prices="; ".join(said))
        return _("I would pay — {prices}.").format(prices="; ".join(said))

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


def _coins(n: int) -> str:
    return ngettext("{n} coin", "{n} coins", n).format(n=n)


def seat_bot(bot: Agent) -> Agent:
    """``bot`` as seated at a table: a :class:`TableBot` (the ``GameEntry.seat_bot`` hook)."""
    return TableBot(bot)
