"""The results screen's steps (RULES.md §8): numbered 1 to 4 without a gap, and each
reason worded from its code and parameters in the viewer's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.content import Content

from poissonnier_tui import i18n
from poissonnier_tui.games.poissonnier.rules.engine import new_game
from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner, explain
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.describe import step_name, step_reason
from poissonnier_tui.games.poissonnier.ui.screens.results import StepLine, numbered_steps
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.seats import SeatLabel

NAMES = (SeatLabel("Ana"), SeatLabel("Bot 1", "bot"), SeatLabel("Bot 2", "bot"), SeatLabel("Cy"))


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Each test may switch the language; the next one starts in English."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def snap(players: int) -> TableSnapshot:
    """A table of ``players`` seen from seat 0 (only the names matter here)."""
    return TableSnapshot(view_for(new_game(1, players), 0), NAMES[:players])


def plain(markup: str) -> str:
    """Markup without its styles."""
    return Content.from_markup(markup).plain


def steps_of(scores: list[Score]) -> list[StepLine]:
    """The screen's lines for these final tallies."""
    return numbered_steps(snap(len(scores)), decide_winner(scores))


def labels(scores: list[Score]) -> list[str]:
    return [plain(s.name) for s in steps_of(scores)]


def test_four_players_say_why_step_2_does_not_apply() -> None:
    scores = [Score(0, 5, 2, 3), Score(1, 2, 1, 1), Score(2, 6, 3, 2), Score(3, 4, 4, 4)]
    assert [s[:2] for s in labels(scores)] == ["1.", "2.", "3.", "4."]
    steps = steps_of(scores)
    assert steps[1].name == "2. does not apply" and "3 players only" in steps[1].why
    assert [s.eliminated for s in steps] == [1, None, 0, None]


def test_three_players_with_nobody_out_in_step_1() -> None:
    scores = [Score(0, 3, 1, 2), Score(1, 3, 1, 2), Score(2, 5, 2, 1)]  # a tie on coins
    steps = steps_of(scores)
    assert [s.name[:2] for s in steps] == ["1.", "2.", "3.", "4."]
    assert steps[0].eliminated is None and "nobody was eliminated" in steps[1].why


def test_three_players_decided_by_the_two_player_rule_number_it_2() -> None:
    scores = [Score(0, 1, 1, 1), Score(1, 5, 3, 2), Score(2, 4, 1, 3)]
    assert labels(scores)[:2] == ["1. fewest coins", "2. the 2-player rule"]


def test_two_players_keep_their_own_steps() -> None:
    scores = [Score(0, 5, 2, 3), Score(1, 2, 1, 1)]
    assert labels(scores) == ["2-player rule"]


# (final tallies (coins, clients, stamps) per seat, index of the step, reason code,
#  the reason in English, in French) — one case per reason of RULES.md §8.
REASONS = [
    (
        [(5, 2, 3), (2, 1, 1), (6, 3, 2), (4, 4, 4)],
        0,
        "fewest",
        "fewest coins (2)",
        "le moins de pièces (2)",
    ),
    (
        [(2, 1, 3), (2, 3, 1), (6, 3, 2)],
        0,
        "fewest_then",
        "tied on fewest coins (2) with Bot 1; fewest clients (1)",
        "ex æquo pour le moins de pièces (2) avec Bot 1\u00a0; le moins de clients (1)",
    ),
    (
        [(3, 1, 2), (3, 1, 2), (5, 2, 1)],
        0,
        "all_tied",
        "Ana and Bot 1 tied on fewest coins (3) and clients (1): nobody eliminated",
        "ex æquo entre Ana et Bot 1 pour le moins de pièces (3) et de clients (1)\u00a0: "
        "personne n’est éliminé",
    ),
    (
        [(5, 2, 3), (2, 1, 1)],
        0,
        "leads",
        "Ana leads in 3 of coins, clients, stamps",
        "Ana mène dans 3 des 3 décomptes (pièces, clients, tampons)",
    ),
    (
        [(9, 2, 1), (1, 2, 3)],
        0,
        "no_lead",
        "nobody leads in 2 of coins, clients, stamps",
        "personne ne mène dans 2 des 3 décomptes (pièces, clients, tampons)",
    ),
    (
        [(9, 2, 1), (1, 2, 3)],
        1,
        "most",
        "Bot 1 has the most stamps (3)",
        "Bot 1 a le plus de tampons (3)",
    ),
    (
        [(9, 2, 4), (9, 2, 4)],
        1,
        "shared",
        "tied on stamps, clients and coins: shared victory",
        "égalité en tampons, clients et pièces\u00a0: victoire partagée",
    ),
]


@pytest.mark.parametrize(("tallies", "index", "code", "english", "french"), REASONS)
def test_each_reason_is_worded_from_its_code_in_english_and_french(
    tallies: list[tuple[int, int, int]], index: int, code: str, english: str, french: str
) -> None:
    """RULES.md §8: the result records every step and why; the scorer gives the why as a
    code and parameters, and the screen says it in the viewer's language."""
    scores = [Score(seat, *t) for seat, t in enumerate(tallies)]
    result = decide_winner(scores)
    steps = explain(result)
    assert steps is not None
    reason = steps[index].reason
    assert reason.code == code
    table = snap(len(scores))
    assert plain(step_reason(table, reason)) == english
    i18n.set_language("fr")
    assert plain(step_reason(table, reason)) == french


def test_step_names_in_french() -> None:
    """§8's steps by name, from their codes, in French."""
    steps = explain(decide_winner([Score(0, 5, 2, 3), Score(1, 2, 1, 1), Score(2, 6, 3, 2)]))
    assert steps is not None
    i18n.set_language("fr")
    assert [step_name(s) for s in steps] == ["1. le moins de pièces", "règle à 2 joueurs"]


def test_a_result_not_written_by_this_scorer_is_shown_as_recorded() -> None:
    """Steps that are not those §8 gives for the scores are shown as they are, not explained
    by other steps: the screen never explains a verdict other than the one it shows."""
    result = decide_winner([Score(0, 5, 2, 3), Score(1, 2, 1, 1)])
    result["steps"] = [{"step": "[b]odd[/b]", "eliminated": None, "why": "a judge said so"}]
    lines = numbered_steps(snap(2), result)
    assert [(plain(s.name), s.why) for s in lines] == [("[b]odd[/b]", "a judge said so")]
