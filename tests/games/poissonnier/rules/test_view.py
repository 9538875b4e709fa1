"""The one door for hidden information: ``view_for`` (RULES.md §9, R15)."""

from __future__ import annotations

import json
import random

import msgpack
import pytest
from stacking import (
    act,
    fill_and_ready,
    fish_ids_in,
    own_cards,
    stacked_game,
    view_strings,
)

from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    EndTurn,
    Place,
    Propose,
    Ready,
)
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.games.poissonnier.rules.view import LOG_TAIL, clear_view_cache, view_for

VIEW_KEYS = {
    "seat", "players", "turn", "active", "first_player", "phase", "last_turn", "fish_deck",
    "client_deck", "fish_discard", "client_discard", "queue", "bought", "seats", "proposals",
    "waiting_on", "log", "log_size", "me", "result",
}  # fmt: skip
SEAT_KEYS = {"coins", "stamps", "clients", "hand_size", "crates", "ready", "crate_price"}


def test_view_shape() -> None:
    """§9: the documented keys and value types, for a seat and for a spectator."""
    state = new_game(3, 3, first_player=1)
    view = view_for(state, 2)
    assert set(view) == VIEW_KEYS
    assert (view["seat"], view["players"], view["turn"], view["active"]) == (2, 3, 1, 1)
    assert (view["first_player"], view["phase"], view["last_turn"]) == (1, "fill", False)
    assert view["fish_deck"] == len(state.fish_deck) == 105 - 18 - 5
    assert view["client_deck"] == len(state.client_deck)
    assert view["fish_discard"] == {"T": 0, "F": 0, "M": 0, "D": 0, "P": 0, "G": 0, "A": 0}
    assert view["queue"] == state.queue and len(view["queue"]) == 4
    assert view["bought"] == "" and view["proposals"] == []
    assert view["waiting_on"] == [0, 1, 2]
    assert [set(s) for s in view["seats"]] == [SEAT_KEYS] * 3
    assert [s["hand_size"] for s in view["seats"]] == [6, 8, 6]
    assert [s["crates"] for s in view["seats"]] == [[""], [""], [""]]
    assert [s["crate_price"] for s in view["seats"]] == [2, 2, 2]
    assert view["me"] == {"hand": state.seats[2].hand, "crates": [[]], "bought": []}
    assert view["result"] is None
    assert view["log_size"] == len(state.log) and view["log"] == state.log
    spectator = view_for(state, None)
    assert spectator["seat"] is None and spectator["me"] is None
    assert {k: v for k, v in spectator.items() if k not in ("seat", "me")} == {
        k: v for k, v in view.items() if k not in ("seat", "me")
    }
    msgpack.unpackb(msgpack.packb(view))  # wire-safe
    with pytest.raises(ValueError):
        view_for(state, 3)


def test_hands_are_hidden() -> None:
    """§9: a hand's cards are seen by its owner only; everyone sees its size."""
    state = new_game(8, 4)
    for seat in range(4):
        ids = fish_ids_in(view_for(state, seat))
        assert ids == set(state.seats[seat].hand)
        for other in range(4):
            if other != seat:
                assert not ids & set(state.seats[other].hand)
    assert fish_ids_in(view_for(state, None)) == set()


def test_markers_and_deck_order_never_shown() -> None:
    """§2.3, §7, §9: crate markers and the decks' order are never in any view."""
    state = stacked_game(
        2, hands=[["F01"], []], coins=[9, 9], fish_deck_top=["T05"], clients_top=["C01"]
    )
    act(state, 0, Place(("F01",), 0))
    fill_and_ready(state)
    act(state, 1, BuyCrate())
    markers = {c.marker for s in state.seats for c in s.crates}
    assert "T05" in markers and len(markers) == 3
    deck = set(state.fish_deck)
    for viewer in (None, 0, 1):
        strings = set(view_strings(view_for(state, viewer)))
        assert not strings & markers
        assert not strings & deck
        assert not strings & set(state.client_deck)


def test_seed_only_after_game_over() -> None:
    """§9, R3: the seed is shown only at the end, in the result, for replay."""
    state = stacked_game(2, fish_deck_size=0, clients_top=["C01"], seed=424242)
    for viewer in (None, 0, 1):
        view = view_for(state, viewer)
        assert view["result"] is None
        assert "seed" not in view_strings(view)
        assert "424242" not in json.dumps(view)
    fill_and_ready(state)
    apply(state, 0, EndTurn())
    assert state.phase is Phase.OVER
    for viewer in (None, 0, 1):
        result = view_for(state, viewer)["result"]
        assert result["seed"] == 424242 and result["turns"] == 1
        assert result["winners"] == [0, 1] and result["shared"] is True


def test_draft_crates_private_until_all_ready() -> None:
    """R15: during the fill step the seat sees its draft; the others its committed crates."""
    state = stacked_game(2, hands=[["T01", "T02"], ["F01"]], clients_top=["C01"])
    act(state, 0, Place(("T01",), 0))
    mine, theirs = view_for(state, 0), view_for(state, 1)
    assert mine["me"]["crates"] == [["T01"]] and mine["me"]["hand"] == ["T02"]
    assert mine["seats"][0]["crates"] == [""]  # the public part is the same for everyone
    assert theirs["seats"][0] == mine["seats"][0]
    assert "T01" not in view_strings(theirs)
    assert "T01" not in view_strings(view_for(state, None))


