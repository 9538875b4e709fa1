"""Serving clients: RULES.md §3.4, §5 (undecided clients), §6 (matching an order)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from stacking import act, assert_conserved, assert_illegal, fill_and_ready, stacked_game

from poissonnier_tui.games.poissonnier.rules.actions import EndTurn, Serve
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase


def _serving(
    queue: Sequence[str],
    crates0: Sequence[Sequence[str]],
    hand0: Sequence[str] = (),
    crates1: Sequence[Sequence[str]] = ((),),
    hand1: Sequence[str] = (),
    next_client: str = "C33",
) -> GameState:
    """Seat 0 active in the serve step of turn 1; the queue is ``queue + [next_client]``."""
    markers0 = [f"D{20 - i}" for i in range(len(crates0))]
    markers1 = [f"M{23 - i}" for i in range(len(crates1))]
    state = stacked_game(
        2,
        hands=[list(hand0), list(hand1)],
        markers=[markers0, markers1],
        crates=[[list(c) for c in crates0], [list(c) for c in crates1]],
        queue=list(queue),
        clients_top=[next_client],
    )
    fill_and_ready(state)
    assert state.phase is Phase.SERVE and state.active == 0
    assert state.queue == [*queue, next_client]
    return state


def test_first_three_only_and_queue_closes_up() -> None:
    """§3.4: only the first 3 can be served; several serves a turn; the queue closes up."""
    state = _serving(
        ["C01", "C03", "C05", "C07"], [["T01", "T02"], ["F01"], ["M01"], ["D01"]], next_client="C02"
    )
    deck = len(state.client_deck)
    assert state.queue == ["C01", "C03", "C05", "C07", "C02"]
    assert_illegal(state, 0, Serve("C07", ("D01",)), "not_servable", "§3.4")
    assert_illegal(state, 0, Serve("C02", ("T01",)), "not_servable", "§3.4")
    act(state, 0, Serve("C03", ("F01",)))
    s = state.seats[0]
    assert state.queue == ["C01", "C05", "C07", "C02"]
    assert (s.coins, s.stamps, s.clients) == (5, 1, ["C03"])
    act(state, 0, Serve("C07", ("D01",)))  # now third in line
    assert state.queue == ["C01", "C05", "C02"]
    assert (s.coins, s.stamps, s.clients) == (6, 3, ["C03", "C07"])
    act(state, 0, Serve("C02", ("T01",)))
    assert state.queue == ["C01", "C05"]
    assert (s.coins, s.stamps, s.clients) == (9, 4, ["C03", "C07", "C02"])
    assert state.fish_discard == ["F01", "D01", "T01"]
    assert [c.fish for c in s.crates] == [["T02"], [], ["M01"], []]
    assert len(state.client_deck) == deck  # no client drawn between serves
    assert_conserved(state)


def test_fish_straight_from_hand_never_serves() -> None:
    """§3.4: hand fish, another seat's crate fish and unknown cards are refused."""
    state = _serving(["C01", "C02", "C03", "C04"], [["T01"]], hand0=["T02"], crates1=[["T03"]])
    err = assert_illegal(state, 0, Serve("C01", ("T02",)), "fish_not_usable", "§3.4")
    assert "your hand" in err.message
    assert_illegal(state, 0, Serve("C01", ("T03",)), "fish_not_usable", "§3.4")
    assert_illegal(state, 0, Serve("C01", ("T09",)), "fish_not_usable", "§3.4")
    assert_illegal(state, 0, Serve("C01", ("T01", "T02")), "fish_not_usable", "§3.4")
    act(state, 0, Serve("C01", ("T01",)))
    assert state.seats[0].hand == ["T02"]


def test_serve_only_by_active_in_serve_step() -> None:
    """§3.4: nobody serves during the fill step; only the active seat serves."""
    state = stacked_game(
        2, crates=[[["T01"]], [["T02"]]], queue=["C01", "C02", "C03", "C04"], clients_top=["C05"]
    )
    assert_illegal(state, 0, Serve("C01", ("T01",)), "not_serve", "§3.4")
    fill_and_ready(state)
    assert_illegal(state, 1, Serve("C01", ("T02",)), "not_active", "§3.4")
    assert_illegal(state, 1, EndTurn(), "not_active", "§3.4")


