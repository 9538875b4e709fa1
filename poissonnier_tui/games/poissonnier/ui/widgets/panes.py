"""Small-terminal helpers of the table layout (see ``screens/board.py``).

:class:`PaneBar` picks which secondary pane sits beside the hand when the
terminal is too narrow for two columns (under 100 columns): the open offers,
the log, the players, the other stalls or the market. It sets a ``-pane-<name>``
class on the screen that ``table.tcss`` turns into which pane is displayed,
so no widget is ever moved or rebuilt (the log keeps its lines, the offers
their highlight). A new offer made to this player brings the offers pane up.

:class:`TooSmall` replaces the table with a notice below the smallest size the
table is laid out for.
"""

from __future__ import annotations

from typing import Final

from textual.reactive import reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import Drawn
from poissonnier_tui.i18n import N_, _

PANES: Final = ("offers", "log", "players", "stalls", "market")
"""The panes the bar switches between, in the bar's order."""

PANE_KEYS: Final = {"offers": "o", "log": "l", "players": "p", "stalls": "w", "market": "m"}
"""The key that brings each pane up (bound by the table screen)."""

FIRST_PANE: Final = "offers"
"""The pane shown beside the hand when a table opens on a narrow terminal."""

FIRST_PANE_CLASS: Final = f"-pane-{FIRST_PANE}"
"""The screen class of :data:`FIRST_PANE`. A screen with a :class:`PaneBar` starts with
it (its ``DEFAULT_CLASSES``): a class the bar put on the screen when mounted would
restyle every widget of the screen."""

PANE_LABELS: Final = {
    "offers": N_("Offers"),
    "log": N_("Log"),
    "players": N_("Players"),
    "stalls": N_("Stalls"),
    "market": N_("Market"),
}
"""Each pane's name in the bar (translated when drawn)."""


class PaneBar(Static):
    """One line naming the panes, the shown one lit; click a name or press its key."""

    pane: reactive[str] = reactive(FIRST_PANE)
    """The pane shown beside the hand on a narrow terminal (one of :data:`PANES`)."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The screen's latest table (followed, not set by the screen): counts and new offers.
    A new one repaints the bar only if its text changed (:mod:`.redraw`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn = Drawn()
        """What the bar shows now."""

    def on_mount(self) -> None:
        """Follow the screen's table, and put the pane class on the screen."""
        screen = self.screen
        if hasattr(screen, "snapshot"):
            self.watch(screen, "snapshot", self._follow, init=True)
        self.watch_pane(self.pane)

    def _follow(self, snap: TableSnapshot | None) -> None:
        """A new offer for this player: show the offers (its toast says the same)."""
        old, self.snapshot = self.snapshot, snap
        if snap is not None and old is not None and snap.offers_for_me(since=old):
            self.pane = "offers"

    def watch_snapshot(self) -> None:
        """Repaint if the bar's text changed."""
        if self.is_attached:
            self.drawn.show(self, self.render())

    def watch_pane(self, pane: str) -> None:
        """Exactly one ``-pane-<name>`` class on the screen."""
        self.screen.update_classes({f"-pane-{name}": name == pane for name in PANES}, animate=False)

    def show(self, pane: str) -> None:
        """Bring ``pane`` up (unknown names are ignored)."""
        if pane in PANES:
            self.pane = pane

    def cycle(self, delta: int = 1) -> None:
        """The next (or previous) pane."""
        self.pane = PANES[(PANES.index(self.pane) + delta) % len(PANES)]

    def render(self) -> str:
        """`` Offers 2 o │ Log l │ Players p │ Stalls w │ Market m ``, the shown pane lit."""
        snap = self.snapshot
        parts = []
        for name in PANES:
            label = _(PANE_LABELS[name])
            if name == "offers" and snap is not None and snap.proposals:
                mine = len(snap.offers_for_me())
                label += f" {len(snap.proposals)}" + (" [b $text-warning]![/]" if mine else "")
            key = PANE_KEYS[name]
            text = f"[b reverse] {label} [/]" if name == self.pane else f" {label} [dim]{key}[/]"
            parts.append(f"[@click=show('{name}')]{text}[/]")
        return "[dim]│[/]".join(parts)


class TooSmall(Static):
    """A notice: the terminal is smaller than the table needs; says both sizes."""

    def __init__(self, minimum: tuple[int, int], *, id: str | None = None) -> None:
        """Args: minimum: the smallest (columns, rows) the table is laid out for."""
        super().__init__(id=id)
        self.minimum = minimum

    def on_resize(self) -> None:
        """The terminal's size is in the text: draw it again."""
        self.refresh()

    def render(self) -> str:
        """What is needed, what there is, and what to do."""
        width, height = self.app.size
        need_w, need_h = self.minimum
        return _(
            "[b]This window is too small for the table.[/b]\n\n"
            "It needs at least {need_w}×{need_h} characters; it has {width}×{height}.\n"
            "Enlarge the window (or make the font smaller): the game goes on meanwhile."
        ).format(need_w=need_w, need_h=need_h, width=width, height=height)
