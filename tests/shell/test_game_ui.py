"""The shell reaches a game's screens only through the game-screen interface.

``poissonnier_tui/shell`` must not import any game's package (docs/ARCHITECTURE.md,
"The shell and a game's screens"): it looks the game up in the registry and
loads the module ``GameEntry.ui`` names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import poissonnier_tui.games
import poissonnier_tui.shell
from poissonnier_tui.games.poissonnier.ui import GAME_UI
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.game_ui import load_game_ui
from poissonnier_tui.shell.screens.help import help_text
from poissonnier_tui.shell.seats import SeatLabel

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
