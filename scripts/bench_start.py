"""One cold start of a Textual app, run by ``scripts/bench.py`` as a new process.

``python scripts/bench_start.py minimal``  the minimal Textual app (the anchor)
``python scripts/bench_start.py table``    ``poissonnier solo --bots 1 --seed 3 --bot-delay 0``
                                           through the command's own entry point

Both go through the same harness: ``App.run`` runs headless at 160×50, and the
first frame the app draws that shows what was asked for (any frame for the
minimal app; the table screen with the game on it for the real one) is
timestamped with ``time.monotonic()`` (system-wide, so the parent compares it
with its own clock taken just before it spawned this process), then the app
exits. The timestamp is the last line printed on stdout. The harness patches
Textual when the program itself imports it and imports nothing of its own, so
the parent's figure is the whole start as a player gets it: interpreter,
imports, building the app, and for the real one the table server, its log, the
bots, the TCP join and the table screen.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

SIZE = (160, 50)
"""The terminal the apps run in (columns, rows): the bench's TUI figures use the same."""

SOLO_ARGS = ["solo", "--bots", "1", "--seed", "3", "--name", "Bench", "--bot-delay", "0"]
"""The command line of the real start (the warm figure's table, as a command)."""


def on_table(app: Any) -> bool:
    """The real app shows the game: its table screen, with a snapshot of the game."""
    if getattr(app, "snapshot", None) is None:
        return False
    from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen

    return isinstance(app.screen, TableScreen)


class _WhenLoaded(importlib.abc.MetaPathFinder):
    """Calls ``then(module)`` once ``name`` has been imported (by whoever imports it)."""

    def __init__(self, name: str, then: Callable[[ModuleType], None]) -> None:
        self.name = name
        self.then = then

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The module's own spec, its loader made to call :attr:`then` after loading."""
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        load = loader.exec_module
        then = self.then

        def exec_module(module: ModuleType) -> None:
            load(module)
            then(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def first_frame_harness(ready: Callable[[Any], bool], drawn: list[float]) -> None:
    """Make every ``App.run`` headless at :data:`SIZE`; stamp the first frame ``ready`` accepts
    (``time.monotonic()`` into ``drawn``), then exit the app.

    Textual is patched as it is imported, by the program itself: nothing runs or is
    imported before the program's own first line but this harness.
    """

    def patch(textual_app: ModuleType) -> None:
        app_class = textual_app.App
        real_run = app_class.run

        def run(self: Any, **_options: Any) -> Any:
            real_display = self._display  # the one place Textual hands over a frame

            def display(screen: Any, renderable: Any) -> None:
                real_display(screen, renderable)
                if renderable is not None and not drawn and ready(self):
                    drawn.append(time.monotonic())
                    self.exit()

            self._display = display
            return real_run(self, headless=True, size=SIZE)

        app_class.run = run

    if "textual.app" in sys.modules:
        patch(sys.modules["textual.app"])
    else:
        sys.meta_path.insert(0, _WhenLoaded("textual.app", patch))


def main(which: str) -> int:
    """Start ``which`` (``minimal`` or ``table``); print the first frame's monotonic time."""
    drawn: list[float] = []
    if which == "minimal":
        first_frame_harness(lambda _app: True, drawn)
        from bench_minimal import Minimal

        Minimal().run()
    elif which == "table":
        first_frame_harness(on_table, drawn)
        from poissonnier_tui.cli import main as poissonnier

        poissonnier(SOLO_ARGS)
    else:
        print(f"bench_start: minimal or table, not {which!r}", file=sys.stderr)
        return 2
    if not drawn:
        print("bench_start: no frame was drawn", file=sys.stderr)
        return 1
    print(repr(drawn[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
