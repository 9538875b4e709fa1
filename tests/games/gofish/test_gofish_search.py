"""The hard Go Fish bot's worlds and search (poissonnier_tui/games/gofish/bots/worlds.py, hard.py).

* Every world dealt from a seat's view is one the seat cannot tell from the real
  game: its own hand, every hand size, the stock size and the books are the view's,
  the 52 cards are each in one place (docs/GOFISH.md §1, §4), and no other hand
  breaks what the public history proves (§3.1, §3.3, §6, §8, G10), alone or jointly
  (ranks a hand was proved to lack came back only by its hidden draws, one card
  each). The proofs are re-derived here from the log, independently of the bot's
  memory, and checked on the real game first.
* Honesty: two games that give the seat the same view but hold different hidden
  cards get the same decision from the same seed.
* A stacked position where one ask wins whatever the hidden cards and another
  only shares the win: the search leaves the bad default for the winner.
* A seed gives the same decisions; the budget scales the worlds dealt.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from gofish_stacking import BOT_OPTIONS, legal_wires, stacked_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poissonnier_tui.games.gofish.bots import make_bot
from poissonnier_tui.games.gofish.bots.hard import HardBot, outcome, search
from poissonnier_tui.games.gofish.bots.memory import Memory
from poissonnier_tui.games.gofish.bots.worlds import World, sample_world, world_state
from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.engine import apply_wire, new_game
from poissonnier_tui.games.gofish.rules.state import GameState, Options
from poissonnier_tui.games.gofish.rules.view import view_for


def public_proofs(
    view: Mapping[str, Any],
) -> tuple[list[set[str]], list[set[str]], list[set[str]]]:
    """What the log proves, per seat: (ranks held none of, cards not held, cards held).

    Read from the events alone (docs/GOFISH.md §8): a rank-game ask answered without
    a give proves the target holds none of the rank (§3.3), a give that it has none
    left (§3.2); a §6 ask proves the target lacks the card after it (not given, or
    given away); a shown draw proves the card is in the drawer's hand (G10) until it
    is given or booked (§4); a hidden draw may be anything but the card or rank just
    asked for (§3.3, §6: that one would have been shown).
    """
    n = view["players"]
    no_rank: list[set[str]] = [set() for _ in range(n)]
    no_card: list[set[str]] = [set() for _ in range(n)]
    held: list[set[str]] = [set() for _ in range(n)]
    last: dict[str, Any] | None = None
    for e in view["log"]:
        t = e["t"]
        if t == "ask":
            last = e
            seat, target, rank = e["seat"], e["target"], e["rank"]
            if "suit" not in e:
                no_rank[target].add(rank)
                if e["answer"] == "gave":
                    moved = {c for c in held[target] if cards.rank_of(c) == rank}
                    held[target] -= moved
                    held[seat] |= moved
            else:
                card = cards.card_id(rank, e["suit"])
                no_card[target].add(card)
                if e["answer"] == "gave":
                    held[target].discard(card)
                    held[seat].add(card)
                    no_card[seat].discard(card)
        elif t == "draw":
            seat = e["seat"]
            if e["shown"] is not None:
                held[seat].add(e["shown"])
                no_rank[seat].discard(cards.rank_of(e["shown"]))
                no_card[seat].discard(e["shown"])
                continue
            keep_rank: set[str] = set()
            keep_card: set[str] = set()
            if e["why"] == "go_fish" and last is not None and last["seat"] == seat:
                if "suit" in last:
                    keep_card = {cards.card_id(last["rank"], last["suit"])} & no_card[seat]
                else:
                    keep_rank = {last["rank"]} & no_rank[seat]
            no_rank[seat], no_card[seat] = keep_rank, keep_card
        elif t == "book":
            for s in range(n):
                held[s] = {c for c in held[s] if cards.rank_of(c) != e["rank"]}
    return no_rank, no_card, held


def assert_hidden_draws_suffice(view: Mapping[str, Any], seat: int, hand: list[str]) -> None:
    """Rank game: for every event proving ``seat`` held none of a rank (§3.2, §3.3), the
    cards ``hand`` holds of the ranks proved absent then or later (each from its last
    proof, less the cards of it seen arriving since: gives to the asker, shown draws)
    number at most the hidden draws ``seat`` made after that event (§8)."""
    log = view["log"]
    last_none: dict[str, int] = {}
    for i, e in enumerate(log):
        if e["t"] == "ask" and "suit" not in e and e["target"] == seat:
            last_none[e["rank"]] = i
        elif e["t"] == "book":
            last_none.pop(e["rank"], None)

    def seen_after(rank: str, i: int) -> int:
        got = 0
        for e in log[i + 1 :]:
            if e["t"] == "ask" and e["seat"] == seat and e["rank"] == rank and "suit" not in e:
                got += e["count"] if e["answer"] == "gave" else 0
            elif e["t"] == "draw" and e["seat"] == seat and e["shown"] is not None:
                got += cards.rank_of(e["shown"]) == rank
        return got

    held = Counter(cards.rank_of(c) for c in hand)
    for i in last_none.values():
        hidden = sum(1 for e in log[i + 1 :]
                     if e["t"] == "draw" and e["seat"] == seat and e["shown"] is None)  # fmt: skip
        arrived = sum(max(0, held[r] - seen_after(r, j)) for r, j in last_none.items() if j >= i)
        assert arrived <= hidden, (seat, hand, i)


def assert_fits_view(view: Mapping[str, Any], hands: list[list[str]], stock: list[str]) -> None:
    """``hands`` and ``stock`` fit what ``view`` shows: the viewer's hand, every size, the
    books, and the 52 cards each in one place (docs/GOFISH.md §1, §4, §8)."""
    me = view["seat"]
    assert sorted(hands[me]) == sorted(view["me"]["hand"])
    assert [len(h) for h in hands] == view["hand_sizes"]
    assert len(stock) == view["stock"]
    booked = [r for b in view["books"] for r in b]
    places = [c for h in hands for c in h] + stock
    places += [cards.card_id(r, s) for r in booked for s in cards.SUITS]
    assert sorted(places) == sorted(cards.DECK)  # §1: each card once


def assert_consistent(view: Mapping[str, Any], hands: list[list[str]], stock: list[str]) -> None:
    """``hands`` and ``stock`` fit everything ``view`` shows and its log proves."""
    assert_fits_view(view, hands, stock)
    me = view["seat"]
    no_rank, no_card, held = public_proofs(view)
    memory = Memory.from_view(view)
    for s, hand in enumerate(hands):
        counts = Counter(cards.RANK_INDEX[cards.rank_of(c)] for c in hand)
        assert max(counts.values(), default=0) < 4  # §4: four would be a book
        if s == me:
            continue
        assert not {cards.rank_of(c) for c in hand} & no_rank[s], (s, hand, no_rank[s])
        assert not set(hand) & no_card[s], (s, hand, no_card[s])
        assert held[s] <= set(hand), (s, hand, held[s])
        assert_hidden_draws_suffice(view, s, hand)
        assert memory.holds[s] <= set(hand) and not memory.lacks[s] & set(hand)
        for r in range(len(cards.RANKS)):
            assert memory.lo[s][r] <= counts[r] <= memory.hi[s][r], (s, r, hand)


def play_some(seed: int, players: int, options: Options, steps: int) -> GameState:
    """A game after up to ``steps`` asks by medium and random bots, stopped before it ends."""
    bots = [make_bot("medium" if i % 2 == 0 else "random", seed + i) for i in range(players)]
    state = new_game(seed, players, options)
    for _ in range(steps):
        seat = state.active
        action = bots[seat].act(view_for(state, seat), legal_wires(state, seat))
        assert action is not None
        after = state.copy()
        apply_wire(after, seat, action)
        if after.over:
            break
        state = after
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    options=st.sampled_from(BOT_OPTIONS),
    steps=st.integers(0, 120),
    world_seed=st.integers(0, 2**32),
)
def test_every_world_fits_the_view_it_was_dealt_from(
    seed: int, players: int, options: Options, steps: int, world_seed: int
) -> None:
    """Hypothesis: any game, any seat, any generator. A world dealt at level 0 meets every
    proof; should the sampler ever relax (a rare dead end of its random deal, the next
    test pins how rare), the sizes and the 52 cards still hold."""
    state = play_some(seed, players, options, steps)
    rng = random.Random(world_seed)
    for seat in range(players):
        view = view_for(state, seat)
        assert_consistent(view, state.hands, list(state.stock))  # the proofs are sound
        memory = Memory.from_view(view)
        for _ in range(3):
            world = sample_world(view, memory, rng)
            if world.relaxed == 0:
                assert_consistent(view, world.hands, world.stock)
            else:
                assert_fits_view(view, world.hands, world.stock)


def test_worlds_meet_every_proof_on_a_fixed_set_of_games() -> None:
    """Every world dealt for every seat of 90 fixed games (2–6 players, every option set,
    early to late) is dealt without relaxing and meets every proof."""
    rng = random.Random(2026)
    for game in range(90):
        players = 2 + game % 5
        options = BOT_OPTIONS[game % len(BOT_OPTIONS)]
        state = play_some(500 + game, players, options, rng.randrange(150))
        for seat in range(players):
            view = view_for(state, seat)
            memory = Memory.from_view(view)
            for _ in range(2):
                world = sample_world(view, memory, rng)
                assert world.relaxed == 0, (game, seat)
                assert_consistent(view, world.hands, world.stock)


def test_worlds_are_dealt_afresh_from_the_same_view() -> None:
    """The hidden cards move between worlds (the sampler is not stuck on one deal),
    while the viewer's hand never does."""
    state = play_some(3, 3, Options(), 10)
    view = view_for(state, 0)
    memory = Memory.from_view(view)
    rng = random.Random(1)
    worlds = [sample_world(view, memory, rng) for _ in range(20)]
    assert len({tuple(map(tuple, w.hands[1:])) for w in worlds}) > 10
    assert len({tuple(w.stock) for w in worlds}) == 20
    assert all(sorted(w.hands[0]) == view["me"]["hand"] for w in worlds)


