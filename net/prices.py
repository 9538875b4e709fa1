"""Prices asked before an offer is made: "how much for your two fish?".

Game-agnostic: the server never reads a deal. A seated player asks another
seat its price on a deal with ``{type: "ask_price", to: seat, deal: map}``.
The game checks the question first (an optional ``Match.price_question``,
:class:`PriceQuestions`), which also says the deal in full (e.g. the fish's
freshness). Then:

* a bot (an agent with ``quote(view, deal)``, :class:`Quoting`) names its
  price from its own seat's view (``Match.view``), in a worker thread;
* a person is asked: ``{type: "price_asked", by: seat, deal: map}``. They may
  answer (no obligation) with ``{type: "name_price", to: asker, deal: map,
  coins: int | None}``, only to a question still open.

The answer goes to the asker only (a price is a word between two traders;
the offer itself, once made, is public): ``{type: "priced", seat: int, deal:
map, coins: int | None, bot: bool}`` (``coins`` ``None``: no price).
Questions and answers are rate-limited per connection like chat
(:data:`PRICE_RATE`, :data:`PRICE_BURST`); refusals are ``error`` frames
with a code (``not_a_player``, ``no_prices``, ``bad_question``, the game's
own code, ``slow_down``, ``no_question``, ``not_here``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol, runtime_checkable

from net.game import Wire
from net.guard import TokenBucket
from net.schema import BadMessage
from net.wording import worded

PRICE_RATE: Final = 1.0
"""Price questions or answers a second one connection may send over time: a person
asks again as they change the terms, a dialog asks at most once a second."""

PRICE_BURST: Final = 5
"""Price questions or answers one connection may send at once."""

OPEN_QUESTIONS: Final = 4
"""Questions to a person one asker may have open at once (older ones are forgotten)."""


@runtime_checkable
class Quoting(Protocol):
    """A bot that names its price on a deal from its own seat's view (optional)."""

    def quote(self, view: Wire, deal: Mapping[str, Any]) -> int | None:
        """The coins at which it would make ``deal``, or ``None`` for no price."""
        ...


@runtime_checkable
class PriceQuestions(Protocol):
    """A match whose seats may ask each other prices (optional for a game)."""

    def price_question(self, asker: int, seat: int, deal: Mapping[str, Any]) -> Wire:
        """``deal`` as ``seat`` must answer it when ``asker`` asks its price.

        Raises:
            ActionRejected: not a question this game lets ``asker`` ask ``seat`` now.
        """
        ...


@dataclass(frozen=True)
class PriceAsk:
    """Ask a seat its price. Wire: ``{type: "ask_price", to: int, deal: map}``."""

    TYPE: ClassVar[str] = "ask_price"
    to: int
    deal: Wire

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "to": self.to, "deal": self.deal}


@dataclass(frozen=True)
class PriceNamed:
    """A person answers a price question.

    Wire: ``{type: "name_price", to: int, deal: map, coins: int | None}``.

    Attributes:
        to: the seat that asked.
        deal: the deal as the question said it (``PriceAsked.deal``).
        coins: the price, or ``None`` for no price.
    """

    TYPE: ClassVar[str] = "name_price"
    to: int
    deal: Wire
    coins: int | None

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "to": self.to, "deal": self.deal, "coins": self.coins}


@dataclass(frozen=True)
class PriceAsked:
    """A seat asks this person their price. Wire: ``{type: "price_asked", by: int, deal: map}``."""

    TYPE: ClassVar[str] = "price_asked"
    by: int
    deal: Wire

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "by": self.by, "deal": self.deal}


@dataclass(frozen=True)
class Priced:
    """A seat's price, for the asker only.

    Wire: ``{type: "priced", seat: int, deal: map, coins: int | None, bot: bool}``.

    Attributes:
        seat: who named it.
        deal: the deal, as the game said it (``price_question``).
        coins: the price; ``None``: no price at all.
        bot: a bot named it (it keeps it for the turn, where the game says so).
    """

    TYPE: ClassVar[str] = "priced"
    seat: int
    deal: Wire
    coins: int | None
    bot: bool

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {
            "type": self.TYPE,
            "seat": self.seat,
            "deal": self.deal,
            "coins": self.coins,
            "bot": self.bot,
        }


class PriceDesk:
    """Checks price questions and answers, rate-limits them, remembers open questions.

    Args:
        clock: monotonic clock in seconds (the server's).
        rate: see :data:`PRICE_RATE`.
        burst: see :data:`PRICE_BURST`.
    """

    def __init__(
        self, clock: Callable[[], float], rate: float = PRICE_RATE, burst: int = PRICE_BURST
    ) -> None:
        self._clock = clock
        self._rate, self._burst = rate, burst
        self._buckets: weakref.WeakKeyDictionary[object, TokenBucket] = weakref.WeakKeyDictionary()
        self._open: dict[tuple[int, int], list[Wire]] = {}  # (asker, person) -> deals

    def _spend(self, sender: object) -> None:
        bucket = self._buckets.get(sender)
        if bucket is None:
            bucket = self._buckets[sender] = TokenBucket(self._rate, self._burst)
        if not bucket.take(self._clock()):
            raise BadMessage("slow_down", *worded("price_fast"))

    def question(
        self, sender: object, asker: int | None, seat: int, deal: Wire, match: object, seats: int
    ) -> Wire:
        """Check ``asker``'s question to ``seat``; the deal as the game says it.

        Raises:
            BadMessage: ``not_a_player`` (a spectator, or no game on), ``bad_question``
                (no such seat, or oneself), ``no_prices`` (the game has none), or
                ``slow_down``.
            ActionRejected: the game's own refusal (its code and parameters, so each
                client says it in its own language).
        """
        if asker is None or match is None:
            raise BadMessage("not_a_player", *worded("price_asker"))
        if not 0 <= seat < seats or seat == asker:
            raise BadMessage("bad_question", *worded("price_seat", seat=seat))
        if not isinstance(match, PriceQuestions):
            raise BadMessage("no_prices", *worded("no_prices"))
        self._spend(sender)
        return match.price_question(asker, seat, deal)

    def asked(self, asker: int, person: int, deal: Wire) -> None:
        """``person`` was asked ``deal``'s price by ``asker``: an answer may follow."""
        deals = self._open.setdefault((asker, person), [])
        if deal not in deals:
            deals.append(deal)
            del deals[:-OPEN_QUESTIONS]

    def answer(self, sender: object, person: int | None, asker: int, deal: Wire) -> None:
        """``person`` answers ``asker``'s question about ``deal``; it is closed.

        Raises:
            BadMessage: ``not_a_player``, ``slow_down``, or ``no_question`` (nobody
                asked this, or it was answered already).
        """
        if person is None:
            raise BadMessage("not_a_player", *worded("price_namer"))
        self._spend(sender)
        deals = self._open.get((asker, person), [])
        if deal not in deals:
            raise BadMessage("no_question", *worded("price_unasked"))
        deals.remove(deal)
