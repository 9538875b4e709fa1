"""The medium Go Fish bot: it remembers every ask, answer and shown card.

Each decision replays the whole public history of its view into a
:class:`~.memory.Memory` (who must hold what, who holds none of what), adds
its own hand, and asks where a rank — or in §6 a card — is proved to be, or
else where it is likeliest (:func:`~.policy.choose`). It never bluffs.
"""

from __future__ import annotations

import random

from net.game import Wire
from poissonnier_tui.games.gofish.bots.memory import Memory
from poissonnier_tui.games.gofish.bots.policy import ask_tuple, ask_wire, choose


class MediumBot:
    """Remembers everything public; satisfies ``net.game.Agent``.

    Args:
        rng: the bot's generator (unused by its choices, which are deterministic;
            kept so every level is built alike).
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """The best ask of ``legal`` by the memory's chances (``None`` when it is empty)."""
        if not legal:
            return None
        memory = Memory.from_view(view)
        est = memory.estimate(view["seat"], view["me"]["hand"])
        return ask_wire(choose(est, [ask_tuple(a) for a in legal]))
