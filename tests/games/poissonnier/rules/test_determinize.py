"""Information-set samples: a state built from one seat's view alone (RULES.md §9).

`sample_state(view)` must give back exactly the same view for that seat, and
`legal_from_view(view)` exactly the server's legal actions, at every point of
random games, for 2 to 5 players.
"""

from __future__ import annotations

import random

import pytest

from poissonnier_tui.games.poissonnier.rules import (
    Phase,
    apply,
    legal_actions,
    new_game,
    to_wire,
    view_for,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.actions import EndTurn, Ready
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view, sample_state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sample_reproduces_the_view_and_the_legal_actions(players: int) -> None:
    checks = 0
    for seed in range(3):
        state = new_game(seed, players)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            for seat in range(players):
                view = view_for(state, seat)
                sample = sample_state(view, random.Random(checks))
                again = view_for(sample, seat)
                for key in ("log", "log_size"):  # the sample has no history
                    view.pop(key)
                    again.pop(key)
                assert again == view
                assert legal_from_view(view_for(state, seat)) == [
                    to_wire(a) for a in legal_actions(state, seat)
                ]
                checks += 1
            seat = rng.choice(sorted(waiting_on(state)))
            actions = legal_actions(state, seat)
            progress = [a for a in actions if isinstance(a, EndTurn | Ready)]
            apply(state, seat, rng.choice(progress if progress and rng.random() < 0.3 else actions))
    assert checks > 100


def test_hidden_cards_are_drawn_from_what_the_seat_has_not_seen() -> None:
    state = new_game(5, 3)
    view = view_for(state, 0)
    samples = [sample_state(view, random.Random(i)) for i in range(5)]
    # Seat 0's own cards are fixed; another hand varies between samples.
    assert all(s.seats[0].hand == state.seats[0].hand for s in samples)
    assert len({tuple(s.seats[1].hand) for s in samples}) > 1
    for s in samples:
        assert not set(s.seats[1].hand) & set(state.seats[0].hand)
        assert len(s.fish_deck) == len(state.fish_deck)


def test_a_spectator_view_cannot_be_sampled() -> None:
    with pytest.raises(ValueError, match="spectator"):
        sample_state(view_for(new_game(1, 2), None), random.Random(0))
