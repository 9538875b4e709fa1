"""The market at large: the decks and the discard piles everyone can see (RULES.md §9).

Deck sizes tell how long the game has left (it ends with the turn that
empties the fish deck, R13); the fish discard pile, counted by freshness,
tells which fish are still out there. Clients gone (served ones are on the
stalls; dropped ones and inspectors here) come back only when the client
deck runs out (R7).
"""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from poissonnier_tui.games.poissonnier.rules.cards import FISH_DECK_COUNTS, is_inspector
from poissonnier_tui.games.poissonnier.ui.palette import KINDS, chip
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import Drawn
from poissonnier_tui.i18n import _, ngettext


class MarketInfo(Static):
    """Decks and discard piles, in three short lines."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; counts come from the view's public fields. A new one repaints only
    if the counts drawn changed (:mod:`.redraw`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn = Drawn()
        """What the pane shows now."""

    def on_mount(self) -> None:
        """Title the pane."""
        self.border_title = _("Market")

    def watch_snapshot(self) -> None:
        """Repaint if the counts drawn changed."""
        if self.is_attached:
            self.drawn.show(self, self.render())

    def render(self) -> str:
        """Fish deck, fish discard by kind, client deck and discard."""
        snap = self.snapshot
        if snap is None:
            return ""
        view = snap.view
        deck = int(view.get("fish_deck", 0))
        total = sum(FISH_DECK_COUNTS.values())
        if view.get("last_turn"):
            end = _("[b $text-warning]empty: this is the last turn (R13)[/]")
        else:
            end = _("[dim]of {total}; the game ends with the turn that empties it (R13)[/]").format(
                total=total
            )
        discard = view.get("fish_discard", {})
        piles = "  ".join(f"{chip(k)} {int(discard.get(k, 0))}" for k in KINDS)
        gone = [str(c) for c in view.get("client_discard", [])]
        inspectors = sum(1 for c in gone if is_inspector(c))
        found = ngettext("{n} inspector", "{n} inspectors", inspectors).format(n=inspectors)
        return "\n".join(
            (
                _("Fish deck [b]{deck}[/b] {end}").format(deck=deck, end=end),
                _("Fish discarded  {piles}").format(piles=piles),
                _("Client deck [b]{deck}[/b] · client discard {gone} ({inspectors})").format(
                    deck=int(view.get("client_deck", 0)), gone=len(gone), inspectors=found
                ),
            )
        )
