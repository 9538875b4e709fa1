"""The replay screen: a saved game on the table widgets, read-only, step by step.

The same widgets as the table screen (queue, stalls, hand, market, players,
offers, log) render a :class:`~poissonnier_tui.games.poissonnier.ui.snapshot.TableSnapshot`
built from the :class:`~poissonnier_tui.hosting.replay.Replay`'s view of the current
step from the current point of view. Nothing is ever sent anywhere.

Keys: ``→``/``←`` one action, ``↓``/``↑`` (or ``]``/``[``) one turn,
``Home``/``End`` the deal and the last step, ``g`` go to a turn, ``v``
the next point of view (``0`` public, ``1``–``5`` a seat, ``a`` every
hand), ``Enter`` the results of a finished game at its end.

Who may see what is the replay's business (:meth:`Replay.view`): a running
game offers only the public view and the viewer's own seat; a finished one
every seat and every hand (RULES.md §9).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath
from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from poissonnier_tui.games.poissonnier.ui.screens.board import (
    HORIZONTAL_BREAKPOINTS,
    VERTICAL_BREAKPOINTS,
    compose_board,
    start_sized,
)
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.all_hands import AllHands
from poissonnier_tui.games.poissonnier.ui.widgets.client_queue import ClientQueue
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.market import MarketInfo
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.games.poissonnier.ui.widgets.other_stalls import OtherStalls
from poissonnier_tui.games.poissonnier.ui.widgets.panes import FIRST_PANE_CLASS, PANE_KEYS, PaneBar
from poissonnier_tui.games.poissonnier.ui.widgets.players import PlayersTable
from poissonnier_tui.hosting.replay import ALL_HANDS, PointOfView, Replay
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.replay_moves import move_words
from poissonnier_tui.shell.screens.chat import ChatLine
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.seats import SeatLabel

CHAT_SHOWN: Final = 5
"""Chat messages the replay's log shows: the last said by the step shown."""

PHASES: Final[Mapping[str, str]] = {
    "fill": N_("fill step"),
    "serve": N_("serving"),
    "over": N_("game over"),
}
"""The view's phase -> its words in the replay's sub-title."""

MOVE_KINDS: Final[Mapping[str, str]] = {
    "place": N_("place fish"),
    "take_back": N_("take back"),
    "ready": N_("ready"),
    "unready": N_("not ready"),
    "buy_crate": N_("buy a crate"),
    "serve": N_("serve"),
    "propose": N_("propose"),
    "accept": N_("accept"),
    "decline": N_("decline"),
    "withdraw": N_("withdraw"),
    "end_turn": N_("end the turn"),
}
"""Each action type (rules/actions.py) as the replay's bar says it."""

MOVE_FIELDS: Final[Mapping[str, str]] = {
    "cards": N_("cards"),
    "crate": N_("crate"),
    "client": N_("client"),
    "fish": N_("fish"),
    "glacons": N_("glaçons"),
    "arrivages": N_("arrivages"),
    "seller": N_("seller"),
    "coins": N_("coins"),
    "seller_glacons": N_("seller's glaçons"),
    "seller_arrivages": N_("seller's arrivages"),
    "buyer_glacons": N_("buyer's glaçons"),
    "buyer_arrivages": N_("buyer's arrivages"),
    "counter": N_("counter to"),
    "proposal": N_("offer"),
}
"""Each action field (rules/actions.py) as the replay's bar names it."""


def replay_titles(snap: TableSnapshot) -> tuple[str, str]:
    """The titles of the stall and hand panes of the seat a replay shows, e.g.
    ``("Ana · stall", "Ana · hand (1 card)")``: a name of any kind reads right
    (``"You · stall"``, never ``"You's stall"``)."""
    assert snap.me is not None
    name = snap.name(snap.me)
    n = len(snap.hand)
    stall = _("{name} · stall").format(name=name)
    hand = ngettext("{name} · hand ({n} card)", "{name} · hand ({n} cards)", n)
    return stall, hand.format(name=name, n=n)


class ReplayHand(HandView, can_focus=False):
    """The hand, for looking only: no selection, no keys, no hints about playing."""

    @property
    def selecting(self) -> bool:
        """Never: a replay takes no moves."""
        return False

    def _hint(self) -> str:
        return "[dim]" + _("Replay: hands as this seat saw them.") + "[/]"


