"""Go Fish's table, results and replay screens.

The table (:class:`TableScreen`) shows four panes read from one
:class:`~.reader.GoFishSnapshot`: your hand grouped by rank, the other
players (hand sizes, books, ranks the history proves they hold), the stock
and whose turn it is, and the asks log. From 120 columns the panes
sit side by side; from 80×24 they stack, the log shortened.

Asking takes two keys (three in the card variant, docs/GOFISH.md §6): the
number of the player to ask (skipped when there is only one), then a rank key
(``a`` ``2``–``9`` ``0`` for 10, ``j`` ``q`` ``k``), then in §6 a suit key (``c``
``d`` ``h`` ``s``; ``t`` ``k`` ``c`` ``p`` in French). ``Escape`` starts over. An
ask that is not legal is not sent: the status line says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard, to_wire
from poissonnier_tui.games.gofish.rules.cards import RANKS, SUIT_SYMBOLS, SUITS, card_id
from poissonnier_tui.games.gofish.ui.reader import GoFishSnapshot, card_text, rank_label
from poissonnier_tui.hosting.replay import NotAllowed, PointOfView, Replay
from poissonnier_tui.i18n import N_, _, ngettext, pgettext
from poissonnier_tui.shell.messages import MoveChosen
from poissonnier_tui.shell.replay_moves import move_words
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.screens.footer import KeyBar
from poissonnier_tui.shell.screens.rematch_panel import RematchPanel, RematchScreen
from poissonnier_tui.shell.screens.title_bar import TitleBar
from poissonnier_tui.shell.seats import SeatLabel


def rank_key(rank: str) -> str:
    """The key that asks for ``rank``: its label in lower case (``"0"`` for 10), so
    ``q`` for a queen in English and ``d`` (dame) in French."""
    return "0" if rank == "10" else rank_label(rank).lower()


def rank_keys() -> dict[str, str]:
    """Each rank key in the current language -> the rank it asks for."""
    return {rank_key(r): r for r in RANKS}


"""Key -> rank: ``a`` ``2``–``9`` ``0`` (10) ``j`` ``q`` ``k``."""

def suit_keys() -> dict[str, str]:
    """Each suit key in the current language -> the suit it asks for (§6): ``c`` ``d``
    ``h`` ``s`` (clubs, diamonds, hearts, spades) in English; ``t`` ``k`` ``c`` ``p``
    (trèfle, carreau, cœur, pique, as French bridge players write them) in French."""
    keys = {
        "C": pgettext("clubs key", "c"),
        "D": pgettext("diamonds key", "d"),
        "H": pgettext("hearts key", "h"),
        "S": pgettext("spades key", "s"),
    }
    return {key: suit for suit, key in keys.items() if suit in SUITS}

WIDE: Final = 120
"""From this many columns the panes sit side by side."""

TALL: Final = 36
"""From this many rows (and :data:`WIDE` columns) the log shows 30 lines, else 6."""

MOVE_KINDS: Final[Mapping[str, str]] = {"ask": N_("ask"), "ask_card": N_("ask for a card")}
"""Each action type (rules/actions.py) as the replay's status line says it."""
MOVE_FIELDS: Final[Mapping[str, str]] = {
    "target": N_("asked"),
    "rank": N_("rank"),
    "suit": N_("suit"),
}
"""Each action field (rules/actions.py) as the replay's status line names it."""

HORIZONTAL_BREAKPOINTS: Final = [(0, "-narrow"), (WIDE, "-wide")]
"""Screen classes by width: panes stacked below 120 columns, side by side from it."""

VERTICAL_BREAKPOINTS: Final = [(0, "-short"), (TALL, "-tall")]
"""Screen classes by height: a shorter log below 36 rows."""


def hand_text(snap: GoFishSnapshot, *, compact: bool = False) -> str:
    """The hand pane: each rank held with the key that asks for it, a line each (or all on
    wrapped lines when ``compact``)."""
    if snap.me is None:
        return _("[dim]You are watching: the hands are hidden.[/]")
    groups = snap.hand_by_rank()
    if not groups:
        return _("[dim]No cards in your hand.[/]")
    lines = []
    for rank, held in groups:
        key = rank_key(rank)
        cards = " ".join(card_text(c) for c in held)
        lines.append(f"[b]{escape('[' + key + ']')}[/b] {escape(cards)}")
    return ("    " if compact else "\n").join(lines)


