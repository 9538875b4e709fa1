"""The random and easy Go Fish bots: legal, and forgetful.

* :class:`RandomBot` picks a legal ask uniformly at random.
* :class:`EasyBot` plays like a beginner: it remembers only the last few
  events of the table (:attr:`EasyBot.memory`), so it asks a player who has
  just asked for a rank it holds, and otherwise mostly asks for the rank it
  holds most of, of a random player (docs/GOFISH.md §3).
"""

from __future__ import annotations

import random
from collections import Counter

from net.game import Wire
from poissonnier_tui.games.gofish.rules.cards import rank_of


class RandomBot:
    """A uniform choice among the legal asks; satisfies ``net.game.Agent``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """One of ``legal``, or ``None`` when it is empty."""
        return self.rng.choice(legal) if legal else None


class EasyBot:
    """A forgetful beginner; satisfies ``net.game.Agent``.

    Args:
        rng: the bot's generator.
        memory: how many of the latest public events it remembers.
    """

    def __init__(self, rng: random.Random, memory: int = 4) -> None:
        self.rng = rng
        self.memory = memory

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """Choose an ask among ``legal`` (``None`` when it is empty)."""
        if not legal:
            return None
        me = view["seat"]
        held = Counter(rank_of(c) for c in view["me"]["hand"])
        for e in reversed(view["log"][-self.memory :]):
            if e["t"] == "ask" and e["seat"] != me and held[e["rank"]]:
                fits = [a for a in legal if a["target"] == e["seat"] and a["rank"] == e["rank"]]
                if fits:
                    return self.rng.choice(fits)
        if self.rng.random() < 0.6:
            most = max(held.values())
            fits = [a for a in legal if held[a["rank"]] == most]
            return self.rng.choice(fits)
        return self.rng.choice(legal)
