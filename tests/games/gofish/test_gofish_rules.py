"""Go Fish rules, one stacked-deck scenario per clause and ruling of docs/GOFISH.md.

Each test builds the exact cards it needs (``gofish_stacking``) and asserts
exact hands, books, whose turn, stock size and result; every refused action
raises with its code and rule and changes nothing (``assert_illegal``).
"""

from __future__ import annotations

import pytest
from gofish_stacking import (
    assert_conserved,
    assert_illegal,
    events,
    stacked_deal,
    stacked_game,
)

from poissonnier_tui.games.gofish.match import GoFishGame
from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard
from poissonnier_tui.games.gofish.rules.engine import apply, legal_actions, new_game, waiting_on
from poissonnier_tui.games.gofish.rules.state import Options
from poissonnier_tui.games.gofish.rules.view import view_for

CARD = Options(variant="card")
BLUFF = Options(variant="card", bluff=True)
PLAY_ON = Options(play_on=True)


# --------------------------------------------------------------------------- §1, §2, G1, G2


def test_s1_the_deck_is_52_distinct_cards_of_13_ranks_and_4_suits() -> None:
    """docs/GOFISH.md §1."""
    assert len(cards.DECK) == len(set(cards.DECK)) == 52
    assert cards.DECK[:5] == ("AC", "AD", "AH", "AS", "2C")
    assert "10H" in cards.DECK and cards.rank_of("10H") == "10" and cards.suit_of("10H") == "H"
    assert [cards.rank_of(c) for c in cards.DECK].count("K") == 4


@pytest.mark.parametrize("players", [1, 7])
def test_s1_two_to_six_players(players: int) -> None:
    """docs/GOFISH.md §1: other table sizes are refused."""
    with pytest.raises(ValueError, match="2 to 6 players"):
        new_game(1, players)


@pytest.mark.parametrize(("players", "hand", "stock"), [(2, 7, 38), (3, 5, 37), (6, 5, 22)])
def test_s2_deal_sizes(players: int, hand: int, stock: int) -> None:
    """docs/GOFISH.md §2: 7 each with two players, 5 with three to six; the rest is the stock."""
    state = new_game(11, players)
    assert [len(h) + 4 * len(b) for h, b in zip(state.hands, state.books, strict=True)] == [
        hand
    ] * players
    assert len(state.stock) == stock
    assert events(state, "deal") == [
        {"t": "deal", "players": players, "hand": hand, "stock": stock, "first": state.first_player}
    ]
    assert_conserved(state)


def test_s2_the_seed_drives_the_shuffle() -> None:
    """docs/GOFISH.md §2: the same seed deals the same game, another seed another."""
    a, b, c = new_game(5, 4), new_game(5, 4), new_game(6, 4)
    assert (a.hands, a.stock, a.first_player) == (b.hands, b.stock, b.first_player)
    assert a.hands != c.hands


def test_s2_a_stacked_deck_deals_round_the_table() -> None:
    """docs/GOFISH.md §2 (the deck helper the other tests rely on)."""
    hands = [["AC", "2C", "3C", "4C", "5C"], ["AD", "2D", "3D", "4D", "5D"],
             ["6C", "6D", "6H", "7C", "7D"]]  # fmt: skip
    state = new_game(3, 3, deck=stacked_deal(3, hands))
    assert state.hands == hands
    assert len(state.stock) == 37 and state.stock[-1] == "AH"  # first unnamed card, on top


