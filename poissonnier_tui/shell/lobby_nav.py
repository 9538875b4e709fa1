"""Navigation through the LAN lobby (``poissonnier join`` with no address).

The lobby (:class:`~poissonnier_tui.shell.screens.browse.BrowseScreen`) lists
the tables found on the LAN; picking one joins it (reclaiming a saved seat
token), and a failed join or a lost host comes back to the lobby with the
reason instead of waiting on the error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from poissonnier_tui.hosting.lan import format_address
from poissonnier_tui.i18n import _
from poissonnier_tui.shell.session import BrowseSession, JoinSession
from poissonnier_tui.shell.table_app import TableApp

if TYPE_CHECKING:  # the lobby (and its LAN browsing) is imported when shown
    from poissonnier_tui.shell.screens.browse import BrowseScreen


class LobbyNavigation(TableApp):
    """Between the LAN lobby and a table: join a picked table, come back with a reason."""

    @property
    def lobby_screen(self) -> BrowseScreen | None:
        """The LAN lobby screen, if it is on the screen stack."""
        from poissonnier_tui.shell.screens.browse import BrowseScreen

        return next((s for s in self.screen_stack if isinstance(s, BrowseScreen)), None)

    def _new_lobby(self, message: str = "", address: str = "") -> BrowseScreen:
        """A lobby screen for :attr:`lobby`, showing ``message`` (a problem) if any."""
        from poissonnier_tui.shell.screens.browse import BrowseScreen

        lobby = self.lobby or BrowseSession()
        return BrowseScreen(
            role=lobby.role,
            code=lobby.code,
            interface=lobby.interface,
            browser_factory=self._browser_factory,
            message=message,
            address=address,
            auto_table=lobby.table if not message else None,
        )

    def on_browse_screen_join_requested(self, event: BrowseScreen.JoinRequested) -> None:
        """The player picked a table in the lobby: join it (reclaiming a saved seat)."""
        lobby = self.lobby or BrowseSession()
        address = format_address(event.host, event.port)
        saved = (
            self.tokens.find(address, event.table, lobby.name)
            if self.tokens is not None and event.role == "player"
            else None
        )
        self.session = JoinSession(
            event.host,
            event.port,
            name=lobby.name,
            role=event.role,
            code=event.code or lobby.code,
            token=saved.token if saved else None,
            table=event.table,
            hosts=event.hosts,
        )
        self._forget_game()
        self.push_screen(self._new_connecting_screen())
        self.run_table()

    def back_to_lobby(self, message: str, *, address: str = "", code_field: bool = False) -> None:
        """Leave the game's screens for the LAN lobby, saying why (host gone, join refused)."""
        self.run_worker(self._close_link(), group="close")
        self._forget_game()
        lobby = self.lobby_screen
        if lobby is None:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            lobby = self._new_lobby(message, address)
            self.push_screen(lobby)
        else:
            while self.screen is not lobby:
                self.pop_screen()
        lobby.show_problem(message, address=address, code_field=code_field)
        self.notify(message, title=_("Back to the lobby"), severity="warning", timeout=10)
