"""The replay's panes read right for any name and show no hint about playing."""

from __future__ import annotations

from pathlib import Path

from logcheck import play_log
from stacking import stacked_game

from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen, replay_titles
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.hosting.replay import Replay
from poissonnier_tui.shell.replay_app import ReplayApp
from poissonnier_tui.shell.seats import SeatLabel


def test_titles_for_the_default_name_and_one_card() -> None:
    state = stacked_game(2, hands=[["T01"], ["F01", "F02"]])
    seats = (SeatLabel("You", "human"), SeatLabel("Bot 2", "bot"))
    assert replay_titles(TableSnapshot(view_for(state, 0), seats, 1)) == (
        "You · stall", "You · hand (1 card)",
    )  # fmt: skip
    assert replay_titles(TableSnapshot(view_for(state, 1), seats, 1))[1] == "Bot 2 · hand (2 cards)"


async def test_a_replay_shows_no_live_hints(tmp_path: Path) -> None:
    path = tmp_path / "game.plog"
    play_log(path, seed=21, players=3, humans=1)
    app = ReplayApp(Replay.load(path))
    async with app.run_test(size=(170, 56)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        while screen.pov != 0:
            await pilot.press("v")
        await pilot.pause()
        assert "'s" not in str(screen.query_one(MyStall).border_title)
        offers = screen.query_one(OffersList)
        prompts = [str(offers.get_option_at_index(i).prompt) for i in range(offers.option_count)]
        assert not any("press [b]d[/b]" in p for p in prompts)
        assert not any("buys it" in str(c.render()) for c in screen.query(CrateBox))
