"""Two small answers a person gives in a negotiation (RULES.md §4, table talk).

* :class:`ReasonDialog` — decline an offer and say why: a reason picked with
  its number key (``ui/reasons.py``) and, for "too cheap" or "too dear", the
  price at which they would deal. Dismissed with the ``decline`` wire map, or
  ``None``.
* :class:`PriceDialog` — another seat asked this player's price on a deal
  (``net/prices.py``); there is no obligation: Enter names the typed price,
  ``n`` says "no price", Esc leaves the question unanswered. Dismissed with
  the coins, ``NO_PRICE``, or ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from poissonnier_tui.games.poissonnier.rules.actions import Decline, to_wire
from poissonnier_tui.games.poissonnier.ui.describe import goods, price, proposal_text
from poissonnier_tui.games.poissonnier.ui.reasons import (
    BUYER_REASONS,
    SELLER_REASONS,
    because,
    reason_label,
)
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DIGITS
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.screens.fields import translate_bindings

PRICED_REASONS: Final = frozenset({"too_cheap", "too_dear"})
"""Reasons that may name the price at which the decliner would deal (§4)."""

NO_PRICE: Final = "no_price"
""":class:`PriceDialog`'s answer when the player names no price."""


class ReasonDialog(ModalScreen[dict[str, Any] | None]):
    """Decline offer ``proposal`` saying why (and, maybe, at what price).

    Args:
        snapshot: the table now.
        proposal: the offer made to this player (a view's proposal map).
    """

    CSS_PATH = "answer_dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 5)),
    ]

    def __init__(self, snapshot: TableSnapshot, proposal: Mapping[str, Any]) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.proposal = proposal
        selling = proposal["seller"] == snapshot.me
        self.reasons: tuple[str, ...] = SELLER_REASONS if selling else BUYER_REASONS

    def compose(self) -> ComposeResult:
        """The offer, the reasons (numbered), the optional price."""
        translate_bindings(self)  # the footer in the current language
        with Vertical(id="dialog", classes="small") as box:
            box.border_title = _("Decline offer #{id}").format(id=self.proposal["id"])
            yield Static(proposal_text(self.snapshot, self.proposal) + ".")
            yield OptionList(
                *[f"{n}. {reason_label(r)}" for n, r in enumerate(self.reasons, 1)], id="reasons"
            )
            yield Input(
                placeholder=_("your price (optional)"), type="integer", restrict=DIGITS, id="price"
            )
            yield Static(id="said", classes="hint")
            yield Static(_("1–4 picks a reason · Enter declines · Esc cancels"), classes="hint")

    def on_mount(self) -> None:
        """The first reason is picked; the list has the keyboard."""
        reasons = self.query_one("#reasons", OptionList)
        reasons.highlighted = 0
        reasons.focus()
        self._refresh()

    @property
    def reason(self) -> str:
        """The reason picked."""
        at = self.query_one("#reasons", OptionList).highlighted or 0
        return self.reasons[min(at, len(self.reasons) - 1)]

    def price(self) -> int | None:
        """The typed price, if it fits the reason (more than offered when too cheap, fewer
        when too dear: the engine refuses anything else, ``bad_reason``)."""
        if self.reason not in PRICED_REASONS:
            return None
        text = self.query_one("#price", Input).value.strip()
        try:
            price = int(text) if text else None
        except ValueError:
            return None
        offered = int(self.proposal["coins"])
        if price is None or price < 0:
            return None
        fits = price > offered if self.reason == "too_cheap" else price < offered
        return price if fits else None

    def _refresh(self) -> None:
        """What the other side will read, and the price field only where it counts."""
        field = self.query_one("#price", Input)
        field.display = self.reason in PRICED_REASONS
        said = because(self.reason, int(self.proposal["coins"]), self.price())
        self.query_one("#said", Static).update(_("They will read: “{said}”").format(said=said))

    @on(OptionList.OptionHighlighted)
    @on(Input.Changed)
    def _changed(self) -> None:
        self._refresh()

    def action_pick(self, index: int) -> None:
        """A number key: that reason (the price field gets the keyboard if it counts)."""
        if index < len(self.reasons):
            self.query_one("#reasons", OptionList).highlighted = index
            if self.reasons[index] in PRICED_REASONS:
                self.query_one("#price", Input).focus()

    @on(OptionList.OptionSelected)
    @on(Input.Submitted)
    def _decline(self) -> None:
        self.dismiss(to_wire(Decline(int(self.proposal["id"]), self.reason, self.price())))

    def action_cancel(self) -> None:
        """Back to the table; the offer stays open."""
        self.dismiss(None)


PriceAnswer = int | Literal["no_price"] | None
"""What :class:`PriceDialog` returns: coins, :data:`NO_PRICE`, or ``None`` (no answer)."""


class PriceDialog(ModalScreen[PriceAnswer]):
    """Seat ``by`` asks this player's price on ``deal``; they may answer.

    Args:
        snapshot: the table now.
        by: the asking seat.
        deal: the deal as the game said it (``match.price_question``).
    """

    CSS_PATH = "answer_dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Do not answer")),
        Binding("ctrl+n", "no_price", N_("No price")),
    ]

    def __init__(self, snapshot: TableSnapshot, by: int, deal: Mapping[str, Any]) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.by = by
        self.deal = dict(deal)

    def compose(self) -> ComposeResult:
        """The question, the price field."""
        translate_bindings(self)  # the footer in the current language
        snap = self.snapshot
        with Vertical(id="dialog", classes="small") as box:
            box.border_title = _("{name} asks your price").format(name=snap.name(self.by))
            yield Static(_("For: {goods}").format(goods=goods(self.deal)))
            if self.deal.get("buyer_glacons") or self.deal.get("buyer_arrivages"):
                yield Static(_("and, besides coins: {price}").format(price=price(self.deal)))
            yield Input(
                placeholder=_("your price in coins"), type="integer", restrict=DIGITS, id="price"
            )
            yield Static(
                _("Enter names it (only they hear it) · ctrl+n: no price · Esc: no answer"),
                classes="hint",
            )

    def on_mount(self) -> None:
        """The price field has the keyboard."""
        self.query_one("#price", Input).focus()

    @on(Input.Submitted)
    def _named(self) -> None:
        text = self.query_one("#price", Input).value.strip()
        if text.isdigit():
            self.dismiss(int(text))

    def action_no_price(self) -> None:
        """Answer that there is no price (not for sale, or not buying)."""
        self.dismiss(NO_PRICE)

    def action_cancel(self) -> None:
        """Leave the question unanswered (no obligation)."""
        self.dismiss(None)