def test_impossible_bounds_degrade_to_a_looser_world_keeping_the_sizes() -> None:
    """A memory claiming seat 1 holds three aces while only one is unseen cannot be met:
    the sampler drops the counts (level 2) but keeps every size and the 52 cards."""
    state = new_game(5, 3, first_player=0)
    view = view_for(state, 0)
    memory = Memory.from_view(view)
    ace = cards.RANK_INDEX["A"]
    unseen_aces = 4 - sum(1 for c in view["me"]["hand"] if cards.rank_of(c) == "A")
    memory.lo[1][ace] = unseen_aces + 1
    world = sample_world(view, memory, random.Random(2))
    assert world.relaxed == 2
    assert [len(h) for h in world.hands] == view["hand_sizes"]
    assert len(world.stock) == view["stock"]
    assert sorted([c for h in world.hands for c in h] + world.stock) == sorted(cards.DECK)


def test_a_spectator_view_has_no_world() -> None:
    view = view_for(new_game(1, 3), None)
    with pytest.raises(ValueError, match="spectator"):
        sample_world(view, Memory.from_view(view), random.Random(1))


def twin_of(state: GameState, seat: int, world: World) -> GameState:
    """The real game with its hidden cards replaced by ``world``'s (same log and turn)."""
    view = view_for(state, seat)
    twin = world_state(view, world)
    twin.log = [dict(e) for e in state.log]
    twin.drawn = {int(i): str(c) for i, c in view["me"]["drawn"]}  # the seat's own (§8)
    return twin


