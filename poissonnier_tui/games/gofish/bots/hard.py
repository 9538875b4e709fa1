"""The hard Go Fish bot: medium's memory, a shrewd ranking of asks, and a search over worlds.

Like the medium bot it reads its view into a :class:`~.memory.Memory`. It first
ranks its asks by :func:`shrewd_key`, a weighing of what each ask risks and
shows; in the rank game that weighing differs from medium in these ways (in
the card game only in the first):

* it knows when a proved hit would end the game (docs/GOFISH.md §5) won or
  lost, and does not end a game it would lose (:func:`~.policy.careful_key`);
* when it must guess, it weighs what a miss gives away: any ask shows the
  table that the asker holds the rank (§3.1, §8), and a player who remembers
  then asks the asker for it. A guess for a rank the table does not yet know
  the bot holds costs, on a miss, the cards of that rank it holds times the
  chance that a player other than the one asked holds the rank too; a rank
  the table already knows it holds costs nothing;
* a hit that does not complete a book shows the table every card of the rank
  the bot then holds, so a guess for such a rank also costs, on a hit, those
  cards times the chance that another player holds the rank;
* a guess that would complete a book (it holds three) counts double;
* when the stock is nearly out (:data:`ENDGAME_STOCK`), little time is left
  for anyone to use what an ask shows, so it guesses by hit chance and books
  alone.

Then it searches (:func:`search`): a proved hit that does not end the game
lost is taken at once (it keeps the turn and gains cards, §3.2); otherwise the
best :data:`CANDIDATES` asks are each played in the same :data:`WORLDS` worlds
dealt from the view (:func:`~.worlds.sample_world`: every other hand and the
stock order, consistent with every hand size, proved card and count, every
rank or card a hand is known to lack, and what its hidden draws can have
brought) and played out to the end of the game
(:func:`rollout`: the bot's own later asks by :func:`shrewd_key`, every other
seat by the medium policy, each simulated seat choosing from the public
events and its own simulated hand). The bot leaves the first-ranked ask only
for one whose paired rollout results beat it by more than :data:`MARGIN` and by
:data:`Z_SCORE` standard errors of the paired differences, so the weighing
breaks every tie the search cannot resolve. Once the stock holds at most
:data:`CLOSE_STOCK` cards (without "play on", §7) the rollouts are short, so
they are both cheaper and less noisy: the search then deals
:data:`CLOSE_WORLDS` worlds and follows any gain beyond :data:`CLOSE_Z`
standard errors. The card game and tables of more than three deal fewer
worlds (:meth:`HardBot.worlds_for`), to keep a decision within 300 ms of CPU
at the 95th percentile.

Why two settings (paired runs of 180–720 seat-rotated games against two
mediums, the search against the weighing alone on the same deals; points of
win rate ± two standard errors): searching every guess with the strict test
changed 2.5 % of the searched decisions and nothing measurable (−0.3 ± 3.4);
trusting the 16- or 32-world search through the whole game lost (−3.3 ± 5.3,
−3.0 ± 4.8: early rollouts run to the end of a long game, and their noise
outweighs what they find); trusting a 48-world search only near the end of
the stock gained (+1.7 ± 2.0 over 720 games).

It sees only its seat's view: a world is built from the view and the bot's
own seeded generator, and the engine's ``apply`` only plays those worlds
forward. The same view and seed give the same choice.

Measured: docs/measurements/gofish_bots.txt (the weighing alone, and with the
search).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from net.game import Wire
from poissonnier_tui.games.gofish.bots.memory import Estimates, Memory
from poissonnier_tui.games.gofish.bots.policy import (
    AskTuple,
    ask_tuple,
    ask_wire,
    careful_key,
    choose,
)
from poissonnier_tui.games.gofish.bots.worlds import World, sample_world, world_state
from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard
from poissonnier_tui.games.gofish.rules.cards import RANK_INDEX, SUITS, card_id, rank_of
from poissonnier_tui.games.gofish.rules.engine import apply
from poissonnier_tui.games.gofish.rules.state import GameState

LEAK = 4.0
"""Hit chance a guess gives up per card of the rank a miss shows to a player holding it."""
HIT_SHOWS = 4.0
"""Hit chance a guess gives up per card a hit would show to a player holding the rank."""
BOOK_BONUS = 1.0
"""Extra worth of a hit that completes a book, as a fraction of the hit chance."""
ENDGAME_STOCK = 8
"""At most this many cards in the stock, what an ask shows is no longer weighed."""
WORLDS = 16
"""Worlds dealt per searched decision at budget 1, while the stock holds more than
:data:`CLOSE_STOCK` cards."""
CANDIDATES = 3
"""Asks the search compares: the first by :func:`shrewd_key` and its runners-up."""
MARGIN = 0.04
"""Mean rollout gain (in wins, :func:`outcome`) over the first-ranked ask needed to leave it,
while the stock holds more than :data:`CLOSE_STOCK` cards."""
Z_SCORE = 2.0
"""Standard errors of the paired differences that gain must exceed, likewise."""
CLOSE_STOCK = 12
"""With at most this many cards in the stock (and no "play on", §7) the rollouts are short
and the search is trusted more: :data:`CLOSE_WORLDS` worlds, :data:`CLOSE_MARGIN`,
:data:`CLOSE_Z` (:func:`closing`)."""
CLOSE_WORLDS = 48
"""Worlds dealt per searched decision at budget 1 near the end of the stock."""
CLOSE_MARGIN = 0.0
"""Mean gain needed near the end of the stock."""
CLOSE_Z = 1.0
"""Standard errors the gain must exceed near the end of the stock."""
CARD_SCALE = 0.25
"""Worlds are scaled by this in the card game (§6): four times as many asks to weigh at
every simulated turn make a rollout about four times as costly (CPU p95 570 ms a decision
unscaled with 3 players, over the 300 ms budget; 160 ms scaled)."""
FULL_TABLE = 3
"""With more players than this, worlds are scaled by ``FULL_TABLE / players``: every
other seat's simulated turns lengthen a rollout (6-player card game, scaled only by
:data:`CARD_SCALE`: CPU p95 370 ms)."""
ROLLOUT_ASKS = 300
"""Asks after which a rollout stops and is scored as it stands (a safety bound)."""
LEAD_WORTH = 0.02
"""Worth of each book of lead over the best other seat at the end of a rollout, in wins."""


def shrewd_key(est: Estimates, ask: AskTuple, books: list[int]) -> tuple[int, float, int, int]:
    """The hard bot's sort key of an ask, best highest: (end, worth, held of rank, target size).

    ``end`` is :func:`~.policy.careful_key`'s (+1 a proved hit that ends the game
    won, -1 lost, -2 a bluff, else 0). ``worth`` of a proved hit is 2 plus the
    cards proved there (it always beats a guess); of a guess with hit chance
    ``p``, ``p * (1 + BOOK_BONUS if it completes a book) - LEAK * (1 - p) *
    shown * others - HIT_SHOWS * p * (held + 1) * others`` (the last term only
    when the hit cannot complete a book), where ``held`` is the cards of the
    rank the bot holds, ``shown`` is ``held`` when the table does not know it
    holds any (0 otherwise) and ``others`` the chance that some seat other than
    the bot and the target holds the rank (docs/GOFISH.md §3.1, §8: an ask shows
    the asker holds the rank, a give how many cards moved). With at most
    :data:`ENDGAME_STOCK` cards in the stock, the two costs are left out. In
    the card game (§6) ``worth`` is the hit chance alone, as medium's.

    Args:
        est: the bot's estimates (its seat, hand and memory).
        ask: ``(target, rank, suit | None)``.
        books: books per seat now.
    """
    target, rank, suit = ask
    r = RANK_INDEX[rank]
    m = est.m
    me = est.me
    end, p, _, held, size = careful_key(est, ask, books)
    if p >= 1.0:
        return (end, 2.0 + m.lo[target][r], held, size)
    if p < 0:
        return (end, p, held, size)
    if suit is not None:  # §6: weighed as medium does (the costs were tuned for ranks)
        return (end, p, held, size)
    worth = p * (1.0 + BOOK_BONUS * (held == 3))
    if m.stock <= ENDGAME_STOCK:
        return (end, worth, held, size)
    none_elsewhere = 1.0
    for s in range(m.players):
        if s not in (me, target) and m.sizes[s] > 0:
            none_elsewhere *= 1.0 - est.rank_hit(s, r)
    others = 1.0 - none_elsewhere
    shown = 0 if m.lo[me][r] >= 1 else held
    worth -= LEAK * (1.0 - p) * shown * others
    if held < 3:
        worth -= HIT_SHOWS * p * (held + 1) * others
    return (end, worth, held, size)




def legal_tuples(state: GameState, seat: int) -> list[AskTuple]:
    """``seat``'s honest asks in a world (docs/GOFISH.md §3, §6, G5, G12 order), no bluffs (G4).

    Targets round the table from the next seat, those holding cards; ranks held, A
    first; in §6 the suits of those ranks not in the hand.
    """
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


def outcome(books: Sequence[int], me: int) -> float:
    """``me``'s value of a final book count (docs/GOFISH.md §5, G3), in wins.

    1 for a sole win, ``1/k`` for a win shared by ``k``, 0 for a loss, plus
    :data:`LEAD_WORTH` per book ``me`` is ahead of (negative: behind) the best other seat.
    """
    best_other = max(b for s, b in enumerate(books) if s != me)
    lead = LEAD_WORTH * (books[me] - best_other)
    if books[me] < best_other:
        return lead
    return 1.0 / sum(1 for b in books if b == books[me]) + lead


def rollout(state: GameState, memory: Memory, me: int) -> float:
    """Play ``state`` to the end (or :data:`ROLLOUT_ASKS` asks); ``me``'s :func:`outcome`.

    ``me`` asks by :func:`shrewd_key`, every other seat by the medium policy
    (:func:`~.policy.choose`); each chooses from ``memory`` (the public events, fed as
    they happen) and its own hand in ``state``. ``state`` and ``memory`` are consumed.
    """
    seen = len(state.log)
    for _ in range(ROLLOUT_ASKS):
        if state.over:
            break
        seat = state.active
        asks = legal_tuples(state, seat)
        if not asks:  # a relaxed world the real game could not reach
            break
        est = memory.estimate(seat, state.hands[seat])
        if seat == me:  # (ties go to the last listed here, as measured)
            books = [len(b) for b in state.books]
            ask = max(reversed(asks), key=lambda a: shrewd_key(est, a, books))
        else:
            ask = choose(est, asks)
        _apply(state, seat, ask)
        memory.feed_all(state.log[seen:])
        seen = len(state.log)
    return outcome([len(b) for b in state.books], me)


@dataclass(frozen=True, slots=True)
class Search:
    """What one searched decision found.

    Attributes:
        candidates: the asks compared, first-ranked by :func:`shrewd_key` first.
        values: ``values[i][w]``: candidate ``i``'s :func:`rollout` value in world ``w``.
        worlds: the worlds dealt (the same for every candidate).
        chosen: index into ``candidates`` of the ask made.
    """

    candidates: list[AskTuple]
    values: list[list[float]]
    worlds: list[World]
    chosen: int

    def mean(self, i: int) -> float:
        """Candidate ``i``'s mean rollout value, in wins."""
        return sum(self.values[i]) / len(self.values[i])


