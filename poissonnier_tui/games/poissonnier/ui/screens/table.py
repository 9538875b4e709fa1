"""The table screen: the whole game at a glance, and every move from the keyboard.

Layout (table.tcss): the queue of clients across the top; below it on the
left the other stalls, the player's own stall and hand, and the decks and
discard piles; on the right the
players, the open offers and the log; the status line and the footer at the
bottom.

Moves (RULES.md §3): in the fill step select fish in the hand and press 1–6
to put them in that crate, ``t`` then a number takes a crate back, ``r``
declares ready (§3.2); ``b`` buys a crate at any time (§7); on your turn
``s`` then 1–3 serves a client (§3.4), ``d`` proposes a deal (§4), ``e`` ends
the turn; anyone answers offers with ``a``/``x``/``c``. Game keys are
priority bindings so that no focused widget swallows them, and
:meth:`check_action` shows in the footer only the keys that apply now.

The screen never sends anything itself: it posts
:class:`~poissonnier_tui.shell.messages.MoveChosen` and the app's network
worker sends it. What the screen shows is only ever the server's last view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import OptionDoesNotExist

from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    Decline,
    EndTurn,
    Place,
    Ready,
    TakeBack,
    Unready,
    Withdraw,
    to_wire,
)
from poissonnier_tui.games.poissonnier.rules.cards import MAX_CRATES, SERVABLE
from poissonnier_tui.games.poissonnier.ui.screens.board import (
    HORIZONTAL_BREAKPOINTS,
    VERTICAL_BREAKPOINTS,
    compose_board,
    start_sized,
)
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.client_card import ClientCard
from poissonnier_tui.games.poissonnier.ui.widgets.client_queue import ClientQueue
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.market import MarketInfo
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import NARROW_BELOW, MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.games.poissonnier.ui.widgets.other_stalls import OtherStalls
from poissonnier_tui.games.poissonnier.ui.widgets.panes import FIRST_PANE_CLASS, PANE_KEYS, PaneBar
from poissonnier_tui.games.poissonnier.ui.widgets.players import PlayersTable
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.frames import hold_for_answer
from poissonnier_tui.shell.messages import DraftChosen, MoveChosen, PriceGiven
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.screens.footer import fit_keys

if TYPE_CHECKING:  # the dialogs load when first opened (a table's start does without them)
    from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
    from poissonnier_tui.games.poissonnier.ui.screens.answer_dialogs import PriceAnswer
    from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealMode
    from poissonnier_tui.shell.screens.chat import ChatLine

SHOWN_ON_THE_BOARD: Final = frozenset({"buy_crate"})
"""Actions whose key the board itself shows (the stall's next slot: "b buys it"), left
out of the footer below 100 columns (:meth:`TableScreen._fit_footer`)."""

REFUSABLE_KEYS: dict[str, str] = {
    "b": "buy_crate",
    "s": "serve_prefix",
    "e": "end_turn",
    "d": "deal",
}
"""Game keys that say why when pressed while they do not apply (:meth:`TableScreen.refusal`)."""

Pending = Literal["take", "serve"] | None
"""A two-key command waiting for its number: take back a crate, or serve a client."""

PROMPTS: dict[str, str] = {
    "take": N_("Take back which crate? Press 1–6"),
    "serve": N_("Serve which client? Press 1, 2 or 3 (or click it)"),
}
"""What the status line asks while a two-key command waits for its number (translate when shown)."""


def _digit_bindings() -> list[BindingType]:
    """Keys 1–6, each bound three ways; :meth:`TableScreen.check_action` enables one.

    Only the "1" bindings are shown, as ``1–6``/``1–3``, to keep the footer short.
    """
    out: list[BindingType] = []
    for i in range(MAX_CRATES):
        key, shown = str(i + 1), i == 0
        out.append(
            Binding(
                key, f"place({i})", N_("Put in crate"), key_display="1–6", show=shown, priority=True
            )
        )
        out.append(
            Binding(
                key,
                f"take({i})",
                N_("Crate to take back"),
                key_display="1–6",
                show=shown,
                priority=True,
            )
        )
        if i < SERVABLE:
            out.append(
                Binding(
                    key,
                    f"pick_client({i})",
                    N_("Client"),
                    key_display="1–3",
                    show=shown,
                    priority=True,
                )
            )
    return out


class TableScreen(Screen[None]):
    """The game table. The app sets :attr:`snapshot` whenever a view arrives."""

    CSS_PATH = "table.tcss"
    DEFAULT_CLASSES = FIRST_PANE_CLASS  # the pane bar's first pane (widgets/panes.py)
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [
        *_digit_bindings(),
        Binding("t", "take_prefix", N_("Take back"), priority=True),
        Binding("r", "ready", N_("Ready"), priority=True),
        Binding("r", "unready", N_("Not ready"), priority=True),
        Binding("b", "buy_crate", N_("Buy crate"), priority=True),
        Binding("s", "serve_prefix", N_("Serve"), priority=True),
        Binding("d", "deal", N_("Deal"), priority=True),
        Binding("a", "accept", N_("Accept"), priority=True),
        Binding("x", "decline", N_("Decline"), priority=True),
        # Not in the footer (kept short; the help lists them): n declines saying why, y
        # answers a price question (its toast names the key).
        Binding("n", "decline_why", N_("No, because…"), show=False, priority=True),
        Binding("y", "price_question", N_("Your price?"), show=False, priority=True),
        Binding("x", "withdraw", N_("Withdraw"), priority=True),
        Binding("c", "counter", N_("Counter"), priority=True),
        Binding("e", "end_turn", N_("End turn"), priority=True),
        Binding("enter", "app.results", N_("Results"), priority=True),
        Binding("escape", "cancel", N_("Cancel"), key_display=N_("esc"), priority=True),
        Binding(
            "pageup", "scroll_log(-1)", N_("Log ↑"), key_display="PgUp", show=False, priority=True
        ),
        Binding(
            "pagedown", "scroll_log(1)", N_("Log ↓"), key_display="PgDn", show=False, priority=True
        ),
        # Under 100 columns one secondary pane shows at a time (screens/board.py).
        *(
            Binding(key, f"pane('{name}')", name, show=False, priority=True)
            for name, key in PANE_KEYS.items()
        ),
    ]

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The latest view and seat names, pushed down to every widget. Not a repaint of the
    screen: each widget repaints itself only if what it draws changed
    (``widgets/redraw.py``)."""
    pending: reactive[Pending] = reactive(None, bindings=True, repaint=False)
    """A two-key command waiting for its number (shown in the status line, which
    repaints itself: not a repaint of the whole screen)."""

    announce_offers = True
    """Bring the offers pane forward for each new offer made to this player (off when a
    bot plays the seat); offers are never toasted over the board."""

    _price_question: tuple[int, dict[str, Any]] | None = None
    """The last price question another seat asked this player, unanswered (``y``)."""

    # --- typed accessors -----------------------------------------------------------------------

    @property
    def hand(self) -> HandView:
        """The hand widget."""
        return self._hand

    @property
    def offers(self) -> OffersList:
        """The offers pane."""
        return self._offers

    @property
    def status(self) -> StatusLine:
        """The status line."""
        return self._status

    def compose(self) -> ComposeResult:
        """Board on the left, players/offers/log on the right, status and keys below."""
        self._hand = HandView(id="hand")
        self._status = StatusLine(id="status")
        start_sized(self)
        translate_bindings(self)  # the footer in the current language
        self._fit_footer()
        yield from compose_board(self._hand, self._status)

    _live = False
    """Set once mounted (``is_mounted`` is still false inside ``on_mount``)."""

    @property
    def _showing(self) -> bool:
        """Mounted and not being torn down, so every widget of the board is there.

        The app's shutdown removes a screen's widgets before the screen itself, and a
        view from the still-open connection can arrive in between.
        """
        return (
            self._live and self.app.is_running and all(widget.is_attached for widget in self._board)
        )

    def on_mount(self) -> None:
        """Start with the hand focused: the fill step comes first (§3)."""
        self._offers = self.query_one(OffersList)
        self._queue = self.query_one(ClientQueue)
        self._others = self.query_one(OtherStalls)
        self._stall = self.query_one(MyStall)
        self._players = self.query_one(PlayersTable)
        self._log = self.query_one(GameLog)
        self._market = self.query_one(MarketInfo)
        self._board: tuple[Widget, ...] = (
            self._queue, self._others, self._stall, self._hand, self._offers,
            self._players, self._log, self._status, self._market,
        )  # fmt: skip
        self._live = True
        self._offers.due = self._answer_due
        self.hand.focus()
        self._fit_footer()  # the footer is mounted now: make it compact if narrow
        self.watch_snapshot(None, self.snapshot)

    def on_resize(self) -> None:
        """The footer fits the new width."""
        if self._live:
            self._fit_footer()

    def _fit_footer(self) -> None:
        """Below 100 columns the footer is compact and leaves out the keys the board
        offers in place (``b``: the stall's next slot says "b buys it"), so that every
        other key shows in 80 columns; they all still work."""
        fit_keys(self, self.app.size.width < NARROW_BELOW, SHOWN_ON_THE_BOARD)

    # --- data flows down -----------------------------------------------------------------------

    _answer_due: dict[int, float] = {}  # noqa: RUF012  (replaced, never changed in place)

    def show_answer_times(self, due: dict[int, float]) -> None:
        """When the table withdraws each open offer (shell/table_drafts.py, R25): the
        offers pane counts them down."""
        self._answer_due = due
        if self.is_attached and self._live:
            self._offers.due = due

    def show_drafting(self, drafting: dict[int, float]) -> None:
        """Who drafts an offer and until when (shell/table_drafts.py): in the status line."""
        if self.is_attached and self._live:
            self._status.drafting = drafting

    def show_chat(self, line: ChatLine) -> None:
        """A chat message (shell/table_chat.py): written in the log, calmly, where it fell."""
        if self.is_attached and self._live:
            self._log.add_chat(line.rich())

    def watch_snapshot(self, old: TableSnapshot | None, snap: TableSnapshot | None) -> None:
        """Hand the new snapshot to every widget, and say what changed for this player."""
        if snap is None or not self.is_attached or not self._showing:
            return  # not shown yet, or torn down (the app is exiting; views may still arrive)
        self._queue.snapshot = snap
        self._others.snapshot = snap
        self._stall.snapshot = snap
        self._hand.snapshot = snap
        self._offers.snapshot = snap
        self._players.snapshot = snap
        self._log.snapshot = snap
        self._status.snapshot = snap
        self._market.snapshot = snap
        # A spectator has no stall and no hand (RULES.md §9): give the room to the rest.
        self._stall.display = self._hand.display = snap.me is not None
        step = {"fill": _("fill step"), "serve": _("serving"), "over": _("game over")}[snap.phase]
        last = " · " + _("LAST TURN (R13)") if snap.view.get("last_turn") else ""
        self.sub_title = (
            _("Turn {turn} · {step} · fish deck {deck}").format(
                turn=snap.view["turn"], step=step, deck=snap.view["fish_deck"]
            )
            + last
        )
        if self.pending is not None and not self._pending_applies(self.pending):
            self.pending = None
        self._keep_answered_offer(snap)
        self._show_answered_offer()
        if snap.phase == "fill" and (old is None or old.phase != "fill") and snap.me is not None:
            self.hand.focus()  # a new fill step: the keys pick fish again (§3.2)
        self._close_stale_dialog(snap)
        self._announce_offers(old, snap)
        self.refresh_bindings()

    def _keep_answered_offer(self, snap: TableSnapshot) -> None:
        """A new view never changes the offer the answer keys act on while the one the
        screen named is still open to this player: a newer offer (highlighted by the
        offers pane as it arrives) waits until that one is answered or the player
        moves to it (↑↓ in the offers pane). So ``a``/``x``/``c`` answer exactly the
        offer shown before the press, not one that arrived a moment earlier."""
        named = self.status.offer
        if named is None or snap.me is None:
            return
        if any(int(p["id"]) == named for p in snap.offers_for_me()):
            try:
                self.offers.highlighted = self.offers.get_option_index(str(named))
            except OptionDoesNotExist:
                return

    def _show_answered_offer(self) -> None:
        """Name in the status line the offer the answer keys act on."""
        offer = self._answerable()
        self.status.offer = int(offer["id"]) if offer is not None else None
        self.offers.answering = self.status.offer

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Another offer highlighted: the status line and the keys follow it."""
        if event.option_list is self.offers and self._showing:
            self._show_answered_offer()
            self.refresh_bindings()

    def _close_stale_dialog(self, snap: TableSnapshot) -> None:
        """Close a deal or serve dialog the table has overtaken, and say why: a counter to
        an offer that was just withdrawn, or a turn that ended meanwhile."""
        top = self.app.screen
        stale_reason = getattr(top, "stale_reason", None)  # the deal and serve dialogs'
        why = stale_reason(snap) if callable(stale_reason) else None
        if why is not None:
            top.dismiss(None)
            self.notify(why, title=_("Dialog closed"), severity="warning")

    def _announce_offers(self, old: TableSnapshot | None, snap: TableSnapshot) -> None:
        """A new proposal made to this player (they must answer it, §4) shows in the offers
        pane, brought beside the hand on a narrow terminal, and in the status line: no
        toast over the board."""
        if self.announce_offers and snap.offers_for_me(since=old):
            self.query_one(PaneBar).show("offers")

    def watch_pending(self, pending: Pending) -> None:
        """The status line asks for the number."""
        self.status.prompt = _(PROMPTS[pending]) if pending else None

    def on_hand_view_selection_changed(self, event: HandView.SelectionChanged) -> None:
        """The footer shows 1–6 only while something is selected."""
        self.refresh_bindings()

    # --- which keys apply now ------------------------------------------------------------------

    def _pending_applies(self, pending: str) -> bool:
        """Whether a pending two-key command still makes sense after a new view."""
        snap = self.snapshot
        if snap is None:
            return False
        if pending == "take":
            return self._filling and any(snap.crates)
        return snap.my_turn and snap.phase == "serve"

    @property
    def _filling(self) -> bool:
        """This seat arranges its crates now (fill step, not ready, §3.2)."""
        snap = self.snapshot
        return bool(snap and snap.phase == "fill" and snap.me is not None and not snap.ready)

    def _answerable(self) -> Mapping[str, Any] | None:
        """The offer ``a``/``x``/``c`` act on: the highlighted one if made to me, else the
        newest made to me (the status line names the same one)."""
        snap = self.snapshot
        if snap is None or snap.me is None:
            return None
        chosen = self.offers.selected_proposal
        if chosen is not None and snap.answerer(chosen) == snap.me:
            return chosen
        mine = snap.offers_for_me()
        return mine[-1] if mine else None

    def _withdrawable(self) -> Mapping[str, Any] | None:
        """My own proposal that ``x`` withdraws: the highlighted one if mine, else the first."""
        snap = self.snapshot
        if snap is None or snap.me is None:
            return None
        chosen = self.offers.selected_proposal
        if chosen is not None and int(chosen["proposer"]) == snap.me:
            return chosen
        return next((p for p in snap.proposals if int(p["proposer"]) == snap.me), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enable (True), grey out (None) or hide (False) each key for the current state."""
        snap = self.snapshot
        # Not _showing: Textual asks this for each of the ~45 bindings every time the
        # keys are refreshed (several times a view), and _showing walks the DOM from
        # nine widgets; what is read here is data, safe even while the board is torn
        # down (the app stops running before it removes any widget when it exits).
        if snap is None or not self._live or not self.app.is_running:
            return False
        playing = snap.me is not None and not snap.over
        serving = playing and snap.phase == "serve"
        if action == "place":
            return self.pending is None and self._filling and bool(self.hand.selection)
        if action == "take":
            return self.pending == "take"
        if action == "pick_client":
            index = int(str(parameters[0]))
            return self.pending == "serve" and index < len(snap.servable)
        if action == "take_prefix":
            return self.pending is None and self._filling and any(snap.crates)
        if action == "ready":
            return playing and snap.phase == "fill" and not snap.ready
        if action == "unready":
            return playing and snap.phase == "fill" and snap.ready
        if action == "buy_crate":
            if not playing or len(snap.seat(snap.me or 0)["crates"]) >= MAX_CRATES:
                return False
            if not snap.view.get("fish_deck"):
                return False  # never again this game (§7): not offered at all
            return True if snap.can_buy_crate() else None  # shown greyed when too dear
        if action == "serve_prefix":
            return self.pending is None and serving and snap.my_turn
        if action == "deal":
            return serving
        if action in {"accept", "counter"}:
            return serving and self._answerable() is not None
        if action in {"decline", "decline_why"}:
            return serving and self._answerable() is not None
        if action == "price_question":
            return self._price_question is not None
        if action == "withdraw":
            return serving and self._answerable() is None and self._withdrawable() is not None
        if action == "end_turn":
            return serving and snap.my_turn
        if action == "cancel":
            return self.pending is not None or bool(self.hand.selection)
        return True

    def refusal(self, action: str) -> str | None:
        """Why the key of ``action`` does nothing now, citing the rule; ``None`` if it applies
        (or nothing useful can be said, e.g. for a spectator)."""
        snap = self.snapshot
        if snap is None or snap.me is None or snap.over:
            return None
        row = snap.seat(snap.me)
        if action == "buy_crate":
            if len(row["crates"]) >= MAX_CRATES:
                return _("A stall has at most {n} crates (R12).").format(n=MAX_CRATES)
            if not snap.view.get("fish_deck"):
                return _("No crate can be bought once the fish deck is empty (§7).")
            if int(row["coins"]) < int(row["crate_price"]):
                return _("The next crate costs {price} coins; you have {coins} (R11).").format(
                    price=row["crate_price"], coins=row["coins"]
                )
            return None
        if action in ("serve_prefix", "end_turn"):
            if snap.phase != "serve":
                return _("Clients are served once the fill step is over (§3.4).")
            if not snap.my_turn:
                return _("Only the active player serves clients and ends the turn (§3.4).")
            return None
        if action == "deal" and snap.phase != "serve":
            return _("Deals are made while a player serves, after the fill step (§4).")
        return None

    def on_key(self, event: events.Key) -> None:
        """A game key none of whose bindings applies now: say why, in the rule's words."""
        action = REFUSABLE_KEYS.get(event.key)
        if action is None or not self._showing:
            return
        reason = self.refusal(action)
        if reason is not None:
            event.stop()
            self.notify(reason, title=_("Not now"), severity="warning")

    # --- sending -------------------------------------------------------------------------------

    def send(self, action: dict[str, Any]) -> None:
        """Ask the app to send ``action`` to the server; what this key changed on the
        screen is drawn with the table's answer (``shell/frames.py``)."""
        hold_for_answer(self.app)
        self.post_message(MoveChosen(action))

    # --- fill step (§3.2) ----------------------------------------------------------------------

    def action_place(self, crate: int) -> None:
        """Put the hand's selection into crate ``crate`` (0-based)."""
        cards = self.hand.selection
        if not cards:
            self.notify(_("Select fish in your hand first (↑↓ and space)."), severity="warning")
            return
        self.send(to_wire(Place(tuple(cards), crate)))

    def action_take_prefix(self) -> None:
        """``t``: the next number takes that crate back to the hand."""
        self.pending = "take"

    def action_take(self, crate: int) -> None:
        """Take every fish of crate ``crate`` back to the hand (the fill step's undo)."""
        self.pending = None
        crates = self.snapshot.crates if self.snapshot is not None else []
        if crate < len(crates) and not crates[crate]:
            self.notify(
                _("Crate {crate} is already empty.").format(crate=crate + 1), severity="warning"
            )
            return
        self.send(to_wire(TakeBack(crate)))

    def on_crate_box_clicked(self, event: CrateBox.Clicked) -> None:
        """Mouse: a click puts the selection in the crate, or takes it back if none is selected."""
        snap = self.snapshot
        if snap is None or snap.me is None:
            return
        if event.box.state == "buyable":
            self.action_buy_crate()
        elif self._filling and self.hand.selection:
            self.action_place(event.index)
        elif self._filling and event.index < len(snap.crates) and snap.crates[event.index]:
            self.action_take(event.index)

    def action_ready(self) -> None:
        """Declare the fill step done (§3.2)."""
        self.send(to_wire(Ready()))

    def action_unready(self) -> None:
        """Take the ready declaration back while others still arrange (R16, §3.2)."""
        self.send(to_wire(Unready()))

    def action_buy_crate(self) -> None:
        """Buy the next crate (§7, R11: 2 coins × crates owned)."""
        snap = self.snapshot
        if snap is not None and snap.me is not None and not snap.can_buy_crate():
            price = snap.seat(snap.me)["crate_price"]
            self.notify(
                ngettext(
                    "The next crate costs {price} coin.",
                    "The next crate costs {price} coins.",
                    price,
                ).format(price=price),
                severity="warning",
            )
            return
        self.send(to_wire(BuyCrate()))

    # --- serve step (§3.4) ---------------------------------------------------------------------

    def action_serve_prefix(self) -> None:
        """``s``: the next number (1–3) picks the client to serve."""
        self.pending = "serve"

    def action_pick_client(self, index: int) -> None:
        """Open the serve dialog for the ``index``-th client of the queue."""
        self.pending = None
        if self.snapshot is not None and index < len(self.snapshot.servable):
            self.open_serve(self.snapshot.servable[index])

    def on_client_card_clicked(self, event: ClientCard.Clicked) -> None:
        """Mouse: clicking one of the first 3 clients on your turn opens the serve dialog."""
        snap = self.snapshot
        if snap is None:
            return
        if snap.my_turn and snap.phase == "serve" and event.card.servable:
            self.pending = None
            self.open_serve(event.client_id)
        elif not event.card.servable:
            self.notify(_("Only the first 3 clients of the queue can be served (§3.4)."))

    def open_serve(self, client_id: str) -> None:
        """Push the serve dialog; a chosen plan is sent, a "deal" answer opens the deal dialog."""
        snap = self.snapshot
        if snap is None:
            return

        from poissonnier_tui.games.poissonnier.ui.deals import DealDraft

        def chosen(result: dict[str, Any] | DealDraft | None) -> None:
            if isinstance(result, DealDraft):
                self.open_deal(result, "ask")
            elif result is not None:
                self.send(result)

        from poissonnier_tui.games.poissonnier.ui.screens.serve_dialog import ServeDialog

        self.app.push_screen(ServeDialog(snap, client_id), chosen)

    def action_end_turn(self) -> None:
        """End the turn (§3.4): bought fish left go to the hand (R9), offers lapse."""
        self.send(to_wire(EndTurn()))

    # --- deals (§4) ----------------------------------------------------------------------------

    def open_deal(self, draft: DealDraft, mode: DealMode) -> None:
        """Push the deal dialog; proposed terms are sent as a ``propose`` action."""
        snap = self.snapshot
        if snap is None:
            return

        def chosen(result: DealDraft | None) -> None:
            if result is not None:
                self.send(result.to_action())  # the table ends the draft with the move
            else:
                self.post_message(DraftChosen(False))

        # Time to deal (net/drafts.py): the table's bots wait while the offer is drafted.
        self.post_message(DraftChosen(True))
        from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog

        self.app.push_screen(DealDialog(snap, draft, mode), chosen)

    def action_deal(self) -> None:
        """``d``: on your turn ask someone for fish; otherwise offer yours to the active player."""
        from poissonnier_tui.games.poissonnier.ui.deals import DealDraft  # with the deal dialog

        snap = self.snapshot
        if snap is None or snap.me is None:
            return
        if snap.my_turn:
            with_fish = [s for s in snap.others() if any(snap.seat(s)["crates"])]
            self.open_deal(DealDraft((with_fish or snap.others())[0]), "ask")
        else:
            self.open_deal(DealDraft(snap.me), "offer")

    def action_ask_for(self, seat: int, crate: int) -> None:
        """Mouse (a crate in another stall): ask its owner for all of its fish."""
        snap = self.snapshot
        if snap is None or not snap.my_turn or snap.phase != "serve":
            return
        from poissonnier_tui.games.poissonnier.ui.deals import DealDraft

        count = len(snap.seat(seat)["crates"][crate])
        self.open_deal(DealDraft(seat).with_count(crate, count), "ask")

    def action_accept(self) -> None:
        """Accept the offer made to you (R8: it binds and settles at once)."""
        p = self._answerable()
        if p is not None:
            self.send(to_wire(Accept(int(p["id"]))))

    def action_decline(self) -> None:
        """Decline the offer made to you (§4)."""
        p = self._answerable()
        if p is not None:
            self.send(to_wire(Decline(int(p["id"]))))

    def action_decline_why(self) -> None:
        """Decline the offer made to you, saying why and maybe at what price (§4)."""
        p, snap = self._answerable(), self.snapshot
        if p is not None and snap is not None:
            from poissonnier_tui.games.poissonnier.ui.screens.answer_dialogs import ReasonDialog

            self.app.push_screen(ReasonDialog(snap, p), self._declined)

    def _declined(self, decline: dict[str, Any] | None) -> None:
        if decline is not None:
            self.send(decline)

    def price_asked(self, by: int, deal: Mapping[str, Any]) -> None:
        """Seat ``by`` asks your price on ``deal`` (``net/prices.py``): asked at once when the
        table is in front, else kept for ``y``; no obligation to answer."""
        self._price_question = (by, dict(deal))
        self.refresh_bindings()
        if self.app.screen is self:
            self.action_price_question()
        elif self.snapshot is not None:
            self.notify(
                _("{name} asks your price: y at the table answers.").format(
                    name=self.snapshot.name(by)
                )
            )

    def action_price_question(self) -> None:
        """``y``: answer the last price question (a price, no price, or nothing)."""
        question, snap = self._price_question, self.snapshot
        if question is None or snap is None:
            return
        self._price_question = None
        self.refresh_bindings()
        by, deal = question
        from poissonnier_tui.games.poissonnier.ui.screens.answer_dialogs import (
            NO_PRICE,
            PriceDialog,
        )

        def answered(coins: PriceAnswer) -> None:
            if coins is not None:
                self.post_message(PriceGiven(by, deal, None if coins == NO_PRICE else coins))

        self.app.push_screen(PriceDialog(snap, by, deal), answered)

    def action_withdraw(self) -> None:
        """Withdraw your own open offer (§4)."""
        p = self._withdrawable()
        if p is not None:
            self.send(to_wire(Withdraw(int(p["id"]))))

    def action_counter(self) -> None:
        """Answer an offer with edited terms; the counter replaces it (§4)."""
        from poissonnier_tui.games.poissonnier.ui.deals import DealDraft

        p = self._answerable()
        if p is not None:
            self.open_deal(DealDraft.from_proposal(p), "counter")

    # --- misc ----------------------------------------------------------------------------------

    def action_scroll_log(self, direction: int) -> None:
        """``PgUp``/``PgDn``: scroll the log a page back or on (on a narrow terminal the
        log pane comes up first)."""
        self.query_one(PaneBar).show("log")
        log = self.query_one(GameLog)

        if direction < 0:
            log.auto_scroll = False  # new events must not pull the player back to the end

        def page() -> None:
            if direction < 0:
                log.scroll_page_up(animate=False)
            else:
                log.scroll_page_down(animate=False)
                # Back at the end: new events scroll the log again.
                log.auto_scroll = log.scroll_y >= log.max_scroll_y

        self.call_after_refresh(page)  # once a pane just brought up is laid out

    def action_pane(self, name: str) -> None:
        """``o l p w m``: on a narrow terminal, show that pane beside the hand."""
        self.query_one(PaneBar).show(name)

    def action_cancel(self) -> None:
        """Escape: drop a pending two-key command, else clear the hand's selection."""
        if self.pending is not None:
            self.pending = None
        else:
            self.hand.clear()