def test_hard_bot_decides_alike_in_games_that_differ_only_in_hidden_cards() -> None:
    """Honesty (docs/GOFISH.md §8): mid-game, a twin game whose other hands and stock are
    another deal consistent with seat 0's view gives seat 0 the same view, and the same
    seed then makes the same (searched) decision."""
    searched = 0
    for seed in range(12):
        state = play_some(100 + seed, 3, Options(), 4 + seed)
        seat = state.active
        view = view_for(state, seat)
        world = sample_world(view, Memory.from_view(view), random.Random(seed))
        twin = twin_of(state, seat, world)
        if twin.hands == state.hands and twin.stock == state.stock:
            continue
        assert view_for(twin, seat) == view
        a, b = HardBot(random.Random(9), budget=0.25), HardBot(random.Random(9), budget=0.25)
        choice = a.act(view, legal_wires(state, seat))
        assert choice == b.act(view_for(twin, seat), legal_wires(twin, seat))
        if a.last is not None:
            assert b.last is not None and a.last.values == b.last.values
            searched += 1
    assert searched >= 4


def _tied_with_the_last_card_to_draw() -> GameState:
    """Books 4–4–2, one card in the stock, seat 0 to ask holding three sevens.

    Seat 2 asked seat 1 for a seven and was told "Go fish" (§3.3): seat 1 holds no
    seven, seat 2 holds the last one (§3.1). A miss by seat 0 draws the last card and
    the game ends (§5, G8) on a shared win (G3); a hit on seat 2 makes the book of
    sevens (§4) and seat 0 leads, keeping the turn until a miss ends the game.
    """
    state = stacked_game(
        [["7C", "7D", "7H", "5C"], ["9D", "9H", "5S"], ["7S", "9C", "5D"]],
        books=[["A", "2", "3", "4"], ["6", "8", "10", "J"], ["Q", "K"]],
        stock=["5H", "9S"],
        active=2,
    )
    apply_wire(state, 2, {"type": "ask", "target": 1, "rank": "7"})
    assert state.active == 0 and len(state.stock) == 1 and not state.over
    return state