def test_order_must_match_exactly() -> None:
    """§6: exactly the multiset asked: not fewer, not more, not other fish."""
    state = _serving(["C09", "C07", "C03", "C04"], [["T01", "T02"], ["F01"], ["M01"], ["P01"]])
    assert_illegal(state, 0, Serve("C09", ("T01",)), "bad_order", "§6")  # TF: missing F
    assert_illegal(state, 0, Serve("C09", ("T01", "F01", "M01")), "bad_order", "§6")  # extra
    assert_illegal(state, 0, Serve("C09", ("T01", "T02")), "bad_order", "§6")  # wrong fish
    assert_illegal(state, 0, Serve("C09", ("T01", "T01")), "bad_order", "§6")  # named twice
    assert_illegal(state, 0, Serve("C07", ("P01",)), "bad_order", "§6")  # rotten is not douteux
    assert_illegal(state, 0, Serve("C03", ()), "bad_order", "§6")  # nothing given
    act(state, 0, Serve("C09", ("F01", "T01")))  # the order of the list does not matter
    assert state.seats[0].coins == 3 + 5
    assert sorted(state.fish_discard) == ["F01", "T01"]


def test_glacon_raises_one_fish_one_level() -> None:
    """§1, §6: a glaçon makes one fish one level fresher; the glaçon is then discarded."""
    state = _serving(
        ["C01", "C05", "C08", "C04"],
        [["F01"], ["D01"], ["M01", "M02"]],
        hand0=["G01", "G02", "G03"],
    )
    act(state, 0, Serve("C01", ("F01",), glacons=("F01",)))  # T from F
    assert state.seats[0].hand == ["G02", "G03"]
    assert state.fish_discard == ["F01", "G01"]
    # C08 asks TT: M iced is only F; two glaçons on one fish are refused (one level each).
    assert_illegal(state, 0, Serve("C08", ("M01",), glacons=("M01",)), "bad_order", "§6")
    assert_illegal(state, 0, Serve("C08", ("M01",), glacons=("M01", "M01")), "bad_order", "§6")
    assert_illegal(
        state, 0, Serve("C08", ("M01", "M02"), glacons=("M01", "M02")), "bad_order", "§6"
    )
    act(state, 0, Serve("C05", ("D01",), glacons=("D01",)))  # M from D
    assert state.seats[0].hand == ["G03"]
    assert state.seats[0].coins == 3 + 3 + 1
    assert_conserved(state)


def test_glacon_refusals() -> None:
    """§1, §6: never on a rotten or très frais fish, only on a fish of the order, only if held."""
    state = _serving(
        ["C07", "C01", "C08", "C03"], [["P01"], ["T01"], ["F01", "F02"], ["M01"]], hand0=["G01"]
    )
    assert_illegal(state, 0, Serve("C07", ("P01",), glacons=("P01",)), "bad_order", "§1")
    assert_illegal(state, 0, Serve("C01", ("T01",), glacons=("T01",)), "bad_order", "§1")
    assert_illegal(state, 0, Serve("C01", ("T01",), glacons=("F01",)), "bad_order", "§6")
    # Two glaçons for TT from FF, with one glaçon in hand.
    assert_illegal(
        state, 0, Serve("C08", ("F01", "F02"), glacons=("F01", "F02")), "no_special", "§3.4"
    )
    act(state, 0, Serve("C01", ("T01",)))
    assert state.seats[0].hand == ["G01"]  # an unused glaçon stays


def test_two_glacons_on_two_fish() -> None:
    """§6: each glaçon raises one chosen fish; two glaçons raise two fish."""
    state = _serving(["C08", "C02", "C03", "C04"], [["F01", "F02"]], hand0=["G01", "A01", "G02"])
    act(state, 0, Serve("C08", ("F01", "F02"), glacons=("F02", "F01")))
    assert state.seats[0].hand == ["A01"]
    assert sorted(state.fish_discard) == ["F01", "F02", "G01", "G02"]
    assert state.seats[0].coins == 3 + 6


