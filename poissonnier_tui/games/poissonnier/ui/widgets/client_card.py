"""One client card in the queue: the order, its reward, and whether it can be served.

RULES.md §1: a regular client orders fish by freshness and pays coins and
loyalty stamps; an undecided client (§5) takes any fish, rotten included.
Only the first 3 of the queue can be served (§3.4): those cards are marked
servable and, on the player's turn, say whether the player's own crates,
bought fish and specials can serve them right now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from textual import events
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.ui.palette import chips
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import set_quietly
from poissonnier_tui.i18n import _, ngettext

WIDE_CARD = 19
"""Card content width (cells) from which the card says things in full words."""

Verdict = Literal["", "yes", "no"]
"""Whether this player can serve the client now: unknown/not relevant, yes, no."""


class ClientCard(Static):
    """Shows one queue position. The queue sets its reactives."""

    DEFAULT_CLASSES = "-empty"
    """The classes of an empty place (:meth:`_update_title`): a card starts with the
    classes its first look gives it, or that look would restyle it."""

    client_id: reactive[str] = reactive("")
    """The client card id (``"C23"``, ``"U2"``), or ``""`` for an empty place."""
    position: reactive[int] = reactive(0)
    """1-based place in the queue (1 is the front)."""
    servable: reactive[bool] = reactive(False)
    """Among the first 3 of the queue (RULES.md §3.4)."""
    verdict: reactive[Verdict] = reactive("")
    """On this player's turn: can they serve it now (from their own view)?"""

    @dataclass
    class Clicked(Message):
        """A client card was clicked (the screen opens the serve dialog if it can)."""

        card: ClientCard
        client_id: str

        @property
        def control(self) -> ClientCard:
            """The clicked card."""
            return self.card

    def render(self) -> str:
        """Three lines: the order as fish chips, the reward, and where the client stands.

        "At the counter" (the first three, RULES.md §3.4) is told apart from
        "you can serve now" (your turn, and your fish complete the order); on a
        narrow card the words shrink, never the fish.
        """
        if not self.client_id:
            return _("[dim]no client[/]")
        card = CLIENTS[self.client_id]
        wide = self.content_size.width >= WIDE_CARD
        if card.kind is ClientKind.UNDECIDED:
            # Any fish, rotten included (§5): one blank chip per fish.
            order = "".join("[reverse] ? [/]" for _n in range(card.size))
            if wide:
                order += " " + _("any")
        else:
            order = chips(card.order)
        if wide:
            coins = ngettext("{n} coin", "{n} coins", card.coins).format(n=card.coins)
            stamps = ngettext("{n} stamp", "{n} stamps", card.stamps).format(n=card.stamps)
            reward = f"[b $text-warning]●[/]{coins}  [b $text-accent]★[/]{stamps}"
        else:
            reward = f"[b $text-warning]{card.coins}●[/] [b $text-accent]{card.stamps}★[/]"
        if self.verdict == "yes":
            tail = _("[b $text-success]✓ you can serve now[/]")
            if not wide:
                tail = _("[b $text-success]✓ serve now[/]")
        elif self.verdict == "no":
            tail = _("[$text-warning]✗ missing fish[/]")
            if not wide:
                tail = _("[$text-warning]✗ missing[/]")
        elif self.servable:
            tail = _("[b]at the counter[/]") if wide else _("[b]at counter[/]")
        else:
            tail = _("[dim]waiting in line[/]") if wide else _("[dim]in line[/]")
        return f"{order}\n{reward}\n{tail}"

    def show(self, client_id: str, position: int, servable: bool, verdict: Verdict) -> None:
        """Set :attr:`client_id`, :attr:`position`, :attr:`servable` and :attr:`verdict`
        together: one restyle and one repaint if any changed (set one by one, each change
        restyles the card)."""
        values: dict[Reactive[Any], object] = {
            ClientCard.client_id: client_id,
            ClientCard.position: position,
            ClientCard.servable: servable,
            ClientCard.verdict: verdict,
        }
        if set_quietly(self, values):
            self._update_title()
            self.refresh()

    def on_resize(self) -> None:
        """The words depend on the card's width: draw again."""
        self.refresh()

    def _update_title(self) -> None:
        """Border title and CSS classes from the card, its place and verdict."""
        card = CLIENTS.get(self.client_id)
        title = f"{self.position}"
        if card is not None:
            # Undecided clients take any fish, rotten included (§5): say so in the title.
            # i18n: an undecided client (§5), short, in a client card's title.
            kind = " · " + _("undecided") if card.kind is ClientKind.UNDECIDED else ""
            title = f"{self.position} · {self.client_id}{kind}"
        self.border_title = title
        # One batch: each class set apart would restyle the card again.
        self.update_classes(
            {
                "-servable": self.servable and card is not None,
                "-can-serve": self.verdict == "yes",
                "-cannot-serve": self.verdict == "no",
                "-empty": card is None,
                "-undecided": card is not None and card.kind is ClientKind.UNDECIDED,
            }
        )

    def watch_client_id(self) -> None:
        """Title and classes follow the card."""
        self._update_title()

    def watch_position(self) -> None:
        """Title follows the position."""
        self._update_title()

    def watch_servable(self) -> None:
        """Servable cards get a bright border (table.tcss)."""
        self._update_title()

    def watch_verdict(self) -> None:
        """A card this player can serve is highlighted."""
        self._update_title()

    def on_click(self, event: events.Click) -> None:
        """Report the click with the card id."""
        event.stop()
        if self.client_id:
            self.post_message(self.Clicked(self, self.client_id))
