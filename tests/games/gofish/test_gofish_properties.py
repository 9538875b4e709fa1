"""Random legal Go Fish games for 2–6 players under every option combination.

Hypothesis draws the seed, the table size, the options and a seed for the
choice of asks. After every action: the 52 cards are each in exactly one
place and every book is four cards of one rank (docs/GOFISH.md §1, §4); no
view names a card of another hand or of the stock, except cards the whole
table was told about (a shown draw or a card asked for, §8, G10); the
legal asks a client computes from its view are the engine's; and every game
ends within :data:`MAX_STEPS`. Now and then a random, probably illegal, ask
is tried: when refused, the state must be untouched.
"""

from __future__ import annotations

import random

from gofish_stacking import (
    assert_conserved,
    legal_wires,
    named_cards,
    public_cards,
    snapshot,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard
from poissonnier_tui.games.gofish.rules.engine import apply, legal_actions, new_game
from poissonnier_tui.games.gofish.rules.errors import IllegalAction
from poissonnier_tui.games.gofish.rules.state import GameState, Options
from poissonnier_tui.games.gofish.rules.view import legal_from_view, view_for

MAX_STEPS = 20_000
"""No random game may need more asks than this (1,681 was the longest of 1,500 measured)."""

OPTIONS = [
    Options(),
    Options(play_on=True),
    Options(variant="card"),
    Options(variant="card", play_on=True),
    Options(variant="card", bluff=True),
    Options(variant="card", bluff=True, play_on=True),
]


def check_views(state: GameState) -> None:
    """§8: each view names only its own cards and public ones; the spectator only public ones."""
    public = public_cards(state)
    for seat in [None, *range(state.players)]:
        view = view_for(state, seat)
        own = set(state.hands[seat]) if seat is not None else set()
        leaked = named_cards(view) - own - public
        assert not leaked, (seat, leaked)
        assert view["stock"] == len(state.stock)
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        if seat is not None:
            assert legal_from_view(view) == legal_wires(state, seat)


def random_ask(rng: random.Random, state: GameState) -> Ask | AskCard:
    target = rng.randrange(cards.MAX_PLAYERS)
    rank = rng.choice(cards.RANKS)
    if rng.random() < 0.5:
        return Ask(target, rank)
    return AskCard(target, rank, rng.choice(cards.SUITS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    options=st.sampled_from(OPTIONS),
    choices=st.integers(0, 2**32),
)
def test_random_legal_games_keep_every_card_in_one_place_and_end(
    seed: int, players: int, options: Options, choices: int
) -> None:
    rng = random.Random(choices)
    state = new_game(seed, players, options)
    assert_conserved(state)
    check_views(state)
    steps = 0
    while not state.over:
        assert steps < MAX_STEPS, "the game did not end"
        seat = state.active
        legal = legal_actions(state, seat)
        assert legal, "the active seat has no legal ask"
        for other in range(players):
            assert other == seat or legal_actions(state, other) == []
        if rng.random() < 0.05:
            wrong = random_ask(rng, state)
            wrong_seat = rng.randrange(players)
            if not (wrong_seat == seat and wrong in legal):
                before = snapshot(state)
                try:
                    apply(state, wrong_seat, wrong)
                except IllegalAction:
                    assert snapshot(state) == before
                else:
                    raise AssertionError(f"{wrong} by seat {wrong_seat} was accepted")
        apply(state, seat, rng.choice(legal))
        steps += 1
        assert_conserved(state)
        if steps % 7 == 0 or state.over:
            check_views(state)
    assert state.result is not None
    books = [s["books"] for s in state.result["scores"]]
    assert state.result["winners"] == [s for s, b in enumerate(books) if b == max(books)]
    assert state.result["shared"] == (len(state.result["winners"]) > 1)
    if options.play_on:
        assert sum(books) == 13 and all(not h for h in state.hands)
    else:
        assert not state.stock or any(not h for h in state.hands)
    assert view_for(state, None)["result"] == state.result
