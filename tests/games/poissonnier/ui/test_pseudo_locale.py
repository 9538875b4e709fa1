"""Every word Le Poissonnier's screens show goes through the catalogue (a pseudo-locale).

With :class:`pseudo.PseudoTranslations` installed, each translated message
shows in look-alike letters; the table mid-game, the serve dialog, the results
screen and the replay (at its start, mid-game and at its end with every hand)
are rendered at 80×24 and 160×50 and every plain English word left on screen
is a string that escaped the catalogue. Allowed: player names, card codes,
the game's own French words, file names and the app's title. The haggling is
shown too: the offers pane with an open offer, a thread and a decline with a
reason and a price, the deal dialog with a bot's quote and every stall's
crates, the decline and price dialogs, and the chat with its quick phrases.
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
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Input

from poissonnier_tui.games.poissonnier.rules.actions import Decline, Propose, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.ui.screens.answer_dialogs import PriceDialog, ReasonDialog
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import SHORT_BELOW, DealDialog
from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.hosting.replay import ALL_HANDS, Replay
from poissonnier_tui.shell.replay_app import ReplayApp
from poissonnier_tui.shell.screens.chat import QUICK_PHRASES, ChatLine, ChatScreen
from poissonnier_tui.shell.screens.rematch_panel import rematch_text
from poissonnier_tui.shell.seats import SeatLabel

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
    """Let the views reach the widgets."""
    await pilot.pause()
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


def haggled() -> GameState:
    """The midgame haggled over (RULES.md §4): Bot 1 offers Ana its T (#1), she counters at
    1 coin (#2), Bot 1 declines it as too cheap, naming 2 coins, she offers again (#3) and
    Bot 1 counters at 2 coins (#4): open, for her to answer."""
    state = midgame()
    apply_wire(state, 0, to_wire(Propose(seller=1, fish=((0, 1),), coins=1, counter=1)))
    apply_wire(state, 1, to_wire(Decline(2, reason="too_cheap", price=2)))
    apply_wire(state, 0, to_wire(Propose(seller=1, fish=((0, 1),), coins=1)))
    apply_wire(state, 1, to_wire(Propose(seller=1, fish=((0, 1),), coins=2, counter=3)))
    return state


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_offers_pane_and_the_answer_dialogs_show_no_english(
    size: tuple[int, int],
) -> None:
    app = TableApp(haggled())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        pane = app.table.query_one(OffersList)
        (thread,) = [str(o.prompt) for o in pane.options]  # #4 open, its thread from #1
        assert pane.display and "#2" in thread and pseudo("too cheap") in thread, thread
        assert not (bad := check(app)), "\n".join(bad)
        await pilot.press("n")  # decline #4, saying why
        await settle(pilot)
        assert isinstance(app.screen, ReasonDialog)
        assert not (bad := check(app)), "\n".join(bad)
        await pilot.press("escape")
        await settle(pilot)
        deal = {
            "proposer": 1, "seller": 0, "fish": [[1, 1, "F"]], "seller_glacons": 0,
            "seller_arrivages": 0, "buyer_glacons": 0, "buyer_arrivages": 0,
        }  # fmt: skip
        app.table.price_asked(2, deal)  # a person asks Ana her price
        await settle(pilot)
        assert isinstance(app.screen, PriceDialog)
        assert not (bad := check(app)), "\n".join(bad)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_deal_dialog_with_a_bots_quote_shows_no_english(size: tuple[int, int]) -> None:
    app = TableApp(midgame())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("d")  # Ana asks a seller for fish
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DealDialog)
        dialog.query_one("#crate-0", Input).value = "1"
        await settle(pilot)
        dialog.show_price(dialog.other, dialog._question(), 3, True)  # the bot's quote
        await settle(pilot)
        lines = screen_lines(app)
        stalls = any(pseudo("Stalls — {rows}").split(" ")[0] in line for line in lines)
        assert stalls == (size[1] >= SHORT_BELOW), lines  # short: the terms take its room
        assert not (bad := check(app)), "\n".join(bad)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_chat_and_its_quick_phrases_show_no_english(size: tuple[int, int]) -> None:
    app = TableApp(midgame())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.table.show_chat(ChatLine(1, "Ben", "3 ?"))  # a line in the log
        app.push_screen(ChatScreen([ChatLine(1, "Ben", "3 ?"), ChatLine(None, "Cleo", "1 !")]))
        await settle(pilot)
        lines = screen_lines(app)
        assert any(pseudo(QUICK_PHRASES[0]) in line for line in lines), lines
        assert not (bad := check(app)), "\n".join(bad)


def test_the_rematch_proposal_shows_no_english() -> None:
    """The play-again panel of the results screen (shell/screens/rematch_panel.py), for the
    host, a player asked, one who declined and a spectator; a bot's level in words too."""
    seats = [SeatLabel("Ana"), SeatLabel("Bot 2 · medium", "bot"), SeatLabel("Ben")]
    answers = ["yes", "bot", "waiting"]
    declined = ["yes", "bot", "no"]
    for me, host, said in ((0, True, answers), (2, False, answers), (2, False, declined),
                           (None, False, answers)):  # fmt: skip
        text = Content.from_markup(rematch_text(said, seats, me, host=host)).plain
        assert pseudo("Play again?") in text
        assert "medium" not in text and not english_words(text.splitlines(), ALLOWED), text
