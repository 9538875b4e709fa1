"""The hard Go Fish bot: it reasons over the hands consistent with its view and searches.

Like the medium bot it first reads its view into a :class:`~.memory.Memory`.
It then ranks its honest asks as medium does, except that it knows when a
proved hit would end the game (§5) won or lost (:func:`~.policy.careful_key`).
A proved hit that does not end the game is taken at once. Otherwise it
checks its first choice against the runners-up by determinized rollouts:
it deals worlds (every other hand and the stock order) consistent with
everything its view has shown (:func:`sample_world`: hand sizes, proved
cards and counts, ranks and cards a hand is known to lack), plays each
candidate in each world, then plays the game out with the medium policy for
every seat (each simulated seat using only the public events and its own
simulated hand), and leaves its first choice only for a candidate whose
paired rollout results are clearly better.

It never sees the table's state: a world is built from the view alone, and
the engine's :func:`apply` only plays it forward.
"""

from __future__ import annotations

import math
import random

from net.game import Wire
from poissonnier_tui.games.gofish.bots.memory import NR, Memory
from poissonnier_tui.games.gofish.bots.policy import (
    AskTuple,
    ask_tuple,
    ask_wire,
    careful_key,
    choose,
    score,
)
from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard
from poissonnier_tui.games.gofish.rules.cards import (
    DECK,
    RANK_INDEX,
    RANKS,
    SUITS,
    card_id,
    rank_of,
)
from poissonnier_tui.games.gofish.rules.engine import apply
from poissonnier_tui.games.gofish.rules.state import GameState, Options

WORLDS = 24
"""Worlds sampled per decision at budget 1."""
CANDIDATES = 3
"""Asks compared by rollouts: the careful first choice and its runners-up."""
MARGIN = 0.05
"""Mean rollout gain over the first choice needed to leave it."""
ROLLOUT_ASKS = 400
"""Asks after which a rollout stops and is scored as it stands."""


def sample_world(view: Wire, memory: Memory, rng: random.Random) -> GameState:
    """A full game state that gives the viewer exactly ``view`` as far as ``memory`` can tell.

    The viewer's hand, the books, hand sizes and stock size are the view's;
    each other hand holds its proved cards (``holds``) and at least ``lo`` of
    each rank, at most ``hi``, and none it is known to lack, when such a deal
    is found in a few tries (else the bounds are relaxed, never the sizes).

    Raises:
        ValueError: ``view`` is a spectator's.
    """
    me = view["seat"]
    if me is None:
        raise ValueError("a spectator has no hand to sample around")
    players: int = view["players"]
    mine: list[str] = list(view["me"]["hand"])
    sizes: list[int] = list(view["hand_sizes"])
    booked = {r for books in view["books"] for r in books}
    taken = set(mine)
    fixed: list[list[str]] = [[] for _ in range(players)]
    for s in range(players):
        if s != me:
            for c in sorted(memory.holds[s]):
                if c not in taken:
                    fixed[s].append(c)
                    taken.add(c)
    pool = [c for c in DECK if c not in taken and rank_of(c) not in booked]
    for attempt in range(8):
        hands = _try_deal(memory, me, players, sizes, fixed, pool, rng, strict=attempt < 6)
        if hands is not None:
            break
    else:  # pragma: no cover - the relaxed deal always succeeds
        raise AssertionError("no deal fits the hand sizes")
    hands[me] = list(mine)
    dealt = {c for h in hands for c in h}
    stock = [c for c in pool if c not in dealt]
    rng.shuffle(stock)
    options = view["options"]
    return GameState(
        players=players,
        seed=0,
        rng=random.Random(rng.random()),
        options=Options(options["variant"], options["bluff"], options["play_on"]),
        stock=stock,
        hands=hands,
        books=[list(b) for b in view["books"]],
        first_player=view["first_player"],
        active=view["active"],
        turn=view["turn"],
    )


def _try_deal(
    memory: Memory,
    me: int,
    players: int,
    sizes: list[int],
    fixed: list[list[str]],
    pool: list[str],
    rng: random.Random,
    strict: bool,
) -> list[list[str]] | None:
    """One random deal of ``pool`` to the other hands; ``None`` if ``strict`` bounds fail."""
    free = list(pool)
    rng.shuffle(free)
    hands: list[list[str]] = [list(f) for f in fixed]
    order = [s for s in range(players) if s != me]
    rng.shuffle(order)
    for s in order:  # proved ranks first
        for r in range(NR):
            need = memory.lo[s][r] - sum(1 for c in hands[s] if RANK_INDEX[rank_of(c)] == r)
            rank = RANKS[r]
            while need > 0:
                pick = next(
                    (c for c in free if rank_of(c) == rank and c not in memory.lacks[s]), None
                )
                if pick is None:
                    if strict:
                        return None
                    break
                free.remove(pick)
                hands[s].append(pick)
                need -= 1
    for s in order:  # then the unproved cards
        counts = [0] * NR
        for c in hands[s]:
            counts[RANK_INDEX[rank_of(c)]] += 1
        want = sizes[s] - len(hands[s])
        if want < 0:  # more proved cards than the hand holds: bounds out of date
            if strict:
                return None
            while len(hands[s]) > sizes[s]:
                free.append(hands[s].pop())
            continue
        rest = []
        for c in free:
            if want == 0:
                rest.append(c)
                continue
            r = RANK_INDEX[rank_of(c)]
            cap = min(memory.hi[s][r], 3) if strict else 3  # four would be a book (§4)
            if counts[r] >= cap or (strict and c in memory.lacks[s]):
                rest.append(c)
                continue
            hands[s].append(c)
            counts[r] += 1
            want -= 1
        if want > 0:
            if strict:
                return None
            hands[s].extend(rest[:want])
            rest = rest[want:]
        free = rest
    hands[me] = []
    return hands


