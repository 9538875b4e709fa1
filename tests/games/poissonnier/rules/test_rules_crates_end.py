"""Buying crates (RULES.md §7, R11, R12) and the end of the game (§8, R13)."""

from __future__ import annotations

import json

import pytest
from stacking import act, assert_conserved, assert_illegal, fill_and_ready, stacked_game

from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    EndTurn,
    Place,
    Propose,
    Ready,
    Serve,
    TakeBack,
    Unready,
)
from poissonnier_tui.games.poissonnier.rules.engine import apply, legal_actions, waiting_on
from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

# --------------------------------------------------------------------------- §7


def test_crate_prices_and_maximum() -> None:
    """R11, R12: the next crate costs 2 x crates owned (2, 4, 6, 8, 10); at most 6 crates."""
    state = stacked_game(2, coins=[30, 3])
    paid = []
    for _ in range(5):
        price = view_for(state, 1)["seats"][0]["crate_price"]
        before = state.seats[0].coins
        act(state, 0, BuyCrate())
        paid.append((price, before - state.seats[0].coins))
    assert paid == [(2, 2), (4, 4), (6, 6), (8, 8), (10, 10)]
    assert len(state.seats[0].crates) == 6 and state.seats[0].coins == 0
    state.seats[0].coins = 100
    assert_illegal(state, 0, BuyCrate(), "max_crates", "R12")
    assert BuyCrate() not in legal_actions(state, 0)


def test_crate_needs_the_coins() -> None:
    """R11: a seat that cannot pay the price is refused."""
    state = stacked_game(2, coins=[1, 5])
    assert_illegal(state, 0, BuyCrate(), "no_coins", "R11")
    assert BuyCrate() not in legal_actions(state, 0)
    act(state, 1, BuyCrate())
    assert state.seats[1].coins == 3
    assert_illegal(state, 1, BuyCrate(), "no_coins", "R11")  # the third costs 4


def test_crate_marker_is_the_hidden_top_card() -> None:
    """§7, §2.3, §9: the top fish-deck card becomes the marker; nobody ever sees it."""
    state = stacked_game(3, fish_deck_top=["T05", "T06"])
    deck = len(state.fish_deck)
    act(state, 1, BuyCrate())
    assert [c.marker for c in state.seats[1].crates][1] == "T05"
    assert state.seats[1].crates[1].fish == []
    assert len(state.fish_deck) == deck - 1 and state.fish_deck[-1] == "T06"
    for viewer in (None, 0, 1, 2):
        view = view_for(state, viewer)
        assert "T05" not in json.dumps(view)
        assert view["seats"][1]["crates"] == ["", ""]
        assert view["fish_deck"] == deck - 1
    assert_conserved(state)


def test_crate_bought_in_fill_can_be_filled_at_once() -> None:
    """§7, R21: a crate bought during the fill step can take fish in that same step."""
    state = stacked_game(2, hands=[["T01"], ["F01", "M01"]], clients_top=["C01"])
    act(state, 1, Place(("F01",), 0), Ready(), BuyCrate())
    assert_illegal(state, 1, Place(("M01",), 1), "already_ready", "§3.2")
    act(state, 1, Unready(), Place(("M01",), 1))
    assert view_for(state, 0)["seats"][1]["crates"] == ["", ""]  # R15: count public, fish not
    fill_and_ready(state)
    assert [c.fish for c in state.seats[1].crates] == [["F01"], ["M01"]]


def test_crate_bought_outside_fill_stays_empty_until_next_fill() -> None:
    """§7: bought during another player's turn (serve step), it stays empty until the next fill."""
    state = stacked_game(2, hands=[["T01"], ["F01", "M01"]], clients_top=["C01", "C02"])
    fill_and_ready(state)
    assert state.active == 0
    act(state, 1, BuyCrate())  # during seat 0's turn
    assert state.seats[1].coins == 1 and len(state.seats[1].crates) == 2
    assert_illegal(state, 1, Place(("M01",), 1), "not_fill", "§3.2")
    assert_illegal(state, 1, TakeBack(0), "not_fill", "§3.2")
    act(state, 0, EndTurn())
    act(state, 1, Place(("M01",), 1))
    fill_and_ready(state)
    assert state.seats[1].crates[1].fish == ["M01"]


