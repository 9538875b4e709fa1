"""The player's hand, grouped by freshness, with a selection for the fill step.

RULES.md §3.2: during the fill step fish go from the hand into crates, one
freshness per crate. So the selection is *one freshness and a count*: the
cursor row (↑↓) picks the freshness, ←→ how many of them, space toggles all
or none, and the screen's 1–6 keys put the selection into that crate. Special
cards (glaçon, arrivage) are shown but never selectable: they stay in the
hand (§1). Outside the fill step the hand is for looking only.

Mouse: clicking the n-th chip of a row selects n fish of that freshness.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from poissonnier_tui.games.poissonnier.rules.cards import FRESHNESS_ORDER
from poissonnier_tui.games.poissonnier.ui.palette import (
    COLOURS,
    GLYPHS,
    INK,
    KINDS,
    NAMES,
    text_colour,
)
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import CUT, Drawn, parse_pieces, retitle
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.screens.fields import translate_bindings

TALL_TERMINAL = 44
"""Terminal rows from which hand cards are drawn two rows tall."""
ROOMY = (100, 36)
"""Terminal (columns, rows) from which the hand explains its keys below the cards
(on a smaller one the footer lists them) and says its notes in full."""
DIM_BACKGROUND = "$panel"
"""Background of a fish chip that is not selected (a theme colour): its colour shows as
text only."""


class HandView(Widget, can_focus=True):
    """Shows the hand by kind and keeps the fill-step selection.

    Reactives: :attr:`snapshot` (set by the screen), :attr:`cursor` and
    :attr:`chosen` (the selection). Posts :class:`SelectionChanged`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", N_("Freshness ↑"), show=False),
        Binding("down", "move(1)", N_("Freshness ↓"), show=False),
        Binding("left", "more(-1)", N_("One fewer"), show=False),
        Binding("right", "more(1)", N_("One more"), show=False),
        Binding("space", "toggle_all", N_("All/none"), key_display=N_("space")),
    ]

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; the hand is ``snapshot.hand`` (the draft hand in the fill step).

    A new one repaints the hand only if what it draws changed, and lays the screen
    out only if its size did (the height follows the number of kinds in hand;
    :mod:`.redraw`).
    """
    cursor: reactive[int] = reactive(0, repaint=False)
    """Index into :attr:`fish_rows` of the freshness under the cursor."""
    chosen: reactive[int] = reactive(0, repaint=False)
    """How many fish of the cursor's freshness are selected (0..all of them)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn = Drawn(parse_pieces)
        """What the hand shows now (see :mod:`.redraw`); its markup is cut in pieces,
        each chip one, so that a chip is parsed once, not on every change."""
        self._rows_kept = 0  # rows the hand keeps this fill step (_keep_rows)
        self._grouped: tuple[TableSnapshot | None, dict[str, list[str]]] | None = None

    @dataclass
    class SelectionChanged(Message):
        """The selection changed: ``count`` fish of freshness ``code`` (``""`` if none)."""

        hand: HandView
        code: str
        count: int

        @property
        def control(self) -> HandView:
            """The hand that changed (for ``@on`` selectors)."""
            return self.hand

    # --- data ---------------------------------------------------------------

    @property
    def groups(self) -> Mapping[str, list[str]]:
        """Card ids in hand by kind letter, in display order (fresh first, specials last);
        worked out once per snapshot (the keys' checks ask for it dozens of times a view)."""
        snap = self.snapshot
        if self._grouped is not None and self._grouped[0] is snap:
            return self._grouped[1]
        hand = snap.hand if snap else []
        out: dict[str, list[str]] = {}
        for kind in KINDS:
            cards = sorted(c for c in hand if c[0] == kind)
            if cards:
                out[kind] = cards
        self._grouped = (snap, out)
        return out

    @property
    def fish_rows(self) -> list[str]:
        """Freshness codes present in hand: the rows the cursor can visit."""
        return [k for k in self.groups if k in FRESHNESS_ORDER]

    @property
    def selecting(self) -> bool:
        """The hand takes a selection now: fill step, this seat not ready yet (§3.2)."""
        snap = self.snapshot
        return bool(snap and snap.phase == "fill" and snap.me is not None and not snap.ready)

    @property
    def code(self) -> str:
        """The freshness under the cursor, or ``""`` when the hand holds no fish."""
        rows = self.fish_rows
        return rows[min(self.cursor, len(rows) - 1)] if rows else ""

    @property
    def selection(self) -> list[str]:
        """The selected card ids (all of one freshness), empty when nothing is selected."""
        if not self.selecting or not self.code:
            return []
        return self.groups[self.code][: self.chosen]

    # --- reactives -------------------------------------------------------------

    def watch_snapshot(self, old: TableSnapshot | None, new: TableSnapshot | None) -> None:
        """A new view: keep the cursor on the same freshness, and the selection if nothing moved.

        Views arrive whenever anyone acts (a bot declaring ready, say); a
        partial selection made with ←/→ must survive those.
        """
        same_hand = (
            old is not None
            and new is not None
            and sorted(old.hand) == sorted(new.hand)
            and (old.phase, old.ready) == (new.phase, new.ready)
        )
        if new is not None:
            self._keep_rows(old, new)
            n = len(new.hand)
            retitle(
                self, ngettext("Your hand ({n} card)", "Your hand ({n} cards)", n).format(n=n)
            )
        if same_hand:
            self.redraw()
            return
        rows = self.fish_rows
        old_code = ""
        if old is not None:
            old_rows = [
                k for k in KINDS if k in FRESHNESS_ORDER and any(c[0] == k for c in old.hand)
            ]
            old_code = old_rows[min(self.cursor, len(old_rows) - 1)] if old_rows else ""
        cursor = (
            rows.index(old_code) if old_code in rows else min(self.cursor, max(len(rows) - 1, 0))
        )
        self.set_reactive(HandView.cursor, cursor)
        self._select_all()
        self.redraw()

    def _keep_rows(self, old: TableSnapshot | None, new: TableSnapshot) -> None:
        """During one fill step the hand keeps as many rows as it has shown in it: placing
        a whole freshness in a crate leaves a blank row rather than shrinking the pane
        (which would lay the whole screen out again, twice, on every move, and make the
        panes below jump). A new step, or turn, fits the hand to its kinds again."""
        kinds = len(self.groups)
        same_step = (
            old is not None
            and (old.view.get("turn"), old.phase) == (new.view.get("turn"), new.phase)
        )
        self._rows_kept = max(kinds, self._rows_kept) if same_step else kinds

    def redraw(self) -> None:
        """Repaint if the hand drawn changed (lay out if its size did)."""
        if self.is_attached:
            self.drawn.show(self, self.markup())

    def watch_cursor(self) -> None:
        """Moving to another freshness selects all of it: the common case is a whole pile."""
        self._select_all()
        self.redraw()

    def watch_chosen(self) -> None:
        """Tell the screen (it shows the selection in the status line and the footer)."""
        self.post_message(self.SelectionChanged(self, self.code, len(self.selection)))
        self.redraw()

    def _select_all(self) -> None:
        """Select every fish of the cursor's freshness (none when not selecting)."""
        self.chosen = len(self.groups.get(self.code, [])) if self.selecting else 0

    def clear(self) -> None:
        """Select nothing (Escape)."""
        self.chosen = 0

    # --- actions -----------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        """Move the cursor to the previous/next freshness in hand."""
        rows = self.fish_rows
        if rows and self.selecting:
            self.cursor = (self.cursor + delta) % len(rows)

    def action_more(self, delta: int) -> None:
        """Select one fish more or fewer of the cursor's freshness."""
        if self.selecting and self.code:
            self.chosen = max(0, min(len(self.groups[self.code]), self.chosen + delta))

    def action_toggle_all(self) -> None:
        """Select all of the cursor's freshness, or none if all are selected."""
        if self.selecting and self.code:
            total = len(self.groups[self.code])
            self.chosen = 0 if self.chosen == total else total

    def action_pick(self, code: str, count: int) -> None:
        """Mouse: select ``count`` fish of ``code`` (clicking the same chip again clears)."""
        rows = self.fish_rows
        if not self.selecting or code not in rows:
            return
        same = code == self.code and count == self.chosen
        self.cursor = rows.index(code)
        self.chosen = 0 if same else count
        self.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Selection keys only apply while selecting (fill step, not ready)."""
        if action in {"move", "more", "toggle_all", "pick"}:
            return self.selecting
        return True

    # --- rendering ------------------------------------------------------------------

    def render(self) -> Content:
        """The hand (:meth:`markup`), parsed once per change (``widgets/redraw.py``)."""
        return self.drawn.content(self.markup())

    def markup(self) -> str:
        """One row per kind: name, chips (selected ones lit), and a note; each chip and
        each other whole piece of markup cut from the next with :data:`.redraw.CUT`."""
        groups = self.groups
        if self.snapshot is None or self.snapshot.me is None:
            return "[dim]" + _("Spectating: hands are private (RULES.md §9).") + "[/]"
        if not groups:
            return "[dim]" + _("Your hand is empty.") + "[/]"
        selecting = self.selecting
        # Cards two rows tall on a tall terminal: they read (and click) like cards.
        width, height = self.app.size
        tall = height >= TALL_TERMINAL
        roomy = width >= ROOMY[0] and height >= ROOMY[1]
        dark = self.app.current_theme.dark
        lines = []
        for kind, cards in groups.items():
            here = selecting and kind == self.code
            pointer = "[b]▶[/b]" if here else " "
            ink = text_colour(kind, dark)
            name = f"{NAMES[kind]:<11}"
            name = f"[b {ink}]{name}[/]" if here else f"[{ink}]{name}[/]"
            faces, backs = [], []
            for n, _card in enumerate(cards, start=1):
                selectable = selecting and kind in FRESHNESS_ORDER
                lit = not selectable or (here and n <= self.chosen)
                style = f"{INK} on {COLOURS[kind]}" if lit else f"{ink} on {DIM_BACKGROUND}"
                if selectable:
                    style += f" @click=pick('{kind}',{n})"
                faces.append(f"[{style}] {GLYPHS.get(kind, kind)} [/]")
                backs.append(f"[{style}]   [/]")
            note = ""
            if kind not in FRESHNESS_ORDER:
                note = _("[dim]stays in hand; used when you serve[/]") if roomy else ""
            elif here and self.chosen:
                note = (
                    _("[b]{n} of {total} selected[/b]") if roomy else "[b]{n}/{total}[/b]"
                ).format(n=self.chosen, total=len(cards))
            elif here:
                note = _("[dim]none selected[/]") if roomy else f"[dim]0/{len(cards)}[/]"
            line = CUT.join([pointer, f" {name} ", f"{CUT} {CUT}".join(faces), f" {note}"])
            lines.append(line.rstrip())
            if tall:
                lines.append(CUT.join([f"  {' ' * 11} ", f"{CUT} {CUT}".join(backs)]))
        lines += [" "] * ((self._rows_kept - len(groups)) * (2 if tall else 1))
        if not roomy:
            return "\n".join(lines)
        return "\n".join(lines) + "\n\n" + self._hint()

    def on_mount(self) -> None:
        """Colours follow the theme: draw again when it changes; keys in the current
        language."""
        translate_bindings(self)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def on_resize(self) -> None:
        """What the hand says depends on the terminal's size: draw again if it changed."""
        self.redraw()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as its longest line (``width: auto`` on a narrow terminal: the hand
        takes only the room it needs, the pane beside it the rest)."""
        lines = self.render().split()
        return max((line.cell_length for line in lines), default=0)

    def _hint(self) -> str:
        """A reminder of what the hand is for right now (dim, below the cards)."""
        snap = self.snapshot
        if self.selecting:
            return _(
                "[dim]↑↓ freshness · ←→ one fewer/more · space all/none · "
                "[b]1–6[/b] put them in that crate · [b]t[/b] then 1–6 takes a crate back · "
                "[b]r[/b] ready[/]"
            )
        if snap is not None and snap.phase == "fill":
            return _("[dim]You are ready. Press [b]r[/b] to rearrange while the others finish.[/]")
        return _(
            "[dim]Fish in your hand cannot serve (§3.4): "
            "they go into crates at the next fill step.[/]"
        )
