"""``poissonnier replay``, the read-only viewer, driven with keys (``run_test``).

What a replay may show (RULES.md §9): a finished game every seat's hand
(one seat at a time, or all at once); a game still running only the public
view and the viewer's own seat. The tests step forward and back, by action
and by turn, jump to a turn, switch the point of view, and check at each
stop which hands are on screen against the engine's real hands.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from logcheck import play_log
from textual.widgets import Static

from poissonnier_tui.cli import main
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.rules.view import all_hands_view, view_for
from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.widgets.all_hands import AllHands
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.hosting.replay import ALL_HANDS, NotAllowed, Replay
from poissonnier_tui.shell.replay_app import ReplayApp

SIZE = (170, 56)


def hand_of(state: GameState, seat: int) -> list[str]:
    """The hand ``seat`` holds (its draft hand during the fill step), as the engine has it."""
    s = state.seats[seat]
    return list(s.draft_hand if s.draft_hand is not None else s.hand)


def screen_of(app: ReplayApp) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_a_finished_game_steps_both_ways_and_shows_each_hand_only_from_its_seat(
    tmp_path: Path,
) -> None:
    path = tmp_path / "finished.plog"
    played = play_log(path, seed=21, players=3, humans=1)
    replay = Replay.load(path)
    assert replay.finished and replay.steps == len(played) and replay.problem is None
    assert replay.points_of_view() == [None, 0, 1, 2, ALL_HANDS]
    app = ReplayApp(replay)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        assert (screen.step, screen.pov) == (0, None)
        assert screen.shown_hands() == {}  # the public view: no hand at all
        assert not screen.query_one(HandView).display and not screen.query_one(AllHands).display

        for _ in range(5):
            await pilot.press("right")
        await pilot.press("left")
        assert screen.step == 4
        assert screen.snapshot is not None and screen.snapshot.rev == 4
        assert screen.snapshot.view == view_for(replay.state(4), None)

        await pilot.press("down")  # the next turn
        turn2 = replay.turn_start(2)
        assert screen.step == turn2 and replay.turn_at(turn2) == 2
        assert replay.turn_at(turn2 - 1) == 1
        await pilot.press("right", "right", "up")  # back to the start of this turn
        assert screen.step == turn2
        await pilot.press("up")  # ... and to the start of the one before
        assert screen.step == 0

        await pilot.press("right", "right", "right")
        state = replay.state(3)
        for seat in range(3):
            await pilot.press("v")
            assert screen.pov == seat
            assert screen.shown_hands() == {seat: hand_of(state, seat)}  # that seat's only
            assert screen.query_one(MyStall).display and screen.query_one(HandView).display
            assert not screen.query_one(AllHands).display
            assert screen.snapshot is not None and screen.snapshot.view == view_for(state, seat)
        await pilot.press("v")  # every hand: allowed, the game is over
        assert screen.pov == ALL_HANDS
        assert screen.shown_hands() == {s: hand_of(state, s) for s in range(3)}
        hands = screen.query_one(AllHands)
        assert hands.display and "P0" in str(hands.render()) and "Bot 2" in str(hands.render())
        await pilot.press("v")
        assert screen.pov is None and screen.shown_hands() == {}
        await pilot.press("2")  # seat 2 directly
        assert screen.pov == 1 and set(screen.shown_hands()) == {1}
        await pilot.press("a")
        assert screen.pov == ALL_HANDS

        await pilot.press("g")
        await pilot.press("3", "enter")
        assert screen.step == replay.turn_start(3) and replay.turn_at(screen.step) == 3
        assert screen.shown_hands() == {s: hand_of(replay.state(screen.step), s) for s in range(3)}

        await pilot.press("end")
        assert screen.step == replay.steps and screen.snapshot is not None
        assert (
            screen.snapshot.over
            and screen.snapshot.view["result"] == replay.state(replay.steps).result
        )
        await pilot.press("enter")
        assert isinstance(app.screen, ResultsScreen)


async def test_a_running_game_shows_only_the_public_view_and_the_viewers_seat(
    tmp_path: Path,
) -> None:
    path = tmp_path / "running.plog"
    played = play_log(path, seed=22, players=3, actions=16, humans=1)
    replay = Replay.load(path)  # a solo game: the one player's seat is the viewer's
    assert not replay.finished and replay.viewer == 0 and replay.steps == 16
    assert replay.points_of_view() == [None, 0]
    with pytest.raises(NotAllowed):
        replay.view(3, 1)
    with pytest.raises(NotAllowed):
        replay.view(3, ALL_HANDS)
    with pytest.raises(ValueError, match="only once the game is over"):
        all_hands_view(replay.state(3), replay.state(replay.steps))
    app = ReplayApp(replay)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        assert screen.pov == 0  # opens on the viewer's own seat
        assert screen.shown_hands() == {0: hand_of(replay.state(0), 0)}
        await pilot.press("v")
        assert screen.pov is None and screen.shown_hands() == {}
        await pilot.press("v")
        assert screen.pov == 0  # never another seat
        for key in ("2", "3", "a"):  # other seats and every hand are refused
            await pilot.press(key)
            assert screen.pov == 0
        # Step through the whole game, both points of view: only seat 0's hand, ever.
        for step in range(1, replay.steps + 1):
            await pilot.press("right")
            assert screen.step == step
            assert screen.shown_hands() == {0: hand_of(replay.state(step), 0)}
            assert not screen.query_one(AllHands).display
            seat, action = played[step - 1]
            text = replay.move_text(step, screen.pov)
            if seat != 0:  # another seat's move: its kind, never its cards
                assert all(card not in text for card in _card_ids(action))
        await pilot.press("v")
        for _ in range(replay.steps):
            await pilot.press("left")
            assert screen.shown_hands() == {}
        assert screen.step == 0


def _card_ids(action: dict[str, object]) -> list[str]:
    out: list[str] = []
    for value in action.values():
        if isinstance(value, list):
            out += [v for v in value if isinstance(v, str) and len(v) == 3]
    return out


def test_a_running_game_of_several_players_shows_only_the_public_view(tmp_path: Path) -> None:
    path = tmp_path / "lan.plog"
    play_log(path, seed=23, players=3, actions=10, humans=2)
    replay = Replay.load(path)
    assert replay.viewer is None and replay.points_of_view() == [None]
    mine = Replay.load(path, seat=1)  # --seat 2: the viewer held seat 2
    assert mine.points_of_view() == [None, 1]


def test_replay_command_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "missing.plog")]) == 1
    assert "There is no log at" in capsys.readouterr().err
    broken = tmp_path / "broken.plog"
    broken.write_bytes(b"\x00\x00")
    assert main(["replay", str(broken)]) == 1
    assert "damaged at byte 0" in capsys.readouterr().err
    assert main(["replay"]) == 1
    assert "no saved games yet" in capsys.readouterr().err
    path = tmp_path / "ok.plog"
    play_log(path, seed=1, players=2, actions=3)
    assert main(["replay", str(path), "--seat", "9"]) == 2


async def test_the_bar_shows_the_movers_cards_and_leaves_out_empty_fields(
    tmp_path: Path,
) -> None:
    """Card ids in brackets are text, not markup ("[T04]" was dropped as a tag), and an
    empty field ("glaçons []") is not said."""
    path = tmp_path / "finished.plog"
    played = play_log(path, seed=21, players=3, humans=1)
    step, (_seat, serve) = next(
        (i, p) for i, p in enumerate(played, start=1) if p[1]["type"] == "serve" and p[1]["fish"]
    )
    replay = Replay.load(path)
    app = ReplayApp(replay)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.pov = ALL_HANDS
        screen.step = step
        await pilot.pause()
        bar = str(screen.query_one("#bar", Static).render())
        fish = "[" + " ".join(serve["fish"]) + "]"
        assert f"fish {fish}" in bar, (fish, bar)
        assert "[]" not in bar, bar