def test_g1_the_seed_draws_the_first_player_unless_the_host_picks() -> None:
    """docs/GOFISH.md G1 (and G11's ``first_player``)."""
    firsts = {new_game(seed, 4).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = new_game(9, 4)
    assert state.active == state.first_player == new_game(9, 4).first_player
    assert waiting_on(state) == {state.first_player}
    assert events(state, "turn") == [{"t": "turn", "seat": state.first_player, "turn": 1}]
    assert new_game(9, 4, first_player=2).active == 2
    with pytest.raises(ValueError):
        new_game(9, 4, first_player=4)


def test_g2_a_dealt_book_is_laid_before_the_first_turn() -> None:
    """docs/GOFISH.md G2."""
    hands = [["QC", "QD", "QH", "QS", "2C"], ["AD", "2D", "3D", "4D", "5D"],
             ["AC", "3C", "4C", "5C", "6C"]]  # fmt: skip
    state = new_game(3, 3, first_player=1, deck=stacked_deal(3, hands))
    assert state.books == [["Q"], [], []]
    assert state.hands[0] == ["2C"]
    assert [e["t"] for e in state.log] == ["deal", "book", "turn"]
    assert state.log[1] == {"t": "book", "seat": 0, "rank": "Q"}
    assert state.active == 1 and not state.over
    assert_conserved(state)


# --------------------------------------------------------------------------- §3


def test_s3_a_hit_hands_over_every_card_of_the_rank_and_the_asker_asks_again() -> None:
    """docs/GOFISH.md §3.2."""
    state = stacked_game([["QC", "3S"], ["QH", "QD", "5C"], ["QS", "7D"]], stock_top=["8C"])
    apply(state, 0, Ask(1, "Q"))
    assert state.hands == [["QC", "3S", "QH", "QD"], ["5C"], ["QS", "7D"]]
    assert state.active == 0 and state.turn == 1 and len(state.stock) == 52 - 7
    assert state.log[-1] == {"t": "ask", "seat": 0, "target": 1, "rank": "Q", "answer": "gave",
                             "count": 2}  # fmt: skip
    # Any player, any rank held, the same rank included.
    assert Ask(2, "Q") in legal_actions(state, 0) and Ask(1, "3") in legal_actions(state, 0)
    apply(state, 0, Ask(2, "Q"))
    assert state.books[0] == ["Q"] and state.hands[0] == ["3S"]


def test_s3_a_miss_is_go_fish_and_the_turn_passes_to_the_next_seat() -> None:
    """docs/GOFISH.md §3.3: the drawn card is kept, not shown, and seat 1 plays."""
    state = stacked_game([["QC", "3S"], ["5C", "6C"], ["7C", "8C"]], stock_top=["9D", "9H"])
    stock = len(state.stock)
    apply(state, 0, Ask(2, "Q"))
    assert state.hands[0] == ["QC", "3S", "9D"]
    assert len(state.stock) == stock - 1 and state.stock[-1] == "9H"
    assert state.active == 1 and state.turn == 2
    assert state.log[-3:] == [
        {"t": "ask", "seat": 0, "target": 2, "rank": "Q", "answer": "go_fish", "count": 0},
        {"t": "draw", "seat": 0, "shown": None, "why": "go_fish"},
        {"t": "turn", "seat": 1, "turn": 2},
    ]


def test_s3_the_last_seat_passes_to_seat_zero() -> None:
    """docs/GOFISH.md §3.3: "next" wraps round the table."""
    state = stacked_game([["5C"], ["6C"], ["QC", "7C"]], stock_top=["9D"], active=2)
    apply(state, 2, Ask(0, "Q"))
    assert state.active == 0


def test_s3_drawing_the_rank_asked_for_shows_it_and_asks_again() -> None:
    """docs/GOFISH.md §3.3."""
    state = stacked_game([["QC", "3S"], ["5C", "6C"]], stock_top=["QD"])
    apply(state, 0, Ask(1, "Q"))
    assert state.hands[0] == ["QC", "3S", "QD"]
    assert state.active == 0 and state.turn == 1
    assert state.log[-1] == {"t": "draw", "seat": 0, "shown": "QD", "why": "go_fish"}


def test_s3_illegal_asks_are_refused_and_change_nothing() -> None:
    """docs/GOFISH.md §3.1 (and §1 for seats, §3 for turns)."""
    state = stacked_game([["QC", "3S"], ["5C", "6C"], ["7C"]])
    assert_illegal(state, 1, Ask(0, "5"), "not_your_turn", "§3")
    assert_illegal(state, 0, Ask(0, "Q"), "ask_self", "§3")
    assert_illegal(state, 0, Ask(3, "Q"), "no_such_seat", "§1")
    assert_illegal(state, 5, Ask(0, "Q"), "no_such_seat", "§1")
    assert_illegal(state, 0, Ask(1, "5"), "rank_not_held", "§3")
    assert_illegal(state, 0, AskCard(1, "Q", "D"), "wrong_variant", "§3")
    assert legal_actions(state, 0) == [Ask(1, "3"), Ask(1, "Q"), Ask(2, "3"), Ask(2, "Q")]
    assert legal_actions(state, 1) == []


# --------------------------------------------------------------------------- §4


def test_s4_four_of_a_rank_received_become_a_book_that_never_moves() -> None:
    """docs/GOFISH.md §4: a book from a hit; its rank can never be asked for again."""
    state = stacked_game([["QC", "QD", "QH", "3S"], ["QS", "5C"]])
    apply(state, 0, Ask(1, "Q"))
    assert state.books == [["Q"], []]
    assert state.hands == [["3S"], ["5C"]]
    assert state.log[-1] == {"t": "book", "seat": 0, "rank": "Q"}
    assert state.active == 0 and not state.over
    assert_illegal(state, 0, Ask(1, "Q"), "rank_not_held", "§3")
    assert_conserved(state)


def test_s4_four_of_a_rank_drawn_become_a_book() -> None:
    """docs/GOFISH.md §4: the shown draw completes the book."""
    state = stacked_game([["QC", "QD", "QH", "3S"], ["5C", "6C"]], stock_top=["QS"])
    apply(state, 0, Ask(1, "Q"))
    assert state.books == [["Q"], []] and state.hands[0] == ["3S"]
    assert [e["t"] for e in state.log[-3:]] == ["ask", "draw", "book"]
    assert state.active == 0


# --------------------------------------------------------------------------- §5, G3, G8


def test_s5_the_game_ends_when_a_hand_is_emptied_by_a_hit() -> None:
    """docs/GOFISH.md §5: the asked player's hand is empty, so it is over at once."""
    state = stacked_game([["3C", "4C"], ["3D"], ["5C"]], books=[["K"], [], []])
    apply(state, 0, Ask(1, "3"))
    assert state.over and waiting_on(state) == frozenset()
    assert state.result == {
        "winners": [0],
        "shared": False,
        "scores": [
            {"seat": 0, "books": 1, "ranks": ["K"]},
            {"seat": 1, "books": 0, "ranks": []},
            {"seat": 2, "books": 0, "ranks": []},
        ],
        "seed": 1,
        "turns": 1,
    }
    assert state.log[-1] == {"t": "over", "winners": [0], "shared": False}
    assert legal_actions(state, 0) == []
    assert_illegal(state, 0, Ask(2, "3"), "game_over", "§5")


def test_s5_the_game_ends_when_a_book_empties_the_askers_hand() -> None:
    """docs/GOFISH.md §5, checked after the book (G8)."""
    state = stacked_game([["QC", "QD", "QH"], ["QS", "5C"]])
    apply(state, 0, Ask(1, "Q"))
    assert state.over and state.result is not None and state.result["winners"] == [0]


def test_g8_the_draw_that_empties_the_stock_ends_the_game_after_its_book() -> None:
    """docs/GOFISH.md §5 and G8: shown, booked, then the end — no second ask."""
    books = [["A", "2", "3", "4", "5"], ["6", "7", "8", "9", "10"]]
    hands = [["QC", "QD", "QH", "JC", "KS"], ["JD", "JH", "JS", "KC", "KD", "KH"]]
    state = stacked_game(hands, books=books, stock=["QS"])
    apply(state, 0, Ask(1, "Q"))
    assert [e["t"] for e in state.log[-5:]] == ["ask", "draw", "stock_empty", "book", "over"]
    assert state.over and state.stock == [] and state.hands[0] == ["JC", "KS"]
    assert state.result is not None
    assert state.result["winners"] == [0] and state.result["scores"][0]["books"] == 6
    assert_conserved(state)


def test_g3_equal_most_books_share_the_victory() -> None:
    """docs/GOFISH.md §5 and G3."""
    state = stacked_game([["QC", "QD", "QH"], ["QS", "5C"], ["6C"]], books=[["A"], ["2", "3"], []])
    apply(state, 0, Ask(1, "Q"))
    assert state.result is not None
    assert state.result["winners"] == [0, 1] and state.result["shared"] is True
    assert [s["books"] for s in state.result["scores"]] == [2, 2, 0]
    assert state.log[-1] == {"t": "over", "winners": [0, 1], "shared": True}


# --------------------------------------------------------------------------- §6, G4, G9


def test_s6_a_hit_on_a_named_card_hands_over_that_card_only() -> None:
    """docs/GOFISH.md §6."""
    state = stacked_game([["QC", "3S"], ["QH", "QD", "5C"]], options=CARD)
    apply(state, 0, AskCard(1, "Q", "H"))
    assert state.hands == [["QC", "3S", "QH"], ["QD", "5C"]]
    assert state.active == 0
    assert state.log[-1] == {"t": "ask", "seat": 0, "target": 1, "rank": "Q", "suit": "H",
                             "answer": "gave", "count": 1}  # fmt: skip


def test_s6_drawing_the_very_card_named_gives_another_ask() -> None:
    """docs/GOFISH.md §6."""
    state = stacked_game([["QC", "3S"], ["QD", "5C"]], stock_top=["QS"], options=CARD)
    apply(state, 0, AskCard(1, "Q", "S"))
    assert state.active == 0 and state.hands[0] == ["QC", "3S", "QS"]
    assert state.log[-1] == {"t": "draw", "seat": 0, "shown": "QS", "why": "go_fish"}


def test_s6_drawing_another_card_of_the_rank_ends_the_turn_unshown() -> None:
    """docs/GOFISH.md §6: the rank is not enough, it must be the card named."""
    state = stacked_game([["QC", "3S"], ["QD", "5C"]], stock_top=["QH"], options=CARD)
    apply(state, 0, AskCard(1, "Q", "S"))
    assert state.active == 1 and state.hands[0] == ["QC", "3S", "QH"]
    assert state.log[-2] == {"t": "draw", "seat": 0, "shown": None, "why": "go_fish"}


def test_s6_illegal_card_asks() -> None:
    """docs/GOFISH.md §6 and G4: a rank ask at a card table; a rank not held; a bluff
    when the table forbids it."""
    state = stacked_game([["QC", "3S"], ["QD", "5C"]], options=CARD)
    assert_illegal(state, 0, Ask(1, "Q"), "wrong_variant", "§6")
    assert_illegal(state, 0, AskCard(1, "5", "C"), "rank_not_held", "§6")
    assert_illegal(state, 0, AskCard(1, "Q", "C"), "own_card", "G4")
    assert legal_actions(state, 0) == [
        AskCard(1, "3", "C"), AskCard(1, "3", "D"), AskCard(1, "3", "H"),
        AskCard(1, "Q", "D"), AskCard(1, "Q", "H"), AskCard(1, "Q", "S"),
    ]  # fmt: skip


def test_g4_a_bluff_is_go_fish_and_ends_the_turn_whatever_is_drawn() -> None:
    """docs/GOFISH.md G4: naming a card of one's own hand, at a table that allows it."""
    state = stacked_game([["QC", "3S"], ["QD", "5C"]], stock_top=["QS"], options=BLUFF)
    assert AskCard(1, "Q", "C") in legal_actions(state, 0)
    apply(state, 0, AskCard(1, "Q", "C"))
    assert state.hands == [["QC", "3S", "QS"], ["QD", "5C"]]  # the target kept its queen
    assert state.active == 1 and state.turn == 2


def test_g9_a_bluff_looks_to_the_table_like_an_honest_miss() -> None:
    """docs/GOFISH.md G9: the events seen by the table are those of an ordinary miss."""
    bluff = stacked_game([["QC", "3S"], ["QD", "5C"], ["6C"]], stock_top=["9D"], options=BLUFF)
    honest = stacked_game([["QC", "3S"], ["QD", "5C"], ["6C"]], stock_top=["9D"], options=BLUFF)
    apply(bluff, 0, AskCard(1, "Q", "C"))
    apply(honest, 0, AskCard(1, "Q", "H"))
    strip = [{k: v for k, v in e.items() if k != "suit"} for e in bluff.log]
    assert strip == [{k: v for k, v in e.items() if k != "suit"} for e in honest.log]
    other = view_for(bluff, 2)
    assert "bluff" not in str(other["log"])
    assert other["hand_sizes"] == view_for(honest, 2)["hand_sizes"] == [3, 2, 1]


# --------------------------------------------------------------------------- §7, G5, G6, G7

# Ten ranks booked leave J, Q and 5 in play: twelve cards for the "play on" endgames.
TEN_BOOKS = [["A", "2", "3", "4"], ["6", "7", "8"], ["9", "10", "K"]]


def test_s7_with_an_empty_stock_a_miss_passes_the_turn_to_the_player_asked() -> None:
    """docs/GOFISH.md §7: nobody says "Go fish"; the game goes on."""
    hands = [["QC", "JC", "5C"], ["QD", "JD", "JH"], ["QH", "QS", "5D", "5H", "5S", "JS"]]
    state = stacked_game(hands, books=TEN_BOOKS, stock=[], options=PLAY_ON)
    apply(state, 0, Ask(1, "5"))
    assert not state.over and state.active == 1 and state.turn == 2
    assert state.log[-2:] == [
        {"t": "ask", "seat": 0, "target": 1, "rank": "5", "answer": "nothing", "count": 0},
        {"t": "turn", "seat": 1, "turn": 2},
    ]
    assert state.hands == hands  # nothing moved


def test_s7_play_on_ends_when_the_thirteenth_book_is_down() -> None:
    """docs/GOFISH.md §7: the end of §5 is replaced."""
    books = [["A", "2", "3", "4", "5", "6"], ["7", "8", "9"], ["10", "J", "K"]]
    state = stacked_game([["QC", "QD"], ["QH"], ["QS"]], books=books, stock=[], options=PLAY_ON)
    apply(state, 0, Ask(1, "Q"))  # seat 1's hand is now empty: §5 would have ended it
    assert not state.over and state.hands == [["QC", "QD", "QH"], [], ["QS"]]
    apply(state, 0, Ask(2, "Q"))
    assert state.over and state.books[0][-1] == "Q"
    assert state.result is not None
    assert state.result["winners"] == [0] and state.result["scores"][0]["books"] == 7


def test_g5_an_empty_hand_with_an_empty_stock_is_out_of_play() -> None:
    """docs/GOFISH.md G5: it cannot be asked, and its turns are skipped."""
    books = [["A", "2", "3"], ["4", "6", "7"], ["8", "9", "10"], ["K"]]
    hands = [["QC", "QD", "QH"], [], ["QS", "5C", "5D", "JC", "JD"], ["5H", "5S", "JH", "JS"]]
    state = stacked_game(hands, books=books, stock=[], options=PLAY_ON)
    assert view_for(state, None)["out"] == [False, True, False, False]
    assert_illegal(state, 0, Ask(1, "Q"), "target_out", "G5")
    assert all(a.target != 1 for a in legal_actions(state, 0))
    apply(state, 0, Ask(2, "Q"))  # a book empties seat 0's hand: out too
    assert state.books[0] == ["A", "2", "3", "Q"]
    assert state.active == 2 and state.turn == 2  # seats 0 and 1 are skipped
    assert view_for(state, None)["out"] == [True, True, False, False]


def test_g6_play_on_refills_an_emptied_hand_from_the_stock_at_once() -> None:
    """docs/GOFISH.md G6: both the asker (after a book) and the target refill, asker first."""
    state = stacked_game([["QC", "QD", "QH"], ["QS"], ["5C"]], stock_top=["7C", "8C"],
                         options=PLAY_ON)  # fmt: skip
    apply(state, 0, Ask(1, "Q"))
    assert state.hands == [["7C"], ["8C"], ["5C"]]
    assert state.active == 0 and not state.over
    assert state.log[-3:] == [
        {"t": "book", "seat": 0, "rank": "Q"},
        {"t": "draw", "seat": 0, "shown": None, "why": "refill"},
        {"t": "draw", "seat": 1, "shown": None, "why": "refill"},
    ]


def test_g7_a_miss_that_takes_the_last_card_passes_to_the_next_seat() -> None:
    """docs/GOFISH.md G7: not to the player asked, although the stock is now empty."""
    hands = [["QC", "JC", "5C"], ["QD", "JD", "JH", "JS"], ["QH", "QS", "5D", "5H"]]
    state = stacked_game(hands, books=TEN_BOOKS, stock=["5S"], options=PLAY_ON)
    apply(state, 0, Ask(2, "J"))
    assert state.stock == [] and state.active == 1 and not state.over
    assert [e["t"] for e in state.log[-4:]] == ["ask", "draw", "stock_empty", "turn"]


# --------------------------------------------------------------------------- §8, G10


def test_s8_a_view_shows_its_own_hand_and_only_sizes_of_the_others() -> None:
    """docs/GOFISH.md §8."""
    state = stacked_game([["QC", "3S"], ["QH", "QD", "5C"], ["7D"]], stock_top=["8C"],
                         books=[["K"], [], []])  # fmt: skip
    view = view_for(state, 1)
    assert view["me"] == {"hand": ["5C", "QD", "QH"], "drawn": []}
    assert view["hand_sizes"] == [2, 3, 1] and view["stock"] == 52 - 6 - 4
    assert view["books"] == [["K"], [], []]
    assert view["options"] == {"variant": "rank", "bluff": False, "play_on": False}
    assert view["waiting_on"] == [0] and view["result"] is None and view["over"] is False
    spectator = view_for(state, None)
    assert spectator["me"] is None and spectator["seat"] is None
    assert "QC" not in str(view) and "8C" not in str(spectator)
    with pytest.raises(ValueError):
        view_for(state, 3)


def test_g10_a_rank_give_shows_the_count_not_the_suits_and_a_shown_draw_shows_its_card() -> None:
    """docs/GOFISH.md §8 and G10."""
    state = stacked_game([["QC", "3S"], ["QH", "QD", "5C"], ["7D"]], stock_top=["3D", "4D"])
    apply(state, 0, Ask(1, "Q"))
    apply(state, 0, Ask(2, "3"))  # miss, draws 3D: shown
    view = view_for(state, 2)
    assert "QH" not in str(view) and "QD" not in str(view)
    assert view["log"][-1] == {"t": "draw", "seat": 0, "shown": "3D", "why": "go_fish"}
    assert view["hand_sizes"] == [5, 1, 1]


# --------------------------------------------------------------------------- G11, G12, G13


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "suit"},
        {"variant": 1},
        {"bluff": True},  # bluff belongs to the card variant
        {"variant": "card", "bluff": "yes"},
        {"play_on": 1},
        {"first_player": "0"},
        {"first_player": 6},
        {"colour": "red"},
    ],
)
def test_g11_bad_options_are_refused_before_play(options: dict[str, object]) -> None:
    """docs/GOFISH.md G11."""
    with pytest.raises(ValueError):
        GoFishGame().new_match(1, 6, options)


