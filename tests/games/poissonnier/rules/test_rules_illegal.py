"""Refusals common to every action: seats, malformed wire actions, the game over (§3, §8).

Rule-specific refusals live with their rule (test_rules_turn, _serve, _deals,
_crates_end); every one of them goes through ``stacking.assert_illegal``, which
checks the code, the rule cited and that the state is unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest
from stacking import act, assert_illegal, fill_and_ready, snapshot, stacked_game

from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    EndTurn,
    Place,
    Propose,
    Ready,
    Serve,
    parse_action,
    to_wire,
)
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire, legal_actions, new_game
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import Phase


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_no_such_seat(seat: int) -> None:
    """§3: seats are 0..n-1."""
    state = new_game(1, 3)
    assert_illegal(state, seat, Ready(), "bad_seat", "§3")


@pytest.mark.parametrize(
    "wire",
    [
        {},
        {"type": "dance"},
        {"type": "place", "cards": ["T01"]},  # missing crate
        {"type": "place", "cards": "T01", "crate": 0},
        {"type": "place", "cards": ["T01"], "crate": -1},
        {"type": "place", "cards": ["T01"], "crate": True},
        {"type": "ready", "extra": 1},
        {"type": "serve", "client": "C0001"},
        {"type": "serve", "client": "C01", "fish": ["T01"] * 33},
        {"type": "propose", "seller": 1, "fish": [[0]]},
        {"type": "propose", "seller": 1, "coins": 1001},
        {"type": "accept"},
        {"type": "accept", "proposal": "1"},
    ],
)
def test_malformed_wire_actions(wire: dict[str, Any]) -> None:
    """Wire checks: unknown types and missing, unknown or mistyped fields are refused."""
    state = new_game(1, 2)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        apply_wire(state, 0, wire)
    assert (info.value.code, info.value.rule) == ("bad_action", "wire")
    assert snapshot(state) == before


def test_wire_round_trip_of_every_legal_action() -> None:
    """The wire form of every listed legal action parses back to the same action."""
    state = stacked_game(
        2,
        hands=[["T01", "G01"], ["F01"]],
        crates=[[["T02"]], [["F02", "F03"]]],
        queue=["C01", "C03", "C05", "C07"],
        clients_top=["C08"],
    )
    seen = set()
    for actions in (legal_actions(state, 0), legal_actions(state, 1)):
        for action in actions:
            assert parse_action(to_wire(action)) == action
            seen.add(type(action).__name__)
    fill_and_ready(state)
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    for seat in (0, 1):
        for action in legal_actions(state, seat):
            assert parse_action(to_wire(action)) == action
            seen.add(type(action).__name__)
    assert seen >= {"Place", "TakeBack", "Ready", "BuyCrate", "Serve", "Propose", "Accept"}
    assert to_wire(Serve("C01", ("F01",), ("F01",), ("T",))) == {
        "type": "serve", "client": "C01", "fish": ["F01"], "glacons": ["F01"], "arrivages": ["T"],
    }  # fmt: skip


def test_apply_wire_applies() -> None:
    """A well-formed wire action is carried out like its typed form."""
    state = stacked_game(2, hands=[["T01"], []], clients_top=["C01"])
    apply_wire(state, 0, {"type": "place", "cards": ["T01"], "crate": 0})
    assert state.seats[0].draft_crates is not None
    assert state.seats[0].draft_crates[0].fish == ["T01"]


def test_everything_refused_once_over() -> None:
    """§8: once the game is over no action is accepted, for any seat."""
    state = stacked_game(3, fish_deck_size=0, clients_top=["C01"])
    fill_and_ready(state)
    act(state, 0, EndTurn())
    assert state.phase is Phase.OVER
    for seat in range(3):
        for action in (Ready(), EndTurn(), BuyCrate(), Place(("T01",), 0), Accept(1)):
            assert_illegal(state, seat, action, "game_over", "§8")
        assert legal_actions(state, seat) == []


def test_end_turn_only_in_serve() -> None:
    """§3.4: the turn ends only from the serve step."""
    state = new_game(1, 2, first_player=0)
    assert_illegal(state, 0, EndTurn(), "not_serve", "§3.4")


def test_accept_of_unknown_proposal() -> None:
    """§4: only open proposals can be answered."""
    state = new_game(1, 2, first_player=0)
    assert_illegal(state, 1, Accept(1), "no_proposal", "§4")


def test_rearranging_is_capped_per_fill_step() -> None:
    """R6 (RULES.md §3.2): at most FILL_MOVES_MAX places and take-backs per fill step;
    the refused move changes nothing, and ready is still open to the seat."""
    from poissonnier_tui.games.poissonnier.rules import cards
    from poissonnier_tui.games.poissonnier.rules.engine import FILL_MOVES_MAX

    state = new_game(5, 2)
    fish = next(c for c in state.seats[0].draft_hand or [] if not cards.is_special(c))
    place = {"type": "place", "cards": [fish], "crate": 0}
    take = {"type": "take_back", "crate": 0}
    for n in range(FILL_MOVES_MAX):
        apply_wire(state, 0, place if n % 2 == 0 else take)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        apply_wire(state, 0, place)
    assert info.value.code == "too_many_moves" and info.value.rule == "R6"
    assert snapshot(state) == before
    # legal_actions offers only what apply accepts: no more places or take-backs.
    assert [type(a).__name__ for a in legal_actions(state, 0)] == ["BuyCrate", "Ready"]
    apply_wire(
        state,
        1,
        place
        | {"cards": [next(c for c in state.seats[1].draft_hand or [] if not cards.is_special(c))]},
    )  # another seat has its own count
    apply_wire(state, 0, {"type": "ready"})
    assert state.seats[0].ready