def others_text(snap: GoFishSnapshot, *, pick: int | None = None) -> str:
    """The players pane: number key, name, hand size, books, ranks known to be held."""
    lines = []
    seats = list(range(snap.players))
    for seat in seats:
        size = snap.hand_size(seat)
        cards = ngettext("{n} card", "{n} cards", size).format(n=size)
        books = snap.books(seat)
        booked = ngettext("{n} book", "{n} books", len(books)).format(n=len(books))
        if books:
            booked += " (" + " ".join(rank_label(b) for b in books) + ")"
        marks = "▶" if seat == snap.active and not snap.over else " "
        head = f"{marks}[b]{seat + 1}[/b] {escape(snap.who(seat))}"
        if seat == pick:
            head = f"[reverse]{head}[/]"
        line = f"{head} — {cards}, {escape(booked)}"
        if snap.is_out(seat):
            line += " " + _("[dim](out of play)[/]")
        known = snap.known_ranks(seat) if seat != snap.me else []
        if known:
            line += " · " + _("[dim]holds {ranks}[/]").format(
                ranks=" ".join(rank_label(r) for r in known)
            )
        lines.append(line)
    return "\n".join(lines)


def table_text(snap: GoFishSnapshot) -> str:
    """The stock and the turn, and the variant's name when not the plain game."""
    stock = ngettext("{n} card in the stock", "{n} cards in the stock", snap.stock).format(
        n=snap.stock
    )
    parts = [stock, _("turn {n}").format(n=snap.view["turn"])]
    options = snap.view["options"]
    if snap.card_variant:
        parts.append(
            _("asking for cards (§6)") + (_(", bluffs allowed") if options["bluff"] else "")
        )
    if options["play_on"]:
        parts.append(_("play on (§7)"))
    return " · ".join(parts)


def log_text(snap: GoFishSnapshot, last: int) -> str:
    """The last ``last`` lines of the asks log."""
    lines = snap.log_lines(last)
    return "\n".join(escape(line) for line in lines) or _("[dim]No asks yet.[/]")


class Board(Vertical):
    """The four panes of a Go Fish table, fed a snapshot with :meth:`show`."""

    def compose(self) -> ComposeResult:
        """Hand and table on the left, players and log on the right."""
        with Container(id="gf-main"):
            with Vertical(id="gf-left"):
                yield Static(id="gf-hand")
                yield Static(id="gf-table")
            with Vertical(id="gf-right"):
                yield Static(id="gf-others")
                yield Static(id="gf-log")
        yield Static(id="gf-status")

    def on_mount(self) -> None:
        """Pane titles."""
        self.query_one("#gf-hand").border_title = _("Your hand")
        self.query_one("#gf-table").border_title = _("Stock")
        self.query_one("#gf-others").border_title = _("Players")
        self.query_one("#gf-log").border_title = _("Asks")

    def show(self, snap: GoFishSnapshot, status: str, *, pick: int | None = None) -> None:
        """Render ``snap`` with ``status`` on the bottom line; ``pick``: the seat chosen."""
        wide = self.screen.size.width >= WIDE
        tall = wide and self.screen.size.height >= TALL
        main = self.query_one("#gf-main")
        main.styles.layout = "horizontal" if wide else "vertical"
        self.query_one("#gf-hand", Static).update(hand_text(snap, compact=not wide))
        self.query_one("#gf-table", Static).update(table_text(snap))
        self.query_one("#gf-others", Static).update(others_text(snap, pick=pick))
        room = self.query_one("#gf-log").content_size.height
        self.query_one("#gf-log", Static).update(log_text(snap, room or (30 if tall else 6)))
        self.query_one("#gf-status", Static).update(status)


class BoardScreen(Screen[None]):
    """A screen showing one :class:`Board`, laid out for the terminal's size; subclasses
    render it in :meth:`refresh_board`."""

    CSS_PATH = "gofish.tcss"
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    def compose(self) -> ComposeResult:
        """Header, the board, footer (its keys in the current language)."""
        translate_bindings(self)
        yield TitleBar()
        yield Board(id="gf-board")
        yield KeyBar()

    def on_mount(self) -> None:
        """First render."""
        self.refresh_board()

    def on_resize(self) -> None:
        """The log's length follows the size."""
        self.call_after_refresh(self.refresh_board)

    def refresh_board(self) -> None:
        """Render the board (each subclass its own way)."""
        raise NotImplementedError


