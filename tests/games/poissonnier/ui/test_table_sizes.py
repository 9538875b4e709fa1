"""The table at 80×24 (a default terminal): every action reachable by keys, every pane
within reach, and a layout that follows the window when it is resized (screens/board.py).

The screen runs in :class:`tablekit.TableApp` (the rules engine in process, no
server): each test presses keys and checks what the game or the screen did.
"""

from __future__ import annotations

from pathlib import Path

from logcheck import play_log
from stacking import stacked_game
from tablekit import TableApp, midgame
from test_app_widgets import OfflineApp, fill_state, open_counter, press_deal, serve_state
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input

from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.ui.palette import COLOURS, DARK_TEXT
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog
from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen
from poissonnier_tui.games.poissonnier.ui.screens.serve_dialog import ServeDialog
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.panes import PaneBar
from poissonnier_tui.games.poissonnier.ui.widgets.players import COLUMNS, PlayersTable
from poissonnier_tui.hosting.replay import Replay
from poissonnier_tui.shell.replay_app import ReplayApp
from poissonnier_tui.shell.screens.footer import KeyBar
from poissonnier_tui.shell.screens.help import HelpScreen
from poissonnier_tui.shell.screens.quit_dialog import QuitDialog

SMALL = (80, 24)
"""A default terminal (columns, rows)."""


async def settle(pilot: Pilot[None]) -> None:
    """Let posted messages, refreshes and the layout run."""
    await pilot.pause()
    await pilot.pause()


def on_screen(widget: Widget) -> bool:
    """The widget is displayed with some room inside the screen."""
    region = widget.region
    width, height = widget.app.size
    return (
        widget.display
        and region.width > 2
        and region.height > 0
        and region.right <= width
        and region.bottom <= height
    )


def fill_with_coins() -> GameState:
    """3 players, fill step of turn 1; seat 0 holds T T F M and a glaçon, and 5 coins."""
    return stacked_game(3, hands=[["T01", "T02", "F01", "M01", "G01"], None, None], coins=[5, 3, 3])


# --- what is on screen ------------------------------------------------------------------


async def test_own_information_is_in_sight_at_80x24() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.table
        for selector in ("#queue", "#stall", "#hand", "#status", "#panes"):
            assert on_screen(screen.query_one(selector)), selector
        stall = screen.query_one(MyStall)
        # The tallies that decide the game ride on the stall (RULES.md §8).
        assert "7 coins" in str(stall.border_title) and "2 stamps" in str(stall.border_title)
        for i in range(3):
            assert on_screen(stall.crate(i))
        hand = screen.query_one(HandView)
        assert hand.region.height >= 2 + len(hand.groups)  # every kind in hand, one row each
        assert screen.has_class("-w-narrow") and screen.has_class("-my-turn")
        assert "YOUR TURN" in str(screen.status.render())


async def test_pane_keys_show_each_pane_beside_the_hand() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.table
        panes = {"o": "#offers", "l": "#log", "p": "#players", "w": "#others", "m": "#market"}
        hand = screen.query_one("#hand")
        for key, selector in panes.items():
            await pilot.press(key)
            await settle(pilot)
            shown = screen.query_one(selector)
            assert on_screen(shown), selector
            assert shown.region.x >= hand.region.right  # beside the hand, not over it
            hidden = [s for s in panes.values() if s != selector]
            assert not any(on_screen(screen.query_one(s)) for s in hidden), key
            assert on_screen(hand)
        assert screen.query_one(PaneBar).pane == "market"


async def test_players_pane_keeps_every_column_at_80x24() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        players = app.table.query_one(PlayersTable)
        assert [str(c.key.value) for c in players.columns.values()] == list(COLUMNS)
        used = sum(c.get_render_width(players) for c in players.columns.values())
        assert used <= players.scrollable_content_region.width
        assert str(players.get_cell_at((0, 6))) == "serving"
        assert "Bot 4" in str(players.get_cell_at((2, 0)))


