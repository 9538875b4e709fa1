"""One cold start of a Textual app, run by ``scripts/bench.py`` as a new process.

``python scripts/bench_start.py minimal``  the minimal Textual app (the anchor)
``python scripts/bench_start.py table``    ``poissonnier solo --bots 1 --seed 3 --bot-delay 0``
                                           through the command's own entry point

Both go through the same harness: ``App.run`` runs headless at 160×50, and the
first frame the app draws that shows what was asked for (any frame for the
minimal app; the table screen with the game on it for the real one) is
timestamped with ``time.monotonic()`` (system-wide, so the parent compares it
with its own clock taken just before it spawned this process), then the app
exits. The timestamp is the last line printed on stdout. Nothing is imported
before the harness but ``textual.app`` (which both apps import anyway), so the
parent's figure is the whole start: interpreter, imports, building the app, and
for the real one the table server, its log, the bots, the TCP join and the table
screen.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

SIZE = (160, 50)
"""The terminal the apps run in (columns, rows): the bench's TUI figures use the same."""

SOLO_ARGS = ["solo", "--bots", "1", "--seed", "3", "--name", "Bench", "--bot-delay", "0"]
"""The command line of the real start (the warm figure's table, as a command)."""


class Minimal(App[None]):
    """The anchor: a minimal Textual app (a counter and a footer with one key)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "flip", "Flip")]

    def compose(self) -> ComposeResult:
        """A counter and the footer."""
        yield Static("0", id="n")
        yield Footer()

    def action_flip(self) -> None:
        """Add one to the counter."""
        n = self.query_one("#n", Static)
        n.update(str(int(str(n.content)) + 1))


def on_table(app: Any) -> bool:
    """The real app shows the game: its table screen, with a snapshot of the game."""
    if getattr(app, "snapshot", None) is None:
        return False
    from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen

    return isinstance(app.screen, TableScreen)


def first_frame_harness(ready: Callable[[Any], bool], drawn: list[float]) -> None:
    """Make every ``App.run`` headless at :data:`SIZE`; stamp the first frame ``ready`` accepts
    (``time.monotonic()`` into ``drawn``), then exit the app."""
    real_run = App.run

    def run(self: App[Any], **_options: Any) -> Any:
        real_display = self._display  # the one place Textual hands over a frame

        def display(screen: Any, renderable: Any) -> None:
            real_display(screen, renderable)
            if renderable is not None and not drawn and ready(self):
                drawn.append(time.monotonic())
                self.exit()

        self._display = display  # type: ignore[method-assign]
        return real_run(self, headless=True, size=SIZE)

    App.run = run  # type: ignore[method-assign]


def main(which: str) -> int:
    """Start ``which`` (``minimal`` or ``table``); print the first frame's monotonic time."""
    drawn: list[float] = []
    if which == "minimal":
        first_frame_harness(lambda _app: True, drawn)
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