def test_g11_good_options_reach_the_view() -> None:
    """docs/GOFISH.md G11."""
    match = GoFishGame().new_match(
        3, 4, {"variant": "card", "bluff": True, "play_on": True, "first_player": 3}
    )
    view = match.view(0)
    assert view["options"] == {"variant": "card", "bluff": True, "play_on": True}
    assert view["active"] == 3
    with pytest.raises(ValueError):
        GoFishGame().new_match(3, 7, {})


def test_g12_an_absent_player_makes_the_first_legal_ask_that_is_not_a_bluff() -> None:
    """docs/GOFISH.md G12."""
    match = GoFishGame().new_match(1, 3, {"variant": "card", "bluff": True, "first_player": 0})
    match.state.hands[0] = ["AC", "3S"]
    match.state.hands[1] = ["AD"]
    match.state.stock = [c for c in match.state.stock if c not in ("AC", "3S", "AD")]
    assert match.timeout_action(0) == {"type": "ask_card", "target": 1, "rank": "A", "suit": "D"}
    assert match.timeout_action(1) is None
    rank = GoFishGame().new_match(1, 3, {"first_player": 2})
    held = sorted({cards.rank_of(c) for c in rank.state.hands[2]}, key=cards.RANK_INDEX.get)
    assert rank.timeout_action(2) == {"type": "ask", "target": 0, "rank": held[0]}


def test_g13_turns_count_each_players_run_of_asks() -> None:
    """docs/GOFISH.md G13: two misses make turns 2 and 3; a hit keeps the turn."""
    state = stacked_game([["QC", "3S"], ["3D", "5C"], ["7D"]], stock_top=["8C", "9C", "10C"])
    apply(state, 0, Ask(2, "Q"))
    apply(state, 1, Ask(0, "3"))
    assert state.turn == 2 and state.active == 1
    apply(state, 1, Ask(2, "5"))
    assert state.turn == 3 and state.active == 2
    assert [e["turn"] for e in events(state, "turn")] == [1, 2, 3]