class TurnDialog(ModalScreen[int | None]):
    """Asks for a turn number; dismissed with it, or ``None`` on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel"), key_display=N_("esc"))
    ]

    def __init__(self, turns: int) -> None:
        """Args: turns: the last turn of the game (the highest accepted)."""
        super().__init__()
        self.turns = turns

    def compose(self) -> ComposeResult:
        """A one-line input."""
        translate_bindings(self)
        with Vertical(id="dialog", classes="small") as box:
            box.border_title = _("Go to turn")
            yield Static(_("Turn number, 1 to {turns}, then Enter:").format(turns=self.turns))
            yield Input(placeholder=f"1–{self.turns}", type="integer", id="turn")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        """A number: go there (clamped); anything else: stay."""
        value = event.value.strip()
        self.dismiss(int(value) if value.lstrip("-").isdigit() else None)

    def action_cancel(self) -> None:
        """Escape: stay where we are."""
        self.dismiss(None)


def _seat_bindings() -> list[BindingType]:
    return [
        Binding(str(i + 1), f"point_of_view({i})", N_("Seat"), key_display="1–5", show=i == 0)
        for i in range(5)
    ]


class ReplayScreen(Screen[None]):
    """A saved game on the table widgets. Set up with a loaded :class:`Replay`."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["table.tcss", "replay.tcss"]
    DEFAULT_CLASSES = FIRST_PANE_CLASS  # the pane bar's first pane (widgets/panes.py)
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", N_("Next"), key_display="→", priority=True),
        Binding("left", "step(-1)", N_("Back"), key_display="←", priority=True),
        Binding(
            "down,right_square_bracket", "turn(1)", N_("Next turn"), key_display="↓", priority=True
        ),
        Binding(
            "up,left_square_bracket", "turn(-1)", N_("Turn back"), key_display="↑", priority=True
        ),
        Binding("home", "jump(0)", N_("The deal"), show=False, priority=True),
        Binding("end", "jump(-1)", N_("End"), show=False, priority=True),
        Binding("g", "go_to_turn", N_("Go to turn"), priority=True),
        Binding("v", "cycle_view", N_("Point of view"), priority=True),
        Binding("0", "point_of_view('public')", N_("Public"), show=False, priority=True),
        *_seat_bindings(),
        Binding("a", "point_of_view('all')", N_("Every hand"), priority=True),
        Binding("enter", "results", N_("Results"), priority=True),
        Binding("q", "app.quit", N_("Quit"), priority=True),
        # Under 100 columns one secondary pane shows at a time (screens/board.py).
        *(
            Binding(key, f"pane('{name}')", name, show=False, priority=True)
            for name, key in PANE_KEYS.items()
        ),
    ]

    step: reactive[int] = reactive(0)
    """Actions replayed so far: 0 is the deal, ``replay.steps`` the last."""
    pov: reactive[PointOfView] = reactive(None)
    """The point of view: ``None`` public, a seat, or ``"all"`` (finished games only)."""
    snapshot: reactive[TableSnapshot | None] = reactive(None)
    """What the widgets show now."""

    def __init__(self, replay: Replay, *, start: int = 0) -> None:
        """Args: replay: the loaded game; start: the step to open at."""
        super().__init__()
        self.replay = replay
        self.seats = tuple(SeatLabel(s.name, s.kind, True) for s in replay.header.seats)
        self.set_reactive(ReplayScreen.step, max(0, min(start, replay.steps)))
        self.set_reactive(ReplayScreen.pov, replay.viewer)

    def compose(self) -> ComposeResult:
        """The table screen's layout, a bar saying where we are, and the keys."""
        start_sized(self)
        translate_bindings(self)  # the footer in the current language
        yield from compose_board(
            ReplayHand(id="hand"), Static(id="bar"), below_hand=[AllHands(id="hands")]
        )

    _live = False
    """Set once mounted (``is_mounted`` is still false inside ``on_mount``)."""

    def on_mount(self) -> None:
        """Show the first step."""
        self._live = True
        self.query_one(OffersList).can_focus = False
        self.title = _("Poissonnier — replay")
        self._show()

    # --- what is shown ---------------------------------------------------------------------------

    def watch_step(self) -> None:
        """Another step: show it."""
        self._show()

    def watch_pov(self) -> None:
        """Another point of view: show the same step from there."""
        self._show()

    def action_pane(self, name: str) -> None:
        """``o l p w m``: on a narrow terminal, show that pane beside the hand."""
        self.query_one(PaneBar).show(name)

    def pov_name(self, pov: PointOfView) -> str:
        """``"public view"``, ``"Ana (seat 1)"`` or ``"every hand"``."""
        if pov is None:
            return _("public view")
        if pov == ALL_HANDS:
            return _("every hand")
        assert isinstance(pov, int)
        name = self.seats[pov].name or _("Seat")
        return _("{name} (seat {n})").format(name=name, n=pov + 1)

    def _show(self) -> None:
        if not self._live:
            return
        replay, step = self.replay, self.step
        snap = TableSnapshot(replay.view(step, self.pov), self.seats, step)
        self.snapshot = snap
        self.query_one(ClientQueue).snapshot = snap
        self.query_one(OtherStalls).snapshot = snap
        stall = self.query_one(MyStall)
        stall.snapshot = snap
        hand = self.query_one(ReplayHand)
        hand.snapshot = snap
        if snap.me is not None:
            stall.border_title, hand.border_title = replay_titles(snap)
        for crate in stall.query(CrateBox):
            crate.affordable = False  # no "b buys it": a replay takes no moves
        stall.display = hand.display = snap.me is not None
        hands = self.query_one(AllHands)
        hands.snapshot = snap
        hands.display = "hands" in snap.view
        self.query_one(MarketInfo).snapshot = snap
        self.query_one(PlayersTable).snapshot = snap
        offers = self.query_one(OffersList)
        offers.snapshot = snap
        if not snap.proposals:  # not the live table's hint to press d
            offers.replace_option_prompt("none", _("[dim]No open offers at this step.[/]"))
        log = self.query_one(GameLog)
        log.clear()  # stepping back must not leave later events on screen
        log.shown = 0
        log.snapshot = snap
        for said in replay.chat_at(step)[-CHAT_SHOWN:]:  # the table's talk by this step
            log.add_chat(ChatLine(said.seat, said.name, said.text).rich())
        self.query_one("#bar", Static).update(self.bar_text())
        phase = _(PHASES[snap.phase])
        self.sub_title = _("Turn {turn} · {phase} · {file}").format(
            turn=snap.view["turn"], phase=phase, file=replay.path.name
        )
        self.refresh_bindings()

    def bar_text(self) -> str:
        """Where we are, from where, what just happened, and what the replay may show."""
        replay, step = self.replay, self.step
        where = {
            "step": step,
            "steps": replay.steps,
            "turn": replay.turn_at(step),
            "turns": replay.turns,
            "pov": escape(self.pov_name(self.pov)),
        }
        if replay.finished:
            head = _(
                "[b]Step {step}/{steps}[/b] · turn {turn}/{turns} · "
                "point of view: [b]{pov}[/b] · game finished"
            )
        else:
            head = _(
                "[b]Step {step}/{steps}[/b] · turn {turn}/{turns} · point of view: [b]{pov}[/b] "
                "· game not over: hands stay private (RULES.md §9)"
            )
        lines = [
            head.format(**where),
            # Every "[" escaped: card ids in brackets ("[T04 F02]") are not tags (the markup
            # ``escape`` leaves "[T04]" alone, and the bar would drop it).
            move_words(replay, step, self.pov, MOVE_KINDS, MOVE_FIELDS).replace("[", "\\["),
        ]
        if replay.problem:
            stops = _("The replay stops early: {problem}").format(problem=escape(replay.problem))
            lines.append(f"[$warning]{stops}[/]")
        return "\n".join(lines)

    def shown_hands(self) -> dict[int, list[str]]:
        """Card ids of the hands on screen now, by seat (what a test checks against §9)."""
        snap = self.snapshot
        if snap is None:
            return {}
        shown: dict[int, list[str]] = {}
        if snap.me is not None:
            shown[snap.me] = list(snap.hand)
        for seat, row in enumerate(snap.view.get("hands") or []):
            shown[seat] = list(row["hand"])
        return shown

    # --- keys ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the points of view this replay may show, and Results at a finished end."""
        if action == "point_of_view":
            wanted = self._pov_of(parameters[0])
            return self.replay.allowed(wanted)
        if action == "results":
            return self.replay.finished and self.step == self.replay.steps
        return True

    @staticmethod
    def _pov_of(value: object) -> PointOfView:
        if value == "public":
            return None
        if value == ALL_HANDS:
            return ALL_HANDS
        return int(str(value))

    def action_step(self, delta: int) -> None:
        """One action forward or back."""
        self.step = max(0, min(self.step + delta, self.replay.steps))

    def action_turn(self, delta: int) -> None:
        """To the start of the next turn, or back to the start of this (or the previous) turn."""
        if delta > 0:
            self.step = self.replay.next_turn(self.step)
        else:
            self.step = self.replay.previous_turn(self.step)

    def action_jump(self, step: int) -> None:
        """To a step; ``-1`` is the last."""
        self.step = self.replay.steps if step < 0 else min(step, self.replay.steps)

    def action_go_to_turn(self) -> None:
        """Ask for a turn number and go to its first step."""

        def chosen(turn: int | None) -> None:
            if turn is not None:
                self.go_to_turn(turn)

        self.app.push_screen(TurnDialog(self.replay.turns), chosen)

    def go_to_turn(self, turn: int) -> None:
        """Show the first step of ``turn`` (clamped to the turns played)."""
        self.step = self.replay.turn_start(turn)

    def action_cycle_view(self) -> None:
        """The next point of view this replay may show."""
        povs = self.replay.points_of_view()
        here = povs.index(self.pov) if self.pov in povs else -1
        self.pov = povs[(here + 1) % len(povs)]

    def action_point_of_view(self, which: str | int) -> None:
        """A given point of view, if this replay may show it (else say why)."""
        wanted = self._pov_of(which)
        if self.replay.allowed(wanted):
            self.pov = wanted
        elif isinstance(wanted, int) and wanted >= len(self.seats):
            self.notify(
                _("There is no seat {n} at this table.").format(n=wanted + 1), severity="warning"
            )
        else:
            self.notify(
                _("This game is not over: only the public view and your own seat can be shown."),
                severity="warning",
            )

    def action_results(self) -> None:
        """The results screen, at the end of a finished game."""
        if self.snapshot is not None and self.snapshot.over:
            self.app.push_screen(ResultsScreen(self.snapshot))

    # Clicks on the reused widgets would ask for moves; a replay takes none.
    def action_ask_for(self, seat: int, crate: int) -> None:
        """Nothing: a replay is read-only."""