def legal_tuples(state: GameState, seat: int) -> list[AskTuple]:
    """``seat``'s honest asks in a simulated world (§3, §6, G5), no bluffs."""
    hand = state.hands[seat]
    ranks = sorted({rank_of(c) for c in hand}, key=RANK_INDEX.__getitem__)
    n = state.players
    targets = [t for t in ((seat + i) % n for i in range(1, n)) if state.hands[t]]
    if state.options.variant == "rank":
        return [(t, r, None) for t in targets for r in ranks]
    held = set(hand)
    return [(t, r, s) for t in targets for r in ranks for s in SUITS if card_id(r, s) not in held]


def _apply(state: GameState, seat: int, ask: AskTuple) -> None:
    target, rank, suit = ask
    apply(state, seat, Ask(target, rank) if suit is None else AskCard(target, rank, suit))


def rollout(state: GameState, memory: Memory, me: int) -> float:
    """Play ``state`` out with the medium policy for every seat; ``me``'s value.

    Each seat chooses from the public events (``memory``, fed as they happen)
    and its own simulated hand. Value: 1 for a sole win, ``1/k`` for a win
    shared by ``k`` (G3), 0 for a loss, plus 0.02 per book of ``me`` ahead of
    the best other seat.
    """
    seen = len(state.log)
    for _ in range(ROLLOUT_ASKS):
        if state.over:
            break
        seat = state.active
        asks = legal_tuples(state, seat)
        if not asks:  # a sampled world the real game could not reach
            break
        est = memory.estimate(seat, state.hands[seat])
        _apply(state, seat, choose(est, asks))
        memory.feed_all(state.log[seen:])
        seen = len(state.log)
    books = [len(b) for b in state.books]
    best_other = max(b for s, b in enumerate(books) if s != me)
    lead = 0.02 * (books[me] - best_other)
    if books[me] < best_other:
        return lead
    winners = sum(1 for b in books if b == books[me])
    return 1.0 / winners + lead


class HardBot:
    """Careful asks checked by determinized rollouts; satisfies ``net.game.Agent``.

    The bot ranks its honest asks by :func:`~.policy.careful_key` (whether a
    proved hit ends the game won or lost, then the medium bot's order). A proved
    hit that does not end the game is taken at once. Otherwise the best
    :data:`CANDIDATES` asks are played out in :attr:`worlds` worlds sampled
    from the view (the same worlds and stock orders for every ask); the bot
    leaves its first choice only for an ask whose rollouts beat it by more
    than :data:`MARGIN` and by two standard errors of the paired differences.

    Args:
        rng: the bot's generator; every sample and rollout draws from it, so a
            seed gives the same choices.
        budget: scales the worlds sampled per decision (1: the published level).
    """

    def __init__(self, rng: random.Random, budget: float = 1.0) -> None:
        self.rng = rng
        self.worlds = max(2, round(WORLDS * budget))
        self.sampled: list[GameState] = []
        """The worlds of the last decision (for the honesty tests)."""

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """The chosen ask among ``legal`` (``None`` when it is empty)."""
        self.sampled = []
        if not legal:
            return None
        me = view["seat"]
        memory = Memory.from_view(view)
        est = memory.estimate(me, view["me"]["hand"])
        books = [len(b) for b in view["books"]]
        keyed = sorted(
            ((careful_key(est, a, books), i, a) for i, a in enumerate(map(ask_tuple, legal))),
            key=lambda k: (k[0], -k[1]),
            reverse=True,
        )
        (key, _, first) = keyed[0]
        proved = score(est, first)[0] >= 1.0
        if len(keyed) == 1 or (proved and key[0] == 0):
            return ask_wire(first)
        candidates = [a for k, _, a in keyed[:CANDIDATES] if k[0] > -2]
        values = [[0.0] * self.worlds for _ in candidates]
        for w in range(self.worlds):
            world = sample_world(view, memory, self.rng)
            self.sampled.append(world)
            for i, ask in enumerate(candidates):
                state = world.copy()
                state.log = []
                sim_memory = memory.copy()
                _apply(state, me, ask)
                sim_memory.feed_all(state.log)
                values[i][w] = rollout(state, sim_memory, me)
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            diffs = [values[i][w] - values[0][w] for w in range(self.worlds)]
            mean = sum(diffs) / self.worlds
            var = sum((d - mean) ** 2 for d in diffs) / max(1, self.worlds - 1)
            se = math.sqrt(var / self.worlds)
            if mean > MARGIN and mean > 2 * se and mean > best_gain:
                best, best_gain = i, mean
        return ask_wire(candidates[best])
