"""The app opened on the home screen (``poissonnier`` with no arguments), end to end.

A solo game chosen on the home screen with keys runs on a real in-process
table over TCP; a bot plays our seat (autoplay) so the game reaches its
results, where ``n`` plays again: the same game, bots and levels, a new seed.
Leaving the game comes back home. Every wait polls the app's state.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from pilot import until
from test_app_lan import Browsers
from textual.widgets import Button, Input, Static

from net.client import TableClient
from net.messages import Lobby, View
from poissonnier_tui import __version__, i18n
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.hosting.persistence import list_games, plan_resume
from poissonnier_tui.hosting.tables import TableSettings, resumed_settings
from poissonnier_tui.settings import Settings, save_settings
from poissonnier_tui.shell.app import RESUME_SOLO, PoissonnierApp
from poissonnier_tui.shell.screens.browse import BrowseScreen
from poissonnier_tui.shell.screens.fields import Choice
from poissonnier_tui.shell.screens.help import HelpScreen
from poissonnier_tui.shell.screens.home import HomeScreen
from poissonnier_tui.shell.screens.quit_dialog import QuitDialog
from poissonnier_tui.shell.screens.settings_screen import SettingsScreen
from poissonnier_tui.shell.session import HomeSession, HostSession, SoloSession


async def test_a_solo_game_from_home_to_the_results_and_a_rematch() -> None:
    save_settings(Settings(name="Ana", bot_delay=0.0, theme="textual-light"))
    app = PoissonnierApp(HomeSession(), autoplay=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert app.theme == "textual-light"  # the saved theme, applied at start
        await pilot.press("s")
        for field, text in (("solo-bots", "1"), ("solo-seed", "5")):
            app.screen.query_one(f"#{field}", Input).focus()
            await pilot.press("ctrl+a", "ctrl+k", *text)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert (app.title, app.sub_title) == ("Le Poissonnier", "Solo")  # the game played
        session = app.session
        assert isinstance(session, SoloSession)
        assert (session.bots, session.seed, session.name, session.bot_delay) == (1, 5, "Ana", 0.0)
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), 120)
        first = app.snapshot
        assert first is not None and first.over and first.view["result"]["seed"] == 5
        # The winner's banner shows its two lines (the home screen's own #banner rule,
        # one line high, once reached it through the app's shared stylesheet).
        banner = app.screen.query_one("#banner", Static)
        await until(pilot, lambda: banner.content_size.width > 0)  # laid out
        assert "won" in str(banner.render()) and banner.content_size.height == 2

        await pilot.press("n")  # play again
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, TableScreen)
                and app.snapshot is not None
                and not app.snapshot.over
            ),
        )
        again = app.session
        assert isinstance(again, SoloSession)
        assert again.seed != 5
        assert (again.bots, again.bot_kinds, again.name, again.game) == (
            1, session.bot_kinds, "Ana", session.game,
        )  # fmt: skip
        assert sum(isinstance(s, HomeScreen) for s in app.screen_stack) == 1  # home stays below

        # Leaving the game comes back home, not out of the app.
        app.autoplay = False
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitDialog))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert app.link is None and app.snapshot is None
        assert (app.title, app.sub_title) == ("Poissonnier", "")  # the app's own name again
        assert app.is_running


async def test_home_rules_watch_and_quit_are_wired() -> None:
    save_settings(Settings(name="Ben", bot_delay=0.0))
    browsers = Browsers()
    app = PoissonnierApp(HomeSession(), browser_factory=browsers)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("u")  # the rules: the game's help above the shell's
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")  # watch: the LAN lobby, as a spectator, with the saved name
        await until(pilot, lambda: isinstance(app.screen, BrowseScreen) and bool(browsers.made))
        assert app.lobby is not None and (app.lobby.role, app.lobby.name) == ("spectator", "Ben")
        await pilot.press("ctrl+q")  # no table: straight back home
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)


async def test_saved_settings_switch_the_language_and_theme_of_home() -> None:
    app = PoissonnierApp(HomeSession())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HomeScreen))
            assert str(app.screen.query_one("#solo-start", Button).label) == "Start the game"
            await pilot.press("o")
            await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
            app.screen.query_one("#language", Choice).value = "fr"
            app.screen.query_one("#theme", Choice).value = "textual-light"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, HomeScreen))
            await until(
                pilot,
                lambda: (
                    str(app.screen.query_one("#solo-start", Button).label) == "Lancer la partie"
                ),
            )
            assert i18n.language() == "fr" and app.theme == "textual-light"
    finally:
        i18n.set_language("en")


def followed(seen: list[object]) -> bool:
    """The messages went: game over, back in the lobby, then game 2's first view."""
    marks = [
        "over" if isinstance(m, Lobby) and m.phase == "over"
        else "lobby" if isinstance(m, Lobby) and m.phase == "lobby"
        else "new" if isinstance(m, View) and m.rev == 0
        else ""
        for m in seen
    ]  # fmt: skip
    text = "".join(f"<{m}>" for m in marks if m)
    return re.search("<over>(<over>)*<lobby>(<lobby>)*<new>", text) is not None


