"""The home screen, the settings screen and the saved games, driven by keys in a tiny app.

Each test pushes one screen on an app that records the messages the screen
posts (the real app acts on them); settings and saved games live in the test's
own folders (tests/conftest.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from logcheck import play_log
from pilot import until
from textual import events, on
from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from poissonnier_tui import i18n
from poissonnier_tui.games import GAME_NAMES, game_entry
from poissonnier_tui.hosting.persistence import games_dir
from poissonnier_tui.settings import Settings, load_settings, save_settings, settings_path
from poissonnier_tui.shell.screens.fields import Choice
from poissonnier_tui.shell.screens.home import HomeHelp, HomeScreen
from poissonnier_tui.shell.screens.saved_games import SavedGamesScreen
from poissonnier_tui.shell.screens.settings_screen import SettingsScreen


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts and ends in English (one of them saves French)."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


class ScreenApp(App[None]):
    """Pushes one screen and keeps every message of the home and settings screens."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.first = screen
        self.posted: list[Message] = []

    def on_mount(self) -> None:
        self.push_screen(self.first)

    @on(HomeScreen.SoloChosen)
    @on(HomeScreen.HostChosen)
    @on(HomeScreen.JoinChosen)
    @on(HomeScreen.ReplayChosen)
    @on(HomeScreen.RulesChosen)
    @on(HomeScreen.QuitChosen)
    def _chosen(self, message: Message) -> None:
        self.posted.append(message)

    @on(SettingsScreen.Saved)
    async def _saved(self, message: SettingsScreen.Saved) -> None:
        """What the real app does: switch the language and redraw the home screen."""
        self.posted.append(message)
        i18n.set_language(message.settings.language or "en")
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                await screen.recompose()


def home() -> HomeScreen:
    """A home screen with a fixed name and table name (no login name in snapshots)."""
    return HomeScreen(name="Ana", table="Ana's table")


def error(app: App[Any], form: str, key: str) -> str:
    """The error shown next to a field ("" when none is shown)."""
    widget = app.screen.query_one(f"#{form}-{key}-error", Static)
    return str(widget.render()) if widget.display else ""


async def type_into(pilot: Any, field: str, text: str) -> None:
    """Replace what a field holds by ``text``, typed key by key."""
    pilot.app.screen.query_one(f"#{field}", Input).focus()
    await pilot.press("ctrl+a", "ctrl+k", *text)


# --- the home screen ------------------------------------------------------------------------


async def test_solo_from_the_keyboard_posts_every_choice() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")  # the form, at its game
        assert app.focused is app.screen.query_one("#solo-game", Choice)
        await pilot.press("tab", "ctrl+a", "ctrl+k", "2")  # bots
        await until(pilot, lambda: len(app.screen.query("#solo-levels Choice")) == 2)
        await pilot.press("tab", "right", "tab", "right", "right")  # levels: hard, easy
        await pilot.press("tab", *"1234", "tab", "ctrl+a", "ctrl+k", *"Zoé", "enter")
        await until(pilot, lambda: bool(app.posted))
    assert app.posted == [
        HomeScreen.SoloChosen(
            game="poissonnier", bots=2, levels=("hard", "easy"), seed=1234, name="Zoé"
        )
    ]


async def test_a_letter_and_enter_typed_in_one_instant_start_the_game() -> None:
    """A terminal may hand over ``s`` and Enter in one read: Enter must reach the form
    that ``s`` opened, not the menu (which would open the form again)."""
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        for key, character in (("s", "s"), ("enter", "\r")):
            app.post_message(events.Key(key, character))  # both queued before either is handled
        await until(pilot, lambda: bool(app.posted))
    assert [type(m) for m in app.posted] == [HomeScreen.SoloChosen]


async def test_solo_refuses_a_bad_seed_too_many_bots_and_no_name() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await type_into(pilot, "solo-bots", "7")
        await type_into(pilot, "solo-seed", "12a")
        await type_into(pilot, "solo-name", "")
        await pilot.press("enter")
        await pilot.pause()
        assert "1 to 4 bots" in error(app, "solo", "bots")
        assert "digits only" in error(app, "solo", "seed")
        assert "cannot be blank" in error(app, "solo", "name")
        assert app.focused is app.screen.query_one("#solo-bots", Input)  # the first bad one
        assert app.posted == []
        await type_into(pilot, "solo-bots", "4")
        await type_into(pilot, "solo-seed", "")
        await type_into(pilot, "solo-name", "Ana")
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.posted))
        assert error(app, "solo", "bots") == error(app, "solo", "seed") == ""
    (chosen,) = app.posted
    assert isinstance(chosen, HomeScreen.SoloChosen)
    assert (chosen.bots, chosen.levels, chosen.seed) == (4, ("medium",) * 4, None)


