"""The shell's screens say every word through the catalogue (a pseudo-locale).

With :class:`pseudo.PseudoTranslations` installed, each translated message
shows in look-alike letters, and a plain English word left on screen is a
string that escaped the catalogue (tests/support/pseudo.py). Shown here: the
home screen, its help, the rules, the settings, the saved games (with a
finished and an unfinished game), the LAN lobby with a table this app cannot
join (another version: :func:`~poissonnier_tui.hosting.lan.incompatible`),
and the quit dialog. Allowed: player and table names, the app's and game's
titles, file and folder names (the saved games list shows where they are).
The rules (``u``) are left out: they are a document per language, not
catalogue messages, so the pseudo-locale cannot see them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from logcheck import play_log
from pilot import until
from pseudo import english_on_screen, pseudo, pseudo_locale, screen_lines
from test_app_lan import Browsers
from textual.app import App

from net.discovery import TableAd
from net.frames import PROTOCOL_VERSION
from poissonnier_tui.games import DEFAULT_GAME
from poissonnier_tui.hosting.persistence import games_dir
from poissonnier_tui.i18n import _
from poissonnier_tui.settings import Settings, save_settings
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.browse import BrowseScreen
from poissonnier_tui.shell.screens.home import HomeHelp, HomeScreen
from poissonnier_tui.shell.screens.quit_dialog import QuitDialog
from poissonnier_tui.shell.screens.saved_games import SavedGamesScreen
from poissonnier_tui.shell.screens.settings_screen import SettingsScreen
from poissonnier_tui.shell.session import HomeSession

SIZES = [(80, 24), (160, 50)]
IDS = ["80x24", "160x50"]
NAMES = {"Ben", "Bot", "P0", "Marcel"}
"""Player and table names (data)."""
FRENCH = {"très", "frais", "douteux"} | {
    w + s for w in ("mangeable", "pourri", "glaçon", "arrivage") for s in ("", "s")
}
"""The game's own words, French in every language (docs/GLOSSARY.md)."""
ALLOWED = NAMES | FRENCH | {"Poissonnier", "Le", "RULES", "fr", "md", "plog", "seed", "en"}
ALLOWED |= {"Poissonnie"}  # the title, cut by a dialog drawn over it


def allowed(data_dir: Path) -> set[str]:
    """The words above, and those of the saved games' folder and file names."""
    return (
        ALLOWED
        | set(re.findall(r"[A-Za-z]{2,}", str(games_dir())))
        | {w for p in data_dir.rglob("*.plog") for w in re.findall(r"[A-Za-z]{2,}", p.name)}
    )


@pytest.fixture(autouse=True)
def speak_pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The pseudo-locale, kept when the home applies the saved language."""
    monkeypatch.setattr("poissonnier_tui.shell.home_nav.set_language", lambda lang: None)
    with pseudo_locale():
        yield


def check(app: App[object], ok: set[str]) -> list[str]:
    """Each English word on ``app``'s screen now, with its line."""
    return english_on_screen(app, ok)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_home_help_rules_settings_saved_games_lobby_and_quit_show_no_english(
    size: tuple[int, int], data_dir: Path
) -> None:
    save_settings(Settings(name="Ben", bot_delay=0.0))
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    play_log(folder / "2026-01-01_100000_seed3_aaaa.plog", seed=3, players=3, humans=1)
    play_log(folder / "2026-01-02_100000_seed4_bbbb.plog", seed=4, players=2, actions=9)
    ok = allowed(data_dir)
    browsers = Browsers()
    app = PoissonnierApp(HomeSession(), browser_factory=browsers)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.pause()
        assert any(pseudo("Solo") in line for line in screen_lines(app))
        assert not (bad := check(app, ok)), "\n".join(bad)
        # The home's keys, the settings, the saved games: each shown, then Esc back home.
        for key, screen in (("question_mark", HomeHelp), ("o", SettingsScreen),
                            ("r", SavedGamesScreen)):  # fmt: skip
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, screen))  # noqa: B023
            await pilot.pause()
            assert not (bad := check(app, ok)), (key, "\n".join(bad))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")  # the LAN lobby
        await until(pilot, lambda: isinstance(app.screen, BrowseScreen) and bool(browsers.made))
        browsers.last.show(
            TableAd(
                name="Marcel",
                address="127.0.0.1",
                port=7374,
                protocol=PROTOCOL_VERSION,
                app="0.0.1",
                game=DEFAULT_GAME,
                taken=1,
                seats=4,
                state="lobby",
                spectators=True,
                code=False,
            )
        )
        await pilot.pause()
        await pilot.pause()
        assert any("Marcel" in line for line in screen_lines(app))
        assert not (bad := check(app, ok)), "\n".join(bad)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.push_screen(QuitDialog(_("You host this table: leaving closes it for everyone.")))
        await until(pilot, lambda: isinstance(app.screen, QuitDialog))
        await pilot.pause()
        assert not (bad := check(app, ok)), "\n".join(bad)
