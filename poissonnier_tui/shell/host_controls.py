"""The host's controls, for the app that hosts a LAN table (``poissonnier host``).

In the lobby before the start: add a bot (``b``), remove one (``x``), pick
the next bot's level (``l``), start the game (Enter). During the game: the
seats dialog (F2) hands an absent player's seat to a bot, or gives a
stand-in's seat back. The keys are the connecting screen's and the app's
bindings; :meth:`~poissonnier_tui.shell.app.PoissonnierApp.check_action`
shows them only to the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from net.discovery import HostAddress, host_addresses
from net.table import Refused
from poissonnier_tui.botnames import BOT_LEVELS
from poissonnier_tui.hosting.tables import HostedTable
from poissonnier_tui.i18n import _
from poissonnier_tui.refusals import refusal_or_message
from poissonnier_tui.shell.table_app import TableApp

if TYPE_CHECKING:  # the seats dialog is imported when opened (F2)
    from poissonnier_tui.shell.screens.seats_dialog import SeatsDialog


def addresses_text(addresses: Sequence[HostAddress]) -> str:
    """The host's addresses in one line, likely container or VPN ones marked, e.g.
    ``"This computer: 192.168.1.20 (wlan0) · 172.17.0.1 (docker0: container bridge,
    friends likely cannot reach it)"``."""
    parts = []
    for host in addresses:
        where = host.interface
        if not host.likely:
            note = _("{why}, friends likely cannot reach it").format(why=host.note)
            where = f"{where}: {note}" if where else note
        parts.append(f"{host.address} ({where})" if where else host.address)
    return _("This computer: {addresses}").format(addresses=" · ".join(parts))


class HostControls(TableApp):
    """The host's actions on its own table (each does nothing when this app hosts none)."""

    def _say_host_lobby(self, hosted: HostedTable) -> None:
        """The host's lobby message: where friends find the table, and the host's keys."""
        code = hosted.settings.code
        if hosted.advertiser is not None:
            seen = _("Friends see it in their lobby (poissonnier join) or type:")
        elif hosted.advert_error is not None:
            seen = _("It could not be announced on the LAN ({why}); friends type:").format(
                why=hosted.advert_error
            )
        else:
            seen = _("It is not announced on the LAN; friends type:")
        where = {"name": hosted.settings.name, "address": hosted.address, "code": code}
        if code:
            opened = _("Your table '{name}' is open on {address} (join code {code}).")
        else:
            opened = _("Your table '{name}' is open on {address}.")
        level = _(BOT_LEVELS[hosted.level]) if hosted.level in BOT_LEVELS else hosted.level
        keys = _(
            "b adds a {level} bot (l changes the level), x removes one, Enter starts the game."
        )
        self._say(
            opened.format(**where)
            + f"\n{seen}\npoissonnier join {hosted.address}"
            + (f" --code {code}" if code else "")
            + "\n"
            + addresses_text(host_addresses(hosted.settings.interface))
            + "\n\n"
            + keys.format(level=level)
        )

    async def action_add_bot(self) -> None:
        """Host, in the lobby: a bot takes the last open seat."""
        hosted = self.hosted
        if hosted is None:
            return
        try:
            seat = await hosted.add_bot()
        except Refused as exc:
            self.notify(refusal_or_message(exc.params, exc.message), severity="error")
            return
        if seat is None:
            self.notify(_("Every seat is taken."), severity="warning")

    def action_next_level(self) -> None:
        """Host, in the lobby: the next bot added is one level up (easy after hard)."""
        hosted = self.hosted
        if hosted is None:
            return
        level = hosted.next_level()
        self._say_host_lobby(hosted)
        self.notify(
            _("The next bot will play at the {level} level.").format(
                level=_(BOT_LEVELS[level]) if level in BOT_LEVELS else level
            ),
            timeout=3,
        )

    async def action_remove_bot(self) -> None:
        """Host, in the lobby: the first bot leaves its seat open."""
        hosted = self.hosted
        if hosted is None:
            return
        try:
            seat = await hosted.remove_bot()
        except Refused as exc:
            self.notify(refusal_or_message(exc.params, exc.message), severity="error")
            return
        if seat is None:
            self.notify(_("There is no bot to remove."), severity="warning")

    def action_seats(self) -> None:
        """Host, during the game: the seats, to hand an absent player's seat to a bot."""
        from poissonnier_tui.shell.screens.seats_dialog import SeatsDialog

        hosted = self.hosted
        if hosted is None or isinstance(self.screen, SeatsDialog):
            return
        self.push_screen(SeatsDialog(lambda: self.seats, hosted.is_stand_in))

    async def on_seats_dialog_seat_picked(self, event: SeatsDialog.SeatPicked) -> None:
        """Hand the seat to a bot, or give a stand-in's seat back to its absent player."""
        hosted = self.hosted
        if hosted is None:
            return
        try:
            if event.to_bot:
                await hosted.hand_to_bot(event.seat)
            else:
                await hosted.give_back(event.seat)
        except Refused as exc:
            why = refusal_or_message(exc.params, exc.message)
            self.notify(why, title=_("Seats"), severity="error")

    async def action_start_game(self) -> None:
        """The host starts the table's game (LAN tables; solo starts by itself)."""
        hosted = self.hosted
        if hosted is not None:  # our own table: start it directly, and say why not
            try:
                await hosted.server.start()
            except Refused as exc:
                why = refusal_or_message(exc.params, exc.message)
                self.notify(why, title=_("Not yet"), severity="warning")
            return
        if self.link is not None:
            await self.link.start()