class TableScreen(BoardScreen):
    """The Go Fish table for one seat (or a spectator). Set :attr:`snapshot` to update."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Start over"), key_display=N_("esc"), priority=True),
        Binding("enter", "app.results", N_("Results"), priority=True),
    ]

    def __init__(self, snapshot: GoFishSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.target: int | None = None
        self.rank: str | None = None
        self.note = ""

    def show(self, snapshot: GoFishSnapshot) -> None:
        """A newer snapshot: render it; a half-made ask survives while it stays legal."""
        self.snapshot = snapshot
        if not snapshot.my_turn:
            self.target, self.rank = None, None
        self.refresh_board()

    def refresh_board(self) -> None:
        """Render the snapshot and the status line."""
        if self.snapshot.my_turn and not self.snapshot.over:
            self._begin()  # one opponent: the prompt asks for the rank at once
        if self.is_mounted:
            self.query_one(Board).show(self.snapshot, self.status(), pick=self.target)

    def status(self) -> str:
        """What the table waits for, and which key comes next."""
        snap = self.snapshot
        if snap.over:
            return _("[b]The game is over.[/b] Enter: the results.")
        if not snap.my_turn:
            return _("Waiting for {who} to ask.").format(who=escape(snap.name(snap.active)))
        note = f"[red]{escape(self.note)}[/]  " if self.note else ""
        if self.target is None:
            return note + _("[b]Your turn.[/b] Press the number of the player to ask.")
        who = escape(snap.name(self.target))
        if self.rank is None:
            faces = " ".join(rank_key(r) for r in ("J", "Q", "K"))
            return note + _(
                "Ask {who} for which rank? a 2–9 0 {faces} (Escape: start over)"
            ).format(who=who, faces=faces)
        suits = " ".join(f"{key} {SUIT_SYMBOLS[suit]}" for key, suit in suit_keys().items())
        return note + _("Ask {who} for which {rank}? {suits}").format(
            who=who, rank=rank_label(self.rank), suits=suits
        )

    def _targets(self) -> list[int]:
        return sorted({int(a["target"]) for a in self.snapshot.legal})

    def _begin(self) -> None:
        """At the start of an ask with one possible target, pick it."""
        targets = self._targets()
        if self.target is None and len(targets) == 1 and self.snapshot.players == 2:
            self.target = targets[0]

    def on_key(self, event: events.Key) -> None:
        """The ask keys: a seat number, a rank key, a suit key (§6)."""
        snap = self.snapshot
        key = event.character.lower() if event.character else ""
        if not snap.my_turn or not key:
            return
        self._begin()
        if self.target is None:
            if key.isdigit() and 1 <= int(key) <= snap.players:
                seat = int(key) - 1
                if seat in self._targets():
                    self.target, self.note = seat, ""
                elif seat == snap.me:
                    self.note = _("You cannot ask yourself.")
                else:
                    self.note = _("{who} has no cards to ask for.").format(who=snap.name(seat))
                event.stop()
                self.refresh_board()
            return
        if self.rank is None:
            if key in rank_keys():
                rank = rank_keys()[key]
                event.stop()
                if not any(a["rank"] == rank for a in snap.legal):
                    self.note = _("You can only ask for a rank you hold (§3).")
                elif snap.card_variant:
                    self.rank, self.note = rank, ""
                else:
                    self._send(to_wire(Ask(self.target, rank)))
                self.refresh_board()
            return
        suit = suit_keys().get(key)
        if suit is not None:
            event.stop()
            wire = to_wire(AskCard(self.target, self.rank, suit))
            if wire in snap.legal:
                self._send(wire)
            else:
                card = card_text(card_id(self.rank, suit))
                self.note = _("You hold {card}: ask for a card you lack (§6).").format(card=card)
            self.refresh_board()

    def _send(self, wire: dict[str, Any]) -> None:
        """Post the ask and start the next one afresh."""
        self.post_message(MoveChosen(wire))
        self.target, self.rank, self.note = None, None, ""

    def action_cancel(self) -> None:
        """Escape: forget the half-made ask."""
        self.target, self.rank, self.note = None, None, ""
        self.refresh_board()


class ResultsScreen(RematchScreen):
    """Books per player and the winner, or the shared victory (docs/GOFISH.md §5, G3)."""

    CSS = "#gf-results { padding: 1 2; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back to the table"), key_display=N_("esc")),
    ]

    def __init__(self, snapshot: GoFishSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot

    def compose(self) -> ComposeResult:
        """Banner, books per player, seed; the rematch's answers when one is proposed."""
        translate_bindings(self)
        yield TitleBar()
        with VerticalScroll(id="gf-results"):
            yield RematchPanel()
            yield Static(results_text(self.snapshot), id="gf-results-text")
        yield KeyBar()

    def action_back(self) -> None:
        """Look at the final table again."""
        self.app.pop_screen()


