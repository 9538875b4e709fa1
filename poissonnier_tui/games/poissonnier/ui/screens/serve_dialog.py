"""The serve dialog: the concrete ways to serve one client, or what is missing.

RULES.md §3.4, §6: a client is served with exactly the fish its order asks
for, from the player's crates, fish bought this turn, and special cards
(a glaçon lifts one fish one level, an arrivage stands for any non-rotten
fish). The options are computed from the player's own view with
``orders.serve_plans``; Enter sends the highlighted one. When nothing fits,
the dialog says what is missing and offers (``d``) to ask another player for
it with a deal (§4).

Dismissed with a ``serve`` action map, a :class:`DealDraft` (open the deal
dialog with it), or ``None`` (cancelled).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
from poissonnier_tui.games.poissonnier.ui.describe import client_summary, proposal_text
from poissonnier_tui.games.poissonnier.ui.serving import (
    ServeOption,
    nobody_sells,
    serve_options,
    shortfall,
    suggest_deal,
)
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.screens.fields import translate_bindings

ServeResult = dict[str, Any] | DealDraft | None
"""What the dialog returns: a serve action, a deal to draft, or nothing."""


class ServeDialog(ModalScreen[ServeResult]):
    """Lists :func:`serve_options` for one client; Enter serves, ``d`` asks for a deal."""

    CSS_PATH = "serve_dialog.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel"), key_display=N_("esc")),
        Binding("d", "deal", N_("Ask for it with a deal")),
    ]

    def __init__(self, snapshot: TableSnapshot, client_id: str) -> None:
        """Args: snapshot: the table now; client_id: one of the first 3 clients."""
        super().__init__()
        self.snapshot = snapshot
        self.client_id = client_id
        self.options: list[ServeOption] = serve_options(snapshot, client_id)
        """Every way to serve, fewest special cards first."""
        self.suggestion: DealDraft | None = (
            None if self.options else suggest_deal(snapshot, client_id)
        )
        """A deal that would buy what is missing, when nothing fits."""

    def stale_reason(self, now: TableSnapshot) -> str | None:
        """Why serving can no longer be chosen in the table as it is ``now`` (only the
        active player serves, while serving, §3.4), or ``None``."""
        if now.phase == "serve" and now.my_turn:
            return None
        return _("Your turn is over: clients are served only by the active player (§3.4).")

    def compose(self) -> ComposeResult:
        """Client, then options (or the shortfall), then buttons."""
        translate_bindings(self)
        with Vertical(id="dialog") as box:
            box.border_title = _("Serve {client}").format(client=self.client_id)
            yield Static(client_summary(self.client_id), id="client")
            if self.options:
                yield Static(_("Choose how to serve ([b]↑↓[/b], [b]Enter[/b] sends it):"))
                yield OptionList(
                    *(Option(o.label, id=str(i)) for i, o in enumerate(self.options)),
                    id="plans",
                )
            else:
                yield Static(shortfall(self.snapshot, self.client_id), id="shortfall")
                if self.suggestion is not None:
                    yield Static(
                        _(
                            "[b]Suggested deal[/b] (press [b]d[/b] to edit and send it): {deal}."
                        ).format(deal=proposal_text(self.snapshot, self._as_proposal())),
                        id="suggestion",
                    )
                elif why := nobody_sells(self.snapshot, self.client_id):
                    yield Static(why, id="nobody-sells")
            with Horizontal(classes="buttons"):
                if self.options:
                    yield Button(_("Serve"), variant="primary", id="serve")
                elif self.suggestion is not None:
                    yield Button(_("Ask for it with a deal (d)"), variant="primary", id="deal")
                yield Button(_("Cancel (Esc)"), id="cancel")

    def _as_proposal(self) -> dict[str, Any]:
        """The suggestion in the proposal-map shape, so it can be described in words."""
        assert self.suggestion is not None
        s = self.suggestion
        crates = self.snapshot.seat(s.seller)["crates"]
        return {
            "id": 0, "proposer": self.snapshot.active, "seller": s.seller,
            "fish": [[k, n, crates[k][0]] for k, n in s.fish],
            "seller_glacons": 0, "seller_arrivages": 0, "coins": s.coins,
            "buyer_glacons": 0, "buyer_arrivages": 0,
        }  # fmt: skip

    def on_mount(self) -> None:
        """Focus the plans so Enter serves at once."""
        if self.options:
            self.query_one("#plans", OptionList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``d`` only when a deal could help."""
        if action == "deal":
            return self.suggestion is not None
        return True

    @on(OptionList.OptionSelected, "#plans")
    def _plan_chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) on a plan sends it."""
        self.dismiss(self.options[event.option_index].action)

    @on(Button.Pressed, "#serve")
    def _serve_pressed(self) -> None:
        """The Serve button sends the highlighted plan."""
        plans = self.query_one("#plans", OptionList)
        index = plans.highlighted if plans.highlighted is not None else 0
        self.dismiss(self.options[index].action)

    @on(Button.Pressed, "#deal")
    def action_deal(self) -> None:
        """Leave with the suggested deal; the table screen opens the deal dialog."""
        if self.suggestion is not None:
            self.dismiss(self.suggestion)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Close without serving."""
        self.dismiss(None)
