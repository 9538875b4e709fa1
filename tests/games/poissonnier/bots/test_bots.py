"""Bots: legal play, honesty (a seat's view only), strength, and stacked-deck decisions.

RULES.md §9 says what a seat may see; the bots are handed exactly
``view_for(state, seat)`` and that seat's legal actions, and may only answer
with actions the engine accepts (§3–§7).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from stacking import decide, fill_and_ready, fill_until_ready, stacked_game

from poissonnier_tui.arena.play import play_game
from poissonnier_tui.arena.simulate import simulate
from poissonnier_tui.games.poissonnier.bots import BOT_KINDS, GreedyBot, RandomBot, make_bot
from poissonnier_tui.games.poissonnier.rules.actions import Propose, parse_action, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase

# --------------------------------------------------------------------------- registry


def test_registry_knows_random_and_greedy() -> None:
    """`make_bot` builds every kind of `BOT_KINDS`; unknown kinds are refused by name."""
    assert {"random", "greedy"} <= set(BOT_KINDS)
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    with pytest.raises(ValueError, match="greedy"):
        make_bot("clever", 1)


def test_bots_are_reproducible_from_their_seed() -> None:
    """Same seeds, same game (R3): the bots add no hidden randomness."""
    first = play_game(5, [make_bot("random", 1), make_bot("greedy", 2), make_bot("random", 3)])
    again = play_game(5, [make_bot("random", 1), make_bot("greedy", 2), make_bot("random", 3)])
    assert (first.result, first.actions) == (again.result, again.actions)


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_play_only_legal_actions(players: int) -> None:
    """30 games per table size, greedy and random seats mixed: zero refused actions,
    zero stalls (a bot never waits on itself), every game ends (RULES.md §8)."""
    kinds = [("greedy", "random")[i % 2] for i in range(players)]
    mixed = simulate(players, 20, seed=100 + players, bots=kinds)
    greedy = simulate(players, 5, seed=200 + players, bot="greedy")
    rand = simulate(players, 5, seed=300 + players, bot="random")
    for report in (mixed, greedy, rand):
        assert report.errors == []
        assert report.stalls == 0
        assert report.finished == report.games
    assert mixed.totals["deals"] > 0  # the deal paths (§4) are exercised


# Honesty (what a bot is handed, what it may import, where the hard bot's worlds come
# from) is checked for every kind in tests/test_bots_honesty.py.


# --------------------------------------------------------------------------- strength


def test_greedy_beats_random_clearly() -> None:
    """40 two-player games, seats swapped halfway. Measured: greedy won 200 of 200
    (seeds 1 and 2, 100 games each way); we ask for 85 %."""
    a = simulate(2, 20, seed=61, bots=["greedy", "random"])
    b = simulate(2, 20, seed=62, bots=["random", "greedy"])
    assert a.errors == b.errors == []
    greedy_wins = a.wins_by_seat[0] + b.wins_by_seat[1]
    assert greedy_wins >= 34, (a.wins_by_seat, b.wins_by_seat)


# --------------------------------------------------------------------------- decisions


def _serve_table(
    players: int,
    crates: Sequence[Sequence[Sequence[str]]],
    queue: list[str],
    coins: list[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
) -> GameState:
    """Seat 0 active in the serve step of turn 1, with the crates given.

    The queue starts full (§3.3) as C33, ``queue`` (3 clients), C32; the call
    drops C33 and draws C31, so the serve step opens on ``queue`` + C32, C31.
    """
    spare = iter(f"D{n:02d}" for n in range(20, 10, -1))  # markers: never in a scenario
    markers = [[next(spare) for _ in c] for c in crates]
    state = stacked_game(
        players,
        hands=[list(h) for h in hands] if hands is not None else [[] for _ in range(players)],
        markers=markers,
        crates=[[list(f) for f in c] for c in crates],
        queue=["C33", *queue, "C32"],
        clients_top=["C31"],
        coins=coins,
    )
    fill_and_ready(state)
    assert state.phase is Phase.SERVE and state.active == 0
    assert state.queue == [*queue, "C32", "C31"]
    return state


def test_greedy_serves_the_best_paying_client() -> None:
    """§3.4: with T T on its stall and clients T (3 coins) and TT (6), it serves TT."""
    state = _serve_table(2, [[["T01", "T02"]], [[]]], ["C01", "C08", "C12"])
    action = decide(GreedyBot(0), state, 0)
    assert action is not None and action["type"] == "serve" and action["client"] == "C08"
    apply_wire(state, 0, action)
    assert state.seats[0].coins == 3 + 6


def test_greedy_buys_the_missing_fish_below_the_reward() -> None:
    """§4: lacking one T for a TF client (5 coins), it offers to buy the seller's T
    for less than 5 coins, naming the seller's crate; the seller's yes settles it."""
    state = _serve_table(3, [[["F01"]], [["M01"], ["T01"]], [["D01"]]], ["C09", "C16", "C18"])
    buyer = GreedyBot(0)
    action = decide(buyer, state, 0)
    assert action is not None and parse_action(action) == Propose(1, ((1, 1),), coins=3)
    apply_wire(state, 0, action)
    apply_wire(state, 1, {"type": "accept", "proposal": 1})
    assert state.bought == ["T01"] and state.seats[0].coins == 0
    serve = decide(buyer, state, 0)
    assert serve is not None and serve["type"] == "serve" and serve["client"] == "C09"


def test_greedy_seller_counters_once_then_declines() -> None:
    """§4, R8: a low offer gets one counter at a higher price; a second low offer for the
    same fish is declined."""
    state = _serve_table(4, [[["F01"]], [["T01"]], [[]], [[]]], ["C09", "C16", "C18"],
                         coins=[9, 3, 3, 3])  # fmt: skip
    seller = GreedyBot(1)
    apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=1)))
    counter = decide(seller, state, 1)
    assert counter is not None and counter["type"] == "propose"
    assert counter["counter"] == state.proposals[0].id and counter["coins"] > 1
    apply_wire(state, 1, counter)
    # The buyer declines and tries again at the same low price.
    apply_wire(state, 0, {"type": "decline", "proposal": state.proposals[0].id})
    apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=1)))
    assert decide(seller, state, 1) == {"type": "decline", "proposal": state.proposals[0].id}


def test_greedy_seller_accepts_a_fair_price() -> None:
    """§4: an offer at least the fish's worth plus its share of the rival's gain is taken."""
    state = _serve_table(5, [[["F01"]], [["T01"]], [[]], [[]], [[]]], ["C09", "C16", "C18"],
                         coins=[9, 3, 3, 3, 3])  # fmt: skip
    apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=6)))
    assert decide(GreedyBot(1), state, 1) == {"type": "accept", "proposal": 1}


def test_greedy_withdraws_a_stale_proposal_then_ends_its_turn() -> None:
    """It never waits on itself: asked again while its offer is unanswered, it withdraws."""
    state = _serve_table(2, [[["F01"]], [["T01"]]], ["C09", "C16", "C18"], coins=[5, 3])
    bot = GreedyBot(0)
    action = decide(bot, state, 0)
    assert action is not None and action["type"] == "propose"
    apply_wire(state, 0, action)
    answers = [decide(bot, state, 0) for _ in range(3)]
    assert {"type": "withdraw", "proposal": 1} in answers
    apply_wire(state, 0, {"type": "withdraw", "proposal": 1})
    assert decide(bot, state, 0) == {"type": "end_turn"}  # already tried that seller


def test_greedy_keeps_rotten_fish_out_without_an_undecided_client() -> None:
    """§5, R10: rotten fish in a crate risk an inspector's fine; no undecided client, no
    rotten fish on the stall. The fresh fish go out, one freshness per crate (§3.2)."""
    state = stacked_game(
        2,
        hands=[["P01", "P02", "T01", "F01", "F02", "G01"], ["M01"]],
        markers=[["D01", "D02"], ["D03"]],
        queue=["C09", "C12", "C16"],
    )
    actions = fill_until_ready(GreedyBot(0), state, 0)
    crates = sorted(sorted(c.fish) for c in state.seats[0].draft_crates or [])
    assert crates == [["F01", "F02"], ["T01"]], actions


def test_greedy_shows_rotten_fish_for_an_undecided_client() -> None:
    """§5: an undecided client within reach takes rotten fish, so the active seat lays them."""
    state = stacked_game(
        2,
        hands=[["P01", "P02", "P03", "T01"], ["M01"]],
        markers=[["D01", "D02"], ["D03"]],
        queue=["U1", "C01", "C16"],
    )
    fill_until_ready(GreedyBot(0), state, 0)
    crates = sorted(sorted(c.fish) for c in state.seats[0].draft_crates or [])
    assert crates == [["P01", "P02"], ["T01"]]


def test_greedy_buys_a_crate_early_when_it_pays() -> None:
    """§7, R11: early in the game, with fish of three freshnesses, a second crate (2 coins)
    is bought in the fill step."""
    state = stacked_game(
        2, hands=[["T01", "F01", "M01", "M02"], ["D01"]], queue=["C09", "C14", "C11"],
        coins=[5, 3],
    )  # fmt: skip
    action = decide(GreedyBot(0), state, 0)
    assert action == {"type": "buy_crate"}


def test_random_bot_ends_its_turns() -> None:
    """The random bot is biased toward ``ready`` and ``end_turn``: games end (§3.2, §3.4)."""
    rng = random.Random(4)
    for game in range(10):
        seats = [RandomBot(rng.randrange(1 << 30)) for _ in range(3)]
        record = play_game(game, seats)
        assert record.finished and record.errors == [] and record.stalls == 0
