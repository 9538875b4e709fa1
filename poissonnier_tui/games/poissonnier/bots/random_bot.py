"""RandomBot: a legal-move baseline that still lets games end.

It picks among the legal actions it is handed (``legal_actions`` of its
seat, as wire maps), first choosing an action *type* uniformly, then an
action of that type, so the hundreds of sampled ``propose`` actions do not
drown out serving. Biases keep games finite: in the fill step it declares
ready with probability :attr:`RandomBot.ready_p` (RULES.md §3.2), in the serve
step it ends the turn with probability :attr:`RandomBot.end_p` (§3.4), it makes
at most :attr:`RandomBot.max_proposals` proposals a turn (§4), never takes back
a ready declaration, and withdraws its own proposals when asked again while
they are open.
"""

from __future__ import annotations

import random
from collections import defaultdict

from net.game import Wire


class RandomBot:
    """Uniform over action types, then over actions; satisfies ``net.game.Agent``.

    Args:
        rng: a ``random.Random`` or a seed, for reproducible games (R3).
        ready_p: chance of declaring ready at each fill-step decision.
        end_p: chance of ending the turn at each serve-step decision.
        max_proposals: proposals made per turn at most.
    """

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        ready_p: float = 0.35,
        end_p: float = 0.2,
        max_proposals: int = 2,
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.ready_p = ready_p
        self.end_p = end_p
        self.max_proposals = max_proposals
        self._turn = -1
        self._proposed = 0

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """Choose one of ``legal`` (the seat's legal wire actions), or ``None`` if empty.

        Args:
            view: the seat's view (``view_for``); only ``turn``, ``seat``,
                ``active`` and ``proposals`` are read.
            legal: the seat's legal actions as wire maps.

        Returns:
            One element of ``legal``, or ``None`` when ``legal`` offers nothing
            worth doing (e.g. only ``unready`` or ``buy_crate``).
        """
        if view["turn"] != self._turn:
            self._turn, self._proposed = view["turn"], 0
        by_type: dict[str, list[Wire]] = defaultdict(list)
        for a in legal:
            by_type[a["type"]].append(a)
        if "ready" in by_type:  # §3.2 fill step
            if self.rng.random() < self.ready_p:
                return by_type["ready"][0]
            kinds: list[str] = [k for k in ("place", "take_back", "buy_crate") if k in by_type]
            if not kinds:
                return by_type["ready"][0]
            return self.rng.choice(by_type[self.rng.choice(kinds)])
        answers = by_type["accept"] + by_type["decline"]
        if answers:  # §4, R8: answer a proposal made to this seat
            return self.rng.choice(answers)
        if by_type["withdraw"]:  # asked again while our proposal is open: it is stale
            return by_type["withdraw"][0]
        if "end_turn" not in by_type:
            return None  # not the active seat, nothing to answer
        if self.rng.random() < self.end_p:
            return by_type["end_turn"][0]
        kinds = [k for k in ("serve", "buy_crate") if k in by_type]
        if "propose" in by_type and self._proposed < self.max_proposals:
            kinds.append("propose")
        if not kinds:
            return by_type["end_turn"][0]
        kind = self.rng.choice(kinds)
        if kind == "propose":
            self._proposed += 1
        return self.rng.choice(by_type[kind])
