"""The hard Go Fish bot: medium's memory, and it keeps its hand to itself.

Like the medium bot it reads its view into a :class:`~.memory.Memory` and
asks where a rank (or in §6 a card) is proved to be. In the rank game it
differs in these ways (:func:`shrewd_key`); in the card game only in the first:

* it knows when a proved hit would end the game (docs/GOFISH.md §5) won or
  lost, and does not end a game it would lose (:func:`~.policy.careful_key`);
* when it must guess, it weighs what a miss gives away: any ask shows the
  table that the asker holds the rank (§3.1, §8), and a player who remembers
  then asks the asker for it. A guess for a rank the table does not yet know
  the bot holds costs, on a miss, the cards of that rank it holds times the
  chance that a player other than the one asked holds the rank too; a rank
  the table already knows it holds costs nothing;
* a hit that does not complete a book shows the table every card of the rank
  the bot then holds, so a guess for such a rank also costs, on a hit, those
  cards times the chance that another player holds the rank;
* a guess that would complete a book (it holds three) counts double;
* when the stock is nearly out (:data:`ENDGAME_STOCK`), little time is left
  for anyone to use what an ask shows, so it guesses by hit chance and books
  alone.

It sees only its seat's view; its choice is a pure function of the view and
the legal asks, so it is deterministic.

Measured (docs/measurements/gofish_bots.txt): rollouts on worlds sampled from
the view, with every seat played by the medium policy, did not beat medium in
402 games and cost ~45 ms a decision; this weighing does better at a fraction
of a millisecond.
"""

from __future__ import annotations

import random

from net.game import Wire
from poissonnier_tui.games.gofish.bots.memory import Estimates, Memory
from poissonnier_tui.games.gofish.bots.policy import AskTuple, ask_tuple, ask_wire, careful_key
from poissonnier_tui.games.gofish.rules.cards import RANK_INDEX

LEAK = 4.0
"""Hit chance a guess gives up per card of the rank a miss shows to a player holding it."""
HIT_SHOWS = 4.0
"""Hit chance a guess gives up per card a hit would show to a player holding the rank."""
BOOK_BONUS = 1.0
"""Extra worth of a hit that completes a book, as a fraction of the hit chance."""
ENDGAME_STOCK = 8
"""At most this many cards in the stock, what an ask shows is no longer weighed."""


def shrewd_key(est: Estimates, ask: AskTuple, books: list[int]) -> tuple[int, float, int, int]:
    """The hard bot's sort key of an ask, best highest: (end, worth, held of rank, target size).

    ``end`` is :func:`~.policy.careful_key`'s (+1 a proved hit that ends the game
    won, -1 lost, -2 a bluff, else 0). ``worth`` of a proved hit is 2 plus the
    cards proved there (it always beats a guess); of a guess with hit chance
    ``p``, ``p * (1 + BOOK_BONUS if it completes a book) - LEAK * (1 - p) *
    shown * others - HIT_SHOWS * p * (held + 1) * others`` (the last term only
    when the hit cannot complete a book), where ``held`` is the cards of the
    rank the bot holds, ``shown`` is ``held`` when the table does not know it
    holds any (0 otherwise) and ``others`` the chance that some seat other than
    the bot and the target holds the rank (docs/GOFISH.md §3.1, §8: an ask shows
    the asker holds the rank, a give how many cards moved). With at most
    :data:`ENDGAME_STOCK` cards in the stock, the two costs are left out. In
    the card game (§6) ``worth`` is the hit chance alone, as medium's.

    Args:
        est: the bot's estimates (its seat, hand and memory).
        ask: ``(target, rank, suit | None)``.
        books: books per seat now.
    """
    target, rank, suit = ask
    r = RANK_INDEX[rank]
    m = est.m
    me = est.me
    end, p, _, held, size = careful_key(est, ask, books)
    if p >= 1.0:
        return (end, 2.0 + m.lo[target][r], held, size)
    if p < 0:
        return (end, p, held, size)
    if suit is not None:  # §6: weighed as medium does (the costs were tuned for ranks)
        return (end, p, held, size)
    worth = p * (1.0 + BOOK_BONUS * (held == 3))
    if m.stock <= ENDGAME_STOCK:
        return (end, worth, held, size)
    none_elsewhere = 1.0
    for s in range(m.players):
        if s not in (me, target) and m.sizes[s] > 0:
            none_elsewhere *= 1.0 - est.rank_hit(s, r)
    others = 1.0 - none_elsewhere
    shown = 0 if m.lo[me][r] >= 1 else held
    worth -= LEAK * (1.0 - p) * shown * others
    if held < 3:
        worth -= HIT_SHOWS * p * (held + 1) * others
    return (end, worth, held, size)


class HardBot:
    """Careful, close-handed asks; satisfies ``net.game.Agent``.

    Args:
        rng: the bot's generator (unused by its choices, which are a function of
            the view; kept so every level is built alike).
        budget: accepted like the other games' hard bots; this bot does not
            search, so it changes nothing.
    """

    def __init__(self, rng: random.Random, budget: float = 1.0) -> None:
        self.rng = rng
        self.budget = budget

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """The ask of ``legal`` with the best :func:`shrewd_key` (the first listed wins ties);
        ``None`` when ``legal`` is empty."""
        if not legal:
            return None
        me = view["seat"]
        memory = Memory.from_view(view)
        est = memory.estimate(me, view["me"]["hand"])
        books = [len(b) for b in view["books"]]
        asks = [ask_tuple(a) for a in legal]
        best = max(range(len(asks)), key=lambda i: (shrewd_key(est, asks[i], books), -i))
        return ask_wire(asks[best])
