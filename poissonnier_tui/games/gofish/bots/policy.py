"""The medium bot's choice of ask, shared with the hard bot's rollouts.

:func:`choose` scores each legal ask by the chance it hits (from
:class:`~.memory.Estimates`) and picks the best: a proved hit first (the
one handing over most cards), then the likeliest guess, ties broken towards
the rank the asker holds most of (closest to a book, docs/GOFISH.md §4) and
the target with most cards. It never bluffs (G4). Asks are plain tuples
``(target, rank, suit | None)``, so rollouts need not build wire maps.
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


EXPOSURE_COST = 0.5
"""Weight of the cards a new ask puts at risk, in hits (the hard bot's :func:`careful_key`)."""


def careful_key(
    est: Estimates, ask: AskTuple, books: Sequence[int]
) -> tuple[int, float, int, int, int]:
    """The hard bot's sort key of an ask, best highest: (end, value, proved cards, held of
    rank, target size) — the last three as in :func:`score`.

    * ``value``: the hit chance minus what the ask gives away. An ask proves the
      asker holds the rank (docs/GOFISH.md §3.1, §8); if nobody knew it yet,
      any other player holding that rank will ask for all of them (the medium
      bot does), so the cards held of that rank, times the chance an opponent
      holds one, are weighed at :data:`EXPOSURE_COST` per card.
    * ``end``: +1 for a proved hit that ends the game (§5: the target's hand or
      the asker's, emptied) with the asker winning or sharing the win, -1 for
      one that ends it lost, 0 otherwise.

    Args:
        est: the asker's estimates.
        ask: the ask.
        books: books per seat now.
    """
    target, rank, suit = ask
    r = RANK_INDEX[rank]
    m = est.m
    me = est.me
    if suit is None:
        p = est.rank_hit(target, r)
    else:
        card = card_id(rank, suit)
        if card in est.hand:
            return (-2, -1.0, 0, 0, 0)
        p = est.card_hit(target, card)
    proved = m.lo[target][r] if suit is None else int(p >= 1.0)
    cost = 0.0
    if m.lo[me][r] < 1:  # a new exposure
        miss_all = 1.0
        for o in range(m.players):
            if o != me:
                miss_all *= 1.0 - est.rank_hit(o, r)
        cost = EXPOSURE_COST * est.mine[r] * (1.0 - miss_all)
    end = 0
    if p >= 1.0 and suit is None and not m.card_variant:
        given = m.lo[target][r]
        book = est.mine[r] + given == 4
        if given >= m.sizes[target] or (book and len(est.hand) == est.mine[r]):
            after = list(books)
            after[me] += book
            end = 1 if after[me] >= max(after) else -1
    return (end, p - cost, proved, est.mine[r], m.sizes[target])
