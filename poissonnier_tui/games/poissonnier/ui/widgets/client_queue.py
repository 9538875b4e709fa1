"""The queue of clients (file d'attente), front first (RULES.md §3.3, §3.4).

Five places side by side; the first three can be served and are marked so.
On this player's turn each servable card says whether the player can serve it
now, computed from the player's own view with ``orders.serve_plans`` (a
pre-check for the eye; the server decides).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget

from poissonnier_tui.games.poissonnier.rules.cards import QUEUE_MAX, SERVABLE
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.client_card import ClientCard, Verdict
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import retitle
from poissonnier_tui.i18n import _


class ClientQueue(Widget):
    """Five :class:`ClientCard` places; the border title shows the client deck."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; the queue is ``snapshot.queue``."""

    def compose(self) -> ComposeResult:
        """Five places, front first."""
        with Horizontal():
            for i in range(QUEUE_MAX):
                yield ClientCard(id=f"client-{i + 1}")

    def on_mount(self) -> None:
        """Show a snapshot set before the cards existed."""
        self.watch_snapshot(self.snapshot)

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Set each place's client, servable flag and (on my turn) verdict."""
        if snap is None:
            return
        queue = snap.queue
        judge = snap.my_turn and snap.phase == "serve"
        for i, card in enumerate(self.query(ClientCard)):
            client = queue[i] if i < len(queue) else ""
            verdict: Verdict = ""
            if judge and client and i < SERVABLE:
                from poissonnier_tui.games.poissonnier.ui.serving import serve_options  # on a turn

                verdict = "yes" if serve_options(snap, client) else "no"
            card.show(client, i + 1, i < SERVABLE, verdict)
        title = _(
            "Queue [dim]— the first {n} are at the counter and can be served · "
            "client deck {deck}[/]"
        ).format(n=SERVABLE, deck=snap.view.get("client_deck", 0))
        retitle(self, title)
