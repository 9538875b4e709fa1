"""Every word Go Fish's screens show goes through the catalogue (a pseudo-locale).

With :class:`pseudo.PseudoTranslations` installed, each translated message
shows in look-alike letters; the table (waiting, and asking after a key) and
the results of a whole seeded game and the replay of a logged one (at the
deal, after a few asks, from a seat, at the end) are rendered at 80×24 and
160×50, and
every plain English word left on screen escaped the catalogue. Allowed:
player names and the app's title.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gofish_tablekit import NAMES, SEATS, GoFishTableApp, stacked_midgame
from pseudo import english_on_screen, pseudo, pseudo_locale, screen_lines
from textual.app import App
from textual.pilot import Pilot

from net.tablelog import LogWriter
from poissonnier_tui import __version__
from poissonnier_tui.games.gofish.entry import ENTRY
from poissonnier_tui.games.gofish.match import RULES_VERSION, GoFishGame
from poissonnier_tui.games.gofish.rules.actions import to_wire
from poissonnier_tui.games.gofish.rules.engine import (
    apply,
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.gofish.rules.view import view_for
from poissonnier_tui.games.gofish.ui import GAME_UI
from poissonnier_tui.hosting.replay import Replay

SIZES = [(80, 24), (160, 50)]
IDS = ["80x24", "160x50"]
ALLOWED = set(NAMES) | {"Poissonnier"}


def check(app: App[object]) -> list[str]:
    """Each English word on ``app``'s screen now, with its line."""
    return english_on_screen(app, ALLOWED)


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.fixture(autouse=True)
def speak_pseudo() -> Iterator[None]:
    with pseudo_locale():
        yield


class TableApp(GoFishTableApp):
    """The table, titled as the real app is (the test app's class name is not shown)."""

    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False  # the real app has none


class ResultsApp(App[None]):
    """The results screen of a whole seeded game of random asks, from Ana's seat."""

    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        super().__init__()
        rng = random.Random(5)
        state = new_game(5, 4)
        for _ in range(10_000):
            seats = [s for s in range(4) if legal_actions(state, s)]
            if not seats:
                break
            seat = seats[0]
            apply(state, seat, rng.choice(legal_actions(state, seat)))
        self.snap = GAME_UI.read(view_for(state, 0), SEATS, 1)
        assert self.snap.over

    def on_mount(self) -> None:
        self.push_screen(GAME_UI.results_screen(self.snap))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_table_shows_no_english(size: tuple[int, int]) -> None:
    app = TableApp(stacked_midgame(), 2)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert not (bad := check(app)), "\n".join(bad)
        await pilot.press("4")  # Cleo asks Dom: the status line asks for a rank
        await settle(pilot)
        assert any(pseudo("rank") in line for line in screen_lines(app))
        assert not (bad := check(app)), "\n".join(bad)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_results_show_no_english(size: tuple[int, int]) -> None:
    app = ResultsApp()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert any(pseudo("book") in line for line in screen_lines(app))
        assert not (bad := check(app)), "\n".join(bad)


def write_log(path: Path, seed: int) -> None:
    """A finished Go Fish table log of random legal asks, as a table writes it."""
    rng = random.Random(seed)
    state = new_game(seed, 3)
    seats = [{"name": name, "kind": "human", "token": f"t{i}", "bot": None} for i, name in
             enumerate(NAMES[:3])]  # fmt: skip
    header = {
        "app": __version__, "game": GoFishGame.name, "rules": RULES_VERSION, "seed": seed,
        "seats": seats, "options": dict(ENTRY.options), "table": {"name": "t", "port": 0},
    }  # fmt: skip
    writer = LogWriter.create(path, header)
    for _ in range(10_000):
        waiting = sorted(waiting_on(state))
        if not waiting:
            break
        action = to_wire(rng.choice(legal_actions(state, waiting[0])))
        apply_wire(state, waiting[0], action)
        writer.append(waiting[0], action)
    assert state.result is not None
    writer.finish(state.result)


class ReplayApp(App[None]):
    """Go Fish's replay screen over a log."""

    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def on_mount(self) -> None:
        self.push_screen(GAME_UI.replay_screen(self.replay))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_replay_shows_no_english(size: tuple[int, int], tmp_path: Path) -> None:
    path = tmp_path / "ana.plog"
    write_log(path, 3)
    replay = Replay.load(path)
    app = ReplayApp(replay)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert not (bad := check(app)), "\n".join(bad)
        for keys in (["right", "right", "right"], ["v", "v"], ["end"]):  # asks, a seat, the end
            await pilot.press(*keys)
            await settle(pilot)
            assert any(pseudo("Step") in line for line in screen_lines(app))
            assert not (bad := check(app)), "\n".join(bad)
