"""Worlds a Go Fish seat cannot tell from the real game: the hard bot's determinization.

A *world* places every card the seat cannot see: each other hand and the
order of the stock. :func:`sample_world` deals one at random from the seat's
view alone, within what the public history proves (a :class:`~.memory.Memory`
read from that view, docs/GOFISH.md §8):

* the seat's own hand, the books (§4: their cards are out of play), every hand
  size and the stock size are the view's, so the 52 cards are each in exactly
  one place (§1);
* each other seat ``s`` holds every card ``memory.holds[s]`` proves there (a
  shown draw, a card given in §6, G10), none of ``memory.lacks[s]`` (§6 misses
  and gives), at least ``memory.lo[s][r]`` and at most ``memory.hi[s][r]``
  cards of each rank ``r`` (an ask proves one, §3.1; a "Go fish" proves none,
  §3.3; a hidden draw may bring one), and never four of a rank (§4 would have
  laid them down);
* jointly over ranks (:func:`draw_windows`): the cards of ranks a seat was proved
  to hold none of, beyond those it was seen to receive since, came by its hidden
  draws since, one card each, so they number at most those draws (in the rank
  game; the per-rank ``hi`` alone would let one hidden draw count for every rank).

The constraints are sound: the real game always meets them, so a deal exists.
The sampler is a randomised greedy deal (two ways, in turn), retried
:data:`TRIES` times per level; should every try dead-end (a very constrained
late position), it degrades gracefully, one level at a time, by dropping the
weakest constraint first: level 1 drops the ``hi`` bounds and the joint count
(what hidden draws may have brought), level 2 also the ``lo`` counts and the
``lacks`` (keeping the proved cards), level 3 keeps only the sizes and the own
hand and books (always possible).
:attr:`World.relaxed` says which level the world was dealt at. With bluffs
allowed (G4, G9) an ask proves only that the asker holds the rank, never that
it lacks the card named; the memory already reads it so, and nothing more
needs relaxing.

A world is sampled from the view and the bot's own generator only, never from
the table's state: the same view and generator state give the same world.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from poissonnier_tui.games.gofish.bots.memory import NR, Memory
from poissonnier_tui.games.gofish.rules.cards import DECK, RANK_INDEX, RANKS, rank_of
from poissonnier_tui.games.gofish.rules.state import GameState, Options

TRIES = (24, 4, 2, 1)
"""Random deals tried at each level of relaxation (0 = every constraint), the two ways of
:func:`_deal` in turn."""


@dataclass(frozen=True, slots=True)
class World:
    """One placement of the hidden cards.

    Attributes:
        hands: per seat, its cards (the viewer's own hand included, as the view shows it).
        stock: the stock, top card last (``pop()`` draws), of the view's stock size.
        relaxed: the relaxation level it was dealt at: 0 meets every constraint of the
            module docstring, 1 ignores ``hi`` and the hidden-draw bound, 2 also ``lo``
            and ``lacks``, 3 keeps only the sizes.
    """

    hands: list[list[str]]
    stock: list[str]
    relaxed: int


def sample_world(view: Mapping[str, Any], memory: Memory, rng: random.Random) -> World:
    """A random world consistent with ``view`` as ``memory`` reads it (module docstring).

    Args:
        view: a seat's view (``view_for(state, seat)``, docs/GOFISH.md §8).
        memory: ``Memory.from_view(view)``.
        rng: the caller's generator; the only randomness.

    Returns:
        A :class:`World` at the strictest relaxation level a deal was found for.

    Raises:
        ValueError: ``view`` is a spectator's (no seat, no hand).
    """
    me = view.get("seat")
    if me is None or not view.get("me"):
        raise ValueError("a spectator has no hand to sample around")
    players: int = view["players"]
    mine = list(view["me"]["hand"])
    sizes: list[int] = list(view["hand_sizes"])
    booked = {r for seat_books in view["books"] for r in seat_books}
    taken = set(mine)
    fixed: list[list[str]] = [[] for _ in range(players)]
    for s in range(players):
        if s != me:
            for c in sorted(memory.holds[s]):
                if c not in taken and rank_of(c) not in booked:
                    fixed[s].append(c)
                    taken.add(c)
    pool = [c for c in DECK if c not in taken and rank_of(c) not in booked]
    windows = draw_windows(view)
    everything = [c for c in DECK if c not in set(mine) and rank_of(c) not in booked]
    for level, tries in enumerate(TRIES):
        for attempt in range(tries):
            if level < 3:
                hands = _deal(memory, me, sizes, fixed, pool, view["stock"], rng, level,
                              seats_first=attempt % 2 == 1, windows=windows)  # fmt: skip
                if hands is not None and level == 0 and not all(
                    fits_draws(hands[s], windows[s]) for s in range(players) if s != me
                ):
                    hands = None
            else:
                hands = _deal_sizes_only(me, sizes, everything, view["stock"], rng)
            if hands is not None:
                hands[me] = list(mine)
                dealt = {c for h in hands for c in h}
                stock = [c for c in (pool if level < 3 else everything) if c not in dealt]
                rng.shuffle(stock)
                return World(hands, stock, level)
    raise AssertionError("a sizes-only deal cannot fail")  # pragma: no cover


#: Per seat: the hidden draws it has made in all, and for each rank it was last proved
#: to hold none of, ``(rank index, hidden draws made by then, cards of it seen arriving
#: since)``.
Windows = tuple[int, list[tuple[int, int, int]]]


def draw_windows(view: Mapping[str, Any]) -> list[Windows]:
    """For each seat, what its hidden draws may have brought (docs/GOFISH.md §3, §8).

    Read from the log: in the rank game an ask answered without a give proves the
    target holds none of the rank (§3.3), and a give that it has none left (§3.2); after
    that, the rank's cards arrive either seen (a give to it as asker, a shown draw) or
    by a hidden draw. A book (§4) takes the rank out of play. §6 asks prove nothing of
    a whole rank, so in the card game the windows are empty.
    """
    n: int = view["players"]
    hidden = [0] * n
    since: list[dict[int, list[int]]] = [{} for _ in range(n)]  # rank -> [draws then, seen]
    for e in view["log"]:
        t = e["t"]
        if t == "ask" and "suit" not in e:
            r = RANK_INDEX[e["rank"]]
            since[e["target"]][r] = [hidden[e["target"]], 0]
            if e["answer"] == "gave" and r in since[e["seat"]]:
                since[e["seat"]][r][1] += e["count"]
        elif t == "draw":
            seat = e["seat"]
            if e["shown"] is None:
                hidden[seat] += 1
            else:
                r = RANK_INDEX[rank_of(e["shown"])]
                if r in since[seat]:
                    since[seat][r][1] += 1
        elif t == "book":
            r = RANK_INDEX[e["rank"]]
            for s in range(n):
                since[s].pop(r, None)
    return [(hidden[s], [(r, w[0], w[1]) for r, w in since[s].items()]) for s in range(n)]


def fits_draws(hand: list[str], windows: Windows) -> bool:
    """Whether ``hand`` fits one seat's :func:`draw_windows`: for every time ``τ`` a rank
    was proved absent, the cards of the ranks proved absent at ``τ`` or later, beyond
    those seen arriving since, number at most the hidden draws made since ``τ``."""
    total, proofs = windows
    if not proofs:
        return True
    counts = [0] * NR
    for c in hand:
        counts[RANK_INDEX[rank_of(c)]] += 1
    excess = 0
    for r, then, seen in sorted(proofs, key=lambda p: -p[1]):
        excess += max(0, counts[r] - seen)
        if excess > total - then:
            return False
    return True


def _deal(
    memory: Memory,
    me: int,
    sizes: list[int],
    fixed: list[list[str]],
    pool: list[str],
    stock_size: int,
    rng: random.Random,
    level: int,
    seats_first: bool,
    windows: list[Windows],
) -> list[list[str]] | None:
    """One randomised greedy deal of ``pool`` at relaxation ``level`` (0–2); ``None`` on a
    dead end. Proved counts first, then every other card goes to a hand with room for it
    or to the stock, with chances proportional to the room left (at level 0 only where
    the hand still fits its ``windows``, :func:`fits_draws`); or, ``seats_first``, each
    hand in turn takes the first cards of the shuffled rest that fit it (the stock what is
    left), which finds the deals the first way misses when the stock must take exactly
    the cards no hand can hold."""
    players = len(sizes)
    free = list(pool)
    rng.shuffle(free)
    hands = [list(f) for f in fixed]
    counts = [[0] * NR for _ in range(players)]
    for s in range(players):
        for c in hands[s]:
            counts[s][RANK_INDEX[rank_of(c)]] += 1
    others = [s for s in range(players) if s != me]
    if any(len(hands[s]) > sizes[s] for s in others):
        return None
    if level < 2:
        order = list(others)
        rng.shuffle(order)
        for s in order:  # §3.1: a rank asked for is held; §6: a card given is held
            lacks = memory.lacks[s]
            for r in range(NR):
                need = memory.lo[s][r] - counts[s][r]
                if need <= 0:
                    continue
                rank = RANKS[r]
                picks = [c for c in free if rank_of(c) == rank and c not in lacks][:need]
                if len(picks) < need or counts[s][r] + need > 3:
                    return None
                for c in picks:
                    free.remove(c)
                    hands[s].append(c)
                counts[s][r] += need
        if any(len(hands[s]) > sizes[s] for s in others):
            return None
    room = [sizes[s] - len(hands[s]) if s != me else 0 for s in range(players)]
    stock_room = stock_size
    if sum(room) + stock_room != len(free):
        return None  # the memory and the view disagree on the card count
    hi, lacks_of = memory.hi, memory.lacks

    def fits(s: int, c: str, r: int) -> bool:
        return (
            room[s] > 0
            and counts[s][r] < 3  # §4: four would be a book
            and (level > 0 or counts[s][r] < hi[s][r])
            and (level > 1 or c not in lacks_of[s])
            and (level > 0 or not windows[s][1] or fits_draws([*hands[s], c], windows[s]))
        )

    def take(s: int, c: str, r: int) -> None:
        hands[s].append(c)
        room[s] -= 1
        counts[s][r] += 1

    if seats_first:  # fill each hand from the shuffled cards, the stock takes the rest
        used: set[str] = set()
        for s in others:
            for c in free:
                r = RANK_INDEX[rank_of(c)]
                if c not in used and fits(s, c, r):
                    take(s, c, r)
                    used.add(c)
            if room[s] > 0:
                return None
        return hands
    for c in free:
        r = RANK_INDEX[rank_of(c)]
        places = [s for s in others if fits(s, c, r)]
        weights = [room[s] for s in places]
        if stock_room > 0:
            places.append(-1)
            weights.append(stock_room)
        if not places:
            return None
        place = rng.choices(places, weights)[0]
        if place < 0:
            stock_room -= 1
        else:
            take(place, c, r)
    return hands


def _deal_sizes_only(
    me: int, sizes: list[int], everything: list[str], stock_size: int, rng: random.Random
) -> list[list[str]]:
    """The last resort: every card not the viewer's nor booked dealt at random to fill the
    sizes (the stock takes the rest); only the sizes and the totals hold."""
    free = list(everything)
    rng.shuffle(free)
    hands: list[list[str]] = [[] for _ in sizes]
    at = 0
    for s, n in enumerate(sizes):
        if s != me:
            hands[s] = free[at : at + n]
            at += n
    return hands


def world_state(view: Mapping[str, Any], world: World, seed: int = 0) -> GameState:
    """A game state of ``world`` at the moment of ``view``, for the bot to play forward.

    It has no log (the caller's memory holds the history); its ``rng`` (unused by the
    engine after the deal) is seeded by ``seed``.
    """
    options = view["options"]
    return GameState(
        players=view["players"],
        seed=seed,
        rng=random.Random(seed),
        options=Options(options["variant"], bool(options["bluff"]), bool(options["play_on"])),
        stock=list(world.stock),
        hands=[list(h) for h in world.hands],
        books=[list(b) for b in view["books"]],
        first_player=view["first_player"],
        active=view["active"],
        turn=view["turn"],
    )