def test_the_search_leaves_a_shared_win_for_a_sure_win() -> None:
    """docs/GOFISH.md §3.2, §4, §5, G3, G8. Given the miss (seat 1 for sevens) as its
    default, the search finds in every world that it only shares the win (0.5) while
    taking seat 2's seven wins outright (at least 1 plus one book of lead), and picks it."""
    state = _tied_with_the_last_card_to_draw()
    view = view_for(state, 0)
    miss, hit = (1, "7", None), (2, "7", None)
    found = search(view, Memory.from_view(view), [miss, hit], 12, random.Random(4))
    assert found.chosen == 1
    assert found.values[0] == [outcome([4, 4, 2], 0)] * 12 == [0.5] * 12
    assert min(found.values[1]) >= outcome([5, 4, 2], 0) == pytest.approx(1.02)
    assert found.mean(1) - found.mean(0) >= 0.5
    assert all(w.relaxed == 0 and "7S" in w.hands[2] for w in found.worlds)
    action = HardBot(random.Random(1)).act(view, legal_wires(state, 0))
    assert action == {"type": "ask", "target": 2, "rank": "7"}
    apply_wire(state, 0, action)
    assert state.books[0][-1] == "7"


def test_the_search_keeps_its_default_when_no_ask_is_clearly_better() -> None:
    """The same ask twice: its paired differences are all 0, so the search keeps the
    default (the first candidate) rather than a tie."""
    state = _tied_with_the_last_card_to_draw()
    view = view_for(state, 0)
    hit = (2, "7", None)
    found = search(view, Memory.from_view(view), [hit, hit], 6, random.Random(4))
    assert found.chosen == 0 and found.values[0] == found.values[1]


def test_a_seed_gives_the_same_searched_decisions_and_the_budget_scales_the_worlds() -> None:
    views = []
    for steps in (0, 3, 6, 9):
        state = play_some(21, 3, Options(), steps)
        views.append((view_for(state, state.active), legal_wires(state, state.active)))
    runs = []
    for _ in range(2):
        bot = HardBot(random.Random(5), budget=0.25)
        assert bot.worlds == 4
        runs.append([(bot.act(v, legal), bot.last and bot.last.values) for v, legal in views])
    assert runs[0] == runs[1]
    assert any(values for _, values in runs[0])  # at least one decision was searched
    full = HardBot(random.Random(5))
    assert (full.worlds, full.close_worlds) == (16, 48)
    tiny = HardBot(random.Random(5), 0.01)
    assert (tiny.worlds, tiny.close_worlds) == (2, 2)


def test_fewer_worlds_where_rollouts_cost_more() -> None:
    """Near the end of the stock (§5) 48 worlds; under "play on" (§7) the game does not
    end with the stock, so no end-of-stock settings; the card game (§6) a quarter, and a
    4-player table three quarters."""
    bot = HardBot(random.Random(5))
    assert bot.worlds_for(view_for(new_game(1, 3), 0)) == 16
    assert bot.worlds_for(view_for(_tied_with_the_last_card_to_draw(), 0)) == 48
    assert bot.worlds_for(view_for(new_game(1, 3, Options(variant="card")), 0)) == 4
    assert bot.worlds_for(view_for(new_game(1, 4, Options(variant="card")), 0)) == 3
    late = new_game(1, 3, Options(play_on=True))
    late.stock = late.stock[:5]
    assert bot.worlds_for(view_for(late, 0)) == 16