async def test_resizing_mid_game_lays_the_table_out_again() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = app.table
        side = ("#players", "#offers", "#log", "#others", "#market")
        assert all(on_screen(screen.query_one(s)) for s in side)
        assert not screen.query_one("#panes").display
        await pilot.resize_terminal(*SMALL)
        await settle(pilot)
        assert screen.has_class("-w-narrow") and screen.query_one("#panes").display
        assert sum(on_screen(screen.query_one(s)) for s in side) == 1
        await pilot.resize_terminal(70, 20)
        await settle(pilot)
        assert on_screen(screen.query_one("#too-small"))
        assert "80×24" in str(screen.query_one("#too-small").render())
        assert not screen.query_one("#main").display
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert not screen.query_one("#too-small").display
        assert all(on_screen(screen.query_one(s)) for s in side)


# --- every action by keys at 80×24 -------------------------------------------------------


async def test_fill_step_by_keys_at_80x24() -> None:
    app = TableApp(fill_with_coins())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        stall = app.table.query_one(MyStall)
        await pilot.press("1")  # the cursor's whole freshness (T T) into crate 1
        await settle(pilot)
        assert app.moves[-1] == {"type": "place", "cards": ["T01", "T02"], "crate": 0}
        assert stall.crate(0).fish == "TT"
        await pilot.press("t", "1")
        await settle(pilot)
        assert app.moves[-1] == {"type": "take_back", "crate": 0}
        assert stall.crate(0).fish == ""
        await pilot.press("b")  # 5 coins, the 2nd crate costs 2 (R11)
        await settle(pilot)
        assert app.moves[-1] == {"type": "buy_crate"}
        assert len(app.state.seats[0].crates) == 2 and stall.crate(1).state == "owned"
        await pilot.press("2")  # the cursor stayed on F: into the new crate
        await settle(pilot)
        assert stall.crate(1).fish == "F"
        await pilot.press("r")
        await settle(pilot)
        assert app.state.seats[0].ready and app.refused == []


async def test_serve_dialog_by_keys_at_80x24() -> None:
    app = TableApp(serve_state())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("s", "1")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ServeDialog) and dialog.client_id == "C03"
        assert on_screen(dialog.query_one("#dialog"))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.state.seats[0].clients == ["C03"]
        await pilot.press("e")
        await settle(pilot)
        assert app.moves[-1] == {"type": "end_turn"}


async def test_deal_dialog_by_keys_at_80x24() -> None:
    app = TableApp(serve_state())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DealDialog)
        assert on_screen(dialog.query_one("#dialog"))
        await pilot.press("up")  # the focus starts on Bot 1's crate 1: ask for one fish
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.moves[-1]["type"] == "propose" and app.moves[-1]["fish"] == [[0, 1]]
        (proposal,) = app.state.proposals
        assert proposal.seller == 1


async def test_every_deal_field_is_in_sight_when_focused_at_80x24() -> None:
    """At 80×24 the deal's terms do not all fit: each field Tab reaches is scrolled into
    sight, above the summary and the buttons, never hidden under them (the real app,
    with its dialogs' frame)."""
    app = OfflineApp(serve_state())
    async with app.run_test(size=SMALL) as pilot:
        dialog = await press_deal(app, pilot)
        frame = dialog.query_one("#dialog").content_region
        outcome = dialog.query_one("#outcome").region
        seen = []
        for _ in range(12):
            field = app.focused
            if isinstance(field, Input) and field.id not in seen:
                seen.append(field.id)
                assert frame.contains_region(field.region), field.id
                assert not field.region.overlaps(outcome), field.id
            await pilot.press("tab")
            await settle(pilot)
        assert {"coins", "buyer_glacons", "buyer_arrivages"} <= set(seen)


