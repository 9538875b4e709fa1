"""The turn: draw (§3.1, R5), fill (§3.2, R6, R15), call (§3.3, R7), inspectors (§5, R10)."""

from __future__ import annotations

import pytest
from stacking import (
    act,
    assert_conserved,
    assert_illegal,
    fill_and_ready,
    stacked_game,
)

from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    EndTurn,
    Place,
    Propose,
    Ready,
    TakeBack,
    Unready,
)
from poissonnier_tui.games.poissonnier.rules.engine import apply, waiting_on
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

# --------------------------------------------------------------------------- §3.1 draw


@pytest.mark.parametrize(("players", "active_draw"), [(2, 4), (3, 3), (4, 3), (5, 2)])
def test_draw_counts_and_seat_order(players: int, active_draw: int) -> None:
    """§3.1: the active draws 4/3/3/2 (2/3/4/5 players), then each other seat 1 from its left."""
    top = ["T01", "T02", "T03", "T04", "F01", "F02", "F03", "F04", "F05"]
    # Turn 1 starts at seat 1, so turn 2's active seat (2 or 0) is followed by a wrap-around.
    state = stacked_game(players, first_player=1, fish_deck_top=top, clients_top=["C01"])
    hands_before = [list(s.hand) for s in state.seats]
    deck_before = len(state.fish_deck)
    fill_and_ready(state)
    apply(state, 1, EndTurn())
    active = 2 % players
    assert state.turn == 2 and state.active == active and state.phase is Phase.FILL
    expected = {active: top[:active_draw]}
    nxt = active_draw
    for k in range(1, players):
        expected[(active + k) % players] = [top[nxt]]
        nxt += 1
    for seat in range(players):
        assert state.seats[seat].hand == hands_before[seat] + expected[seat]
    assert len(state.fish_deck) == deck_before - active_draw - (players - 1)
    draw = [e for e in state.log if e["t"] == "draw"][-1]
    assert draw["counts"] == [
        [(active + k) % players, active_draw if k == 0 else 1] for k in range(players)
    ]
    assert_conserved(state)


def test_empty_deck_draws_are_skipped() -> None:
    """R5, §3.1: with 4 cards left and 3 players, the active gets 3, the next 1, the last 0."""
    state = stacked_game(
        3, first_player=2, fish_deck_top=["T01", "T02", "T03", "F01"], fish_deck_size=4,
        clients_top=["C01"],
    )  # fmt: skip
    sizes = [len(s.hand) for s in state.seats]
    fill_and_ready(state)
    apply(state, 2, EndTurn())
    assert state.active == 0
    assert state.seats[0].hand[-3:] == ["T01", "T02", "T03"]
    assert state.seats[1].hand[-1] == "F01"
    assert [len(s.hand) for s in state.seats] == [sizes[0] + 3, sizes[1] + 1, sizes[2]]
    assert state.fish_deck == []
    draw = [e for e in state.log if e["t"] == "draw"][-1]
    assert draw["counts"] == [[0, 3], [1, 1], [2, 0]]
    assert state.last_turn  # R13: this is the last turn
    assert_conserved(state)


def test_active_draw_cut_short_by_empty_deck() -> None:
    """R5: with 2 cards left in a 2-player game the active draws 2 of its 4, the other none."""
    state = stacked_game(2, fish_deck_top=["M01", "M02"], fish_deck_size=2, clients_top=["C01"])
    sizes = [len(s.hand) for s in state.seats]
    fill_and_ready(state)
    apply(state, 0, EndTurn())
    assert [len(s.hand) for s in state.seats] == [sizes[0], sizes[1] + 2]
    assert state.seats[1].hand[-2:] == ["M01", "M02"]
    assert [e for e in state.log if e["t"] == "draw"][-1]["counts"] == [[1, 2], [0, 0]]


# --------------------------------------------------------------------------- §3.2 fill


def _fill_state() -> GameState:
    return stacked_game(
        3,
        hands=[
            ["T01", "T02", "F01", "P01", "G01", "A01"],
            ["M01", "M02", "D01"],
            ["F02", "F03"],
        ],
        markers=[["P10", "P11"], None, None],
        clients_top=["C01"],
    )


