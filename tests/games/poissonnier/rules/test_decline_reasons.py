"""A decline's reason and counter-price: RULES.md §4 (table talk), checked by the engine.

A ``decline`` may say why (a code of ``DECLINE_REASONS``) and at what price
the decliner would deal. Both are left out of the wire map and the log when
absent, so a plain decline reads, logs and replays as before they existed.
"""

from __future__ import annotations

import msgpack
import pytest
from stacking import act, assert_illegal, fill_and_ready, stacked_game

from poissonnier_tui.games.poissonnier.rules.actions import (
    DECLINE_REASONS,
    Decline,
    Propose,
    parse_action,
    to_wire,
)
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for


def _asked(coins: int = 1) -> GameState:
    """3 players, seat 0 active in serve, asking seat 1 for 2 F fish at ``coins``."""
    state = stacked_game(
        3,
        hands=[["G01", "A01"], ["G02"], ["A02"]],
        markers=[["D20"], ["D19", "D18"], ["D17"]],
        crates=[[["M03"]], [["F01", "F02", "F03"], ["T01"]], [["M01", "M02"]]],
        coins=[3, 3, 3],
        queue=["C12", "C03", "C11", "C04"],
        clients_top=["C05"],
    )
    fill_and_ready(state)
    assert state.phase is Phase.SERVE and state.active == 0
    act(state, 0, Propose(1, ((0, 2),), coins=coins))
    return state


def test_a_plain_decline_has_the_wire_and_log_of_old() -> None:
    assert to_wire(Decline(4)) == {"type": "decline", "proposal": 4}
    assert parse_action({"type": "decline", "proposal": 4}) == Decline(4)
    state = _asked()
    act(state, 1, Decline(1))
    assert state.log[-1] == {"t": "decline", "seat": 1, "proposal": 1, "turn": state.turn}


def test_a_reason_and_price_round_trip_through_the_wire_and_the_log() -> None:
    action = Decline(1, "too_cheap", 3)
    wire = to_wire(action)
    assert wire == {"type": "decline", "proposal": 1, "reason": "too_cheap", "price": 3}
    packed = msgpack.unpackb(msgpack.packb(wire), raw=False)  # as a table log stores it
    assert parse_action(packed) == action
    state = _asked(coins=1)
    apply_wire(state, 1, packed)
    event = {"t": "decline", "seat": 1, "proposal": 1, "reason": "too_cheap", "coins": 1,
             "price": 3, "turn": state.turn}  # fmt: skip
    assert state.log[-1] == event
    assert state.proposals == []
    for viewer in (None, 0, 1, 2):  # a decline is public, like the proposal (§4, §9)
        assert view_for(state, viewer)["log"][-1] == event
    # A reason alone: no price in the map nor in the log.
    state = _asked(coins=2)
    act(state, 1, Decline(1, "need_it"))
    assert "price" not in state.log[-1] and state.log[-1]["reason"] == "need_it"


@pytest.mark.parametrize(
    ("seat", "action", "key"),
    [
        (1, Decline(1, "cheap"), "reason_unknown"),
        (1, Decline(1, None, 3), "reason_price_alone"),
        (1, Decline(1, "too_dear"), "reason_side"),  # the seller cannot find it too dear
        (1, Decline(1, "no_use", None), "reason_side"),
        (1, Decline(1, "too_cheap", 1), "reason_price"),  # not more than the 1 offered
        (1, Decline(1, "too_cheap", 1001), "reason_price"),
        (1, Decline(1, "not_selling", 4), "reason_price"),  # a price with a no-sale
    ],
)
def test_a_reason_that_says_nothing_true_is_refused_and_nothing_changes(
    seat: int, action: Decline, key: str
) -> None:
    state = _asked(coins=1)
    refused = assert_illegal(state, seat, action, "bad_reason", "§4")
    assert refused.key == key
    assert len(state.proposals) == 1


def test_the_buyer_gives_buyer_reasons_and_fewer_coins() -> None:
    state = _asked()
    act(state, 1, Propose(1, ((0, 1),), coins=3, counter=1))  # the seller counters at 3
    assert_illegal(state, 0, Decline(2, "too_dear", 3), "bad_reason", "§4")
    assert_illegal(state, 0, Decline(2, "too_cheap", 4), "bad_reason", "§4")
    act(state, 0, Decline(2, "too_dear", 2))
    assert state.log[-1]["price"] == 2 and state.log[-1]["coins"] == 3


@pytest.mark.parametrize(
    "wire",
    [
        {"type": "decline", "proposal": 1, "reason": 3},
        {"type": "decline", "proposal": 1, "reason": "x" * 17},
        {"type": "decline", "proposal": 1, "price": -1},
        {"type": "decline", "proposal": 1, "price": "3"},
    ],
)
def test_a_malformed_reason_or_price_is_a_bad_action(wire: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action(wire)
    assert info.value.code == "bad_action"


def test_every_reason_is_accepted_from_its_side() -> None:
    accepted = set()
    for reason in DECLINE_REASONS:
        for seat in (1, 0):
            state = _asked(coins=1)
            if seat == 0:
                act(state, 1, Propose(1, ((0, 2),), coins=2, counter=1))
            pid = state.proposals[0].id
            try:
                act(state, seat, Decline(pid, reason))
            except IllegalAction:
                continue
            accepted.add((reason, seat))
    assert accepted == {
        ("too_cheap", 1), ("not_selling", 1), ("need_it", 1), ("no_thanks", 1),
        ("too_dear", 0), ("no_use", 0), ("no_thanks", 0),
    }  # fmt: skip
