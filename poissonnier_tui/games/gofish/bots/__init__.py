"""Go Fish bots: seat players that see only their seat's view and legal asks.

Every bot satisfies :class:`net.game.Agent`: ``act(view, legal) -> action | None``
where ``view`` is ``view_for(state, seat)`` (docs/GOFISH.md §8) and ``legal`` the
seat's legal asks as wire maps. A bot never receives a ``GameState``.

Levels (:data:`LEVELS`), weakest first:

* ``easy`` (:class:`EasyBot`): legal and forgetful.
* ``medium`` (:class:`MediumBot`): remembers every ask, answer and shown card.
* ``hard`` (:class:`HardBot`): knows when a hit ends the game won or lost,
  weighs what a guess shows the table about its hand, and checks its best
  guesses by playing them out in worlds dealt from its view (``worlds.py``).

Baseline: ``random`` (:class:`RandomBot`).

Usage::

    from poissonnier_tui.games.gofish.bots import make_bot

    bot = make_bot("hard", seed=7)
    action = bot.act(view, legal)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from net.game import Agent
from poissonnier_tui.games.gofish.bots.hard import HardBot
from poissonnier_tui.games.gofish.bots.medium import MediumBot
from poissonnier_tui.games.gofish.bots.simple import EasyBot, RandomBot

__all__ = [
    "BOT_FACTORIES",
    "BOT_KINDS",
    "LEVELS",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "make_bot",
]

BOT_FACTORIES: Final[dict[str, Callable[[random.Random], Agent]]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "random": RandomBot,
}
"""Bot kind → constructor taking a seeded ``random.Random``."""

BOT_KINDS: Final[tuple[str, ...]] = tuple(BOT_FACTORIES)
"""The kinds :func:`make_bot` knows."""

LEVELS: Final[tuple[str, ...]] = ("easy", "medium", "hard")
"""The three levels offered to players, weakest first."""


def make_bot(kind: str, seed: int, *, budget: float = 1.0) -> Agent:
    """A new Go Fish bot of ``kind`` with its own generator seeded by ``seed``.

    Args:
        kind: one of :data:`BOT_KINDS`.
        seed: seeds the bot's ``random.Random``.
        budget: scales the hard bot's search (the worlds it deals per decision; 1 is
            the published level); the other levels do not search and ignore it (it
            must still be positive).

    Raises:
        ValueError: unknown ``kind`` (the message lists the known ones), or a
            budget that is not positive.
    """
    try:
        factory = BOT_FACTORIES[kind]
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}") from None
    if not budget > 0:
        raise ValueError(f"the search budget must be positive, not {budget}")
    if factory is HardBot:
        return HardBot(random.Random(seed), budget=budget)
    return factory(random.Random(seed))