def test_place_moves_fish_from_hand_into_crate() -> None:
    """§3.2: fish go face up from hand into a crate; any number at once; empty crates allowed."""
    state = _fill_state()
    act(state, 0, Place(("T01", "T02"), 0))
    s = state.seats[0]
    assert s.draft_hand == ["F01", "P01", "G01", "A01"]
    assert s.draft_crates is not None
    assert [c.fish for c in s.draft_crates] == [["T01", "T02"], []]
    act(state, 0, Place(("P01",), 1))
    assert [c.fish for c in s.draft_crates] == [["T01", "T02"], ["P01"]]
    assert view_for(state, 0)["me"]["crates"] == [["T01", "T02"], ["P01"]]
    assert view_for(state, 0)["me"]["hand"] == ["F01", "G01", "A01"]
    assert_conserved(state)


def test_one_freshness_per_crate() -> None:
    """§3.2: a crate holds one freshness: mixing in one action or with crate fish is refused."""
    state = _fill_state()
    assert_illegal(state, 0, Place(("T01", "F01"), 0), "mixed_crate", "§3.2")
    act(state, 0, Place(("T01",), 0))
    assert_illegal(state, 0, Place(("F01",), 0), "mixed_crate", "§3.2")
    act(state, 0, Place(("T02",), 0))
    assert state.seats[0].draft_crates is not None
    assert state.seats[0].draft_crates[0].fish == ["T01", "T02"]


def test_two_crates_may_hold_the_same_freshness() -> None:
    """§3.2, R21: one freshness per crate, yet two crates may both hold très frais."""
    state = _fill_state()
    act(state, 0, Place(("T01",), 0), Place(("T02",), 1))
    assert state.seats[0].draft_crates is not None
    assert [c.fish for c in state.seats[0].draft_crates] == [["T01"], ["T02"]]


def test_special_cards_never_go_in_a_crate() -> None:
    """§1, §3.2: glaçon and arrivage stay in the hand."""
    state = _fill_state()
    assert_illegal(state, 0, Place(("G01",), 0), "special_in_crate", "§1")
    assert_illegal(state, 0, Place(("A01",), 1), "special_in_crate", "§1")


def test_place_refusals() -> None:
    """§3.2: only own hand cards, into an existing crate, at least one, none twice."""
    state = _fill_state()
    assert_illegal(state, 0, Place(("M01",), 0), "not_in_hand", "§3.2")  # seat 1's card
    assert_illegal(state, 0, Place(("T05",), 0), "not_in_hand", "§3.2")  # in the deck
    assert_illegal(state, 0, Place(("T01",), 2), "bad_crate", "§3.2")
    assert_illegal(state, 1, Place(("M01",), 1), "bad_crate", "§3.2")
    assert_illegal(state, 0, Place((), 0), "bad_place", "§3.2")
    assert_illegal(state, 0, Place(("T01", "T01"), 0), "bad_place", "§3.2")
    act(state, 0, Place(("T01",), 0))
    assert_illegal(state, 0, Place(("T01",), 1), "not_in_hand", "§3.2")  # already placed


def test_take_back_and_recompose() -> None:
    """§3.2: a player takes back all the fish of a crate and recomposes it completely."""
    state = _fill_state()
    act(state, 0, Place(("T01", "T02"), 0))
    act(state, 0, TakeBack(0))
    s = state.seats[0]
    assert s.draft_crates is not None
    assert s.draft_crates[0].fish == []
    assert sorted(s.draft_hand or []) == ["A01", "F01", "G01", "P01", "T01", "T02"]
    act(state, 0, Place(("F01",), 0))  # now another freshness in the same crate
    assert s.draft_crates[0].fish == ["F01"]
    assert_illegal(state, 0, TakeBack(1), "empty_crate", "§3.2")
    assert_illegal(state, 0, TakeBack(5), "bad_crate", "§3.2")
    assert_conserved(state)


def test_take_back_of_fish_committed_last_turn() -> None:
    """§3.2: fish left in a crate from an earlier turn may be taken back in the next fill step."""
    state = stacked_game(
        2, hands=[["M01"], ["D01"]], crates=[[["F01", "F02"]], None], clients_top=["C01"]
    )
    act(state, 0, TakeBack(0), Place(("M01",), 0))
    assert state.seats[0].draft_hand == ["F01", "F02"]
    fill_and_ready(state)
    assert state.seats[0].hand == ["F01", "F02"]
    assert [c.fish for c in state.seats[0].crates] == [["M01"]]


