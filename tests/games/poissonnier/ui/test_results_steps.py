"""The results screen numbers the winner's steps 1 to 4 without a gap (RULES.md §8)."""

from __future__ import annotations

from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner
from poissonnier_tui.games.poissonnier.ui.screens.results import numbered_steps


def labels(scores: list[Score]) -> list[str]:
    result = decide_winner(scores)
    return [str(s["step"]) for s in numbered_steps(result, len(scores))]


def test_four_players_say_why_step_2_does_not_apply() -> None:
    scores = [Score(0, 5, 2, 3), Score(1, 2, 1, 1), Score(2, 6, 3, 2), Score(3, 4, 4, 4)]
    assert [s[:2] for s in labels(scores)] == ["1.", "2.", "3.", "4."]
    steps = numbered_steps(decide_winner(scores), 4)
    assert steps[1]["step"] == "2. does not apply" and "3 players only" in steps[1]["why"]


def test_three_players_with_nobody_out_in_step_1() -> None:
    scores = [Score(0, 3, 1, 2), Score(1, 3, 1, 2), Score(2, 5, 2, 1)]  # a tie on coins
    steps = numbered_steps(decide_winner(scores), 3)
    assert [str(s["step"])[:2] for s in steps] == ["1.", "2.", "3.", "4."]
    assert steps[0]["eliminated"] is None and "nobody was eliminated" in steps[1]["why"]


def test_three_players_decided_by_the_two_player_rule_number_it_2() -> None:
    scores = [Score(0, 1, 1, 1), Score(1, 5, 3, 2), Score(2, 4, 1, 3)]
    assert labels(scores)[:2] == ["1. fewest coins", "2. the 2-player rule"]


def test_two_players_keep_their_own_steps() -> None:
    scores = [Score(0, 5, 2, 3), Score(1, 2, 1, 1)]
    assert labels(scores) == ["2-player rule"]
