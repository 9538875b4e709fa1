"""Every word Le Poissonnier's screens show goes through the catalogue (a pseudo-locale).

With :class:`pseudo.PseudoTranslations` installed, each translated message
shows in look-alike letters; the table mid-game, the serve dialog, the results
screen and the replay (at its start, mid-game and at its end with every hand)
are rendered at 80×24 and 160×50 and every plain English word left on screen
is a string that escaped the catalogue. Allowed: player names, card codes,
the game's own French words, file names and the app's title. The offers pane
(widgets/offers.py, another branch's) is hidden until its strings are marked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from logcheck import play_log
from pseudo import english_on_screen, english_words, pseudo, pseudo_locale, screen_lines
from stacking import stacked_game
from tablekit import SEATS, TableApp, midgame
from test_snapshots_dialogs import ResultsApp, finished
from textual.app import App
from textual.pilot import Pilot

from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.hosting.replay import ALL_HANDS, Replay
from poissonnier_tui.shell.replay_app import ReplayApp

SIZES = [(80, 24), (160, 50)]
IDS = ["80x24", "160x50"]

NAMES = {w for seat in SEATS for w in seat.name.split()} | {"Bot", "Ana", "Ben", "Cleo"}
"""Player names (data, never translated), the bots' included."""
FRENCH = {"très", "frais", "douteux"} | {
    w + s for w in ("mangeable", "pourri", "glaçon", "arrivage") for s in ("", "s")
}
"""The game's own words, French in every language (docs/GLOSSARY.md)."""
ALLOWED = NAMES | FRENCH | {"Poissonnier", "Le", "RULES", "md", "plog"}


def check(app: App[object]) -> list[str]:
    """Each English word on ``app``'s screen now, with its line."""
    return english_on_screen(app, ALLOWED)


async def settle(pilot: Pilot[None]) -> None:
    """Let the views reach the widgets; then hide the offers pane (see below)."""
    await pilot.pause()
    for screen in pilot.app.screen_stack:
        for offers in screen.query(OffersList):
            # widgets/offers.py is being marked on another branch now (NOT_YET in
            # tests/test_i18n_marked.py): its pane is left out until then.
            offers.display = False
    await pilot.pause()
    await pilot.pause()


@pytest.fixture(autouse=True)
def speak_pseudo() -> Iterator[None]:
    with pseudo_locale():
        yield


def test_the_pseudo_locale_changes_letters_and_keeps_placeholders_and_markup() -> None:
    assert pseudo("[b]Offer #{id}[/b]: take it") == "[b]Óƒƒéŕ #{id}[/b]: ţáķé íţ"
    assert english_words(["Šéŕʋé C03 Ana, Serve the T"], {"Ana"}) == ["Serve", "the"]
    assert english_words(["2 très fra… 2 tre…"], {"très", "frais"}) == ["tre"]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_table_and_the_serve_dialog_show_no_english(size: tuple[int, int]) -> None:
    app = TableApp(midgame())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        table = screen_lines(app)
        assert any("Šéŕʋé" in line for line in table), table  # the footer, pseudo-translated
        assert not (bad := check(app)), "\n".join(bad)
        await pilot.press("s", "1")
        await settle(pilot)
        assert app.screen is not app.table  # the serve dialog is open
        assert not (bad := check(app)), "\n".join(bad)


def fill_step() -> GameState:
    """A fresh 3-player game in the fill step."""
    return stacked_game(3)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
@pytest.mark.parametrize(
    ("make", "seat"),
    [(fill_step, 0), (midgame, 1), (midgame, None), (lambda: finished(4, 4), 0)],
    ids=["fill-step", "others-turn", "spectator", "game-over"],
)
async def test_the_table_at_each_step_shows_no_english(
    make: Callable[[], GameState], seat: int | None, size: tuple[int, int]
) -> None:
    app = TableApp(make(), seat)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert not (bad := check(app)), "\n".join(bad)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_results_screen_shows_no_english(size: tuple[int, int]) -> None:
    app = ResultsApp(4)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        lines = screen_lines(app)
        assert any(pseudo("How the winner was found") in line for line in lines), lines
        assert not (bad := check(app)), "\n".join(bad)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_replay_shows_no_english(size: tuple[int, int], tmp_path: Path) -> None:
    path = tmp_path / "ana.plog"
    play_log(path, seed=21, players=3, humans=1)
    replay = Replay.load(path)
    app = ReplayApp(replay, start=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert any(pseudo("Step") in line for line in screen_lines(app))  # the bar
        assert not (bad := check(app)), "\n".join(bad)
        screen.step = replay.turn_start(2) + 3  # mid-game: moves, offers, the log
        await settle(pilot)
        assert not (bad := check(app)), "\n".join(bad)
        screen.pov = ALL_HANDS
        screen.step = replay.steps  # the end, every hand shown
        await settle(pilot)
        assert not (bad := check(app)), "\n".join(bad)
        await pilot.press("enter")  # the results of the finished game
        await settle(pilot)
        assert not (bad := check(app)), "\n".join(bad)