def test_ready_unready_and_step_end() -> None:
    """§3.2 and R16: ready locks the stall; unready reopens it; all ready ends it."""
    state = _fill_state()
    act(state, 0, Place(("T01",), 0), Ready())
    assert waiting_on(state) == frozenset({1, 2})
    assert_illegal(state, 0, Place(("T02",), 0), "already_ready", "§3.2")
    assert_illegal(state, 0, TakeBack(0), "already_ready", "§3.2")
    assert_illegal(state, 0, Ready(), "already_ready", "§3.2")
    assert_illegal(state, 1, Unready(), "not_ready", "§3.2")
    act(state, 0, Unready())
    assert waiting_on(state) == frozenset({0, 1, 2})
    act(state, 0, Place(("T02",), 0), Ready())
    act(state, 1, Ready())
    assert state.phase is Phase.FILL
    act(state, 2, Ready())
    assert state.phase is Phase.SERVE  # type: ignore[comparison-overlap]
    assert [c.fish for c in state.seats[0].crates] == [["T01", "T02"], []]
    assert state.seats[0].draft_hand is None and state.seats[0].draft_crates is None
    assert_illegal(state, 0, Unready(), "not_fill", "§3.2")


def test_crates_frozen_outside_fill() -> None:
    """§3.2: until the next fill step nobody adds, moves or takes back a fish."""
    state = _fill_state()
    fill_and_ready(state, {0: [(("T01",), 0)]})
    assert state.phase is Phase.SERVE
    assert_illegal(state, 0, Place(("T02",), 0), "not_fill", "§3.2")
    assert_illegal(state, 0, TakeBack(0), "not_fill", "§3.2")
    assert_illegal(state, 1, Place(("M01",), 0), "not_fill", "§3.2")
    assert_illegal(state, 1, Ready(), "not_fill", "§3.2")


def test_crates_revealed_together_after_fill() -> None:
    """R15, §9: until every seat is ready others see the old crates and old hand sizes."""
    state = stacked_game(
        3,
        hands=[["T01", "T02", "F01"], ["M01", "M02"], ["D01"]],
        crates=[[["P01"]], None, None],
        clients_top=["C01"],
    )
    act(state, 0, TakeBack(0), Place(("T01", "T02"), 0), Ready())
    act(state, 1, Place(("M01",), 0))
    for viewer in (None, 1, 2):
        seats = view_for(state, viewer)["seats"]
        assert seats[0]["crates"] == ["P"] and seats[0]["hand_size"] == 3
        assert seats[1]["crates"] == [""] and seats[1]["hand_size"] == 2
        assert seats[0]["ready"] and not seats[1]["ready"]
    assert view_for(state, 0)["me"]["crates"] == [["T01", "T02"]]
    assert view_for(state, 1)["me"]["crates"] == [["M01"]]
    act(state, 1, Ready())
    assert view_for(state, 2)["seats"][0]["crates"] == ["P"]
    act(state, 2, Ready())
    for viewer in (None, 0, 1, 2):
        seats = view_for(state, viewer)["seats"]
        assert [s["crates"] for s in seats] == [["TT"], ["M"], [""]]
        assert [s["hand_size"] for s in seats] == [2, 1, 1]
    reveal = [e for e in state.log if e["t"] == "reveal"][-1]
    assert reveal["crates"] == [["TT"], ["M"], [""]]


def test_timeout_declares_ready_with_crates_as_they_are() -> None:
    """R6: the table's timeout action in fill is ``ready``; the draft in progress is kept."""
    state = stacked_game(2, hands=[["T01"], ["F01", "F02"]], clients_top=["C01"])
    match = PoissonnierMatch(state)
    act(state, 1, Place(("F01",), 0))
    assert match.timeout_action(0) == {"type": "ready"}
    assert match.timeout_action(1) == {"type": "ready"}
    match.apply(0, {"type": "ready"})
    assert match.timeout_action(0) is None  # already ready: nothing to do for it
    timeout = match.timeout_action(1)
    assert timeout is not None
    match.apply(1, timeout)
    assert state.phase is Phase.SERVE
    assert [c.fish for c in state.seats[1].crates] == [["F01"]]
    assert state.seats[1].hand == ["F02"]