async def test_the_bots_limits_come_from_the_game_in_the_registry() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        entry = game_entry(GAME_NAMES[0])
        hint = app.screen.query_one("#solo-bots-hint", Static)
        assert str(hint.render()) == f"{entry.min_seats - 1} to {entry.max_seats - 1}"
        await type_into(pilot, "solo-bots", str(entry.max_seats))  # one seat too many
        await pilot.pause()
        assert f"{entry.title} seats" in error(app, "solo", "bots")


async def test_a_second_game_brings_its_own_seats_and_levels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import poissonnier_tui.shell.screens.home as home_module

    real = game_entry("poissonnier")
    other = replace(
        real, name="fish6", title="Six Fish", definition=SimpleNamespace(min_seats=2, max_seats=6),
        levels=("easy", "hard"), default_level="hard",
    )  # fmt: skip
    entries = {"poissonnier": real, "fish6": other}
    monkeypatch.setattr(home_module, "GAME_NAMES", ("poissonnier", "fish6"))
    monkeypatch.setattr(home_module, "game_entry", entries.__getitem__)
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "right")  # the game: Six Fish
        await pilot.pause()
        assert str(app.screen.query_one("#solo-bots-hint", Static).render()) == "1 to 5"
        levels = app.screen.query("#solo-levels Choice").results(Choice)
        assert [c.value for c in levels] == ["hard"] * 3  # the new game's own default
        await type_into(pilot, "solo-bots", "5")
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.posted))
    (chosen,) = app.posted
    assert isinstance(chosen, HomeScreen.SoloChosen)
    assert (chosen.game, chosen.bots, chosen.levels) == ("fish6", 5, ("hard",) * 5)


async def test_host_from_the_keyboard_posts_the_table() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await type_into(pilot, "host-table", "Vendredi")
        await type_into(pilot, "host-seats", "3")
        await type_into(pilot, "host-bots", "3")  # the host takes a seat: 2 at most
        await pilot.pause()
        assert "0 to 2 bots" in error(app, "host", "bots")
        await type_into(pilot, "host-bots", "1")
        await type_into(pilot, "host-code", "thon")
        await type_into(pilot, "host-fill", "0")
        await pilot.press("enter")
        await pilot.pause()
        assert "above 0" in error(app, "host", "fill")
        assert app.posted == []
        await type_into(pilot, "host-fill", "45")
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.posted))
    assert app.posted == [
        HomeScreen.HostChosen(
            game="poissonnier", table="Vendredi", seats=3, bots=1, levels=("medium",),
            code="thon", fill_timeout=45.0, name="Ana",
        )
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (["j"], HomeScreen.JoinChosen("player")),
        (["w"], HomeScreen.JoinChosen("spectator")),
        (["u"], HomeScreen.RulesChosen("poissonnier")),
        (["q"], HomeScreen.QuitChosen()),
        (["down", "down", "enter"], HomeScreen.JoinChosen("player")),
    ],
)
async def test_each_entry_has_a_key(keys: list[str], expected: Message) -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await until(pilot, lambda: bool(app.posted))
    assert len(app.posted) == 1
    assert type(app.posted[0]) is type(expected)
    assert vars(app.posted[0]).get("role") == vars(expected).get("role")
    assert vars(app.posted[0]).get("game") == vars(expected).get("game")


async def test_letters_typed_in_a_field_are_text_not_menu_keys() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "solo-name", "quwjs")
        await pilot.pause()
        assert app.screen.query_one("#solo-name", Input).value == "quwjs"
        assert app.posted == []
        await pilot.press("escape", "j")  # back to the menu: letters choose again
        await until(pilot, lambda: bool(app.posted))
    assert app.posted == [HomeScreen.JoinChosen("player")]


async def test_a_click_on_an_entry_chooses_it() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen.query_one("#menu", OptionList)
        await pilot.click(menu, offset=(5, 3))  # the fourth line: Watch
        await until(pilot, lambda: bool(app.posted))
    assert app.posted == [HomeScreen.JoinChosen("spectator")]


async def test_replay_lists_the_finished_games_first_and_posts_the_chosen_one() -> None:
    folder = games_dir()
    folder.mkdir(parents=True)
    older = folder / "2026-01-01_100000_seed3_aaaa.plog"
    play_log(older, seed=3, players=2)
    time.sleep(0.01)  # (the logs' start times order them)
    newer = folder / "2026-01-02_100000_seed4_bbbb.plog"
    play_log(newer, seed=4, players=2)
    time.sleep(0.01)
    running = folder / "2026-01-03_100000_seed5_cccc.plog"
    play_log(running, seed=5, players=2, actions=13)
    play_log(folder / "2026-01-04_100000_seed6_dddd.plog", seed=6, players=2, actions=0)
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, SavedGamesScreen))
        screen = app.screen
        assert isinstance(screen, SavedGamesScreen)
        await until(pilot, lambda: screen.games is not None)
        assert screen.games is not None
        assert [g.path for g in screen.games] == [newer, older, running]
        lines = [str(o.prompt) for o in screen.query_one("#games", OptionList).options]
        assert "not over" in lines[2] and "can be resumed" in lines[2]
        assert "not over" not in lines[0] + lines[1]
        await pilot.press("down", "enter")
        await until(pilot, lambda: bool(app.posted))
    assert app.posted == [HomeScreen.ReplayChosen(older)]


