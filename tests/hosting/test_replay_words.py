"""Saved games in the reader's language: the replay's line of who did what, and
what is wrong with a damaged log.

The game's entry names its action types (``GameEntry.actions``); the line
reads ``Ana : finir le tour`` in French, ``Ana: end the turn`` in English. A
damaged log (:class:`net.tablelog.LogDamaged`) is described from its fields.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from logcheck import play_log, tear

from net.tablelog import LogDamaged, read_log
from poissonnier_tui import i18n
from poissonnier_tui.games import game_entry
from poissonnier_tui.hosting.persistence import damage_text, summarize
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


@pytest.mark.parametrize(
    ("cut", "french_end"),
    [
        (-7, "le dernier enregistrement valable est l'action 11 ("),  # a torn last record
        (None, "est aucun\u00a0: l'en-tête lui-même est illisible"),  # an empty file
    ],
)
def test_a_damaged_log_is_described_in_the_readers_language(
    tmp_path: Path, english_after: None, cut: int | None, french_end: str
) -> None:
    path = tmp_path / "game.plog"
    play_log(path, seed=25, players=2, actions=12, humans=1)
    if cut is not None:
        tear(path, -cut)
    else:
        path.write_bytes(b"")
    with pytest.raises(LogDamaged) as caught:
        read_log(path)
    damaged = caught.value
    assert damage_text(damaged) == str(damaged)  # English: the reader's own sentence
    i18n.set_language("fr")
    french = damage_text(damaged)
    assert french.startswith(f"{path}\u00a0: abîmé à l'octet {damaged.offset} (")
    assert french_end in french
    (summary,) = [summarize(path)]
    # The history names the file itself; its problem does so only when nothing could be read.
    shown = "abîmé à l'octet" if cut is not None else f"{path}\u00a0: abîmé à l'octet"
    assert summary.problem is not None and summary.problem.startswith(shown)
