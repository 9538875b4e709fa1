"""The deal dialog: propose, offer or counter a deal with edited terms (RULES.md §4).

A deal is between the active player (the buyer) and one other player (the
seller). The seller gives fish from their crates and/or special cards; the
buyer gives coins and/or special cards. Three ways in:

* ``ask``: the active player picks a seller and the fish they want;
* ``offer``: another player offers fish from their own crates to the active one;
* ``counter``: the side a proposal was made to edits its terms (the counter
  replaces it).

Every number is a :class:`NumberInput`; ↑/↓ change the focused one, and when
asking, PgUp/PgDn pick the previous or next seller from any field. The summary
line reads the terms back as the offers pane will show them, and the
Propose button stays disabled while the terms cannot work (more fish than a
crate holds, more coins than the buyer has, specials you do not hold).
Dismissed with the :class:`DealDraft` to send, or ``None``. The dialog has its own
:class:`~poissonnier_tui.shell.screens.footer.KeyBar` (its keys, not the table's)
and the summary, the problem and the buttons stay docked in sight while the terms
scroll on a small terminal.

Prices you can read (``net/prices.py``): the dialog shows what every other
stall's crates hold (public, §9) and the price the other side would deal
at. A bot is asked by itself once the terms stop changing for
:data:`ASK_AFTER` seconds (it names its quote from its own view and keeps it
for the turn); a person only when our player presses F4 (they may answer or
not). The answer comes to this client only (:meth:`DealDialog.show_price`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Input, Label, Select, Static

from poissonnier_tui.games.poissonnier.rules.cards import MAX_CRATES
from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
from poissonnier_tui.games.poissonnier.ui.describe import proposal_text
from poissonnier_tui.games.poissonnier.ui.palette import chips
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import NARROW_BELOW
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.messages import PriceWanted
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.screens.footer import KeyBar, fit_keys

DealMode = Literal["ask", "offer", "counter"]
"""Why the dialog is open: ask a seller, offer to the buyer, or counter a proposal."""

SPECIAL_FIELDS = ("seller_glacons", "seller_arrivages", "coins", "buyer_glacons", "buyer_arrivages")
"""The :class:`DealDraft` fields edited with one input each, besides the crates."""

ASK_AFTER: Final = 1.0
"""Seconds the terms must stay unchanged before a bot is asked its price again (a
table answers one question a second, ``net.prices.PRICE_RATE``)."""

PriceKey = tuple[Any, ...]
"""A deal as both sides name it, without price (see :func:`price_key`)."""


def price_key(deal: Mapping[str, Any]) -> PriceKey:
    """What identifies a deal asked about: seller, fish as ``(crate, count)``, specials."""
    return (
        int(deal.get("seller", -1)),
        tuple((int(f[0]), int(f[1])) for f in deal.get("fish", [])),
        *(int(deal.get(k, 0)) for k in SPECIAL_FIELDS if k != "coins"),
    )


DIGITS = r"[0-9]*"
"""What a count or price field accepts as typed (no sign: none is ever below 0)."""


class NumberInput(Input):
    """A count or a price: an integer input whose ↑/↓ add or remove one.

    A plain :class:`Input` inherits the scroll keys (↑/↓, PgUp/PgDn) of a
    scrolling widget: they shadow the dialog's keys, so the footer could not
    show them. Here ↑/↓ belong to the number itself (shown in the footer);
    PgUp/PgDn are left to the dialog (the seller, when asking).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "bump(1)", "+1"),
        Binding("down", "bump(-1)", "−1"),
    ]

    def __init__(self, value: int, *, id: str, classes: str | None = None) -> None:
        """Args: value: the starting number (≥ 0); id, classes: as for any widget."""
        super().__init__(str(value), type="integer", restrict=DIGITS, id=id, classes=classes)
        # Drop the scrolling keys inherited from ScrollView (see the class docstring; this
        # node's own copy of the bindings); the editing keys (backspace, ←/→...) stay.
        for key in ("pageup", "pagedown", "ctrl+pageup", "ctrl+pagedown"):
            self._bindings.key_to_bindings.pop(key, None)

    def action_bump(self, delta: int) -> None:
        """↑/↓: one more or one less (never below 0); blank or junk counts as 0."""
        try:
            current = int(self.value or "0")
        except ValueError:
            current = 0
        self.value = str(max(0, current + delta))
        self.cursor_position = len(self.value)


