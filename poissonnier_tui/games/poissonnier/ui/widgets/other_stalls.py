"""The other players' stalls: every crate, face up (RULES.md §9).

During the fill step others' new arrangements are hidden until everyone is
ready (R15), so their crates show as they were, with a note. On this
player's turn, clicking a crate of another stall opens the deal dialog
asking that player for those fish (§4). Crates are drawn as boxes rimmed in
their fish's colour when the pane is tall enough, as a line of chips otherwise.
"""

from __future__ import annotations

from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.ui.palette import chip, text_colour
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import Drawn
from poissonnier_tui.i18n import _


class OtherStalls(Static):
    """One line per other player: name, then each crate as chips."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; stalls are ``view["seats"][i]["crates"]`` (freshness codes). A new one
    repaints the pane only if the stalls it draws changed (:mod:`.redraw`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn = Drawn()
        """What the pane shows now."""

    def on_mount(self) -> None:
        """Title the pane."""
        self.border_title = _("Other stalls")
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def watch_snapshot(self) -> None:
        """Repaint if the stalls drawn changed."""
        if self.is_attached:
            self.drawn.show(self, self.render())

    def on_resize(self) -> None:
        """Boxes or lines depend on the pane's height: draw again if that changed them."""
        self.watch_snapshot()

    def render(self) -> str:
        """Each other player's crates as boxes (three lines a player) when the pane is tall
        enough, else one line a player: ``[1] TTT  [2] FF …``."""
        snap = self.snapshot
        if snap is None:
            return ""
        can_ask = snap.my_turn and snap.phase == "serve"
        hint = _("[dim]Click a crate to ask for its fish.[/]") if can_ask else ""
        boxes = self.content_size.height >= 3 * len(snap.others()) + (1 if hint else 0)
        width = max((len(snap.name(s)) for s in snap.others()), default=6) + 2
        lines = []
        for seat in snap.others():
            row = snap.seat(seat)
            name = escape(snap.name(seat)).ljust(width)
            marker = "[b]▶[/b]" if seat == snap.active else " "
            note = ""
            if snap.phase == "fill":
                note = _("[dim]ready[/]") if row["ready"] else _("[dim italic]arranging…[/]")
            head = f"{marker} [b]{name}[/b]"
            if boxes:
                dark = self.app.current_theme.dark
                top, mid, bottom = self._crate_boxes(seat, row["crates"], can_ask, dark)
                pad = " " * (width + 3)
                lines += [pad + top, f"{head} {mid} {note}".rstrip(), pad + bottom]
                continue
            crates = []
            for k, codes in enumerate(row["crates"]):
                if not codes:
                    crates.append(f"[dim]{k + 1}[/]·" + _("[dim]empty[/]"))
                    continue
                crate = f"[b]{k + 1}[/]·" + "".join(chip(c) for c in codes)
                if can_ask:
                    crate = f"[@click=screen.ask_for({seat},{k})]{crate}[/]"
                crates.append(crate)
            lines.append(f"{head} {'  '.join(crates)}  {note}".rstrip())
        return "\n".join(lines + ([hint] if hint else []))

    @staticmethod
    def _crate_boxes(
        seat: int, crates: list[str], can_ask: bool, dark: bool
    ) -> tuple[str, str, str]:
        """Three lines drawing ``crates`` as boxes, each rimmed in its fish's colour (a
        darker shade on a light theme)."""
        top, mid, bottom = [], [], []
        for k, codes in enumerate(crates):
            face = "".join(chip(c) for c in codes) if codes else _("[dim]empty[/]")
            inner = 3 * len(codes) if codes else len(_("empty"))
            rim = text_colour(codes[0], dark) if codes else "$foreground 40%"
            label = str(k + 1)
            top.append(f"[{rim}]╭{label}{'─' * (inner - len(label))}╮[/]")
            body = f"[{rim}]│[/]{face}[{rim}]│[/]"
            if can_ask and codes:
                body = f"[@click=screen.ask_for({seat},{k})]{body}[/]"
            mid.append(body)
            bottom.append(f"[{rim}]╰{'─' * inner}╯[/]")
        return " ".join(top), " ".join(mid), " ".join(bottom)
