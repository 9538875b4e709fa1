"""``TableApp``: what the app knows of the table it sits at, shared by the app's jobs.

:class:`~poissonnier_tui.shell.app.PoissonnierApp` is this plus its jobs, one
module each: the LAN lobby (:mod:`~poissonnier_tui.shell.lobby_nav`), the
host's controls (:mod:`~poissonnier_tui.shell.host_controls`), and the
screens wired together (:mod:`~poissonnier_tui.shell.app`). The network worker
and outbox are :class:`~poissonnier_tui.shell.worker.TableRelay`; autoplay is
:class:`~poissonnier_tui.shell.autoplay.Autoplay`.

The reactives carry ``bindings=True``: whenever one changes, the footer
shows again only the keys that apply (``check_action``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App
from textual.reactive import reactive
from textual.screen import Screen

from poissonnier_tui.games import DEFAULT_GAME, game_entry
from poissonnier_tui.hosting.tables import HostedTable
from poissonnier_tui.hosting.tokens import TokenStore
from poissonnier_tui.i18n import _
from poissonnier_tui.shell.autoplay import Autoplay
from poissonnier_tui.shell.frames import AnswerFrame
from poissonnier_tui.shell.game_ui import (
    GameSnapshot,
    GameUI,
    load_game_ui,
    screen_css,
    stylesheets_ahead,
)
from poissonnier_tui.shell.messages import ActionRefused
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.seats import SeatLabel
from poissonnier_tui.shell.session import (
    BrowseSession,
    HostSession,
    JoinSession,
    Session,
    SoloSession,
)
from poissonnier_tui.shell.worker import Connect, Link, TableRelay

if TYPE_CHECKING:
    from poissonnier_tui.shell.screens.browse import BrowserFactory


class TableApp(App[None]):
    """The state of this client at one table, and the helpers every job of the app uses.

    Args:
        session: how to reach the table (see :mod:`poissonnier_tui.shell.session`).
        autoplay: override the session's ``autoplay``.
        tokens: where seat tokens are saved and looked up; ``None``: nowhere.
        lobby: the LAN lobby to fall back to (a :class:`BrowseSession` is its own).
        browser_factory: how the lobby finds tables (tests pass a fake).
        connect: how a session's table is opened (default
            :func:`~poissonnier_tui.shell.link.open_link`; tests pass their own link).
    """

    snapshot: reactive[GameSnapshot | None] = reactive(None, bindings=True, repaint=False)
    """The latest view of the game with the seats' names, as the game's UI reads it
    (:meth:`GameUI.read`); ``None`` before the game starts. Not a repaint of the whole
    screen: the game's screen hands it on, and each widget repaints itself only if
    what it draws changed."""
    seats: reactive[tuple[SeatLabel, ...]] = reactive((), bindings=True)
    """The lobby's seats (names, bots, connections), from ``lobby`` frames."""
    connected: reactive[bool] = reactive(False, bindings=True)
    """A live connection to the table."""
    started: reactive[bool] = reactive(False, bindings=True)
    """The table has started its game."""
    failed: reactive[bool] = reactive(False, bindings=True)
    """Joining failed or the connection was lost (``r`` tries again)."""

    def __init__(
        self,
        session: Session,
        *,
        autoplay: bool | None = None,
        tokens: TokenStore | None = None,
        lobby: BrowseSession | None = None,
        browser_factory: BrowserFactory | None = None,
        connect: Connect | None = None,
    ) -> None:
        super().__init__()
        if isinstance(session, SoloSession | JoinSession | HostSession):
            # Read every style once: the connecting screen's and the table's with the app's.
            game = session.settings.game if isinstance(session, HostSession) else session.game
            ahead = stylesheets_ahead(game, screen_css(ConnectingScreen))
            self.css_path = [*self.css_path, *ahead]
        self.session: Session = session
        """How to reach the table; a reconnect reuses it with the seat's token."""
        own = getattr(session, "autoplay", False)
        self.autoplay: bool = own if autoplay is None else autoplay
        """A bot plays this seat (through the server)."""
        self.tokens = tokens
        """Saved seat tokens (``None``: not kept)."""
        self.lobby: BrowseSession | None = session if isinstance(session, BrowseSession) else lobby
        """The LAN lobby to go back to, if this app has one."""
        self._browser_factory = browser_factory
        self.relay = TableRelay(self.post_message, connect)
        """The network worker's loop and the outbox."""
        self.seat: int | None = None
        """Our seat once joined (``None`` for a spectator)."""
        self.token: str | None = None
        """The seat's reconnect token."""
        self.ui: GameUI[Any] | None = None
        """The screens of the table's game, loaded from the registry once joined."""
        self.last_error: ActionRefused | None = None
        """The last refusal from the server (for tests and the curious)."""
        self.autoplayer: Autoplay | None = None
        """The bot playing this seat, once the first view came (with :attr:`autoplay`)."""
        self.answer_frame = AnswerFrame(self)
        """Holds the drawing while the table answers a move (:mod:`.frames`)."""
        self._leaving = False
        self._table: Screen[None] | None = None
        self._results: Screen[None] | None = None

    def refresh_bindings(self) -> None:
        """Show again the keys that apply now (the reactives call this); nothing once the
        app is closing and its last screen is gone."""
        if self.screen_stack:
            super().refresh_bindings()

    @property
    def link(self) -> Link | None:
        """The live connection, while there is one."""
        return self.relay.link

    @property
    def game_ui(self) -> GameUI[Any]:
        """The screens of the table's game (the registry's default game until joined)."""
        if self.ui is None:
            self.ui = load_game_ui()
        return self.ui

    @property
    def game_title(self) -> str:
        """The name players read of the game the session plays (the default game's if it
        names none, e.g. a host's table)."""
        return _(game_entry(getattr(self.session, "game", DEFAULT_GAME)).title)

    @property
    def hosted(self) -> HostedTable | None:
        """The LAN table this app hosts (``poissonnier host``), while it runs."""
        return self.link.hosted if self.link is not None else None

    @property
    def connecting_screen(self) -> ConnectingScreen | None:
        """The connecting/lobby screen, if it is on the screen stack."""
        return next((s for s in self.screen_stack if isinstance(s, ConnectingScreen)), None)

    @work(exclusive=True, group="table", exit_on_error=False)
    async def run_table(self) -> None:
        """The App-level network worker: join (or start and join) :attr:`session`'s table
        and relay its frames as messages (:meth:`TableRelay.run`)."""
        await self.relay.run(self.session)

    def send_action(self, action: dict[str, Any]) -> None:
        """Queue ``action`` for the server; the answer comes back as a message."""
        if not self.relay.send(action):
            self.answer_frame.release()
            self.notify(_("Not connected to a table."), severity="error")

    def _new_connecting_screen(self) -> ConnectingScreen:
        """A connecting screen for this game whose seats follow :attr:`seats` (data-bound)."""
        return ConnectingScreen(self.game_title).data_bind(TableApp.seats)

    said = ""
    """The last progress or problem :meth:`_say` said (shown by a connecting screen pushed
    later)."""

    def _say(self, message: str, *, failed: bool = False) -> None:
        """Update the connecting screen's message (pushing one if a game was on, or to say
        what failed)."""
        self.said = message
        screen = self.connecting_screen
        if screen is None:
            if not failed:
                return
            screen = self._new_connecting_screen()
            self.push_screen(screen)
        screen.failed = failed
        screen.message = message

    async def _close_link(self) -> None:
        """Close the link if there is one; never raise (the app may be exiting)."""
        await self.relay.close()

    def _forget_game(self) -> None:
        """Drop what we knew of the last table (before joining another)."""
        self.snapshot = None
        self.seats = ()
        self.connected = False
        self.started = False
        self.failed = False
        self.seat = None
        self.token = None
        self.relay.reset()
        self._table = None
        self._results = None
        self.ui = None
        self.autoplayer = None
        self.title = self.TITLE or ""  # the app's own name, as at home
        self.sub_title = ""