SHORT_BELOW: Final = 30
"""Fewer rows than this, the dialog's list and buttons are drawn without borders."""
ON_THE_BUTTONS: Final = frozenset({"cancel", "propose"})
"""The dialog's actions whose keys its buttons name."""


class DealDialog(ModalScreen[DealDraft | None]):
    """Edits a :class:`DealDraft`; Enter or the Propose button sends it."""

    CSS_PATH = "deal_dialog.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("pagedown", "seller(1)", N_("Next seller"), key_display=N_("pgdn")),
        Binding("pageup", "seller(-1)", N_("Previous seller"), key_display=N_("pgup")),
        Binding("ctrl+s", "propose", N_("Propose"), priority=True),
        Binding("f4", "ask_price", N_("Ask their price")),
    ]

    def __init__(self, snapshot: TableSnapshot, draft: DealDraft, mode: DealMode) -> None:
        """Args: snapshot: the table now; draft: the starting terms; mode: see module docs."""
        super().__init__()
        self.snapshot = snapshot
        self.draft = draft
        """The terms as currently edited."""
        self.mode: DealMode = mode
        self.prices: dict[tuple[int, PriceKey], tuple[int | None, bool]] = {}
        """Prices heard: (seat, deal) -> (coins or ``None`` for no price, named by a bot)."""
        self._asked: set[tuple[int, PriceKey]] = set()
        self._ask_timer: Timer | None = None

    def stale_reason(self, now: TableSnapshot) -> str | None:
        """Why these terms can no longer be proposed in the table as it is ``now``, or
        ``None``: the turn moved on (deals only while the active player serves, §4), or
        the offer being countered was withdrawn, answered or lapsed (R8)."""
        then = self.snapshot
        if (
            now.phase != "serve"
            or now.active != then.active
            or now.view.get("turn") != then.view.get("turn")
        ):
            return _("The turn moved on: deals are made only while the active player serves (§4).")
        pid = self.draft.counter
        if self.mode == "counter" and pid is not None and now.proposal(pid) is None:
            return _("Offer #{id} is no longer open (withdrawn or answered).").format(id=pid)
        return None

    # --- layout -------------------------------------------------------------------------

    @property
    def buyer(self) -> int:
        """The buyer is always the active player (§4)."""
        return self.snapshot.active

    def compose(self) -> ComposeResult:
        """Seller, their crates, specials and price, the summary, buttons."""
        translate_bindings(self)  # the footer in the current language
        snap = self.snapshot
        titles = {
            "ask": _("Ask for fish"),
            "offer": _("Offer fish to {name}").format(name=snap.name(self.buyer)),
            "counter": _("Counter offer #{id}").format(id=self.draft.counter),
        }
        with Vertical(id="dialog") as box:
            box.border_title = titles[self.mode]
            yield Static(self._stalls(), id="stalls")
            if self.mode == "ask":
                yield Label(_("Seller:"))
                yield Select(
                    [(snap.name(s), s) for s in snap.others()],
                    value=self.draft.seller,
                    allow_blank=False,
                    id="seller",
                )
            # Scrolls when short; a plain container, not VerticalScroll, whose page keys
            # would take pgup/pgdn (the previous and next seller) from the dialog.
            with Vertical(id="terms-box"), Grid(id="terms"):
                yield Label(id="seller-gives", classes="heading")
                for k in range(MAX_CRATES):
                    yield Label(id=f"crate-label-{k}", classes="crate-label")
                    yield NumberInput(self.draft.count(k), id=f"crate-{k}", classes="crate-count")
                for field in SPECIAL_FIELDS:
                    if field == "coins":
                        yield Label(id="buyer-gives", classes="heading")
                    yield Label(id=f"{field}-label")
                    yield NumberInput(getattr(self.draft, field), id=field)
            with Vertical(id="outcome"):  # docked: in sight while the terms scroll
                yield Static(id="summary")
                yield Static(id="price")
                yield Static(id="problem")
                with Horizontal(classes="buttons"):
                    yield Button(_("Propose (Enter)"), variant="primary", id="propose")
                    yield Button(_("Cancel (Esc)"), id="cancel")
        yield KeyBar()  # this dialog's keys, over the table's

    def on_mount(self) -> None:
        """Label the rows for the chosen seller and focus the first useful input: the
        crate asked for (or the first with fish), the price when countering."""
        self.on_resize()
        self._relabel()
        self._refresh_summary()
        crates = self._crates()
        # Focus the crate the draft already asks for, else the first with fish.
        first = next((k for k, _n in self.draft.fish if k < len(crates) and crates[k]), None)
        if first is None:
            first = next((k for k, codes in enumerate(crates) if codes), None)
        target = f"#crate-{first}" if first is not None else "#coins"
        if self.mode == "counter":
            target = "#coins"  # a counter usually haggles over the price (§4)
        self.query_one(target, Input).focus()

    def on_resize(self) -> None:
        """Below 100 columns the key line is compact and leaves out Esc and ctrl+s,
        which the buttons name, so that every other key shows in 80 columns; below 30
        rows the seller's list and the buttons lose their borders and the stalls' line
        goes (the rows name the chosen seller's crates), and the terms scroll in the
        room left between the seller and the summary, the field being edited always
        in sight (``-short`` in deal_dialog.tcss)."""
        fit_keys(self, self.app.size.width < NARROW_BELOW, ON_THE_BUTTONS)
        short = self.app.size.height < SHORT_BELOW
        self.set_class(short, "-short")
        for select in self.query("#seller").results(Select):
            select.compact = short
        for button in self.query("#outcome Button").results(Button):
            button.compact = short

    def _crates(self) -> list[str]:
        """The seller's crates as freshness codes (public, §9)."""
        return [str(c) for c in self.snapshot.seat(self.draft.seller)["crates"]]

    def _relabel(self) -> None:
        """Row labels and visibility follow the seller's crates."""
        snap = self.snapshot
        crates = self._crates()
        seller, buyer = self.draft.seller, self.buyer
        # Headings name each side; rows are then short ("crate 2: FF", "coins").
        gives = (
            _("[b]You give[/b] (the seller)")
            if seller == snap.me
            else _("[b]{name} gives[/b] (the seller)").format(name=escape(snap.name(seller)))
        )
        pays = (
            _("[b]You pay[/b] (the buyer, always the active player)")
            if buyer == snap.me
            else _("[b]{name} pays[/b] (the buyer, always the active player)").format(
                name=escape(snap.name(buyer))
            )
        )
        self.query_one("#seller-gives", Label).update(gives)
        self.query_one("#buyer-gives", Label).update(pays)
        for k in range(MAX_CRATES):
            label = self.query_one(f"#crate-label-{k}", Label)
            field = self.query_one(f"#crate-{k}", Input)
            shown = k < len(crates) and bool(crates[k])
            label.display = field.display = shown
            if shown:
                label.update(
                    _("  fish from crate {n}: {fish}").format(n=k + 1, fish=chips(crates[k]))
                )
        # Only this player's own specials are known (hands are private, §9).
        glacons, arrivages = snap.specials()
        seller_is_me = snap.me == seller

        def held(n: int, mine: bool) -> str:
            return _(" [dim](you hold {n})[/]").format(n=n) if mine else ""

        coins = int(snap.seat(buyer)["coins"])
        labels = {
            "seller_glacons": _("  glaçons ❄") + held(glacons, seller_is_me),
            "seller_arrivages": _("  arrivages ★") + held(arrivages, seller_is_me),
            "coins": (
                _("  coins [dim](you have {n})[/]").format(n=coins)
                if buyer == snap.me
                else _("  coins [dim]({name} has {n})[/]").format(
                    name=escape(snap.name(buyer)), n=coins
                )
            ),
            "buyer_glacons": _("  glaçons ❄") + held(glacons, not seller_is_me),
            "buyer_arrivages": _("  arrivages ★") + held(arrivages, not seller_is_me),
        }
        for name, text in labels.items():
            self.query_one(f"#{name}-label", Label).update(text)

    # --- editing -------------------------------------------------------------------------------

    def _read(self) -> DealDraft:
        """The terms from the inputs (blank counts as 0)."""

        def value(selector: str) -> int:
            text = self.query_one(selector, Input).value.strip()
            try:
                return max(0, int(text)) if text else 0
            except ValueError:
                return 0

        draft = DealDraft(self.draft.seller, counter=self.draft.counter)
        for k, codes in enumerate(self._crates()):
            if codes:
                draft = draft.with_count(k, value(f"#crate-{k}"))
        fields: dict[str, Any] = {f: value(f"#{f}") for f in SPECIAL_FIELDS}
        return DealDraft(draft.seller, draft.fish, counter=draft.counter, **fields)

    def problem(self, draft: DealDraft) -> str | None:
        """Why these terms cannot work, or ``None`` (the server re-checks everything)."""
        snap = self.snapshot
        crates = self._crates()
        for k, n in draft.fish:
            if n > len(crates[k]):
                return ngettext(
                    "Crate {n} holds only {count} fish.", "Crate {n} holds only {count} fish.",
                    len(crates[k]),
                ).format(n=k + 1, count=len(crates[k]))  # fmt: skip
        if draft.empty:
            return _("A deal must give the buyer at least one fish or special card.")
        coins = int(snap.seat(self.buyer)["coins"])
        if draft.coins > coins:
            if self.buyer == snap.me:
                return ngettext(
                    "You have only {n} coin (§4).", "You have only {n} coins (§4).", coins
                ).format(n=coins)
            return ngettext(
                "{name} has only {n} coin (§4).", "{name} has only {n} coins (§4).", coins
            ).format(name=snap.name(self.buyer), n=coins)
        glacons, arrivages = snap.specials()
        mine = (
            (draft.seller_glacons, draft.seller_arrivages)
            if snap.me == draft.seller
            else (draft.buyer_glacons, draft.buyer_arrivages)
        )
        if mine[0] > glacons or mine[1] > arrivages:
            return _("You hold {glacons} glaçon(s) and {arrivages} arrivage(s).").format(
                glacons=glacons, arrivages=arrivages
            )
        return None

    def _refresh_summary(self) -> None:
        """Read the terms back in words; disable Propose while they cannot work."""
        draft = self._read()
        self.draft = draft
        crates = self._crates()
        proposal = {
            "id": draft.counter or 0, "proposer": self.snapshot.me, "seller": draft.seller,
            "fish": [[k, n, crates[k][0]] for k, n in draft.fish if n and crates[k]],
            "seller_glacons": draft.seller_glacons, "seller_arrivages": draft.seller_arrivages,
            "coins": draft.coins, "buyer_glacons": draft.buyer_glacons,
            "buyer_arrivages": draft.buyer_arrivages,
        }  # fmt: skip
        self.query_one("#summary", Static).update(proposal_text(self.snapshot, proposal) + ".")
        problem = self.problem(draft)
        self.query_one("#problem", Static).update(
            f"[$error]{escape(problem)}[/]" if problem else ""
        )
        self.query_one("#propose", Button).disabled = problem is not None
        self._refresh_price()
        if problem is None and self._other_is_bot():
            self._ask_soon()

    @on(Input.Changed)
    def _changed(self) -> None:
        """Any number changed: refresh the summary."""
        self._refresh_summary()

    @on(Select.Changed, "#seller")
    def _seller_changed(self, event: Select.Changed) -> None:
        """Another seller: their crates replace the rows, counts start at 0."""
        if isinstance(event.value, int) and event.value != self.draft.seller:
            for k in range(MAX_CRATES):
                self.query_one(f"#crate-{k}", Input).value = "0"
            self.draft = DealDraft(event.value, counter=self.draft.counter)
            self._relabel()
            self._refresh_summary()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The seller keys only when asking (an offer or counter has its seller fixed)."""
        return self.mode == "ask" if action == "seller" else True

    def action_seller(self, step: int) -> None:
        """PgDn/PgUp: the next or previous seller, without leaving the focused number."""
        others = list(self.snapshot.others())
        if self.mode != "ask" or not others:
            return
        select = self.query_one("#seller", Select)
        # The select's value, not the draft's seller: that follows a message later, and
        # two quick presses must move two steps.
        here = others.index(select.value) if select.value in others else -1
        select.value = others[(here + step) % len(others)]

    # --- prices (net/prices.py) ----------------------------------------------------------

    @property
    def other(self) -> int:
        """The other side of these terms: the seller when we buy, else the buyer (§4)."""
        return self.draft.seller if self.draft.seller != self.snapshot.me else self.buyer

    def _other_is_bot(self) -> bool:
        return self.snapshot.label(self.other).kind == "bot"

    def _question(self) -> dict[str, Any]:
        """The terms as a price question (``net/prices.py``): no price, no counter."""
        draft = self.draft
        deal: dict[str, Any] = {"seller": draft.seller, "fish": [[k, n] for k, n in draft.fish]}
        deal.update({k: getattr(draft, k) for k in SPECIAL_FIELDS if k != "coins"})
        return deal

    def _stalls(self) -> str:
        """What every other stall's crates hold (public, §9), e.g. ``Bot 1: F · DD``."""
        snap = self.snapshot
        rows = []
        for seat in snap.others():
            crates = [chips(str(c)) for c in snap.seat(seat)["crates"] if c]
            held = " · ".join(crates) if crates else _("[dim]no fish[/]")
            rows.append(_("{name}: {crates}").format(name=escape(snap.name(seat)), crates=held))
        return _("Stalls — {rows}").format(rows=_("; ").join(rows))  # French: " ; "

    def _ask_soon(self) -> None:
        """Ask the other side's price once the terms rest for :data:`ASK_AFTER` seconds."""
        if self._ask_timer is not None:
            self._ask_timer.stop()
        self._ask_timer = self.set_timer(ASK_AFTER, self.action_ask_price)

    def action_ask_price(self) -> None:
        """F4: ask the other side its price on these terms (a person may not answer)."""
        if self.draft.empty:
            return
        key = (self.other, price_key(self._question()))
        if key in self._asked:
            return
        self._asked.add(key)
        self.post_message(PriceWanted(self.other, self._question()))
        self._refresh_price()

    def show_price(self, seat: int, deal: Mapping[str, Any], coins: int | None, bot: bool) -> None:
        """A price came back (to this client only): shown while the terms are the same."""
        self.prices[(seat, price_key(deal))] = (coins, bot)
        self._refresh_price()

    def _refresh_price(self) -> None:
        key = (self.other, price_key(self._question()))
        name = escape(self.snapshot.name(self.other))
        heard = self.prices.get(key)
        if heard is None:
            text = _("Asking {name}'s price…").format(name=name) if key in self._asked else ""
            if not text and not self._other_is_bot() and not self.draft.empty:
                text = _("[dim]F4: ask {name}'s price[/]").format(name=name)
        elif heard[0] is None:
            text = _("{name} names no price for this.").format(name=name)
        else:
            coins = ngettext("{n} coin", "{n} coins", heard[0]).format(n=heard[0])
            if self.other == self.draft.seller:
                text = _("{name} would sell this for {coins}.").format(name=name, coins=coins)
            else:
                text = _("{name} would pay {coins} for this.").format(name=name, coins=coins)
        self.query_one("#price", Static).update(text)

    @on(Input.Submitted)
    @on(Button.Pressed, "#propose")
    def action_propose(self) -> None:
        """Send the terms if they can work; otherwise say why."""
        draft = self._read()
        problem = self.problem(draft)
        if problem:
            self.notify(problem, severity="warning")
            return
        self.dismiss(draft)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Close without proposing."""
        self.dismiss(None)
