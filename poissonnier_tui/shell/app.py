"""``PoissonnierApp``: the Textual client of a Poissonnier table.

The app owns the connection. One App-level worker (:meth:`_run_table`;
screen workers would die with their screen) joins the table, or in solo first
starts an in-process server with bots, then turns every server frame into a
message (:mod:`poissonnier_tui.shell.messages`). Handlers on the app set the
:attr:`snapshot` reactive, which flows down to the table screen and its
widgets. Moves come back up as :class:`~poissonnier_tui.shell.messages.MoveChosen`
and go out through an outbox the worker drains, in order.

Nothing in the worker may end the app silently: a refused move becomes an
error toast with the server's sentence, a lost connection a message on
screen with a way to reconnect, and an unexpected exception is reported the
same way rather than raised.

LAN play: a :class:`HostSession` opens a LAN table in this
process (server + zeroconf advert) and joins it as seat 0, with the host's
controls (add/remove bots in the lobby; F2 during the game hands an absent
player's seat to a bot). A :class:`BrowseSession` starts in the lobby of
tables found on the LAN (:class:`~poissonnier_tui.shell.screens.browse.BrowseScreen`);
with a ``lobby`` given, a failed join or a lost host goes back there with
the reason, instead of waiting on the error. Seat tokens go to a
:class:`~poissonnier_tui.hosting.tokens.TokenStore` when one is given, so running
``poissonnier join`` again reclaims the seat.

Usage (the CLI does this)::

    PoissonnierApp(SoloSession(bots=3, seed=7, name="Ana", bot_delay=0.5)).run()
    PoissonnierApp(JoinSession("192.168.1.20", 7777, name="Ben")).run()
    PoissonnierApp(BrowseSession(name="Ben"), tokens=TokenStore()).run()
    PoissonnierApp(HostSession(TableSettings(name="Friday", bots=1), name="Ana")).run()
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from net.messages import TABLE_CLOSED, Ack, Bye, ErrorReply, Lobby, View
from net.table import Refused
from poissonnier_tui.client.joining import advice
from poissonnier_tui.games.poissonnier.ui.autoplay import Autoplayer, fallback_move
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.snapshot import SeatLabel, TableSnapshot, seat_names
from poissonnier_tui.hosting.lan import HostedTable, format_address
from poissonnier_tui.hosting.tokens import TokenStore
from poissonnier_tui.shell.link import JoinError, TableLink, open_link
from poissonnier_tui.shell.messages import (
    ActionAcked,
    ActionRefused,
    Connected,
    ConnectFailed,
    Disconnected,
    LobbyChanged,
    MoveChosen,
    Progress,
    ViewReceived,
)
from poissonnier_tui.shell.screens.browse import BrowserFactory, BrowseScreen
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.screens.help import HelpScreen
from poissonnier_tui.shell.screens.quit_dialog import QuitDialog
from poissonnier_tui.shell.screens.seats_dialog import SeatsDialog
from poissonnier_tui.shell.session import (
    BrowseSession,
    HostSession,
    JoinSession,
    Session,
    SoloSession,
)

__all__ = ["BrowseSession", "HostSession", "JoinSession", "PoissonnierApp", "SoloSession"]

log = logging.getLogger(__name__)


class PoissonnierApp(App[None]):
    """Le Poissonnier in the terminal, as a client of a table server.

    Args:
        session: :class:`SoloSession` (start a local table with bots),
            :class:`JoinSession` (join a table on the network),
            :class:`HostSession` (host a LAN table and sit at it) or
            :class:`BrowseSession` (pick a table from the LAN lobby).
        autoplay: override the session's ``autoplay``: one of the project's
            bots plays this seat, through the server like any move (demos,
            screenshots, tests; see :mod:`poissonnier_tui.games.poissonnier.ui.autoplay`).
        tokens: where seat tokens are saved and looked up; ``None``: nowhere.
        lobby: the LAN lobby to fall back to when a join fails or the host is
            gone (a :class:`BrowseSession` session is its own lobby).
        browser_factory: how the lobby finds tables (tests pass a fake).
    """

    # Absolute: Textual resolves a relative CSS_PATH next to the *subclass's* module.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False  # every command has a key; keep ctrl+p out of the footer

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
        Binding("f1", "help", "Help", priority=True, show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("f2", "seats", "Seats", priority=True),
    ]

    snapshot: reactive[TableSnapshot | None] = reactive(None)
    """The latest view of the game with the seats' names; ``None`` before the game starts."""
    seats: reactive[tuple[SeatLabel, ...]] = reactive(())
    """The lobby's seats (names, bots, connections), from ``lobby`` frames."""
    connected: reactive[bool] = reactive(False)
    """A live connection to the table."""

    def __init__(
        self,
        session: Session,
        *,
        autoplay: bool | None = None,
        tokens: TokenStore | None = None,
        lobby: BrowseSession | None = None,
        browser_factory: BrowserFactory | None = None,
    ) -> None:
        super().__init__()
        self.session: Session = session
        """How to reach the table; a reconnect reuses it with the seat's token."""
        own = getattr(session, "autoplay", False)
        self.autoplay: bool = own if autoplay is None else autoplay
        self.tokens = tokens
        """Saved seat tokens (``None``: not kept)."""
        self.lobby: BrowseSession | None = session if isinstance(session, BrowseSession) else lobby
        """The LAN lobby to go back to, if this app has one."""
        self._browser_factory = browser_factory
        """A bot plays this seat (through the server)."""
        self.link: TableLink | None = None
        """The live connection, while there is one."""
        self.seat: int | None = None
        """Our seat once joined (``None`` for a spectator)."""
        self.token: str | None = None
        """The seat's reconnect token."""
        self.started = False
        """The table has started its game."""
        self.failed = False
        """Joining failed or the connection was lost (``r`` tries again)."""
        self.last_error: ActionRefused | None = None
        """The last refusal from the server (for tests and the curious)."""
        self.sent: dict[int, dict[str, Any]] = {}
        """Actions in flight by ``seq``, to name them when refused."""
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._leaving = False
        self._table: TableScreen | None = None
        self._results_shown = False
        self._autoplay_rev = -1
        self._autoplay_busy = False
        self._autoplayer: Autoplayer | None = None

    # --- lifecycle ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        """Show the lobby of tables, or the connecting screen and start the network worker."""
        if isinstance(self.session, BrowseSession):
            self.push_screen(self._new_lobby())
            return
        self.push_screen(ConnectingScreen())
        self._run_table()

    @property
    def hosted(self) -> HostedTable | None:
        """The LAN table this app hosts (``poissonnier host``), while it runs."""
        # getattr: tests stand a minimal object in for the link.
        hosted: HostedTable | None = getattr(self.link, "hosted", None)
        return hosted

    @property
    def lobby_screen(self) -> BrowseScreen | None:
        """The LAN lobby screen, if it is on the screen stack."""
        return next((s for s in self.screen_stack if isinstance(s, BrowseScreen)), None)

    async def on_unmount(self) -> None:
        """Close what :meth:`on_mount` opened: the connection (and, in solo, the server)."""
        self._leaving = True  # the lost connection that follows is ours: no lobby, no alarm
        await self._close_link()

    @property
    def connecting_screen(self) -> ConnectingScreen | None:
        """The connecting/lobby screen, if it is on the screen stack."""
        return next((s for s in self.screen_stack if isinstance(s, ConnectingScreen)), None)

    def _say(self, message: str, *, failed: bool = False) -> None:
        """Update the connecting screen's message (pushing one if a game was on)."""
        screen = self.connecting_screen
        if screen is None:
            if not failed:
                return
            screen = ConnectingScreen()
            self.push_screen(screen)
        screen.failed = failed
        screen.message = message

    async def _close_link(self) -> None:
        """Close the link if there is one; never raise (the app may be exiting)."""
        link, self.link = self.link, None
        if link is not None:
            try:
                await link.close()
            except Exception:  # closing must never stop the app from exiting
                log.exception("Closing the table link failed.")

    # --- the network worker -----------------------------------------------------------------

    @work(exclusive=True, group="table", exit_on_error=False)
    async def _run_table(self) -> None:
        """Join (or start and join) the table, then relay its frames as messages."""

        def say(text: str) -> None:
            self.post_message(Progress(text))

        try:
            link = await open_link(self.session, say=say)
        except OSError as exc:  # a host's port is taken, a bad --interface
            self.post_message(ConnectFailed("unreachable", f"Cannot open the table: {exc}"))
            return
        except JoinError as exc:
            self.post_message(ConnectFailed(exc.code, exc.message))
            return
        except Exception as exc:  # e.g. no free port, unknown bot kind: say so, don't die
            log.exception("Could not open the table.")
            self.post_message(ConnectFailed("error", str(exc) or type(exc).__name__))
            return
        self.link = link
        self.post_message(Connected(link.seat, link.token, link.table_name, link.address))
        pump = asyncio.create_task(self._pump_outbox(link), name="outbox")
        reason = "The table closed the connection."
        closed = False
        try:
            async for msg in link.messages():
                if isinstance(msg, View):
                    self.post_message(ViewReceived(msg.rev, dict(msg.view), msg.ends_in_ms))
                elif isinstance(msg, Lobby):
                    self.post_message(
                        LobbyChanged(
                            seat_names([s.to_wire() for s in msg.seats]), msg.started, msg.phase
                        )
                    )
                elif isinstance(msg, Ack):
                    self.post_message(ActionAcked(msg.seq))
                elif isinstance(msg, ErrorReply):
                    self.post_message(ActionRefused(msg.code, msg.message, msg.seq))
                elif isinstance(msg, Bye):
                    reason = f"The table said goodbye ({msg.reason or 'no reason given'})."
                    closed = msg.reason == TABLE_CLOSED
            reason = link.lost_reason or reason
        except Exception as exc:  # a bug in the relay must surface, not end the app silently
            log.exception("The table connection failed.")
            reason = f"The connection failed: {exc}"
        finally:
            pump.cancel()
        self.post_message(Disconnected(reason, table_closed=closed))

    async def _pump_outbox(self, link: TableLink) -> None:
        """Send queued moves one by one, in the order they were chosen."""
        while True:
            action = await self._outbox.get()
            try:
                seq = await link.send_action(action)
            except Exception as exc:  # closed connection or an action that can't be sent
                self.post_message(
                    ActionRefused("not_sent", f"Could not send that move: {exc}", None, action)
                )
                continue
            self.sent[seq] = action

    def send_action(self, action: dict[str, Any]) -> None:
        """Queue ``action`` for the server; the answer comes back as a message."""
        if self.link is None:
            self.notify("Not connected to a table.", severity="error")
            return
        self._outbox.put_nowait(action)

    # --- messages from the worker --------------------------------------------------------------

    def on_progress(self, event: Progress) -> None:
        """Connecting, step by step."""
        self._say(event.text)

    def on_connected(self, event: Connected) -> None:
        """Joined: remember the seat and its token (for a reconnect), saved for a restart too."""
        self.seat, self.token, self.connected, self.failed = event.seat, event.token, True, False
        self.sub_title = event.table
        if (
            self.tokens is not None
            and isinstance(self.session, JoinSession)
            and event.token is not None
            and event.seat is not None
        ):
            self.tokens.save(event.address, event.table, event.seat, event.token, self.session.name)
        hosted = self.hosted
        if hosted is not None:
            self._say_host_lobby(hosted)
        else:
            where = "as a spectator" if event.seat is None else f"in seat {event.seat + 1}"
            self._say(
                f"Joined the table on {event.address} {where}. Waiting for the game to start…"
            )
        self.refresh_bindings()

    def _say_host_lobby(self, hosted: HostedTable) -> None:
        """The host's lobby message: where friends find the table, and the host's keys."""
        code = hosted.settings.code
        if hosted.advertiser is not None:
            seen = "Friends see it in their lobby (poissonnier join) or type:"
        elif hosted.advert_error is not None:
            why = hosted.advert_error
            seen = f"It could not be announced on the LAN ({why}); friends type:"
        else:
            seen = "It is not announced on the LAN; friends type:"
        self._say(
            f"Your table {hosted.settings.name!r} is open on {hosted.address}"
            + (f" (join code {code})" if code else "")
            + f".\n{seen}\npoissonnier join {hosted.address}"
            + (f" --code {code}" if code else "")
            + f"\n\nb adds a {hosted.level} bot (l changes the level), x removes one,"
            " Enter starts the game."
        )

    def on_connect_failed(self, event: ConnectFailed) -> None:
        """Show why, and offer to try again (in the LAN lobby, if there is one)."""
        if self.lobby is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            tip = advice(event.code, address)
            if event.code in ("already_started", "table_full"):
                tip = "Press w to watch it as a spectator."
            elif event.code == "bad_code":
                tip = "Type the join code in the Code field and press Enter in the address field."
            self.back_to_lobby(
                f"Could not join {address}: {event.message} {tip}".strip(),
                address=address,
                code_field=event.code == "bad_code",
            )
            return
        self.failed = True
        self._say(event.message, failed=True)
        self.notify(event.message, title="Could not join", severity="error")
        self.refresh_bindings()

    def on_lobby_changed(self, event: LobbyChanged) -> None:
        """Names and connections changed."""
        self.seats = event.seats
        self.started = event.started
        if (screen := self.connecting_screen) is not None:
            screen.seats = event.seats
        if self.snapshot is not None:
            self.snapshot = replace(self.snapshot, seats=event.seats)
        self.refresh_bindings()

    def on_view_received(self, event: ViewReceived) -> None:
        """A new view: update the snapshot, show the table (and the results at the end)."""
        deadline = None
        if event.ends_in_ms is not None:
            deadline = time.monotonic() + event.ends_in_ms / 1000
        self.snapshot = TableSnapshot(event.view, self.seats, event.rev, deadline)
        self._autoplay_step()

    def watch_snapshot(self, snap: TableSnapshot | None) -> None:
        """Push the snapshot to the table screen; switch screens as the game starts and ends."""
        if snap is None or self._leaving or not self.is_running or not self.screen_stack:
            return  # a view that arrives while the app closes has nowhere to go
        if self._table is None:
            self._table = TableScreen()
            self._table.announce_offers = not self.autoplay  # a bot needs no alerts
            self._table.snapshot = snap
            if isinstance(self.screen, ConnectingScreen):
                self.switch_screen(self._table)
            else:  # a dialog (help, quit) is open over the connecting screen
                self.push_screen(self._table)
        else:
            self._table.snapshot = snap
            if isinstance(self.screen, ConnectingScreen):
                self.pop_screen()  # reconnected: back to the table
        if snap.over and not self._results_shown:
            self._results_shown = True
            if self.tokens is not None and isinstance(self.session, JoinSession):
                address = format_address(self.session.host, self.session.port)
                self.tokens.forget(address, self.session.name)
            self.action_results()

    def on_action_acked(self, event: ActionAcked) -> None:
        """Accepted: the view that follows shows the effect."""
        self.sent.pop(event.seq, None)
        self._autoplay_busy = False

    def on_action_refused(self, event: ActionRefused) -> None:
        """Refused: say why, in the server's words; nothing changed (RULES.md cites the rule)."""
        action = event.action or (self.sent.pop(event.seq, None) if event.seq is not None else None)
        self.last_error = ActionRefused(event.code, event.message, event.seq, action)
        if self._autoplay_busy and self.autoplay and self.snapshot is not None:
            # The bot misjudged from its partial view (or lost a race with another
            # seat): no toast for a person who did nothing; take the safe way out.
            log.info("Autoplay move %r refused: %s", action, event.message)
            move = fallback_move(self.snapshot)
            if move is not None and move != action:
                self.send_action(move)
            else:
                self._autoplay_busy = False
            return
        self.notify(event.message, title="Not allowed", severity="error")

    def on_disconnected(self, event: Disconnected) -> None:
        """The connection ended: say so; the game screen stays for a last look."""
        self.link = None
        self.connected = False
        if self._leaving or (self.snapshot is not None and self.snapshot.over):
            return  # we left, or the table closed after the game: nothing to worry about
        if self.lobby is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            if event.table_closed:
                self.back_to_lobby(
                    f"The host closed the table at {address}; nothing of it remains.",
                    address=address,
                )
                return
            seat = (
                " Your seat is kept: pick the table again (or run 'poissonnier join "
                f"{address}') to take it back."
                if self.seat is not None
                else ""
            )
            self.back_to_lobby(
                f"Lost the table at {address}: {event.reason} The host may be gone.{seat}",
                address=address,
            )
            return
        self.failed = True
        self._say(event.reason, failed=True)
        self.notify(
            f"{event.reason} Press r to reconnect."
            if isinstance(self.session, JoinSession)
            else event.reason,
            title="Disconnected",
            severity="error",
            timeout=30,
        )
        self.refresh_bindings()

    def on_move_chosen(self, event: MoveChosen) -> None:
        """A screen chose a move: send it."""
        self.send_action(event.action)

    # --- the LAN lobby ---------------------------------------------------------------------

    def _new_lobby(self, message: str = "", address: str = "") -> BrowseScreen:
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
        self.push_screen(ConnectingScreen())
        self._run_table()

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
        self.notify(message, title="Back to the lobby", severity="warning", timeout=10)

    def _forget_game(self) -> None:
        """Drop what we knew of the last table (before joining another)."""
        self.snapshot = None
        self.seats = ()
        self.connected = False
        self.started = False
        self.failed = False
        self.seat = None
        self.token = None
        self.sent.clear()
        self._outbox = asyncio.Queue()
        self._table = None
        self._results_shown = False
        self._autoplay_rev = -1
        self._autoplay_busy = False
        self._autoplayer = None
        self.sub_title = ""

    # --- the host's controls ---------------------------------------------------------------

    async def action_add_bot(self) -> None:
        """Host, in the lobby: a bot takes the last open seat."""
        hosted = self.hosted
        if hosted is None:
            return
        try:
            seat = await hosted.add_bot()
        except Refused as exc:
            self.notify(exc.message, severity="error")
            return
        if seat is None:
            self.notify("Every seat is taken.", severity="warning")

    def action_next_level(self) -> None:
        """Host, in the lobby: the next bot added is one level up (easy after hard)."""
        hosted = self.hosted
        if hosted is None:
            return
        level = hosted.next_level()
        self._say_host_lobby(hosted)
        self.notify(f"The next bot will play at the {level} level.", timeout=3)

    async def action_remove_bot(self) -> None:
        """Host, in the lobby: the first bot leaves its seat open."""
        hosted = self.hosted
        if hosted is None:
            return
        try:
            seat = await hosted.remove_bot()
        except Refused as exc:
            self.notify(exc.message, severity="error")
            return
        if seat is None:
            self.notify("There is no bot to remove.", severity="warning")

    def action_seats(self) -> None:
        """Host, during the game: the seats, to hand an absent player's seat to a bot."""
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
            self.notify(exc.message, title="Seats", severity="error")

    # --- autoplay --------------------------------------------------------------------------------

    def _autoplay_step(self) -> None:
        """Play one move for this seat if it is waited on (at most one per view revision)."""
        snap = self.snapshot
        if (
            not self.autoplay
            or snap is None
            or self._autoplay_busy
            or snap.rev == self._autoplay_rev
        ):
            return
        if self._autoplayer is None:
            kind = self.session.bot_kinds[0] if isinstance(self.session, SoloSession) else "medium"
            self._autoplayer = Autoplayer(kind, seed=snap.me or 0)
        move = self._autoplayer.next_move(snap)
        if move is None:
            return
        self._autoplay_rev = snap.rev
        self._autoplay_busy = True
        self.send_action(move)

    # --- actions -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that depend on the connection's state."""
        if action == "results":
            return self.snapshot is not None and self.snapshot.over
        if action == "start_game":
            host = self.seat == 0 or self.hosted is not None
            return self.connected and host and not self.started and self.snapshot is None
        if action in ("add_bot", "remove_bot", "next_level"):
            return self.hosted is not None and self.connected and not self.started
        if action == "seats":
            return self.hosted is not None and self.started
        if action == "reconnect":
            # A solo table lives in this app: once its game has begun it cannot be rejoined.
            rejoinable = isinstance(self.session, JoinSession) or self._table is None
            return self.failed and not self.connected and rejoinable
        return True

    def action_results(self) -> None:
        """Show the results screen (game over)."""
        if (
            self.snapshot is not None
            and self.snapshot.over
            and not isinstance(self.screen, ResultsScreen)
        ):
            self.push_screen(ResultsScreen(self.snapshot))

    def action_help(self) -> None:
        """Open the help (or close it if it is open)."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            self.push_screen(HelpScreen())

    def action_request_quit(self) -> None:
        """``ctrl+q``: confirm, then leave (a second ``ctrl+q`` confirms)."""
        if isinstance(self.screen, QuitDialog):
            self.screen.dismiss(True)
            return
        if self.link is None or (self.snapshot is not None and self.snapshot.over):
            self.run_worker(self._leave(True), group="quit")
            return
        if isinstance(self.session, SoloSession):
            detail = "This is a solo game: leaving ends it."
        elif isinstance(self.session, HostSession):
            detail = "You host this table: leaving closes it for everyone."
        elif self.seat is None:
            detail = "You are watching: leave whenever you like."
        elif self.tokens is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            detail = (
                "Your seat is kept for you: run [b]poissonnier join "
                f"{address}[/b] again to take it back."
            )
        else:
            detail = (
                "Your seat is kept for you: join again with the token "
                f"[b]{self.token}[/b] to carry on."
            )
        self.push_screen(QuitDialog(detail), self._leave)

    async def _leave(self, leave: bool | None) -> None:
        """The quit dialog's answer: on yes, close the link and exit."""
        if leave:
            self._leaving = True
            await self._close_link()
            self.exit()

    async def action_start_game(self) -> None:
        """The host starts the table's game (LAN tables; solo starts by itself)."""
        hosted = self.hosted
        if hosted is not None:  # our own table: start it directly, and say why not
            try:
                await hosted.server.start()
            except Refused as exc:
                self.notify(exc.message, title="Not yet", severity="warning")
            return
        if self.link is not None:
            await self.link.start()

    def action_reconnect(self) -> None:
        """Try again: rejoin with our seat's token, or set up the solo table again."""
        if isinstance(self.session, JoinSession) and self.token:
            self.session = replace(self.session, token=self.token)
        self.failed = False
        self._say("Trying again…")
        self._run_table()
        self.refresh_bindings()