def test_timeout_in_serve_ends_turn_or_declines() -> None:
    """R6, R20 (the serve step): the absent active ends its turn; an answerer declines."""
    state = stacked_game(2, crates=[None, [["F01"]]], clients_top=["C01"])
    fill_and_ready(state)
    match = PoissonnierMatch(state)
    assert match.timeout_action(0) == {"type": "end_turn"}
    assert match.timeout_action(1) is None
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    pid = state.proposals[0].id
    assert match.timeout_action(1) == {"type": "decline", "proposal": pid}


# --------------------------------------------------------------------------- §3.3 call


def test_call_fills_queue_to_five() -> None:
    """§3.3: clients are appended at the end one by one until the queue holds 5."""
    state = stacked_game(
        2, queue=["C01", "C02"], clients_top=["C03", "C04", "C05", "C06"], client_deck_size=10
    )
    discard = list(state.client_discard)
    fill_and_ready(state)
    assert state.queue == ["C01", "C02", "C03", "C04", "C05"]
    assert state.client_deck[-1] == "C06"
    assert len(state.client_deck) == 7
    assert state.client_discard == discard  # nothing dropped below 5


def test_call_with_full_queue_drops_front() -> None:
    """§3.3: with 5 clients waiting, the first is discarded and one new client appended."""
    state = stacked_game(
        2, queue=["C01", "C02", "C03", "C04", "C05"], clients_top=["C06"], client_deck_size=5
    )
    fill_and_ready(state)
    assert state.queue == ["C02", "C03", "C04", "C05", "C06"]
    assert state.client_discard[-1] == "C01"
    assert len(state.client_deck) == 4
    assert [e["client"] for e in state.log if e["t"] == "drop"] == ["C01"]


def _inspector_state(clients_top: list[str], queue: list[str] | None = None) -> GameState:
    return stacked_game(
        4,
        hands=[["T01"], ["T02"], ["T03"], ["T04"]],
        markers=[["M20"], ["M21", "M22"], ["M23"], ["D20"]],
        crates=[[["P01", "P02"]], [["P03"], ["F01", "F02"]], [["P04"]], [["F03"]]],
        coins=[3, 3, 0, 3],
        queue=queue,
        clients_top=clients_top,
    )


def test_inspector_fines_once_per_player_and_is_replaced() -> None:
    """§5, R10: rotten crate fish are discarded; 1 coin per player, not per fish; 0 coins pays 0."""
    state = _inspector_state(["I1", "C05"], queue=["C01", "C02", "C03", "C04"])
    fill_and_ready(state)
    assert [s.coins for s in state.seats] == [2, 2, 0, 3]
    assert [[c.fish for c in s.crates] for s in state.seats] == [
        [[]], [[], ["F01", "F02"]], [[]], [["F03"]]
    ]  # fmt: skip
    assert sorted(state.fish_discard[-4:]) == ["P01", "P02", "P03", "P04"]
    assert state.client_discard[-1] == "I1"
    assert state.queue == ["C01", "C02", "C03", "C04", "C05"]  # replaced by the next client
    event = next(e for e in state.log if e["t"] == "inspector")
    assert event["fined"] == [
        {"seat": 0, "fish": 2, "paid": 1},
        {"seat": 1, "fish": 1, "paid": 1},
        {"seat": 2, "fish": 1, "paid": 0},
    ]
    assert_conserved(state)


def test_rotten_fish_in_hand_is_not_fined() -> None:
    """§5: the inspector looks at crates only; rotten fish in a hand stay and cost nothing."""
    state = stacked_game(
        2,
        hands=[["P01", "P02"], ["F01"]],
        queue=["C01"],
        clients_top=["I2", "C02", "C03", "C04", "C05"],
    )
    fill_and_ready(state)
    assert state.seats[0].hand == ["P01", "P02"]
    assert [s.coins for s in state.seats] == [3, 3]
    assert state.queue == ["C01", "C02", "C03", "C04", "C05"]
    assert state.client_discard == ["I2"]
    assert next(e for e in state.log if e["t"] == "inspector")["fined"] == []