def search(
    view: Mapping[str, Any],
    memory: Memory,
    candidates: list[AskTuple],
    worlds: int,
    rng: random.Random,
    *,
    margin: float = MARGIN,
    z: float = Z_SCORE,
) -> Search:
    """Determinized rollouts of each candidate in ``worlds`` worlds dealt from ``view``.

    Each world (:func:`~.worlds.sample_world`) is played once per candidate from the
    same stock order (paired comparisons). The first candidate is kept unless another's
    mean gain over it exceeds ``margin`` and ``z`` standard errors of the paired
    differences; then the one with the largest such gain is chosen.

    Args:
        view: the seat's view; it is the seat's move.
        memory: ``Memory.from_view(view)`` (not modified).
        candidates: honest asks, at least one, the default first.
        worlds: how many worlds to deal, at least 2.
        rng: the bot's generator (the only randomness).
        margin: the mean gain (in wins) a candidate needs over the first.
        z: the standard errors of the paired differences that gain must exceed.
    """
    me: int = view["seat"]
    values = [[0.0] * worlds for _ in candidates]
    dealt: list[World] = []
    for w in range(worlds):
        world = sample_world(view, memory, rng)
        dealt.append(world)
        base = world_state(view, world)
        for i, ask in enumerate(candidates):
            state = base.copy()
            sim = memory.copy()
            _apply(state, me, ask)
            sim.feed_all(state.log)
            values[i][w] = rollout(state, sim, me)
    chosen, best_gain = 0, 0.0
    for i in range(1, len(candidates)):
        diffs = [values[i][w] - values[0][w] for w in range(worlds)]
        mean = sum(diffs) / worlds
        var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
        se = math.sqrt(var / worlds)
        if mean > margin and mean > z * se and mean > best_gain:
            chosen, best_gain = i, mean
    return Search(list(candidates), values, dealt, chosen)


