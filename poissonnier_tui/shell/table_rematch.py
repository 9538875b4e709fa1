"""Play again at a LAN table, for the app: the host proposes, seated players answer.

The table (``net/rematch.py``) tells every connection where a proposed
rematch stands (:class:`~poissonnier_tui.shell.messages.RematchHeard`); the
app keeps it in :attr:`TableRematch.rematch_answers`, which the results
screen's :class:`~poissonnier_tui.shell.screens.rematch_panel.RematchPanel`
shows. A seated player accepts (``a``) or declines (``x``); the host proposes
and starts (``n``, :meth:`~poissonnier_tui.shell.home_nav.HomeNavigation.action_rematch`)
or gives the seats of those who declined, left or have not answered to bots
(``b``) or opens them (``o``). The table's refusals of these are said in the
player's language (:func:`poissonnier_tui.refusals.refusal_or_message`).
"""

from __future__ import annotations

from textual.reactive import reactive

from net.table import Refused
from poissonnier_tui.i18n import _
from poissonnier_tui.refusals import refusal_or_message
from poissonnier_tui.shell.messages import RematchHeard
from poissonnier_tui.shell.table_app import TableApp


class TableRematch(TableApp):
    """The app's side of a proposed rematch (a mixin of the app)."""

    rematch_answers: reactive[tuple[str, ...] | None] = reactive(None, bindings=True)
    """Each seat's answer to the proposed rematch (``net/rematch.py``); ``None``: none
    is proposed."""

    def on_rematch_heard(self, event: RematchHeard) -> None:
        """Where the proposed rematch stands now (shown by the results screen's panel)."""
        self.rematch_answers = event.answers

    def can_answer_rematch(self) -> bool:
        """A seated player whose answer the proposed rematch awaits."""
        answers, seat = self.rematch_answers, self.seat
        return (
            answers is not None
            and self.hosted is None
            and seat is not None
            and seat < len(answers)
            and answers[seat] == "waiting"
        )

    def can_give_rematch_seats(self) -> bool:
        """The host, while some seat declined, left or has not answered."""
        answers = self.rematch_answers
        return (
            self.hosted is not None
            and answers is not None
            and any(a in ("waiting", "no", "away") for a in answers)
        )

    def action_rematch_answer(self, yes: bool) -> None:
        """Accept (``yes``) or decline the host's rematch; the table's answer shows in the
        panel (or, refused, as a toast)."""
        if not self.relay.answer_rematch(yes):
            self.notify(_("Not connected to a table."), severity="error")

    async def action_rematch_give(self, to_bot: bool) -> None:
        """Host: every seat that declined, left or has not answered goes to a bot of the
        table's level (``to_bot``) or opens for a newcomer, when the rematch starts."""
        hosted, answers = self.hosted, self.rematch_answers
        if hosted is None or answers is None:
            return
        try:
            for seat, answer in enumerate(answers):
                if answer not in ("waiting", "no", "away"):
                    continue
                await hosted.give_rematch_seat(seat, to_bot)
        except Refused as exc:
            self.notify_refused(exc)

    def notify_refused(self, exc: Refused) -> None:
        """A table's refusal of this app's own request, in the player's language."""
        text = refusal_or_message(exc.params, exc.message)
        self.notify(text, title=_("Not allowed"), severity="error")