def test_second_inspector_in_one_call_finds_nothing() -> None:
    """§5, R10, R23: the first inspector took the rotten fish; the second fines nobody."""
    state = _inspector_state(["I1", "I2", "C05"], queue=["C01", "C02", "C03", "C04"])
    fill_and_ready(state)
    assert [s.coins for s in state.seats] == [2, 2, 0, 3]
    events = [e for e in state.log if e["t"] == "inspector"]
    assert [e["client"] for e in events] == ["I1", "I2"]
    assert events[1]["fined"] == []
    assert state.client_discard[-2:] == ["I1", "I2"]
    assert state.queue[-1] == "C05"


def test_inspector_with_full_queue() -> None:
    """§3.3: with 5 waiting, the front is dropped, the inspector acts and another is drawn."""
    state = _inspector_state(["I3", "C06"], queue=["C01", "C02", "C03", "C04", "C05"])
    fill_and_ready(state)
    assert state.queue == ["C02", "C03", "C04", "C05", "C06"]
    assert state.client_discard[-2:] == ["C01", "I3"]
    assert [s.coins for s in state.seats] == [2, 2, 0, 3]


def test_rotten_placed_this_fill_is_fined() -> None:
    """§5: the inspector acts on the crates revealed by the fill step just ended (R15)."""
    state = stacked_game(
        2, hands=[["P01"], ["D01"]], queue=["C01", "C02", "C03", "C04"], clients_top=["I1", "C05"]
    )
    fill_and_ready(state, {0: [(("P01",), 0)]})
    assert state.seats[0].coins == 2
    assert state.seats[0].crates[0].fish == []
    assert state.fish_discard[-1] == "P01"


def _client_state(queue: list[str], discard: list[str]) -> GameState:
    """A 2-player game whose client deck is empty, with the given discard pile."""
    state = stacked_game(2, queue=queue, client_deck_size=0)
    # Park every other client among seat 1's won clients so the discard is exactly ``discard``.
    rest = [c for c in state.client_discard if c not in discard]
    state.client_discard = list(discard)
    state.seats[1].clients = rest
    assert_conserved(state)
    return state


def test_client_deck_reshuffled_from_discard() -> None:
    """R7: when the client deck is empty the discard pile becomes the new deck."""
    state = _client_state(["C01", "C02", "C03", "C04"], ["C05", "C06"])
    fill_and_ready(state)
    assert state.queue[:4] == ["C01", "C02", "C03", "C04"]
    assert state.queue[4] in ("C05", "C06")
    assert state.client_deck == [{"C05": "C06", "C06": "C05"}[state.queue[4]]]
    assert state.client_discard == []
    assert [e["size"] for e in state.log if e["t"] == "reshuffle"] == [2]
    assert_conserved(state)


def test_full_queue_kept_when_nothing_can_be_drawn() -> None:
    """§3.3, R7 and R19: a full queue with both client piles empty drops nobody.

    (Read literally, §3.3 would discard the front client, reshuffle it as the
    whole new deck and draw it straight back to the end of the queue.)
    """
    state = _client_state(["C01", "C02", "C03", "C04", "C05"], [])
    fill_and_ready(state)
    assert state.queue == ["C01", "C02", "C03", "C04", "C05"]
    assert state.client_deck == [] and state.client_discard == []
    assert not any(e["t"] in ("drop", "reshuffle") for e in state.log)


def test_no_client_drawn_when_both_piles_empty() -> None:
    """R7: both the client deck and its discard empty: nothing is drawn, nothing dropped."""
    state = _client_state(["C01", "C02", "C03"], [])
    fill_and_ready(state)
    assert state.queue == ["C01", "C02", "C03"]
    assert not any(e["t"] == "reshuffle" for e in state.log)


def test_call_stops_when_only_inspectors_remain() -> None:
    """R7 plus R19: inspectors alone are never drawn, so a call cannot loop forever."""
    state = _client_state(["C01", "C02", "C03", "C04", "C05"], ["I1", "I2"])
    fill_and_ready(state)
    assert state.queue == ["C01", "C02", "C03", "C04", "C05"]
    assert state.client_discard == ["I1", "I2"]
    assert [s.coins for s in state.seats] == [3, 3]


def test_queue_never_exceeds_five() -> None:
    """§3.3: the queue holds at most 5 clients after any call."""
    state = stacked_game(2, queue=["C01", "C02", "C03", "C04", "C05"], clients_top=["C06"])
    for _ in range(6):
        fill_and_ready(state)
        assert len(state.queue) == cards.QUEUE_MAX
        apply(state, state.active, EndTurn())
