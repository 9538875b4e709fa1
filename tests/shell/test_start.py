"""A solo start does only the work the table needs.

Imports: a new Python process runs ``poissonnier solo`` through the command's own entry
point, headless, until the table screen shows the game; then it reports which
of the modules watched here it had imported. LAN discovery (zeroconf, ifaddr),
the Markdown help (markdown-it, Pygments), the other game, the arena, dialogs
nobody opened (the chat, a deal, serving), Rich's emoji table and bots' worker
processes are for other paths (hosting or browsing the LAN, help, Go Fish,
``simulate``, many tables): a solo start that imports one of them pays for nothing
it shows.

Garbage collector: the command holds it off while the TUI starts
(poissonnier_tui/collector.py) and the app gives it back once the table is drawn;
every other command runs with it.

Screens: a solo table is up in a blink, so no connecting screen flashes by before
it; one shows if the table is slow to come.

Styles: Textual reads every stylesheet again whenever a screen brings one it has not
seen; the app loads the connecting screen's and the game's table's as it starts, so
the table shows without that second reading.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from links import QueueLink
from pilot import mounted, until
from textual.css.stylesheet import Stylesheet

from poissonnier_tui import collector
from poissonnier_tui.cli import main
from poissonnier_tui.commands import history, solo
from poissonnier_tui.games.poissonnier.rules.engine import new_game
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.shell import app as app_module
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.session import SoloSession

NOT_FOR_SOLO = (
    "zeroconf",
    "ifaddr",
    "markdown_it",
    "pygments",
    "poissonnier_tui.games.gofish",
    "poissonnier_tui.arena",
    "poissonnier_tui.shell.screens.home",
    "poissonnier_tui.shell.screens.browse",
    "poissonnier_tui.shell.screens.help",
    "poissonnier_tui.shell.screens.quit_dialog",
    "poissonnier_tui.games.poissonnier.ui.screens.deal_dialog",
    "poissonnier_tui.games.poissonnier.ui.screens.serve_dialog",
    "poissonnier_tui.games.poissonnier.ui.screens.answer_dialogs",
    "poissonnier_tui.shell.screens.chat",
    "poissonnier_tui.games.poissonnier.ui.deals",
    "poissonnier_tui.games.poissonnier.ui.serving",
    "rich._emoji_codes",
    "multiprocessing",
)
"""Modules a solo start at the table must not have imported."""

CHILD = """
import gc, json, sys
from textual.app import App
from poissonnier_tui import codecache, collector

WATCHED = json.loads(sys.argv[1])
collector.LONGEST_HOLD = 600.0  # only the drawn table may give the collector back here
real_run = App.run
found = {}

def run(self, **_options):
    held = not gc.isenabled()

    async def until_the_table(pilot):
        for _ in range(3000):  # bounded: 30 s at most, whatever the load
            if getattr(self, "snapshot", None) is not None and (
                type(self.screen).__name__ == "TableScreen"
            ):
                loaded = sorted(m for m in WATCHED if m in sys.modules)
                for _ in range(3000):
                    if gc.isenabled():
                        break
                    await pilot.pause(0.01)
                found.update(table=True, loaded=loaded, held=held, back=gc.isenabled())
                break
            await pilot.pause(0.01)
        self.exit()

    return real_run(self, headless=True, size=(120, 40), auto_pilot=until_the_table)

App.run = run
from poissonnier_tui.cli import main
main(["solo", "--bots", "1", "--seed", "3", "--bot-delay", "0", "--name", "Ana"])
found.update(compiled=codecache.compiled, cache=str(codecache.cache_file()))
print(json.dumps(found), flush=True)
"""


def run_child(
    code: str, *args: str, data_dir: Path, env: dict[str, str] | None = None
) -> dict[str, object]:
    """Run ``code`` in a new interpreter (with ``env`` over this one's: an empty value
    removes the variable); its last stdout line, as JSON."""
    env = {k: v for k, v in {**os.environ, **(env or {})}.items() if v}
    env["POISSONNIER_DATA_DIR"] = str(data_dir)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    got: dict[str, object] = json.loads(lines[-1])
    return got


def test_a_solo_start_imports_neither_the_lan_nor_the_help_nor_the_other_game(
    tmp_path: Path,
) -> None:
    got = run_child(CHILD, json.dumps(NOT_FOR_SOLO), data_dir=tmp_path)
    assert got["table"] is True
    assert got["loaded"] == []
    assert got["held"] is True and got["back"] is True  # collector off to the table, then on
    logs = list(tmp_path.glob("games/*seed3*.plog"))
    assert len(logs) == 1 and logs[0].stat().st_size > 0  # a real table, with its log


def test_a_second_solo_start_compiles_no_dataclass_method(tmp_path: Path) -> None:
    """The methods dataclasses write are compiled once, then read from beside the
    bytecode (poissonnier_tui/codecache.py), as Python's bytecode cache does: here
    the bench's own (PYTHONPYCACHEPREFIX)."""
    pyc = tmp_path / "pyc"
    env = {"PYTHONPYCACHEPREFIX": str(pyc), "PYTHONDONTWRITEBYTECODE": ""}
    first = run_child(CHILD, "[]", data_dir=tmp_path, env=env)
    assert first["table"] is True
    assert int(str(first["compiled"])) > 300  # the app's, the table's, the server's...
    assert str(first["cache"]).startswith(str(pyc)) and Path(str(first["cache"])).is_file()
    second = run_child(CHILD, "[]", data_dir=tmp_path, env=env)
    assert second["table"] is True and second["compiled"] == 0


