"""The deal dialog: propose, offer or counter a deal with edited terms (RULES.md §4).

A deal is between the active player (the buyer) and one other player (the
seller). The seller gives fish from their crates and/or special cards; the
buyer gives coins and/or special cards. Three ways in:

* ``ask``: the active player picks a seller and the fish they want;
* ``offer``: another player offers fish from their own crates to the active one;
* ``counter``: the side a proposal was made to edits its terms (the counter
  replaces it).

Every number is an integer input; ↑/↓ change the focused one, and when
asking, PgUp/PgDn pick the previous or next seller from any field. The summary
line reads the terms back as the offers pane will show them, and the
Propose button stays disabled while the terms cannot work (more fish than a
crate holds, more coins than the buyer has, specials you do not hold).
Dismissed with the :class:`DealDraft` to send, or ``None``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from poissonnier_tui.games.poissonnier.rules.cards import MAX_CRATES
from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
from poissonnier_tui.games.poissonnier.ui.describe import proposal_text
from poissonnier_tui.games.poissonnier.ui.palette import chips
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot

DealMode = Literal["ask", "offer", "counter"]
"""Why the dialog is open: ask a seller, offer to the buyer, or counter a proposal."""

SPECIAL_FIELDS = ("seller_glacons", "seller_arrivages", "coins", "buyer_glacons", "buyer_arrivages")
"""The :class:`DealDraft` fields edited with one input each, besides the crates."""


class DealDialog(ModalScreen[DealDraft | None]):
    """Edits a :class:`DealDraft`; Enter or the Propose button sends it."""

    CSS_PATH = "deal_dialog.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("up", "bump(1)", "+1", show=True),
        Binding("down", "bump(-1)", "−1", show=True),
        Binding("pagedown", "seller(1)", "Next seller"),
        Binding("pageup", "seller(-1)", "Previous seller"),
        Binding("ctrl+s", "propose", "Propose", priority=True),
    ]

    def __init__(self, snapshot: TableSnapshot, draft: DealDraft, mode: DealMode) -> None:
        """Args: snapshot: the table now; draft: the starting terms; mode: see module docs."""
        super().__init__()
        self.snapshot = snapshot
        self.draft = draft
        """The terms as currently edited."""
        self.mode: DealMode = mode

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
            return "The turn moved on: deals are made only while the active player serves (§4)."
        pid = self.draft.counter
        if self.mode == "counter" and pid is not None and now.proposal(pid) is None:
            return f"Offer #{pid} is no longer open (withdrawn or answered)."
        return None

    # --- layout -------------------------------------------------------------------------

    @property
    def buyer(self) -> int:
        """The buyer is always the active player (§4)."""
        return self.snapshot.active

    def compose(self) -> ComposeResult:
        """Seller, their crates, specials and price, the summary, buttons."""
        snap = self.snapshot
        titles = {
            "ask": "Ask for fish",
            "offer": f"Offer fish to {snap.name(self.buyer)}",
            "counter": f"Counter offer #{self.draft.counter}",
        }
        with Vertical(id="dialog") as box:
            box.border_title = titles[self.mode]
            if self.mode == "ask":
                yield Label("Seller:")
                yield Select(
                    [(snap.name(s), s) for s in snap.others()],
                    value=self.draft.seller,
                    allow_blank=False,
                    id="seller",
                )
            with Grid(id="terms"):
                yield Label(id="seller-gives", classes="heading")
                for k in range(MAX_CRATES):
                    yield Label(id=f"crate-label-{k}", classes="crate-label")
                    yield Input(
                        str(self.draft.count(k)),
                        type="integer",
                        id=f"crate-{k}",
                        classes="crate-count",
                    )
                for field in SPECIAL_FIELDS:
                    if field == "coins":
                        yield Label(id="buyer-gives", classes="heading")
                    yield Label(id=f"{field}-label")
                    yield Input(str(getattr(self.draft, field)), type="integer", id=field)
            yield Static(id="summary")
            yield Static(id="problem")
            with Horizontal(classes="buttons"):
                yield Button("Propose (Enter)", variant="primary", id="propose")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """Label the rows for the chosen seller and focus the first useful input: the
        crate asked for (or the first with fish), the price when countering."""
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

    def _crates(self) -> list[str]:
        """The seller's crates as freshness codes (public, §9)."""
        return [str(c) for c in self.snapshot.seat(self.draft.seller)["crates"]]

    def _relabel(self) -> None:
        """Row labels and visibility follow the seller's crates."""
        snap = self.snapshot
        crates = self._crates()
        seller, buyer = self.draft.seller, self.buyer
        # Headings name each side; rows are then short ("crate 2: FF", "coins").
        self.query_one("#seller-gives", Label).update(
            f"[b]{escape(snap.who(seller))} {'give' if seller == snap.me else 'gives'}[/b]"
            " (the seller)"
        )
        self.query_one("#buyer-gives", Label).update(
            f"[b]{escape(snap.who(buyer))} {'pay' if buyer == snap.me else 'pays'}[/b]"
            " (the buyer, always the active player)"
        )
        for k in range(MAX_CRATES):
            label = self.query_one(f"#crate-label-{k}", Label)
            field = self.query_one(f"#crate-{k}", Input)
            shown = k < len(crates) and bool(crates[k])
            label.display = field.display = shown
            if shown:
                label.update(f"  fish from crate {k + 1}: {chips(crates[k])}")
        # Only this player's own specials are known (hands are private, §9).
        glacons, arrivages = snap.specials()
        seller_is_me = snap.me == seller

        def held(n: int, mine: bool) -> str:
            return f" [dim](you hold {n})[/]" if mine else ""

        coins = int(snap.seat(buyer)["coins"])
        labels = {
            "seller_glacons": "  glaçons ❄" + held(glacons, seller_is_me),
            "seller_arrivages": "  arrivages ★" + held(arrivages, seller_is_me),
            "coins": f"  coins [dim](holds {coins})[/]",
            "buyer_glacons": "  glaçons ❄" + held(glacons, not seller_is_me),
            "buyer_arrivages": "  arrivages ★" + held(arrivages, not seller_is_me),
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
                return f"Crate {k + 1} holds only {len(crates[k])} fish."
        if draft.empty:
            return "A deal must give the buyer at least one fish or special card."
        coins = int(snap.seat(self.buyer)["coins"])
        if draft.coins > coins:
            has = "have" if self.buyer == snap.me else "has"
            return f"{snap.who(self.buyer)} {has} only {coins} coins (§4)."
        glacons, arrivages = snap.specials()
        mine = (
            (draft.seller_glacons, draft.seller_arrivages)
            if snap.me == draft.seller
            else (draft.buyer_glacons, draft.buyer_arrivages)
        )
        if mine[0] > glacons or mine[1] > arrivages:
            return f"You hold {glacons} glaçon(s) and {arrivages} arrivage(s)."
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

    def action_bump(self, delta: int) -> None:
        """↑/↓: add or remove one on the focused number."""
        field = self.focused
        if isinstance(field, Input):
            try:
                current = int(field.value or "0")
            except ValueError:
                current = 0
            field.value = str(max(0, current + delta))

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
