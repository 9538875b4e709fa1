"""Shared test set-up: every test's games are saved in its own temporary data directory,
and every finished game saved there must replay to the result it logged.

each test gets ``$POISSONNIER_DATA_DIR`` pointing into its
``tmp_path`` (so no test touches the real home; OS processes a test starts
inherit it). After the test, every table log written there is read back and
replayed from its seed (R3) with :func:`logcheck.check_log`: a finished
game must reproduce the logged result exactly, and a game still running must
replay every logged action without a refusal. The count is shown in the
terminal summary.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from logcheck import check_log
from netns import run_last, start_batch, stop_batch

from poissonnier_tui.hosting.persistence import DATA_DIR_ENV, LOG_SUFFIX
from poissonnier_tui.settings import CONFIG_DIR_ENV

REPLAYED: dict[str, int] = {"finished": 0, "running": 0}
"""Logs checked this session, by kind."""


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private data directory for this test's saved games (and one for its settings); logs
    saved there are replayed after the test."""
    folder = tmp_path / "poissonnier-data"
    monkeypatch.setenv(DATA_DIR_ENV, str(folder))
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "poissonnier-config"))
    yield folder
    for path in sorted(folder.rglob(f"*{LOG_SUFFIX}")):
        REPLAYED["finished" if check_log(path) else "running"] += 1


def pytest_configure() -> None:
    """Ctrl-C reaches the commands the tests start. A run launched where SIGINT is ignored
    (a background job of a script, say) would hand that down to every process it starts,
    and a SIGINT a test sends while one is still starting would be lost: it then runs on
    (``tests/hosting/test_serve_signals.py``). A handler of its own is reset by ``exec``."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests run in a network namespace go last (``tests/support/netns.py``)."""
    run_last(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the namespaced tests' child in the background, alongside the rest."""
    if not session.config.option.collectonly:
        start_batch(session.items)


def pytest_sessionfinish() -> None:
    """Stop that child if no test waited for it (the session ended early)."""
    stop_batch()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many saved test games were replayed."""
    if REPLAYED["finished"] or REPLAYED["running"]:
        terminalreporter.write_line(
            f"table logs replayed: {REPLAYED['finished']} finished games reproduced their "
            f"result, {REPLAYED['running']} unfinished games replayed cleanly"
        )


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test-only game ``toy`` (``tests/support/toygame.py``) for one test; its name."""
    from poissonnier_tui import games

    monkeypatch.setitem(games.ENTRY_MODULES, "toy", "toygame")
    return "toy"
