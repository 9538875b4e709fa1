"""Components and setup: RULES.md §1, §2, R1, R2, R3, R4."""

from __future__ import annotations

from collections import Counter

import pytest
from stacking import ALL_CLIENTS, ALL_FISH, assert_conserved, snapshot

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

# RULES.md §1 client table, copied verbatim: id -> (order, coins, stamps).
RULES_CLIENTS = {
    "C01": ("T", 3, 1), "C02": ("T", 3, 1), "C03": ("F", 2, 1), "C04": ("F", 2, 1),
    "C05": ("M", 1, 2), "C06": ("M", 1, 2), "C07": ("D", 1, 2), "C08": ("TT", 6, 1),
    "C09": ("TF", 5, 1), "C10": ("TF", 5, 2), "C11": ("TM", 4, 2), "C12": ("FF", 4, 1),
    "C13": ("FD", 3, 2), "C14": ("FM", 3, 2), "C15": ("FD", 3, 2), "C16": ("MM", 2, 2),
    "C17": ("MD", 2, 3), "C18": ("DD", 2, 3), "C19": ("TD", 4, 1), "C20": ("TTF", 8, 2),
    "C21": ("TFF", 7, 2), "C22": ("MMM", 3, 3), "C23": ("TFM", 6, 3), "C24": ("FFM", 5, 2),
    "C25": ("FMM", 4, 3), "C26": ("MMD", 3, 3), "C27": ("MDD", 3, 3), "C28": ("FMD", 4, 3),
    "C29": ("TTFF", 10, 2), "C30": ("TFFM", 8, 3), "C31": ("FMMD", 5, 3),
    "C32": ("TFMD", 7, 3), "C33": ("MMDD", 4, 3),
}  # fmt: skip


def test_fish_deck_composition() -> None:
    """§1, R1: 105 cards = 16 T, 20 F, 23 M, 20 D, 16 P fish plus 5 glaçons and 5 arrivages."""
    deck = cards.fish_deck()
    assert len(deck) == 105
    assert len(set(deck)) == 105
    assert Counter(c[0] for c in deck) == {
        "T": 16, "F": 20, "M": 23, "D": 20, "P": 16, "G": 5, "A": 5,
    }  # fmt: skip
    assert sum(1 for c in deck if not cards.is_special(c)) == 95
    assert cards.freshness_of("M07").level == 2
    assert cards.is_special("G01") and cards.is_special("A05") and not cards.is_special("P16")


def test_client_deck_matches_rules_table() -> None:
    """§1: 33 regular clients exactly as tabled, 4 undecided (U1-U4), 3 inspectors."""
    assert len(cards.client_deck()) == 40
    kinds = Counter(c.kind for c in CLIENTS.values())
    assert kinds == {ClientKind.REGULAR: 33, ClientKind.UNDECIDED: 4, ClientKind.INSPECTOR: 3}
    for cid, (order, coins, stamps) in RULES_CLIENTS.items():
        card = CLIENTS[cid]
        assert (card.order, card.size, card.coins, card.stamps) == (
            order,
            len(order),
            coins,
            stamps,
        ), cid
        # "Coins follow T=3, F=2, M=1, D=1 per fish"; no regular asks for rotten.
        assert coins == sum({"T": 3, "F": 2, "M": 1, "D": 1}[c] for c in order)
    assert [
        (CLIENTS[u].size, CLIENTS[u].coins, CLIENTS[u].stamps) for u in ("U1", "U2", "U3", "U4")
    ] == [
        (2, 1, 1),
        (2, 1, 1),
        (3, 2, 1),
        (3, 2, 2),
    ]
    assert all(cards.is_inspector(i) for i in ("I1", "I2", "I3"))
    assert not any(cards.is_inspector(c) for c in RULES_CLIENTS)


@pytest.mark.parametrize(
    ("players", "deck_left"),
    [(2, 105 - 12 - 5), (3, 105 - 18 - 5), (4, 105 - 24 - 6), (5, 105 - 30 - 6)],
)
def test_setup_counts(players: int, deck_left: int) -> None:
    """§2.2-2.4, R2: 5-card hands (then the §3.1 draw), 1 crate each, 4 clients, 3 coins."""
    state = new_game(seed=11, players=players)
    first = state.first_player
    assert state.phase is Phase.FILL and state.turn == 1 and state.active == first
    draw = next(e for e in state.log if e["t"] == "draw")
    for seat, s in enumerate(state.seats):
        drawn = cards.ACTIVE_DRAW[players] if seat == first else 1
        assert [seat, drawn] in draw["counts"]
        assert len(s.hand) == 5 + drawn
        assert len(s.crates) == 1 and s.crates[0].fish == []
        assert s.crates[0].marker in ALL_FISH
        assert s.coins == 3 and s.stamps == 0 and s.clients == []
        assert s.draft_hand == s.hand
    assert len(state.fish_deck) == deck_left
    assert len(state.queue) == 4
    assert not any(cards.is_inspector(c) for c in state.queue)
    assert state.fish_discard == [] and state.bought == [] and state.proposals == []
    assert not state.last_turn
    assert waiting_on(state) == frozenset(range(players))
    assert_conserved(state)


