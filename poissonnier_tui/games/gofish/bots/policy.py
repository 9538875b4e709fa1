"""The medium bot's choice of ask, and the careful key the hard bot builds on.

:func:`choose` scores each legal ask by the chance it hits (from
:class:`~.memory.Estimates`) and picks the best: a proved hit first (the
one handing over most cards), then the likeliest guess, ties broken towards
the rank the asker holds most of (closest to a book, docs/GOFISH.md §4) and
the target with most cards. It never bluffs (G4). Asks are plain tuples
``(target, rank, suit | None)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from poissonnier_tui.games.gofish.bots.memory import Estimates
from poissonnier_tui.games.gofish.rules.cards import RANK_INDEX, card_id

#: ``(target, rank, suit)``; ``suit`` is ``None`` in the rank game.
AskTuple = tuple[int, str, str | None]


def score(est: Estimates, ask: AskTuple) -> tuple[float, int, int, int]:
    """Sort key of an ask, best highest: (hit chance, proved cards, held of rank, target size)."""
    target, rank, suit = ask
    r = RANK_INDEX[rank]
    m = est.m
    if suit is None:
        p = est.rank_hit(target, r)
        proved = m.lo[target][r]
    else:
        card = card_id(rank, suit)
        if card in est.hand:
            return (-1.0, 0, 0, 0)  # a bluff: never chosen while an honest ask exists
        p = est.card_hit(target, card)
        proved = 1 if card in m.holds[target] else 0
    return (p, proved, est.mine[r], m.sizes[target])


def choose(est: Estimates, asks: Sequence[AskTuple]) -> AskTuple:
    """The best of ``asks`` (non-empty) by :func:`score`; the first listed wins ties."""
    best = asks[0]
    best_key = score(est, best)
    for ask in asks[1:]:
        key = score(est, ask)
        if key > best_key:
            best, best_key = ask, key
    return best


def ask_tuple(wire: Mapping[str, Any]) -> AskTuple:
    """A wire ask as a tuple."""
    return (wire["target"], wire["rank"], wire.get("suit"))


def ask_wire(ask: AskTuple) -> dict[str, Any]:
    """A tuple ask as its wire map (``ask`` or ``ask_card``)."""
    target, rank, suit = ask
    if suit is None:
        return {"type": "ask", "target": target, "rank": rank}
    return {"type": "ask_card", "target": target, "rank": rank, "suit": suit}


def careful_key(
    est: Estimates, ask: AskTuple, books: Sequence[int]
) -> tuple[int, float, int, int, int]:
    """The hard bot's sort key of an ask, best highest: (end, then :func:`score`'s key).

    ``end`` is +1 for a proved hit that ends the game (docs/GOFISH.md §5: the
    target's hand or the asker's emptied) with the asker winning or sharing
    the win, -1 for one that ends it lost, 0 otherwise; -2 for a bluff (G4).
    It does not weigh what an ask shows the others; the hard bot adds that
    (:func:`~.hard.shrewd_key`).

    Args:
        est: the asker's estimates.
        ask: the ask.
        books: books per seat now.
    """
    target, rank, suit = ask
    r = RANK_INDEX[rank]
    m = est.m
    me = est.me
    key = score(est, ask)
    if key[0] < 0:
        return (-2, *key)
    end = 0
    if key[0] >= 1.0 and suit is None:
        given = m.lo[target][r]
        book = est.mine[r] + given == 4
        if given >= m.sizes[target] or (book and len(est.hand) == est.mine[r]):
            after = list(books)
            after[me] += book
            end = 1 if after[me] >= max(after) else -1
    return (end, *key)
