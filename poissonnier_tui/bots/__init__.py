"""Bots: seat players that see only their seat's view and legal actions.

Every bot satisfies :class:`net.game.Agent`: ``act(view, legal) -> action | None``
where ``view`` is ``view_for(state, seat)`` (RULES.md §9) and ``legal`` the
seat's ``legal_actions`` as wire maps. A bot never receives a ``GameState``;
it may use the pure helpers of :mod:`poissonnier_tui.game` (card tables,
``orders``) and build actions of its own, which the engine validates.

Usage::

    from poissonnier_tui.bots import BOT_KINDS, make_bot

    bot = make_bot("greedy", seed=7)
    action = bot.act(view, legal)

To add a kind, add an entry to :data:`BOT_FACTORIES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from net.game import Agent
from poissonnier_tui.bots.greedy import GreedyBot
from poissonnier_tui.bots.random_bot import RandomBot

__all__ = ["BOT_FACTORIES", "BOT_KINDS", "GreedyBot", "RandomBot", "make_bot"]

BOT_FACTORIES: Final[dict[str, Callable[[random.Random], Agent]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}
"""Bot kind → constructor taking a seeded ``random.Random``."""

BOT_KINDS: Final[tuple[str, ...]] = tuple(BOT_FACTORIES)
"""The kinds :func:`make_bot` knows, e.g. for a CLI ``--bot`` choice."""


def make_bot(kind: str, seed: int) -> Agent:
    """A new bot of ``kind`` with its own generator seeded by ``seed`` (R3).

    Args:
        kind: one of :data:`BOT_KINDS`.
        seed: seeds the bot's ``random.Random``.

    Raises:
        ValueError: unknown ``kind`` (the message lists the known ones).
    """
    try:
        factory = BOT_FACTORIES[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}") from None
    return factory(random.Random(seed))