async def test_replay_with_no_saved_game_says_so_and_escape_goes_back() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, SavedGamesScreen))
        screen = app.screen
        assert isinstance(screen, SavedGamesScreen)
        await until(pilot, lambda: screen.games == [])
        assert "No saved games yet" in str(screen.query_one("#empty", Static).render())
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
    assert app.posted == []


# --- settings -------------------------------------------------------------------------------


async def test_settings_are_saved_read_back_and_offered_as_the_name() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        await pilot.press(*"Bea", "tab", "ctrl+a", "ctrl+k", *"1.5", "tab", "right", "tab")
        assert app.theme == "textual-light"  # tried at once
        await pilot.press("right", "right", "ctrl+s")  # language: English -> Français
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.pause()
        assert load_settings().settings == Settings(
            name="Bea", bot_delay=1.5, theme="textual-light", language="fr"
        )
        assert [type(m) for m in app.posted] == [SettingsScreen.Saved]
        # The real app switches the language and redraws: the form keeps the new name.
        assert app.screen.query_one("#solo-name", Input).value == "Bea"
        assert "Solo" in str(app.screen.query_one("#menu", OptionList).options[0].prompt)
        assert "Partie" in str(app.screen.query_one("#solo .form-title", Static).render())
        levels = app.screen.query("#solo-levels Choice").results(Choice)
        assert [str(c.render()) for c in levels] == ["◂ moyen ▸"] * 3
        assert app.focused is app.screen.query_one("#menu", OptionList)


async def test_help_is_one_key_away() -> None:
    app = ScreenApp(home())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HomeHelp))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
    assert app.posted == []


async def test_settings_refuse_a_bad_pace_and_escape_restores_the_theme() -> None:
    save_settings(Settings(name="Ana", bot_delay=0.5))
    app = ScreenApp(SettingsScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "textual-dark"
        await pilot.press("tab", "ctrl+a", "ctrl+k", *"9", "enter")
        await pilot.pause()
        shown = app.screen.query_one("#bot_delay-error", Static)
        assert shown.display and "0 to 5 seconds" in str(shown.render())
        await type_into(pilot, "bot_delay", "abc")
        await pilot.pause()
        assert "number of seconds" in str(shown.render())
        await pilot.press("tab", "right")
        assert app.theme == "textual-light"
        await pilot.press("escape")
        await pilot.pause()
        assert app.theme == "textual-dark"
    assert app.posted == []
    assert load_settings().settings == Settings(name="Ana", bot_delay=0.5)


async def test_settings_say_what_a_damaged_file_lost() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"name": "Ana", "bot_delay": 99}', encoding="utf-8")
    app = ScreenApp(SettingsScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notice = app.screen.query_one("#notice", Static)
        assert notice.display and "bot_delay" in str(notice.render())
        assert app.screen.query_one("#name", Input).value == "Ana"
        assert app.screen.query_one("#bot_delay", Input).value == "0.5"


# --- snapshots --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_home_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(ScreenApp(home()), terminal_size=size)


def test_home_host_form_snapshot_80x24(snap_compare: Any) -> None:
    assert snap_compare(ScreenApp(home()), terminal_size=(80, 24), press=["h"])


def test_settings_snapshot_80x24(snap_compare: Any) -> None:
    assert snap_compare(ScreenApp(SettingsScreen()), terminal_size=(80, 24))


def test_a_name_of_letters_that_draw_nothing_is_blank() -> None:
    """Hangul fillers and the braille blank are printable but show nothing: a name made of
    them is as blank as one of spaces (the table would refuse it: net.schema.shows)."""
    from poissonnier_tui.shell.screens.fields import FieldError, parse_name

    with pytest.raises(FieldError, match="cannot be blank"):
        parse_name("\u3164 \u2800", most=24, what="Your name")
    assert parse_name(" Ana\u3164 ", most=24, what="Your name") == "Ana\u3164"


def test_the_host_form_names_the_table_after_the_saved_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table's name offered is the player's, as the name field offers it: the one saved
    in Settings, else the login ("marie's table" only when nothing is saved)."""
    monkeypatch.setattr("getpass.getuser", lambda: "marie")
    assert HomeScreen().host.texts["table"] == "marie's table"
    save_settings(Settings(name="Marie"))
    home = HomeScreen()
    assert (home.host.texts["table"], home.host.texts["name"]) == ("Marie's table", "Marie")
