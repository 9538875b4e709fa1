"""What a seat can know of the other hands from its view: the bots' one reader of a view.

:class:`Memory` is fed the public events of a Go Fish view (the engine's
event list, docs/GOFISH.md §8) one by one and keeps, for every seat, what
those events prove about its hand:

* ``lo[s][r]`` / ``hi[s][r]``: the fewest and most cards of rank index ``r``
  seat ``s`` can hold now (an ask proves one, a give moves a known count, a
  "Go fish" proves none, a hidden draw may bring one of anything);
* ``holds[s]``: cards known to be in that hand (a shown draw, a card given in
  §6, every card of a rank given in the rank game once its suits are known);
* ``lacks[s]``: cards known not to be there (§6 misses and gives);
* ``sizes[s]``: hand sizes, ``stock``: cards left, ``booked``: ranks laid down.

It knows nothing of any hand but through these events, so it is the same
for every seat; a bot adds its own hand (:meth:`Memory.estimate`). Feeding is
incremental: feed a copy (:meth:`Memory.copy`) to follow one line of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from poissonnier_tui.games.gofish.rules.cards import RANK_INDEX, RANKS, SUITS, card_id, rank_of

NR = len(RANKS)


class Memory:
    """Public knowledge of every hand, from the events of one game (docs/GOFISH.md §8).

    Args:
        players: seats at the table.
        card_variant: asks name cards (§6).
        bluff: bluffs are allowed (G4): an ask then proves nothing about the card named.
    """

    __slots__ = ("bluff", "booked", "card_variant", "hi", "holds", "lacks", "last_ask", "lo",
                 "players", "sizes", "stock")  # fmt: skip

    def __init__(self, players: int, card_variant: bool, bluff: bool) -> None:
        self.players = players
        self.card_variant = card_variant
        self.bluff = bluff
        self.lo = [[0] * NR for _ in range(players)]
        self.hi = [[4] * NR for _ in range(players)]
        self.holds: list[set[str]] = [set() for _ in range(players)]
        self.lacks: list[set[str]] = [set() for _ in range(players)]
        self.sizes = [0] * players
        self.stock = 0
        self.booked: set[int] = set()
        self.last_ask: tuple[int, str | None] | None = None

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Memory:
        """A memory fed the whole history of ``view``; sizes and stock from the view itself."""
        options = view["options"]
        memory = cls(view["players"], options["variant"] == "card", bool(options["bluff"]))
        memory.feed_all(view["log"])
        memory.sizes = list(view["hand_sizes"])
        memory.stock = view["stock"]
        return memory

    def copy(self) -> Memory:
        """An independent copy."""
        other = Memory.__new__(Memory)
        other.players, other.card_variant, other.bluff = self.players, self.card_variant, self.bluff
        other.lo = [list(x) for x in self.lo]
        other.hi = [list(x) for x in self.hi]
        other.holds = [set(x) for x in self.holds]
        other.lacks = [set(x) for x in self.lacks]
        other.sizes = list(self.sizes)
        other.stock = self.stock
        other.booked = set(self.booked)
        other.last_ask = self.last_ask
        return other

    def feed_all(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Feed events in order."""
        for e in events:
            self.feed(e)

    def feed(self, e: Mapping[str, Any]) -> None:
        """Update the knowledge with one public event (the engine's event shapes)."""
        kind = e["t"]
        if kind == "ask":
            self._ask(e)
        elif kind == "draw":
            self._draw(e["seat"], e["shown"], e["why"])
        elif kind == "book":
            self._book(e["seat"], RANK_INDEX[e["rank"]])
        elif kind == "deal":
            hand = e["hand"]
            self.sizes = [hand] * self.players
            self.stock = e["stock"]

    def _ask(self, e: Mapping[str, Any]) -> None:
        seat, target, rank = e["seat"], e["target"], e["rank"]
        r = RANK_INDEX[rank]
        suit = e.get("suit")
        card = card_id(rank, suit) if suit is not None else None
        lo, hi = self.lo, self.hi
        if lo[seat][r] < 1:
            lo[seat][r] = 1
        if card is not None and not self.bluff:
            self.lacks[seat].add(card)
        self.last_ask = (r, card)
        if e["answer"] == "gave":
            n = e["count"]
            self.sizes[seat] += n
            self.sizes[target] -= n
            lo[seat][r] += n
            hi[seat][r] = min(4, hi[seat][r] + n)
            if card is None:
                lo[target][r] = hi[target][r] = 0
                moved = {c for c in self.holds[target] if rank_of(c) == rank}
                self.holds[target] -= moved
                self.holds[seat] |= moved
            else:
                lo[target][r] = max(0, lo[target][r] - 1)
                hi[target][r] = max(0, hi[target][r] - 1)
                self.holds[target].discard(card)
                self.holds[seat].add(card)
                self.lacks[target].add(card)
                self.lacks[seat].discard(card)
        elif card is None:
            lo[target][r] = hi[target][r] = 0
        else:
            self.lacks[target].add(card)

    def _draw(self, seat: int, shown: str | None, why: str) -> None:
        self.sizes[seat] += 1
        self.stock -= 1
        if shown is not None:
            r = RANK_INDEX[rank_of(shown)]
            self.lo[seat][r] += 1
            self.hi[seat][r] = min(4, self.hi[seat][r] + 1)
            self.holds[seat].add(shown)
            self.lacks[seat].discard(shown)
            return
        not_rank: int | None = None
        kept: set[str] = set()
        if why == "go_fish" and self.last_ask is not None:
            r, card = self.last_ask
            if card is None:
                not_rank = r  # §3.3: a card of the rank asked would have been shown
            elif card in self.lacks[seat]:
                kept.add(card)  # §6: the very card asked would have been shown
        hi = self.hi[seat]
        for r in range(NR):
            if r != not_rank and r not in self.booked and hi[r] < 4:
                hi[r] += 1
        self.lacks[seat] = kept

    def _book(self, seat: int, r: int) -> None:
        self.booked.add(r)
        self.sizes[seat] -= 4
        rank = RANKS[r]
        for s in range(self.players):
            self.lo[s][r] = self.hi[s][r] = 0
            self.holds[s] = {c for c in self.holds[s] if rank_of(c) != rank}

    # ------------------------------------------------------------------ estimates

    def free_slots(self, seat: int) -> int:
        """Cards of ``seat``'s hand whose rank no event has proved."""
        return max(0, self.sizes[seat] - sum(self.lo[seat]))

    def unknown_copies(self, r: int, mine: int, me: int) -> int:
        """Copies of rank ``r`` in no proved place: not mine, not booked, not counted in any
        other seat's ``lo``."""
        if r in self.booked:
            return 0
        known = sum(self.lo[s][r] for s in range(self.players) if s != me)
        return max(0, 4 - mine - known)

    def estimate(self, me: int, hand: Iterable[str]) -> Estimates:
        """Chances of finding each rank and card in each other hand, for seat ``me``."""
        return Estimates(self, me, list(hand))


