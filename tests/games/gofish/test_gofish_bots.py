"""Go Fish bots: legal at every level under every option, deterministic for a seed,
sound in what they remember, and medium ranked above easy on a small seeded check.

The ≥ 400-game figures are measured by ``scripts/gofish_strength.py``
(docs/measurements/gofish_bots.txt); here a small fixed set of seat-rotated
games (seeds fixed before the first run) must put medium above easy, which
those 42 games show by far more than chance. Hard's edge over medium is a few
points of win rate, which no in-suite number of games could show reliably, so
it is left to the script; here the hard bot's reasons are checked one by one
on positions built for them.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from gofish_stacking import BOT_OPTIONS, legal_wires, stacked_game

from poissonnier_tui.games.gofish.bots import BOT_KINDS, LEVELS, make_bot
from poissonnier_tui.games.gofish.bots.hard import shrewd_key
from poissonnier_tui.games.gofish.bots.memory import Memory
from poissonnier_tui.games.gofish.bots.policy import choose, score
from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.engine import apply_wire, new_game
from poissonnier_tui.games.gofish.rules.state import GameState, Options
from poissonnier_tui.games.gofish.rules.view import view_for

OPTIONS = BOT_OPTIONS


def play(
    lineup: list[str], seed: int, options: Options, budget: float = 1.0
) -> tuple[GameState, list[dict[str, Any]]]:
    """One game of ``lineup`` (seat i plays ``lineup[i]``), each bot handed only its view
    and legal asks; every action is applied by the engine (an illegal one would raise)."""
    bots = [make_bot(kind, seed * 10 + i, budget=budget) for i, kind in enumerate(lineup)]
    state = new_game(seed, len(lineup), options)
    played: list[dict[str, Any]] = []
    for _ in range(5000):
        if state.over:
            break
        seat = state.active
        action = bots[seat].act(view_for(state, seat), legal_wires(state, seat))
        assert action is not None and action in legal_wires(state, seat)
        apply_wire(state, seat, action)
        played.append(action)
    assert state.over
    return state, played


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.variant}-{o.bluff}-{o.play_on}")
@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_level_plays_only_legal_asks_to_the_end(options: Options, players: int) -> None:
    lineup = [("hard", "medium", "easy", "random")[i % 4] for i in range(players)]
    state, _ = play(lineup, 40 + players, options, budget=0.2)
    assert state.result is not None and state.result["winners"]


def test_a_seed_gives_the_same_game() -> None:
    lineup = ["hard", "medium", "easy"]
    a = play(lineup, 5, Options(variant="card"), budget=0.2)[1]
    assert a == play(lineup, 5, Options(variant="card"), budget=0.2)[1]


def test_make_bot_refuses_unknown_kinds_and_budgets() -> None:
    assert LEVELS == ("easy", "medium", "hard") and "random" in BOT_KINDS
    with pytest.raises(ValueError, match="choose from easy, medium, hard, random"):
        make_bot("expert", 1)
    with pytest.raises(ValueError):
        make_bot("hard", 1, budget=0)


def test_a_bot_without_a_legal_ask_passes() -> None:
    state = stacked_game([["QC"], ["5C"]], active=0)
    for kind in BOT_KINDS:
        assert make_bot(kind, 1).act(view_for(state, 1), []) is None


def test_medium_asks_where_a_rank_was_proved_by_an_ask() -> None:
    """Seat 2 asked seat 0 for 7 and missed: it holds a 7 (docs/GOFISH.md §3.1), so
    seat 1 asks seat 2 for its 7 rather than guessing."""
    state = stacked_game([["QC", "3S"], ["7D", "4C", "9H"], ["7C", "8C"]], active=2,
                         stock_top=["JD"])  # fmt: skip
    apply_wire(state, 2, {"type": "ask", "target": 0, "rank": "7"})
    assert state.active == 0
    apply_wire(state, 0, {"type": "ask", "target": 2, "rank": "3"})  # miss: seat 1's turn
    assert state.active == 1
    action = make_bot("medium", 1).act(view_for(state, 1), legal_wires(state, 1))
    assert action == {"type": "ask", "target": 2, "rank": "7"}


def test_medium_does_not_ask_a_player_who_just_said_go_fish_for_that_rank() -> None:
    """Seat 0 answered "Go fish" for 9 and drew nothing since: a 9 is likelier elsewhere."""
    state = stacked_game([["QC", "3S", "4D"], ["9D", "4C"], ["8C", "5H", "6H"]], active=1,
                         stock_top=["JD", "JH"])  # fmt: skip
    apply_wire(state, 1, {"type": "ask", "target": 0, "rank": "9"})  # miss, draws JD unseen
    apply_wire(state, 2, {"type": "ask", "target": 1, "rank": "8"})  # miss, draws JH unseen
    assert state.active == 0
    memory = Memory.from_view(view_for(state, 0))
    assert memory.lo[1][cards.RANK_INDEX["9"]] == 1
    assert memory.hi[0][cards.RANK_INDEX["9"]] == 0
    assert memory.lo[2][cards.RANK_INDEX["8"]] == 1


def test_memory_is_sound_in_random_games() -> None:
    """What the memory proves from the public events is true of the real hands, for
    every seat, at every step, under every option set."""
    rng = random.Random(3)
    for seed, options in itertools.product(range(6), OPTIONS):
        state = new_game(seed, 2 + seed % 5, options)
        bots = [make_bot(("medium", "easy", "random")[i % 3], i) for i in range(state.players)]
        while not state.over:
            memory = Memory.from_view(view_for(state, None))
            for s, hand in enumerate(state.hands):
                counts = [0] * 13
                for c in hand:
                    counts[cards.RANK_INDEX[cards.rank_of(c)]] += 1
                assert all(memory.lo[s][r] <= counts[r] <= memory.hi[s][r] for r in range(13)), (
                    s, counts, memory.lo[s], memory.hi[s])  # fmt: skip
                assert memory.holds[s] <= set(hand) and not memory.lacks[s] & set(hand)
                assert memory.sizes[s] == len(hand)
            assert memory.stock == len(state.stock)
            seat = state.active
            action = bots[seat].act(view_for(state, seat), legal_wires(state, seat))
            assert action is not None
            if rng.random() < 0.1:
                action = rng.choice(legal_wires(state, seat))
            apply_wire(state, seat, action)


def win_rates(lineup: list[str], shuffles: int, budget: float = 1.0) -> dict[str, float]:
    """Seat-rotated games with shared shuffles; wins per seat of each level (G3 splits)."""
    seatings = list(dict.fromkeys(itertools.permutations(lineup)))
    wins: dict[str, float] = dict.fromkeys(lineup, 0.0)
    seats: dict[str, int] = dict.fromkeys(lineup, 0)
    for seed in range(shuffles):
        for seating in seatings:
            state, _ = play(list(seating), 7000 + seed, Options(), budget=budget)
            assert state.result is not None
            winners = state.result["winners"]
            for i, kind in enumerate(seating):
                seats[kind] += 1
                wins[kind] += (i in winners) / len(winners)
    return {k: wins[k] / seats[k] for k in lineup}


def test_medium_beats_easy_in_seat_rotated_three_player_games() -> None:
    rates = win_rates(["medium", "easy", "easy"], shuffles=14, budget=1.0)  # 42 games
    assert rates["medium"] > 1 / 3 > rates["easy"]


def test_hard_guesses_a_rank_the_table_already_knows_it_holds() -> None:
    """docs/GOFISH.md §3.1, §8: an ask shows the asker holds the rank. Two guesses with
    the same hit chance: medium is indifferent and takes the first listed; hard takes
    the rank it has already shown, since a miss on the other would show two more cards
    to a player who may hold that rank too — unless the stock is nearly out."""
    memory = Memory(3, card_variant=False, bluff=False)
    memory.sizes, memory.stock = [4, 5, 5], 20
    memory.lo[0][cards.RANK_INDEX["9"]] = 1  # seat 0 asked for a 9 once
    est = memory.estimate(0, ["5C", "5D", "9C", "9D"])
    five, nine = (1, "5", None), (1, "9", None)
    assert score(est, five) == score(est, nine)
    assert choose(est, [five, nine]) == five
    books = [0, 0, 0]
    assert shrewd_key(est, nine, books) > shrewd_key(est, five, books)
    memory.stock = 8  # the stock nearly out: what an ask shows is no longer weighed
    assert shrewd_key(est, nine, books) == shrewd_key(est, five, books)
    memory.stock = 20
    memory.lo[0][cards.RANK_INDEX["5"]] = 1  # once both are shown, only the chance counts
    assert shrewd_key(est, nine, books) == shrewd_key(est, five, books)


def _proved_last_card(books: list[list[str]]) -> GameState:
    """Seat 2 is proved to hold a queen (it asked for one) and has one card left; seat 0
    holds a queen and is to ask. A hit on it empties seat 2's hand: §5 ends the game."""
    state = stacked_game([["QC", "7H", "9H", "5C"], ["2C", "3C"], ["QD", "7C"]],
                         books=books, stock_top=["9S"], active=2)  # fmt: skip
    apply_wire(state, 2, {"type": "ask", "target": 1, "rank": "Q"})  # miss: draws 9S unseen
    apply_wire(state, 0, {"type": "ask", "target": 2, "rank": "7"})  # seat 0 takes the 7C
    apply_wire(state, 0, {"type": "ask", "target": 2, "rank": "9"})  # and the 9S
    assert state.hands[2] == ["QD"] and state.active == 0 and not state.over
    return state


def test_hard_does_not_end_a_game_it_would_lose_but_medium_does() -> None:
    """docs/GOFISH.md §5: behind on books, the proved queen would end the game lost."""
    state = _proved_last_card([[], ["K", "J"], []])
    ending = {"type": "ask", "target": 2, "rank": "Q"}
    assert make_bot("medium", 1).act(view_for(state, 0), legal_wires(state, 0)) == ending
    chosen = make_bot("hard", 1).act(view_for(state, 0), legal_wires(state, 0))
    assert chosen is not None and chosen != ending


def test_hard_ends_a_game_it_wins() -> None:
    """docs/GOFISH.md §5: ahead on books, the proved queen ends the game won."""
    state = _proved_last_card([["K", "J"], [], []])
    action = make_bot("hard", 1).act(view_for(state, 0), legal_wires(state, 0))
    assert action == {"type": "ask", "target": 2, "rank": "Q"}
    apply_wire(state, 0, action)
    assert state.over and state.result is not None and state.result["winners"] == [0]