def test_no_crate_once_the_fish_deck_is_empty() -> None:
    """§7: the last card can become a marker; then no crate can be bought."""
    state = stacked_game(3, fish_deck_size=1, coins=[3, 3, 9])
    act(state, 2, BuyCrate())
    assert state.fish_deck == [] and state.last_turn
    assert_illegal(state, 0, BuyCrate(), "deck_empty", "§7")
    assert_illegal(state, 2, BuyCrate(), "deck_empty", "§7")
    assert all(not isinstance(a, BuyCrate) for a in legal_actions(state, 2))


# --------------------------------------------------------------------------- §8, R13


def _assert_over(state: GameState, turns: int) -> None:
    assert state.phase is Phase.OVER and state.result is not None
    assert state.result["turns"] == turns and state.turn == turns
    assert waiting_on(state) == frozenset()
    for seat in range(state.players):
        assert legal_actions(state, seat) == []
    for action in (Ready(), EndTurn(), BuyCrate(), Accept(1)):
        assert_illegal(state, 0, action, "game_over", "§8")
    scores = [Score(i, s.coins, len(s.clients), s.stamps) for i, s in enumerate(state.seats)]
    expected = decide_winner(scores)
    assert {k: state.result[k] for k in expected} == expected
    assert state.result["seed"] == state.seed


def test_game_ends_after_the_turn_whose_draw_empties_the_deck() -> None:
    """R13, §3.1: the draw that takes the last card starts the last turn; it is played out."""
    state = stacked_game(2, fish_deck_size=4, clients_top=["C01", "C02"])
    fill_and_ready(state)
    act(state, 0, EndTurn())
    assert state.turn == 2 and state.fish_deck == [] and state.last_turn
    assert view_for(state, None)["last_turn"] is True
    assert state.phase is Phase.FILL  # the last turn is still played
    fill_and_ready(state)
    assert state.phase is Phase.SERVE  # type: ignore[comparison-overlap]
    act(state, 1, EndTurn())
    _assert_over(state, 2)


def test_game_ends_after_the_turn_whose_crate_purchase_empties_the_deck() -> None:
    """R13, §7: a crate bought by another seat takes the last card; this turn ends the game."""
    state = stacked_game(
        3,
        crates=[[["T01"]], None, None],
        fish_deck_size=1,
        queue=["C01", "C02", "C03", "C04"],
        clients_top=["C05"],
    )
    act(state, 2, BuyCrate())
    assert state.last_turn and state.phase is Phase.FILL and state.turn == 1
    fill_and_ready(state)
    act(state, 0, Serve("C01", ("T01",)))  # the turn goes on to its end
    act(state, 0, EndTurn())
    _assert_over(state, 1)
    assert state.result is not None
    assert state.result["scores"][0] == {"seat": 0, "coins": 6, "clients": 1, "stamps": 1}
    assert state.result["winners"] == [0] and state.result["shared"] is False
    assert state.result["steps"][0]["eliminated"] in (1, 2)


def test_crate_purchase_in_serve_by_the_active_ends_the_game_after_this_turn() -> None:
    """R13: the active buys the last card as a marker during serve; the turn ends the game."""
    state = stacked_game(2, fish_deck_size=1, clients_top=["C01"])
    fill_and_ready(state)
    act(state, 0, BuyCrate())
    assert state.last_turn and state.phase is Phase.SERVE
    act(state, 0, EndTurn())
    _assert_over(state, 1)


def test_bought_fish_reach_the_hand_at_the_final_end() -> None:
    """R9, R13: the end of the last turn still returns unused bought fish to the hand."""
    state = stacked_game(2, crates=[None, [["F01"]]], fish_deck_size=0, clients_top=["C01"])
    assert state.last_turn
    fill_and_ready(state)
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    act(state, 1, Accept(1))
    act(state, 0, EndTurn())
    assert state.phase is Phase.OVER
    assert state.seats[0].hand[-1] == "F01" and state.bought == []
    assert_conserved(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_game_of_passes_ends(players: int) -> None:
    """R13: with every seat only declaring ready and ending turns, the deck runs out and it ends."""
    state = stacked_game(players, seed=players)
    deck = len(state.fish_deck)
    turns = 0
    while state.phase is not Phase.OVER:
        for seat in range(players):
            apply(state, seat, Ready())
        apply(state, state.active, EndTurn())
        turns += 1
        assert turns < 60
    per_turn = {2: 5, 3: 5, 4: 6, 5: 6}[players]
    assert turns == 1 + -(-deck // per_turn)
    assert state.result is not None and state.result["turns"] == turns
    # Nobody scored: coins, clients and stamps all equal, a shared victory (§8 step 4, R14).
    assert state.result["shared"] is True
    assert state.result["winners"] == list(range(players))
    assert_conserved(state)