async def test_counter_price_edited_by_keys_at_80x24() -> None:
    """A counter at 80×24 (§4): the price can be cleared, retyped and stepped with ↑/↓;
    the refusal, the buttons and the dialog's own keys stay in sight while editing."""
    app = OfflineApp(serve_state())
    async with app.run_test(size=SMALL) as pilot:
        dialog = await open_counter(app, pilot)  # Bot 1's T for 3 coins; Ana holds 3
        coins = dialog.query_one("#coins", Input)
        assert coins.has_focus and coins.value == "3"
        frame = dialog.query_one("#dialog").content_region
        await pilot.press("backspace", "9")
        await settle(pilot)
        assert coins.value == "9"
        problem = dialog.query_one("#problem")
        assert "You have only 3 coins (§4)." in str(problem.render())
        assert frame.contains_region(problem.region)  # the refusal is in sight
        await pilot.press("backspace", "2", "up")
        await settle(pilot)
        assert coins.value == "3"
        await pilot.press("down", "down")
        await settle(pilot)
        assert coins.value == "1" and str(problem.render()) == ""
        for button in ("#propose", "#cancel"):
            assert frame.contains_region(dialog.query_one(button).region), button
        keys = dialog.query_one(KeyBar)  # the dialog's keys, not the table's
        assert on_screen(keys) and keys.region.bottom == SMALL[1]
        assert all(word in keys.text for word in ("+1", "−1", "Ask their price"))
        # Esc and ctrl+s are named on the buttons in sight; the key line has room for the rest
        assert "Propose" not in keys.text and "Deal" not in keys.text
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        (proposal,) = app.state.proposals
        assert proposal.proposer == 0 and proposal.coins == 1
        assert app.moves[-1]["counter"] == 1  # it replaces offer #1


async def test_answer_offers_by_keys_at_80x24() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("c")  # counter: the deal dialog opens on the offer's terms
        await settle(pilot)
        assert isinstance(app.screen, DealDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert app.moves[-1] == {"type": "decline", "proposal": 1}
        assert app.state.proposals == []
    app = TableApp(midgame())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert app.moves[-1] == {"type": "accept", "proposal": 1}
        assert app.state.bought == ["T03"] and app.state.seats[0].coins == 7 - 2


async def test_help_and_quit_at_80x24() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, QuitDialog)
        await pilot.press("y")
        await settle(pilot)
    assert not app.is_running


async def test_replay_at_80x24_shows_the_panes_by_the_same_keys(tmp_path: Path) -> None:
    path = tmp_path / "finished.plog"
    play_log(path, seed=21, players=3, humans=1)
    app = ReplayApp(Replay.load(path))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.has_class("-w-narrow")
        for key, selector in (("l", "#log"), ("p", "#players"), ("w", "#others")):
            await pilot.press(key)
            await settle(pilot)
            assert on_screen(screen.query_one(selector)), selector
        await pilot.press("1", "right")  # seat 1's point of view, one step on
        await settle(pilot)
        assert on_screen(screen.query_one("#hand")) and on_screen(screen.query_one("#stall"))
        await pilot.press("a")  # every hand, in the hand's place (once an empty sliver)
        await settle(pilot)
        hands = screen.query_one("#hands")
        assert on_screen(hands) and hands.region.width >= 25 and hands.region.height >= 10
        assert screen.query_one("#board").region.contains_region(hands.region)


async def test_the_light_theme_writes_darker_freshness_colours() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        crate = app.table.query_one(MyStall).crate(2)  # the crate holding an M
        others = app.table.query_one("#others")
        assert COLOURS["M"] in str(crate.render()) and COLOURS["F"] in str(others.render())
        app.theme = "textual-light"
        await settle(pilot)
        # Yellow text on white cannot be read: the light theme writes a darker shade.
        assert DARK_TEXT["M"] in str(crate.render()) and DARK_TEXT["F"] in str(others.render())
        assert app.table.query_one(PlayersTable).get_cell_at((0, 6)).plain == "serving"
