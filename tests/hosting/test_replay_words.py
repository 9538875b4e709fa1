"""The replay's line of who did what, in the viewer's language.

The game's entry names its action types (``GameEntry.actions``); the line
reads ``Ana : finir le tour`` in French, ``Ana: end the turn`` in English.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from logcheck import play_log

from poissonnier_tui import i18n
from poissonnier_tui.games import game_entry
from poissonnier_tui.hosting.replay import Replay


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_each_move_of_a_replay_is_named_in_the_viewers_language(
    tmp_path: Path, english_after: None
) -> None:
    path = tmp_path / "game.plog"
    played = play_log(path, seed=24, players=2, actions=12, humans=1)
    replay = Replay.load(path)
    names = game_entry("poissonnier").actions
    step = next(i for i, (_seat, a) in enumerate(played, start=1) if a["type"] in names)
    seat, action = played[step - 1]
    who = replay.header.seats[seat].name
    english = replay.move_text(step, None)
    assert english == f"{who}: {names[action['type']]}"
    i18n.set_language("fr")
    french = replay.move_text(step, None)
    assert french == f"{who}\u00a0: {i18n._(names[action['type']])}"
    assert french != english.replace(": ", "\u00a0: ")  # the move's words are French too
    assert replay.move_text(0, None) == "La donne."


def test_every_action_type_of_each_game_is_named() -> None:
    from poissonnier_tui.games.gofish.rules import actions as gofish
    from poissonnier_tui.games.poissonnier.rules import actions as poissonnier

    for name, module in (("poissonnier", poissonnier), ("gofish", gofish)):
        types = {kind.TYPE for kind in typing.get_args(module.Action)}
        assert types and set(game_entry(name).actions) == types, name