@pytest.mark.parametrize(
    ("client", "code", "coins"),
    [("C01", "T", 3), ("C03", "F", 2), ("C05", "M", 1), ("C07", "D", 1)],
)
def test_arrivage_stands_for_any_freshness_but_rotten(client: str, code: str, coins: int) -> None:
    """§1, §6, R22: an arrivage counts as one fish of a declared freshness T, F, M or D."""
    state = _serving([client, "C20", "C30", "C31"], [["P01"]], hand0=["A01"])
    assert_illegal(state, 0, Serve(client, (), arrivages=("P",)), "bad_order", "§1")
    act(state, 0, Serve(client, (), arrivages=(code,)))
    assert state.seats[0].hand == []
    assert state.seats[0].coins == 3 + coins
    assert state.fish_discard == ["A01"]
    assert state.seats[0].crates[0].fish == ["P01"]


def test_arrivage_with_fish_and_wrong_declaration() -> None:
    """§6: fish plus arrivages must give the order exactly; arrivages must be held."""
    state = _serving(["C20", "C08", "C03", "C04"], [["T01"], ["F01"]], hand0=["A01", "G01"])
    assert_illegal(state, 0, Serve("C08", ("T01",), arrivages=("F",)), "bad_order", "§6")
    assert_illegal(
        state, 0, Serve("C08", (), arrivages=("T", "T")), "no_special", "§3.4"
    )  # one arrivage only
    # TTF = T01 + F01 iced to T + an arrivage for F.
    act(state, 0, Serve("C20", ("T01", "F01"), glacons=("F01",), arrivages=("F",)))
    s = state.seats[0]
    assert (s.coins, s.stamps, s.hand) == (3 + 8, 2, [])
    assert sorted(state.fish_discard) == ["A01", "F01", "G01", "T01"]


def test_undecided_takes_any_fish_rotten_included() -> None:
    """§5: an undecided client takes exactly its number of fish, any freshness, rotten too."""
    state = _serving(["U1", "U3", "C03", "C04"], [["P01", "P02"], ["T01"]], hand0=["A01", "G01"])
    assert_illegal(state, 0, Serve("U3", ("P01", "T01")), "bad_order", "§6")  # takes 3
    assert_illegal(state, 0, Serve("U1", ("P01", "P02", "T01")), "bad_order", "§6")
    assert_illegal(state, 0, Serve("U1", ("P01", "T01"), glacons=("T01",)), "bad_order", "§1")
    act(state, 0, Serve("U1", ("P01", "T01")))
    s = state.seats[0]
    assert (s.coins, s.stamps, s.clients) == (4, 1, ["U1"])
    assert state.fish_discard == ["P01", "T01"]
    # U3: one rotten fish and the arrivage count as 2 of its 3: refused; a glaçon is wasted.
    assert_illegal(state, 0, Serve("U3", ("P02",), arrivages=("D",)), "bad_order", "§6")
    assert_illegal(state, 0, Serve("U3", ("P02",), glacons=("P02",)), "bad_order", "§1")


def test_undecided_with_an_arrivage() -> None:
    """§6: an arrivage may count as one of an undecided client's fish."""
    state = _serving(["U2", "U4", "C03", "C04"], [["P01"], ["M01"]], hand0=["A01", "G01"])
    assert_illegal(state, 0, Serve("U2", ("M01",), glacons=("M01",)), "bad_order", "§6")
    act(state, 0, Serve("U2", ("P01",), arrivages=("M",)))
    s = state.seats[0]
    assert (s.coins, s.stamps, s.hand) == (4, 1, ["G01"])
    assert sorted(state.fish_discard) == ["A01", "P01"]


def test_inspector_or_served_client_cannot_be_served() -> None:
    """§3.4, §5: only clients in the first 3 of the queue; inspectors never are."""
    state = _serving(["C01", "C02", "C03", "C04"], [["T01", "T02"]])
    assert_illegal(state, 0, Serve("I1", ()), "not_servable", "§3.4")
    assert_illegal(state, 0, Serve("Z9", ()), "not_servable", "§3.4")
    act(state, 0, Serve("C01", ("T01",)))
    assert_illegal(state, 0, Serve("C01", ("T02",)), "not_servable", "§3.4")


def test_end_turn_passes_to_the_left() -> None:
    """§3, §3.4: the active player ends the turn; the next seat becomes active and draws."""
    state = _serving(["C01", "C02", "C03", "C04"], [["T01"]])
    act(state, 0, EndTurn())
    assert (state.turn, state.active, state.phase) == (2, 1, Phase.FILL)
    assert [s.ready for s in state.seats] == [False, False]
    assert state.seats[0].crates[0].fish == ["T01"]  # crates keep their fish between turns