async def test_the_host_proposes_a_rematch_and_a_spectator_follows() -> None:
    settings = TableSettings(
        name="Home", seats=2, bots=1, bot_delay=0.0, interface="127.0.0.1", port=0,
        seed=8, host_seat=True, advertise=False,
    )  # fmt: skip
    app = PoissonnierApp(HostSession(settings, name="Ana", autoplay=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.hosted is not None and app.connected, 10)
        hosted = app.hosted
        assert hosted is not None
        spectator = await TableClient.connect(
            "127.0.0.1", hosted.port, name="Sue", role="spectator",
            app_version=__version__, game="poissonnier",
        )  # fmt: skip
        seen: list[object] = []

        async def read() -> None:
            async for msg in spectator.messages():
                seen.append(msg)

        reader = asyncio.create_task(read())
        try:
            await pilot.press("enter")  # the host starts game 1
            await until(pilot, lambda: isinstance(app.screen, ResultsScreen), 120)
            assert app.check_action("rematch", ()) is True
            await pilot.press("n")  # the host proposes a rematch; the bot accepts at once
            await until(pilot, lambda: app.rematch_answers == ("yes", "yes"))
            assert hosted.server.phase == "over"  # nothing starts before the host says so
            await pilot.press("n")  # everyone accepted: the host starts game 2
            await until(
                pilot,
                lambda: isinstance(app.screen, TableScreen)
                and app.snapshot is not None
                and not app.snapshot.over,
            )
            assert hosted.server.seed != 8 and app.rematch_answers is None
            # The spectator followed on the same connection: game 1's end, the lobby, game 2.
            await until(pilot, lambda: followed(seen))
        finally:
            reader.cancel()
            await spectator.close()


async def test_leaving_a_solo_game_says_it_is_saved_and_how_to_carry_on() -> None:
    app = PoissonnierApp(SoloSession(bots=2, seed=3, name="Ana", bot_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.snapshot is not None)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitDialog))
        dialog = app.screen
        assert isinstance(dialog, QuitDialog)
        assert "saved" in dialog.detail and RESUME_SOLO in dialog.detail
        assert RESUME_SOLO.endswith("--interface 127.0.0.1")  # not opened on the LAN
        printed: list[object] = []
        exit_app = app.exit

        def exit_printing(*args: Any, **kwargs: Any) -> None:
            printed.append(kwargs.get("message"))
            exit_app(*args, **kwargs)

        app.exit = exit_printing  # type: ignore[method-assign]
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)
    assert "poissonnier host --resume last" in str(printed[0])  # printed on exit
    # What it says works: the game is the most recent one not over, and resumable.
    running = [g for g in list_games() if not g.finished and g.started is not None]
    plan = plan_resume(running[0].path, confirm=lambda _question: False)
    assert plan.header.seed == 3 and plan.header.table.get("solo")
    given = TableSettings(name="ignored", port=0, interface="127.0.0.1", advertise=False,
                          host_seat=True)  # fmt: skip
    settings = resumed_settings(plan, given, name_given=False)
    assert settings.problems() == [] and (settings.seats, settings.bots) == (3, 2)
