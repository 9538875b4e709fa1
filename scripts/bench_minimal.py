"""The bench's anchor: a minimal Textual app (scripts/bench.py, scripts/bench_start.py)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static


class Minimal(App[None]):
    """A counter and a footer with one key (``x`` adds one)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "flip", "Flip")]

    def compose(self) -> ComposeResult:
        """A counter and the footer."""
        yield Static("0", id="n")
        yield Footer()

    def action_flip(self) -> None:
        """Add one to the counter."""
        n = self.query_one("#n", Static)
        n.update(str(int(str(n.content)) + 1))
