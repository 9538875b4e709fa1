"""The shell reaches a game's screens only through the game-screen interface.

``poissonnier_tui/shell`` must not import any game's package (docs/ARCHITECTURE.md,
"The shell and a game's screens"): it looks the game up in the registry and
loads the module ``GameEntry.ui`` names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import fakegame
import pytest
from links import QueueLink, settle
from textual.widgets import Static

import poissonnier_tui.games
import poissonnier_tui.shell
from net.messages import Ack, View
from net.tablelog import read_log
from poissonnier_tui.games import ENTRY_MODULES
from poissonnier_tui.games.poissonnier.ui import GAME_UI
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.hosting.persistence import LOG_SUFFIX
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.game_ui import load_game_ui
from poissonnier_tui.shell.screens.help import HelpScreen, help_text
from poissonnier_tui.shell.seats import SeatLabel
from poissonnier_tui.shell.session import JoinSession, SoloSession

SHELL = Path(poissonnier_tui.shell.__file__).parent
GAMES = Path(poissonnier_tui.games.__file__).parent


def names_a_game_package(module: str) -> bool:
    """``module`` is in a game's package (``poissonnier_tui.games.<game>...``)."""
    parts = module.split(".")
    return (
        parts[:2] == ["poissonnier_tui", "games"] and len(parts) > 2 and (GAMES / parts[2]).is_dir()
    )


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (``import a.b``, ``from a.b import c`` -> ``a.b.c``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_nothing_in_the_shell_imports_a_game_package() -> None:
    sources = sorted(SHELL.rglob("*.py"))
    assert len(sources) >= 10  # the scan really reads the shell
    offenders = {
        f"{path.relative_to(SHELL)}: {module}"
        for path in sources
        for module in imported_modules(path)
        if names_a_game_package(module)
    }
    assert offenders == set()


def test_the_scan_sees_an_import_of_a_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from poissonnier_tui.games.poissonnier.ui import snapshot\nimport os\n")
    found = imported_modules(bad)
    assert "poissonnier_tui.games.poissonnier.ui.snapshot" in found
    assert {m for m in found if names_a_game_package(m)} == {
        "poissonnier_tui.games.poissonnier.ui",
        "poissonnier_tui.games.poissonnier.ui.snapshot",
    }
    assert not names_a_game_package("poissonnier_tui.games.game_entry")


def test_the_registry_gives_le_poissonniers_ui_and_its_snapshot() -> None:
    ui = load_game_ui()  # the default game
    assert ui is GAME_UI and load_game_ui("poissonnier") is GAME_UI
    view = {"seat": 1, "players": 2, "phase": "fill", "active": 0}
    snap = ui.read(view, (SeatLabel("Ana"), SeatLabel("Bot 1", "bot")), 3)
    assert isinstance(snap, TableSnapshot)
    assert (snap.me, snap.rev, snap.over, snap.name(0)) == (1, 3, False, "Ana")


def test_help_is_split_between_the_game_and_the_shell() -> None:
    game_en, game_fr = GAME_UI.help(), GAME_UI.help("fr")
    assert "crate" in game_en and "caisse" in game_fr
    assert GAME_UI.help("xx") == game_en  # no such language: English
    shell = help_text()
    assert "ctrl+q" in shell and "crate" not in shell  # the shell knows no game's rules
    assert "caisse" not in help_text("fr") and "ctrl+q" in help_text("fr")


@pytest.fixture
def fakefish(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the fake second game (``tests/support/fakegame.py``)."""
    monkeypatch.setitem(ENTRY_MODULES, fakegame.NAME, "fakegame")


async def test_the_app_shows_a_second_games_screens_through_the_interface(fakefish: None) -> None:
    link = QueueLink(0, game=fakegame.NAME)
    link.answer = lambda seq, action: [Ack(seq), View(link.rev + 1, fakegame.view(0, link.rev))]
    session = JoinSession("offline", 1, name="Ana", game=fakegame.NAME)
    app = PoissonnierApp(session, connect=link.connect)
    async with app.run_test() as pilot:
        await settle(pilot, link)
        connecting = app.connecting_screen
        assert connecting is not None and connecting.game == "Fake Fish"
        link.lobby([("Ana", "human"), ("Tapper", "bot")])
        await settle(pilot, link)  # the lobby's seats reach the connecting screen (data-bound)
        assert connecting.seats == (SeatLabel("Ana"), SeatLabel("Tapper", "bot"))
        link.view(fakegame.view(0, 0))
        await settle(pilot, link)
        assert app.ui is fakegame.GAME_UI
        screen = app.screen
        assert isinstance(screen, fakegame.FakeTable)
        assert str(screen.query_one("#taps", Static).render()) == "0 taps at Ana, Tapper"

        await pilot.press("t")  # the game's key, on the game's screen: a move through the shell
        await settle(pilot, link)
        assert link.sent == [{"type": "tap"}]
        assert str(screen.query_one("#taps", Static).render()) == "1 taps at Ana, Tapper"

        await pilot.press("question_mark")
        await settle(pilot, link)
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.text.startswith("# Fake Fish") and "ctrl+q" in app.screen.text
        await pilot.press("escape")

        link.view(fakegame.view(0, fakegame.TAPS_TO_WIN))  # the game ends: its results
        await settle(pilot, link)
        assert isinstance(app.screen, fakegame.FakeResults)


async def test_a_solo_table_of_a_second_game_is_played_to_its_end_by_autoplay(
    fakefish: None, data_dir: Path
) -> None:
    session = SoloSession(
        bots=1, seed=3, name="Ana", bot_delay=0.0, bot_kinds=("tapper",), game=fakegame.NAME
    )
    app = PoissonnierApp(session, autoplay=True)
    async with app.run_test() as pilot:
        for _ in range(500):
            if isinstance(app.screen, fakegame.FakeResults):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, fakegame.FakeResults)
        assert app.snapshot is not None and app.snapshot.view["taps"] == fakegame.TAPS_TO_WIN
        assert app.link is not None and app.link.game == fakegame.NAME
    (log,) = data_dir.rglob(f"*{LOG_SUFFIX}")
    assert read_log(log).header["game"] == fakegame.NAME
    # Take it out of the conftest's replay check, which replays Le Poissonnier's logs only.
    log.rename(data_dir.parent / log.name)