def test_other_stalls_shown_by_freshness_only() -> None:
    """§9, R24: crates are public, but as freshness codes; ids only in the owner's ``me``."""
    state = stacked_game(
        2, crates=[[["M01", "M02"]], [["P01"]]], hands=[[], []], clients_top=["C01"]
    )
    fill_and_ready(state)
    view = view_for(state, 1)
    assert [s["crates"] for s in view["seats"]] == [["MM"], ["P"]]
    assert fish_ids_in(view) == {"P01"}
    assert fish_ids_in(view_for(state, 0)) == {"M01", "M02"}


def test_proposals_and_bought_fish_in_views() -> None:
    """§4, §9: proposals and deals are public; bought fish by id only for the active seat."""
    state = stacked_game(
        3, hands=[[], [], []], crates=[None, [["F01", "F02"]], None], clients_top=["C01"]
    )
    fill_and_ready(state)
    act(state, 0, Propose(1, ((0, 1),), coins=2))
    for viewer in (None, 0, 1, 2):
        assert view_for(state, viewer)["proposals"][0]["fish"] == [[0, 1, "F"]]
        assert view_for(state, viewer)["waiting_on"] == [0, 1]
    act(state, 1, Accept(1))
    assert view_for(state, 0)["me"]["bought"] == ["F02"]
    for viewer in (None, 1, 2):
        view = view_for(state, viewer)
        assert view["bought"] == "F"
        assert "F02" not in view_strings(view)
        assert view["log"][-1]["t"] == "deal" and view["log"][-1]["proposal"]["coins"] == 2


def test_fish_discard_counts_and_log_tail() -> None:
    """§9, R24: the fish discard is public by kind; the log carries the last LOG_TAIL events."""
    state = stacked_game(2, fish_deck_size=60)
    for _ in range(30):
        for seat in (0, 1):
            apply(state, seat, Ready())
        apply(state, state.active, EndTurn())
        if state.phase is Phase.OVER:
            break
    view = view_for(state, None)
    assert view["log_size"] == len(state.log) > LOG_TAIL
    assert view["log"] == state.log[-LOG_TAIL:]
    kinds = {k: sum(1 for f in state.fish_discard if f[0] == k) for k in "TFMDPGA"}
    assert view["fish_discard"] == kinds
    assert sum(kinds.values()) == len(state.fish_discard) > 0


def test_view_is_a_copy() -> None:
    """§9: a view shares no mutable part with the state or another view; the log's
    events, shared by every view, refuse any change, nested lists included.

    (A consumer of one seat's view -- a bot, a widget -- must not be able to
    change the server's log and so what every other seat sees.)
    """
    state = new_game(4, 2)
    view = view_for(state, 0)
    view["me"]["hand"].clear()
    view["queue"].clear()
    view["seats"][1]["crates"].append("TT")
    view["seats"][1]["coins"] = 99
    view["log"].clear()
    again = view_for(state, 0)
    with pytest.raises(TypeError):
        again["log"][0]["t"] = "tampered"
    draw = next(e for e in again["log"] if e["t"] == "draw")
    with pytest.raises(TypeError):
        draw["counts"].append([9, 9])
    with pytest.raises(TypeError):
        draw["counts"][0][1] = 9
    with pytest.raises(TypeError):
        draw.update(t="tampered")
    assert state.seats[0].hand and len(state.queue) == 4
    assert state.log[0]["t"] == "setup"
    assert again["me"]["hand"] == state.seats[0].hand and len(again["queue"]) == 4
    other = view_for(state, 1)
    assert other["seats"][1]["crates"] == [""] and other["seats"][1]["coins"] == 3
    assert other["log"] == state.log and len(other["log"]) == len(state.log) > 2
    assert json.loads(json.dumps(other["log"])) == state.log
    assert msgpack.unpackb(msgpack.packb(other["log"])) == state.log


def test_result_in_view_is_a_copy() -> None:
    """§8, §9: changing the result of one view leaves the game's result alone."""
    state = stacked_game(2, fish_deck_size=0, clients_top=["C01"])
    fill_and_ready(state)
    apply(state, 0, EndTurn())
    result = view_for(state, 0)["result"]
    result["winners"].append(7)
    result["scores"][0]["coins"] = 99
    fresh = view_for(state, 1)["result"]
    assert fresh["winners"] == [0, 1] and fresh["scores"][0]["coins"] == 3


@pytest.mark.parametrize(("seed", "players"), [(41, 2), (42, 4), (43, 5)])
def test_shared_views_equal_fresh_ones(seed: int, players: int) -> None:
    """§9: the public part shared per revision never hands one viewer another's cards.

    Over a random game, after every action, every seat's and a spectator's view
    (asked in a shuffled order, some twice, so most come from the shared part)
    equals the view worked out afresh for that viewer alone with nothing
    remembered, and names no card id but the viewer's own.
    """
    state = new_game(seed, players)
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(players), None]
    steps = 0
    while state.phase is not Phase.OVER and steps < 400:
        seat = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.randrange(len(legal))])
        steps += 1
        order = rng.sample(viewers, len(viewers)) + rng.sample(viewers, 2)
        shared = {viewer: view_for(state, viewer) for viewer in order}
        for viewer in viewers:
            clear_view_cache()
            assert shared[viewer] == view_for(state, viewer), (steps, viewer)
        for viewer in range(players):
            assert fish_ids_in(shared[viewer]) <= own_cards(state, viewer)
        assert fish_ids_in(shared[None]) == set()
    assert steps > 100