def results_text(snap: GoFishSnapshot) -> str:
    """The results as markup: the banner, then each player's books, winners first."""
    result = snap.result
    winners = snap.winners
    if result.get("shared"):
        names = ", ".join(snap.who(w) for w in winners)
        banner = _("[b]Shared victory![/b] {names} share it (G3).").format(names=escape(names))
    elif snap.me is not None and snap.me in winners:
        banner = _("[b]You won![/b]")
    elif winners:
        banner = _("[b]{who} won.[/b]").format(who=escape(snap.name(winners[0])))
    else:
        banner = _("[b]Nobody won.[/b]")
    scores = sorted(result.get("scores", []), key=lambda s: (-int(s["books"]), int(s["seat"])))
    lines = [banner, ""]
    for s in scores:
        seat, count = int(s["seat"]), int(s["books"])
        books = ngettext("{n} book", "{n} books", count).format(n=count)
        ranks = " ".join(rank_label(str(r)) for r in s.get("ranks", []))
        mark = "★ " if seat in winners else "  "
        colon = _(": ")  # French: " : " (a no-break space first)
        lines.append(f"{mark}[b]{escape(snap.who(seat))}[/b]{colon}{books}  {escape(ranks)}")
    lines += [
        "",
        _("[dim]{turns} turns · seed {seed}: the same seed and asks replay this game.[/]").format(
            turns=result.get("turns", "?"), seed=result.get("seed", "?")
        ),
    ]
    return "\n".join(lines)


class ReplayScreen(BoardScreen):
    """A logged Go Fish game on the table's panes, read-only, ask by ask.

    Keys: ``→``/``←`` one step, ``Home``/``End`` the deal and the end, ``v`` the
    next point of view (public, each seat once the game is over).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", N_("Next"), key_display="→", priority=True),
        Binding("left", "step(-1)", N_("Back"), key_display="←", priority=True),
        Binding("home", "jump(0)", N_("The deal"), show=False, priority=True),
        Binding("end", "jump(-1)", N_("End"), show=False, priority=True),
        Binding("v", "cycle_view", N_("Point of view"), priority=True),
    ]

    def __init__(self, replay: Replay, *, start: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.step = max(0, min(start, replay.steps))
        self.pov: PointOfView = None

    def snapshot(self) -> GoFishSnapshot:
        """The snapshot of the current step from the current point of view."""
        seats = tuple(SeatLabel(s.name) for s in self.replay.header.seats)
        return GoFishSnapshot(self.replay.view(self.step, self.pov), seats, self.step)

    def refresh_board(self) -> None:
        """Render the current step."""
        if not self.is_mounted:
            return
        who = _("public view") if self.pov is None else self.snapshot().name(int(self.pov))
        status = _("Step {step} of {steps} · {who} · {move}").format(
            step=self.step, steps=self.replay.steps, who=escape(str(who)),
            move=escape(self.move_text()),
        )  # fmt: skip
        self.query_one(Board).show(self.snapshot(), status)

    def move_text(self) -> str:
        """The move that reached this step, in the current language (the asked seat by
        name, ranks and suits as the table shows them)."""
        names = self.snapshot()

        def value(field: str, raw: object) -> str:
            if field == "target" and isinstance(raw, int):
                return names.name(raw)
            if field == "rank":
                return rank_label(str(raw))
            return SUIT_SYMBOLS.get(str(raw), str(raw)) if field == "suit" else str(raw)

        return move_words(self.replay, self.step, self.pov, MOVE_KINDS, MOVE_FIELDS, value)

    def action_step(self, delta: int) -> None:
        """One step on or back."""
        self.step = max(0, min(self.step + delta, self.replay.steps))
        self.refresh_board()

    def action_jump(self, step: int) -> None:
        """The deal (0) or the last step (-1)."""
        self.step = self.replay.steps if step < 0 else 0
        self.refresh_board()

    def action_cycle_view(self) -> None:
        """The next point of view the replay may show."""
        povs = self.replay.points_of_view()
        try:
            self.pov = povs[(povs.index(self.pov) + 1) % len(povs)]
        except (ValueError, NotAllowed):
            self.pov = None
        self.refresh_board()


__all__ = ["SUIT_SYMBOLS", "ReplayScreen", "ResultsScreen", "TableScreen"]