def test_setup_inspector_discarded_and_replaced_without_fine() -> None:
    """§2.4: an inspector revealed at setup is discarded and replaced; nobody is fined."""
    seed = next(s for s in range(500) if len(new_game(s, 2).client_discard) == 2)
    state = new_game(seed, 2)
    assert len(state.client_discard) == 2
    assert all(cards.is_inspector(c) for c in state.client_discard)
    assert len(state.queue) == 4
    assert not any(cards.is_inspector(c) for c in state.queue)
    assert len(state.client_deck) == 40 - 4 - 2
    assert [s.coins for s in state.seats] == [3, 3]
    setup_events = [e for e in state.log if e["t"] == "inspector_setup"]
    assert [e["client"] for e in setup_events] == state.client_discard
    assert not any(e["t"] == "inspector" for e in state.log)


def test_setup_without_inspector_has_empty_client_discard() -> None:
    """§2.4: the queue is simply the first 4 clients when none is an inspector."""
    seed = next(s for s in range(500) if not new_game(s, 3).client_discard)
    state = new_game(seed, 3)
    assert state.client_discard == []
    assert len(state.client_deck) == 36


def _play_some(seed: int, players: int, steps: int) -> list[dict[str, object]]:
    """Play ``steps`` fixed choices; the spectator view after each, then a full snapshot."""
    state = new_game(seed, players)
    views = []
    for k in range(steps):
        if state.phase is Phase.OVER:
            break
        seat = min(waiting_on(state))
        options = legal_actions(state, seat)
        apply(state, seat, options[(k * 7) % len(options)])
        views.append(view_for(state, None))
    views.append(snapshot(state))
    return views


def test_same_seed_same_game() -> None:
    """R3: same seed, same players, same actions -> the same game, hidden parts included."""
    a, b = new_game(2024, 4), new_game(2024, 4)
    assert snapshot(a) == snapshot(b)
    assert a.fish_deck == b.fish_deck and a.client_deck == b.client_deck
    assert _play_some(99, 3, 120) == _play_some(99, 3, 120)


def test_different_seed_differs() -> None:
    """R3: the shuffle depends on the seed."""
    a, b = new_game(1, 3, first_player=0), new_game(2, 3, first_player=0)
    assert a.fish_deck != b.fish_deck
    assert [s.hand for s in a.seats] != [s.hand for s in b.seats]
    assert a.client_deck + a.queue != b.client_deck + b.queue


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_player_picked_by_host(first: int) -> None:
    """R4, §3.1: the host's pick starts; it draws 3 (4 players), the others 1 from its left."""
    state = new_game(5, 4, first_player=first)
    assert state.first_player == first and state.active == first
    draw = next(e for e in state.log if e["t"] == "draw")
    order = [(first + k) % 4 for k in range(4)]
    assert draw["counts"] == [[order[0], 3], [order[1], 1], [order[2], 1], [order[3], 1]]
    assert [len(s.hand) for s in state.seats] == [8 if i == first else 6 for i in range(4)]


def test_first_player_drawn_by_seed() -> None:
    """R4: without a pick the seed draws the first player: deterministic, and every seat occurs."""
    firsts = [new_game(seed, 3).first_player for seed in range(40)]
    assert firsts == [new_game(seed, 3).first_player for seed in range(40)]
    assert set(firsts) == {0, 1, 2}


@pytest.mark.parametrize(("players", "first"), [(1, None), (6, None), (3, 3), (3, -1)])
def test_new_game_refuses_bad_arguments(players: int, first: int | None) -> None:
    """§2, R4: 2 to 5 players; the first player must be a seat."""
    with pytest.raises(ValueError):
        new_game(1, players, first_player=first)


def test_stacked_game_conserves_cards() -> None:
    """The test helper keeps all 105 + 40 cards in exactly one place (precondition of the suite)."""
    from stacking import stacked_game

    state = stacked_game(
        3,
        hands=[["T01", "G01"], None, []],
        markers=[["P01", "P02"], None, None],
        crates=[[["F01"], []], None, None],
        fish_deck_top=["D01"],
        fish_deck_size=10,
        queue=["C01"],
        clients_top=["I1"],
        client_deck_size=2,
    )
    assert state.seats[0].hand == ["T01", "G01"] and state.seats[2].hand == []
    assert [c.marker for c in state.seats[0].crates] == ["P01", "P02"]
    assert state.fish_deck[-1] == "D01" and len(state.fish_deck) == 10
    assert state.client_deck[-1] == "I1" and len(state.client_deck) == 2
    assert len(state.fish_discard) == 105 - 10 - 2 - 2 - 1 - 6 - 2
    assert set(ALL_CLIENTS) == set(state.client_deck + state.client_discard + state.queue)
    assert_conserved(state)
