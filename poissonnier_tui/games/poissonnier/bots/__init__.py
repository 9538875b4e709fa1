"""Bots: seat players that see only their seat's view and legal actions.

Every bot satisfies :class:`net.game.Agent`: ``act(view, legal) -> action | None``
where ``view`` is ``view_for(state, seat)`` (RULES.md §9) and ``legal`` the
seat's ``legal_actions`` as wire maps. A bot never receives a ``GameState``;
it may use the pure helpers of :mod:`poissonnier_tui.games.poissonnier.rules` (card tables,
``orders``) and build actions of its own, which the engine validates. The hard
bot also simulates futures on worlds *sampled from its own view*
(``game.determinize.sample_state``), never on the table's state.

Levels (:data:`LEVELS`), weakest first:

* ``easy`` (:class:`EasyBot`): greedy play with a beginner's slips.
* ``medium`` (:class:`MediumBot`): heuristics tuned to the winner rules, likely
  clients, crate returns, inspector risk, haggling.
* ``hard`` (:class:`HardBot`): Monte Carlo search over sampled worlds consistent
  with its view, on top of the medium heuristics.

Baselines kept for comparisons: ``random`` (:class:`RandomBot`) and ``greedy``
(:class:`GreedyBot`, the first heuristic bot).

Usage::

    from poissonnier_tui.games.poissonnier.bots import BOT_KINDS, make_bot

    bot = make_bot("hard", seed=7)
    action = bot.act(view, legal)

To add a kind, add an entry to :data:`BOT_FACTORIES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from net.game import Agent
from poissonnier_tui.games.poissonnier.bots.easy import EasyBot
from poissonnier_tui.games.poissonnier.bots.greedy import GreedyBot
from poissonnier_tui.games.poissonnier.bots.hard import HardBot
from poissonnier_tui.games.poissonnier.bots.medium import MediumBot
from poissonnier_tui.games.poissonnier.bots.random_bot import RandomBot

__all__ = [
    "BOT_FACTORIES",
    "BOT_KINDS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "EasyBot",
    "GreedyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "kind_for",
    "make_bot",
]

BOT_FACTORIES: Final[dict[str, Callable[[random.Random], Agent]]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "random": RandomBot,
    "greedy": GreedyBot,
}
"""Bot kind → constructor taking a seeded ``random.Random``."""

BOT_KINDS: Final[tuple[str, ...]] = tuple(BOT_FACTORIES)
"""The kinds :func:`make_bot` knows, e.g. for a CLI ``--bot`` choice."""

LEVELS: Final[tuple[str, ...]] = ("easy", "medium", "hard")
"""The three levels offered to players (``poissonnier --level``), weakest first."""


DEFAULT_LEVEL: Final = "medium"
"""The level a table seats when none is asked for: a solid opponent, not a tutor."""


def kind_for(kinds: Sequence[str], index: int) -> str:
    """The kind of the ``index``-th bot seated (0-based) when a table was asked for
    ``kinds``: they are handed out in turn, so ``("hard", "easy")`` seats hard, easy,
    hard... and one kind seats it everywhere.

    Raises:
        ValueError: ``kinds`` is empty.
    """
    if not kinds:
        raise ValueError("no bot kind given")
    return kinds[index % len(kinds)]


def make_bot(kind: str, seed: int, *, budget: float = 1.0) -> Agent:
    """A new bot of ``kind`` with its own generator seeded by ``seed`` (R3).

    Args:
        kind: one of :data:`BOT_KINDS`.
        seed: seeds the bot's ``random.Random``.
        budget: scales the hard bot's search budget (1: the published level;
            e.g. 0.25 for long legality runs); other kinds ignore it.

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
    if factory is HardBot and budget != 1.0:
        return HardBot(random.Random(seed), budget=budget)
    return factory(random.Random(seed))