def test_the_command_line_alone_imports_no_textual_and_no_lan(tmp_path: Path) -> None:
    """``poissonnier --help`` and argument errors need the parser only."""
    code = """
import json, sys
from poissonnier_tui import cli
cli.choose_language([])
cli.build_parser()
print(json.dumps({"loaded": sorted(m for m in ("textual", "zeroconf", "markdown_it")
                                   if m in sys.modules)}))
"""
    assert run_child(code, data_dir=tmp_path)["loaded"] == []


def solo_app() -> PoissonnierApp:
    """A solo table against one bot that plays at once."""
    return PoissonnierApp(SoloSession(bots=1, seed=3, name="Ana", bot_delay=0.0))


def table_shown(app: PoissonnierApp) -> bool:
    """The table screen shows the game, every widget of it mounted (so the app may close)."""
    return isinstance(app.screen, TableScreen) and app.snapshot is not None and mounted(app.screen)


async def test_a_solo_table_shows_without_reading_every_stylesheet_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reparses: list[int] = []
    real = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparses.append(len(self.source))
        real(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = solo_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: table_shown(app))
        loaded = {Path(path).name for path, _ in app.stylesheet.source}
        assert {"app.tcss", "connecting.tcss", "table.tcss"} <= loaded
        assert reparses == []
        side = app.screen.query_one("#side")
        assert str(side.styles.width) == "40w"  # table.tcss applies ("#side { width: 40% }")
        assert str(side.styles.max_width) == "64"


def test_the_collector_is_held_for_the_solo_command_only_and_always_given_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert gc.isenabled()
    seen: dict[str, bool] = {}

    def record(name: str) -> object:
        def run(_args: argparse.Namespace) -> int:
            seen[name] = gc.isenabled()
            return 0

        return run

    monkeypatch.setattr(history, "run", record("history"))
    monkeypatch.setattr(solo, "run", record("solo"))
    assert main(["history"]) == 0
    assert gc.isenabled()
    assert main(["solo", "--bots", "1"]) == 0  # no app here to give it back: main does
    assert gc.isenabled() and not collector.held()
    assert seen == {"history": True, "solo": False}
    with pytest.raises(SystemExit):
        main(["solo", "--bots", "many"])  # an argument error gives it back too
    assert gc.isenabled()


def test_holding_leaves_a_collector_someone_else_turned_off_to_them() -> None:
    gc.disable()
    try:
        collector.hold()
        collector.release()
        assert not gc.isenabled()  # not ours to turn on
    finally:
        gc.enable()
    collector.hold()
    assert not gc.isenabled() and collector.held()
    collector.release()
    collector.release()
    assert gc.isenabled() and not collector.held()


def test_pausing_the_collector_gives_it_back_as_it_was_even_on_an_error() -> None:
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector.paused():
        raise RuntimeError("a game that fails")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()  # not ours to turn on
    finally:
        gc.enable()


async def test_a_solo_table_comes_with_no_connecting_screen_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "SOLO_CONNECTING_AFTER", 600.0)  # however slow the machine
    mounted_screens: list[str] = []
    real = ConnectingScreen.on_mount

    def on_mount(self: ConnectingScreen) -> None:
        mounted_screens.append(self.message)
        real(self)

    monkeypatch.setattr(ConnectingScreen, "on_mount", on_mount)
    app = solo_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: table_shown(app))
        assert mounted_screens == []
        assert app.said.startswith("Joined the table on 127.0.0.1:")  # said, shown nowhere


async def test_a_slow_solo_table_shows_the_connecting_screen_with_the_last_news(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "SOLO_CONNECTING_AFTER", 0.05)
    link = QueueLink(0)
    opened = asyncio.Event()

    async def slow_connect(session: object, *, say: Callable[[str], None] | None = None) -> object:
        assert say is not None
        say("Setting up the fish market…")
        await opened.wait()  # the table takes its time
        return link

    app = PoissonnierApp(SoloSession(bots=1, seed=3, name="Ana"), connect=slow_connect)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConnectingScreen) and mounted(app.screen))
        screen = app.screen
        assert isinstance(screen, ConnectingScreen)
        assert screen.message == "Setting up the fish market…" and not screen.failed
        opened.set()
        link.lobby([("Ana", "human"), ("Bot", "bot")])
        link.view(view_for(new_game(3, 2), 0))
        await until(pilot, lambda: table_shown(app))
        assert app.connecting_screen is None  # the table took its place
        for _ in range(3):  # let the header's own title watcher run before the app closes
            await pilot.pause()  # (Textual's Header fails if it runs once torn down)
