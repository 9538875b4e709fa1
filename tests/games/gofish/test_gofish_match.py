"""`GoFishMatch` as the table server sees it (`net.game.Match`), and the wire form of asks."""

from __future__ import annotations

from typing import Any

import pytest

from net.game import ActionRejected
from poissonnier_tui.games.gofish.match import GoFishGame
from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard, parse_action, to_wire
from poissonnier_tui.games.gofish.rules.errors import IllegalAction


def test_the_definition_names_the_game_and_its_seat_limits() -> None:
    game = GoFishGame()
    assert (game.name, game.min_seats, game.max_seats) == ("gofish", 2, 6)
    assert game.rules_version == "1"


def test_a_match_applies_wire_asks_and_refuses_with_a_sentence_citing_the_rule() -> None:
    match = GoFishGame().new_match(4, 3, {"first_player": 1})
    assert match.waiting_on() == {1} and match.volunteers() == frozenset()
    assert match.legal_actions(0) == [] and match.legal_actions(2) == []
    legal = match.legal_actions(1)
    assert legal and all(a["type"] == "ask" for a in legal)
    before = match.view(None)
    with pytest.raises(ActionRejected) as info:
        match.apply(0, legal[0])
    assert info.value.code == "not_your_turn" and "(§3)" in info.value.message
    with pytest.raises(ActionRejected) as info:
        match.apply(1, {"type": "ask", "target": 0})
    assert info.value.code == "bad_action" and "rank" in info.value.message
    assert match.view(None) == before
    match.apply(1, legal[0])
    assert match.view(None)["log"][len(before["log"])]["t"] == "ask"
    assert match.result() is None and not match.is_over


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"play_on": True},
    {"variant": "card"},
    {"variant": "card", "play_on": True},
    {"variant": "card", "bluff": True},
    {"variant": "card", "bluff": True, "play_on": True},
]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize(("seed", "players"), [(8, 4), (9, 2), (10, 6)])
def test_a_whole_match_by_timeout_actions_ends_with_a_result(
    options: dict[str, Any], seed: int, players: int
) -> None:
    """G12 alone plays a game to its end (a table of absent players does not stall)."""
    match = GoFishGame().new_match(seed, players, options)
    for _ in range(5000):
        if match.is_over:
            break
        (seat,) = match.waiting_on()
        action = match.timeout_action(seat)
        assert action is not None and action in match.legal_actions(seat)
        match.apply(seat, action)
    result = match.result()
    assert match.is_over and result is not None
    assert set(result) == {"winners", "shared", "scores", "seed", "turns"}
    assert result["seed"] == seed
    if options.get("play_on"):
        assert sum(s["books"] for s in result["scores"]) == 13


@pytest.mark.parametrize(
    "wire",
    [
        None,
        [],
        {},
        {"type": "fish"},
        {"type": "ask", "target": 1},
        {"type": "ask", "target": 1, "rank": "Q", "suit": "H"},
        {"type": "ask", "target": True, "rank": "Q"},
        {"type": "ask", "target": -1, "rank": "Q"},
        {"type": "ask", "target": 6, "rank": "Q"},
        {"type": "ask", "target": "1", "rank": "Q"},
        {"type": "ask", "target": 1, "rank": "1"},
        {"type": "ask", "target": 1, "rank": 10},
        {"type": "ask_card", "target": 1, "rank": "Q"},
        {"type": "ask_card", "target": 1, "rank": "Q", "suit": "X"},
        {"type": "ask_card", "target": 1, "rank": "Q", "suit": "h"},
    ],
)
def test_malformed_wire_actions_are_refused_as_bad_action(wire: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action(wire)
    assert (info.value.code, info.value.rule) == ("bad_action", "wire")


def test_wire_forms_round_trip() -> None:
    for action in (Ask(2, "10"), AskCard(5, "A", "S")):
        assert parse_action(to_wire(action)) == action
    assert to_wire(AskCard(1, "Q", "H")) == {"type": "ask_card", "target": 1, "rank": "Q",
                                            "suit": "H"}  # fmt: skip