def closing(view: Mapping[str, Any]) -> bool:
    """Whether the game is near its end by the stock: at most :data:`CLOSE_STOCK` cards
    left and no "play on" (§5 ends the game when the stock runs out; under §7 it goes on
    to the thirteenth book, so rollouts stay long)."""
    return view["stock"] <= CLOSE_STOCK and not view["options"]["play_on"]


class HardBot:
    """Shrewd asks checked by determinized rollouts; satisfies ``net.game.Agent``.

    Args:
        rng: the bot's generator; every world and so every searched choice draws
            from it, so a seed (and the same views in the same order) gives the same
            choices.
        budget: scales the worlds dealt per searched decision (1: :data:`WORLDS`, or
            :data:`CLOSE_WORLDS` near the end of the stock, the published level, in the
            3-player rank game; :meth:`worlds_for` scales them down for the card game
            and larger tables; never fewer than 2).
    """

    def __init__(self, rng: random.Random, budget: float = 1.0) -> None:
        self.rng = rng
        self.budget = budget
        self.worlds = max(2, round(WORLDS * budget))
        self.close_worlds = max(2, round(CLOSE_WORLDS * budget))
        self.last: Search | None = None
        """The last decision's search (``None`` when it needed none), for tests."""

    def worlds_for(self, view: Wire) -> int:
        """Worlds to deal for a searched decision at ``view``: :attr:`close_worlds` when
        the game is :func:`closing`, else :attr:`worlds`; times
        :data:`CARD_SCALE` in the card game (§6) and ``FULL_TABLE / players`` beyond
        :data:`FULL_TABLE` players; at least 2."""
        players: int = view["players"]
        base = self.close_worlds if closing(view) else self.worlds
        scale = CARD_SCALE if view["options"]["variant"] == "card" else 1.0
        scale *= min(1.0, FULL_TABLE / players)
        return max(2, round(base * scale))

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """The chosen ask among ``legal`` (``None`` when it is empty).

        Unsearched: the only ask, or a first-ranked proved hit that does not end the
        game lost (docs/GOFISH.md §3.2, §5). Otherwise :func:`search` over the best
        :data:`CANDIDATES` honest asks by :func:`shrewd_key` (the first listed wins ties),
        with the settings for the end of the stock once the game is :func:`closing`, and
        with the worlds of :meth:`worlds_for`.
        """
        self.last = None
        if not legal:
            return None
        me = view["seat"]
        memory = Memory.from_view(view)
        est = memory.estimate(me, view["me"]["hand"])
        books = [len(b) for b in view["books"]]
        asks = [ask_tuple(a) for a in legal]
        keys = [shrewd_key(est, a, books) for a in asks]
        order = sorted(range(len(asks)), key=lambda i: (keys[i], -i), reverse=True)
        first = order[0]
        if len(asks) == 1 or (keys[first][1] >= 2.0 and keys[first][0] >= 0):
            return ask_wire(asks[first])  # the only ask, or a proved hit worth taking
        candidates = [asks[i] for i in order[:CANDIDATES] if keys[i][0] > -2]
        if len(candidates) < 2:
            return ask_wire(asks[first])
        worlds = self.worlds_for(view)
        if closing(view):
            self.last = search(view, memory, candidates, worlds, self.rng,
                               margin=CLOSE_MARGIN, z=CLOSE_Z)  # fmt: skip
        else:
            self.last = search(view, memory, candidates, worlds, self.rng)
        return ask_wire(self.last.candidates[self.last.chosen])