class Estimates:
    """Hit chances for seat ``me`` given its hand and a :class:`Memory`.

    ``rank_hit(t, r)``: the chance seat ``t`` holds at least one card of rank
    index ``r``, 1.0 when proved. ``card_hit(t, card)``: the chance ``t`` holds
    ``card`` (§6). Unproved copies are taken as spread evenly over the hands'
    unproved cards and the stock.
    """

    def __init__(self, memory: Memory, me: int, hand: list[str]) -> None:
        self.m = memory
        self.me = me
        self.hand = set(hand)
        self.mine = [0] * NR
        for c in hand:
            self.mine[RANK_INDEX[rank_of(c)]] += 1
        self.free = [memory.free_slots(s) for s in range(memory.players)]

    def rank_hit(self, t: int, r: int) -> float:
        """Chance that seat ``t`` holds a card of rank index ``r`` (§3)."""
        m = self.m
        if m.lo[t][r] >= 1:
            return 1.0
        if m.hi[t][r] <= 0 or self.free[t] <= 0:
            return 0.0
        u = m.unknown_copies(r, self.mine[r], self.me)
        if u <= 0:
            return 0.0
        pool = m.stock + sum(
            self.free[s] for s in range(m.players) if s != self.me and m.hi[s][r] > m.lo[s][r]
        )
        if pool <= 0:
            return 1.0
        miss = 1.0
        share = self.free[t] / pool
        for _ in range(u):
            miss *= 1.0 - share
        return 1.0 - miss

    def card_hit(self, t: int, card: str) -> float:
        """Chance that seat ``t`` holds ``card`` (§6)."""
        m = self.m
        if card in m.holds[t]:
            return 1.0
        if card in self.hand or card in m.lacks[t]:
            return 0.0
        rank = rank_of(card)
        r = RANK_INDEX[rank]
        if r in m.booked or m.hi[t][r] <= 0:
            return 0.0
        if any(card in m.holds[s] for s in range(m.players) if s != t):
            return 0.0
        # Suits of this rank whose place is unknown, and not excluded for t.
        open_suits = [
            card_id(rank, s)
            for s in SUITS
            if card_id(rank, s) not in self.hand
            and not any(card_id(rank, s) in m.holds[x] for x in range(m.players))
        ]
        candidates = [c for c in open_suits if c not in m.lacks[t]]
        if card not in candidates:
            return 0.0
        known_in_t = sum(1 for c in m.holds[t] if rank_of(c) == rank)
        proved = max(0, m.lo[t][r] - known_in_t)
        p_proved = min(1.0, proved / len(candidates)) if candidates else 0.0
        pool = m.stock + sum(self.free[s] for s in range(m.players) if s != self.me)
        p_free = self.free[t] / pool if pool > 0 else 0.0
        return p_proved + (1.0 - p_proved) * p_free
