"""``PoissonnierApp``: the Textual client of a table of any registered fish game.

The app wires screens together; each of its other jobs has its own module:

- :mod:`~poissonnier_tui.shell.worker`: the network worker's loop and the outbox
  (:class:`~poissonnier_tui.shell.worker.TableRelay`), run in one App-level worker;
  it turns every server frame into a message (:mod:`poissonnier_tui.shell.messages`);
- :mod:`~poissonnier_tui.shell.table_app`: the state at the table, shared by the jobs;
- :mod:`~poissonnier_tui.shell.lobby_nav`: the LAN lobby (``poissonnier join``);
- :mod:`~poissonnier_tui.shell.host_controls`: the host's keys (``poissonnier host``);
- :mod:`~poissonnier_tui.shell.autoplay`: a bot playing this seat.

The game's screens come from its UI module, found in the registry from the
game the table plays (:mod:`~poissonnier_tui.shell.game_ui`): the handlers
read each view into the game's snapshot (:attr:`snapshot`), which goes to the
game's table screen; moves come back up as
:class:`~poissonnier_tui.shell.messages.MoveChosen` and go out through the
outbox, in order.

Nothing may end the app silently: a refused move becomes an error toast with
the server's sentence, a lost connection a message on screen with a way to
reconnect (or, with a LAN lobby, the lobby with the reason).

Usage (the CLI does this)::

    PoissonnierApp(SoloSession(bots=3, seed=7, name="Ana", bot_delay=0.5)).run()
    PoissonnierApp(JoinSession("192.168.1.20", 7777, name="Ben")).run()
    PoissonnierApp(BrowseSession(name="Ben"), tokens=TokenStore()).run()
    PoissonnierApp(HostSession(TableSettings(name="Friday", bots=1), name="Ana")).run()

Tests open a table of their own with ``connect`` (a
:class:`~poissonnier_tui.shell.worker.Connect`), e.g. the rules engine in process.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from net.messages import SEAT_GIVEN
from net.reconnect import GIVE_UP_AFTER
from poissonnier_tui import collector
from poissonnier_tui.client.joining import advice
from poissonnier_tui.games import DEFAULT_GAME, game_entry
from poissonnier_tui.hosting.lan import format_address
from poissonnier_tui.i18n import N_, _, language
from poissonnier_tui.refusals import table_refusal_text
from poissonnier_tui.shell.autoplay import Autoplay
from poissonnier_tui.shell.frames import settle_heap_once
from poissonnier_tui.shell.game_ui import GameSnapshot, load_game_ui
from poissonnier_tui.shell.home_nav import HomeNavigation
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
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.session import (
    BrowseSession,
    HomeSession,
    HostSession,
    JoinSession,
    SoloSession,
)
from poissonnier_tui.shell.table_chat import TableChat
from poissonnier_tui.shell.table_drafts import TableDrafts
from poissonnier_tui.shell.table_prices import TablePrices

SLOW_DOWN_RETRY = 0.25
"""Seconds before autoplay sends again a move the table refused as too fast (``slow_down``:
a seat's action budget refills at 10 a second)."""

SOLO_CONNECTING_AFTER = 0.5
"""Seconds a solo start waits for its table before it shows the connecting screen."""

RESUME_SOLO = "poissonnier host --resume last --interface 127.0.0.1"
"""The command that carries on the most recent unfinished game, a solo one included
(its bots sit again; the player takes seat 1 back), on this machine only: without
``--interface`` a host listens on every interface and advertises the table on the LAN,
which a solo game never was."""

__all__ = [
    "BrowseSession",
    "HomeSession",
    "HostSession",
    "JoinSession",
    "PoissonnierApp",
    "SoloSession",
]


class PoissonnierApp(HomeNavigation, TableChat, TableDrafts, TablePrices):
    """Fish games in the terminal, as a client of a table server.

    Args (see :class:`~poissonnier_tui.shell.table_app.TableApp`):
        session: :class:`SoloSession` (start a local table with bots),
            :class:`JoinSession` (join a table on the network),
            :class:`HostSession` (host a LAN table and sit at it) or
            :class:`BrowseSession` (pick a table from the LAN lobby).
        autoplay: override the session's ``autoplay``: one of the game's bots
            plays this seat, through the server like any move (demos,
            screenshots, tests; see :mod:`poissonnier_tui.shell.autoplay`).
        tokens: where seat tokens are saved and looked up; ``None``: nowhere.
        lobby: the LAN lobby to fall back to when a join fails or the host is
            gone (a :class:`BrowseSession` session is its own lobby).
        browser_factory: how the lobby finds tables (tests pass a fake).
        connect: how the table is opened (default
            :func:`~poissonnier_tui.shell.link.open_link`).
    """

    # Absolute: Textual resolves a relative CSS_PATH next to the *subclass's* module.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "Poissonnier"
    ENABLE_COMMAND_PALETTE = False  # every command has a key; keep ctrl+p out of the footer

    rejoin_for: float = GIVE_UP_AFTER
    """Seconds the app keeps trying to get back to a table that vanished (a few minutes)."""
    rejoining: bool = False
    """The table vanished and the app is trying to get back to it (``c`` stops)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", N_("Quit"), priority=True),
        Binding("f1", "help", N_("Help"), priority=True, show=False),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("f2", "seats", N_("Seats"), priority=True),
        Binding("k", "chat", N_("Chat")),
    ]

    # --- lifecycle ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        """Show the home screen, the lobby of tables, or the connecting screen (for a solo
        table, only if it is slow to come) and start the network worker."""
        translate_bindings(self)  # the footer's quit, help... in the player's language
        # The command held the garbage collector off for the start (poissonnier_tui/
        # collector.py): back once the first screen that matters is drawn, or anyway soon.
        self.set_timer(collector.LONGEST_HOLD, collector.release)
        if isinstance(self.session, HomeSession):
            self.open_home(self.session)
            self.call_after_refresh(collector.release)
            return
        if isinstance(self.session, BrowseSession):
            self.push_screen(self._new_lobby())
            self.call_after_refresh(collector.release)
            return
        if isinstance(self.session, SoloSession):
            # A solo table is up in a blink: a connecting screen would only flash by (and
            # cost the table's first frame its making); it shows if the table is slow.
            self.set_timer(SOLO_CONNECTING_AFTER, self._connecting_if_still_waiting)
        else:
            self.push_screen(self._new_connecting_screen())
        self.run_table()

    def _connecting_if_still_waiting(self) -> None:
        """The connecting screen, with the last progress said, if the table is not shown yet
        (nor a connecting screen, e.g. one that says why joining failed)."""
        if self._table is None and self.connecting_screen is None and not self._leaving:
            screen = self._new_connecting_screen()
            if self.said:
                screen.message = self.said
            self.push_screen(screen)

    async def on_unmount(self) -> None:
        """Close what :meth:`on_mount` opened: the connection (and, in solo, the server)."""
        collector.release()
        self._leaving = True  # the lost connection that follows is ours: no lobby, no alarm
        await self._close_link()

    # --- messages from the worker --------------------------------------------------------------

    def on_progress(self, event: Progress) -> None:
        """Connecting, step by step."""
        self._say(event.text)

    def on_connected(self, event: Connected) -> None:
        """Joined: remember the seat and its token (for a reconnect), saved for a restart too."""
        self.seat, self.token, self.connected, self.failed = event.seat, event.token, True, False
        self.rejoining = False
        self.ui = load_game_ui(event.game)
        self.title = _(game_entry(event.game or DEFAULT_GAME).title)  # the header names the game
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
            if event.seat is None:
                joined = _(
                    "Joined the table on {address} as a spectator. Waiting for the game to start…"
                )
            else:
                joined = _(
                    "Joined the table on {address} in seat {seat}. Waiting for the game to start…"
                )
            self._say(joined.format(address=event.address, seat=(event.seat or 0) + 1))

    def on_connect_failed(self, event: ConnectFailed) -> None:
        """Show why, and offer to try again (in the LAN lobby, if there is one)."""
        self.rejoining = False
        if self.lobby is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            tip = advice(event.code, address)
            if event.code in ("already_started", "table_full"):
                tip = _("Press w to watch it as a spectator.")
            elif event.code == "bad_code":
                tip = _(
                    "Type the join code in the Code field and press Enter in the address field."
                )
            self.back_to_lobby(
                _("Could not join {address}: {why} {tip}")
                .format(address=address, why=event.message, tip=tip)
                .strip(),
                address=address,
                code_field=event.code == "bad_code",
            )
            return
        self.failed = True
        self._say(event.message, failed=True)
        self.notify(event.message, title=_("Could not join"), severity="error")

    def on_lobby_changed(self, event: LobbyChanged) -> None:
        """Names and connections changed (or, after a game, the table went back to its
        lobby for a rematch: follow it)."""
        rematch = not event.started and self.snapshot is not None and self.snapshot.over
        self.seats = event.seats
        self.started = event.started
        if self.snapshot is not None:
            deadline = getattr(self.snapshot, "deadline", None)  # the step's limit runs on
            self.snapshot = self.game_ui.read(
                self.snapshot.view, event.seats, self.snapshot.rev, deadline
            )
        if rematch:
            self.follow_rematch()

    def on_view_received(self, event: ViewReceived) -> None:
        """A new view: update the snapshot, show the table (and the results at the end)."""
        deadline = None
        if event.ends_in_ms is not None:  # the table's clock, in this machine's
            deadline = time.monotonic() + event.ends_in_ms / 1000
        self.snapshot = self.game_ui.read(event.view, self.seats, event.rev, deadline)
        if (
            self._table is not None
            and self.is_running
            and self.screen_stack  # (none while the app closes)
            and isinstance(self.screen, ConnectingScreen)
        ):
            # Reconnected: back to the table. Here, not in the snapshot's watcher, which
            # does not run when the view is the one shown before the connection was lost
            # (a host resumed from its log just where it stopped).
            self.pop_screen()
        self.heard_answer_times(event.answers_in_ms)
        self.answer_frame.release()  # the move's answer and its key's own change: one frame
        self.autoplay_step()

    def watch_snapshot(self, snap: GameSnapshot | None) -> None:
        """Push the snapshot to the table screen; switch screens as the game starts and ends."""
        if snap is None or self._leaving or not self.is_running or not self.screen_stack:
            return  # a view that arrives while the app closes has nowhere to go
        if self._table is None:
            self.clear_notifications()  # the lobby's toasts are not news at the table
            self._table = self.game_ui.table_screen(snap, bot_plays=self.autoplay)
            self._table.call_after_refresh(settle_heap_once)  # once the table is drawn
            if isinstance(self.screen, ConnectingScreen):
                self.switch_screen(self._table)
            else:  # a dialog (help, quit) is open over the connecting screen
                self.push_screen(self._table)
            self.call_after_refresh(collector.release)  # the table is drawn: the start is over
        else:
            self.game_ui.show(self._table, snap)  # (a reconnect: on_view_received)
        if snap.over and self._results is None:
            if self.tokens is not None and isinstance(self.session, JoinSession):
                address = format_address(self.session.host, self.session.port)
                self.tokens.forget(address, self.session.name)
            self.action_results()

    def on_action_acked(self, event: ActionAcked) -> None:
        """Accepted: the view that follows shows the effect."""
        self.relay.acked(event.seq)
        if self.autoplayer is not None:
            self.autoplayer.acked()

    def on_action_refused(self, event: ActionRefused) -> None:
        """Refused: say why, in the server's words; nothing changed (the rules cite the rule)."""
        self.answer_frame.release()
        action = self.relay.refused(event)
        self.last_error = ActionRefused(
            event.code, event.message, event.seq, action, params=event.params
        )
        autoplayer = self.autoplayer
        if self.autoplay and autoplayer is not None and autoplayer.busy and self.snapshot:
            if event.code == "slow_down" and action is not None:
                # Over the table's action rate (net/server.py): the same move, a moment
                # later (the autoplayer stays busy meanwhile), rather than none at all.
                self.set_timer(SLOW_DOWN_RETRY, lambda: self.send_action(action))
                return
            move = autoplayer.refused(self.snapshot, action, event.message)
            if move is not None:
                self.send_action(move)
            return
        self.notify(self.refusal_text(event), title=_("Not allowed"), severity="error")

    def refusal_text(self, event: ActionRefused) -> str:
        """A refusal in the player's language: the table's own refusals from
        :mod:`poissonnier_tui.refusals`, a game's by the game's UI from its code and
        parameters when it can (an optional ``refusal`` of its ``GameUI``); otherwise
        the server's own sentence."""
        table = table_refusal_text(event.params, event.message)
        if table is not None:  # one of the table's own refusals (every game's)
            return table
        render = getattr(self.game_ui, "refusal", None)
        if render is None:
            return event.message
        text = render(event.code, event.params, event.message)
        return text if isinstance(text, str) else event.message

    def on_disconnected(self, event: Disconnected) -> None:
        """The connection ended: say so; the game screen stays for a last look."""
        self.answer_frame.release()
        self.relay.lost()
        self.connected = False
        if self._leaving or (self.snapshot is not None and self.snapshot.over):
            if event.bye == SEAT_GIVEN and not self._leaving:
                self.notify(_("The rematch starts without you: the host gave your seat away."))
            return  # we left, or the table closed after the game: nothing to worry about
        seated = bool(self.token) and self.seat is not None
        if (
            isinstance(self.session, JoinSession)
            and (seated or self.session.role == "spectator")
            and not event.goodbye
        ):  # vanished without a goodbye (a crash?): keep trying to retake the seat, or
            # to watch again (a spectator needs no token)
            if seated:
                self.session = replace(self.session, token=self.token)
            if self.connecting_screen is None:
                self.push_screen(self._new_connecting_screen())
            self.failed = False
            self.rejoining = True
            self.refresh_bindings()
            self._say(_("Host lost — reconnecting…"))
            self.rejoin_table()
            return
        if self.lobby is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            if event.table_closed:
                self.back_to_lobby(
                    _("The host closed the table at {address}; nothing of it remains.").format(
                        address=address
                    ),
                    address=address,
                )
                return
            if event.goodbye:  # the host said why (it left, or closed for a rematch...)
                lost = (
                    _(
                        "Back from the table at {address}: {why} Your seat is kept: pick "
                        "the table again (or run 'poissonnier join {address}') to take it back."
                    )
                    if self.seat is not None
                    else _("Back from the table at {address}: {why}")
                )
            else:
                lost = (
                    _(
                        "Lost the table at {address}: {why} The host may be gone. Your seat is "
                        "kept: pick the table again (or run 'poissonnier join {address}') to "
                        "take it back."
                    )
                    if self.seat is not None
                    else _("Lost the table at {address}: {why} The host may be gone.")
                )
            self.back_to_lobby(lost.format(address=address, why=event.reason), address=address)
            return
        self.failed = True
        self._say(event.reason, failed=True)
        self.notify(
            _("{why} Press r to reconnect.").format(why=event.reason)
            if isinstance(self.session, JoinSession)
            else event.reason,
            title=_("Disconnected"),
            severity="error",
            timeout=30,
        )

    def on_move_chosen(self, event: MoveChosen) -> None:
        """A screen chose a move: send it."""
        self.send_action(event.action)

    # --- autoplay --------------------------------------------------------------------------------

    def autoplay_step(self) -> None:
        """Play one move for this seat if it is waited on (at most one per view revision)."""
        snap = self.snapshot
        if not self.autoplay or snap is None:
            return
        if self.autoplayer is None:
            entry = game_entry(self.game_ui.name)
            session = self.session
            kind = session.bot_kinds[0] if isinstance(session, SoloSession) else entry.default_level
            self.autoplayer = Autoplay(self.game_ui, entry.make_bot(kind, snap.me or 0))
        move = self.autoplayer.step(snap)
        if move is not None:
            self.send_action(move)

    # --- actions -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that depend on the connection's state."""
        if action == "results":
            return self.snapshot is not None and self.snapshot.over
        if action == "rematch":
            return self.can_rematch()
        if action == "rematch_answer":
            return self.can_answer_rematch()
        if action == "rematch_give":
            return self.can_give_rematch_seats()
        if action == "start_game":
            host = self.seat == 0 or self.hosted is not None
            return self.connected and host and not self.started and self.snapshot is None
        if action in ("add_bot", "remove_bot", "next_level"):
            return self.hosted is not None and self.connected and not self.started
        if action == "seats":
            return self.hosted is not None and self.started
        if action == "stop_reconnecting":
            return self.rejoining and not self.connected
        if action == "chat":
            return self.connected and self._table is not None
        if action == "reconnect":
            # A solo table lives in this app: once its game has begun it cannot be rejoined.
            rejoinable = isinstance(self.session, JoinSession) or self._table is None
            return self.failed and not self.connected and rejoinable
        return True

    def action_results(self) -> None:
        """Show the results screen (game over)."""
        if self.snapshot is None or not self.snapshot.over:
            return
        if self._results is None or self._results is not self.screen:
            self._results = self.game_ui.results_screen(self.snapshot)
            self.push_screen(self._results)

    def action_help(self) -> None:
        """Open the help (or close it if it is open)."""
        from poissonnier_tui.shell.screens.help import HelpScreen  # dialogs: when asked for

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            lang = language()
            game_help = self.ui.help(lang) if self.ui is not None else ""
            self.push_screen(HelpScreen(game_help, lang=lang))

    def action_request_quit(self) -> None:
        """``ctrl+q``: confirm, then leave (a second ``ctrl+q`` confirms)."""
        from poissonnier_tui.shell.screens.quit_dialog import QuitDialog

        if isinstance(self.screen, QuitDialog):
            self.screen.dismiss(True)
            return
        if self.link is None or (self.snapshot is not None and self.snapshot.over):
            self.run_worker(self._leave(True), group="quit")
            return
        if isinstance(self.session, SoloSession):
            detail = _(
                "This solo game is saved as you play. To carry on with it later, run "
                "[b]{command}[/b] (it takes the most recent game not over; "
                "[b]poissonnier history[/b] lists them)."
            ).format(command=RESUME_SOLO)
        elif isinstance(self.session, HostSession):
            detail = _("You host this table: leaving closes it for everyone.")
        elif self.seat is None:
            detail = _("You are watching: leave whenever you like.")
        elif self.tokens is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            detail = _(
                "Your seat is kept for you: run [b]poissonnier join {address}[/b] again to take "
                "it back."
            ).format(address=address)
        else:
            detail = _(
                "Your seat is kept for you: join again with the token [b]{token}[/b] to carry on."
            ).format(token=self.token)
        self.push_screen(QuitDialog(detail), self._leave)

    async def _leave(self, leave: bool | None) -> None:
        """The quit dialog's answer: on yes, close the link and exit (or, when the app
        opened on the home screen, go back to it)."""
        if leave and self.home_started and self.home_screen is not None:
            if self.screen is self.home_screen:
                self.exit()
                return
            note = self._resume_note()
            if note:
                self.notify(note, timeout=20)
            self.switch_table(None)
            return
        if leave:
            self._leaving = True
            await self._close_link()
            self.exit(message=self._resume_note())

    def _resume_note(self) -> str | None:
        """What to print on leaving a solo game before its end: how to carry it on."""
        snap = self.snapshot
        if not isinstance(self.session, SoloSession) or snap is None or snap.over:
            return None
        return _("Your game is saved; to carry on with it, run: {command}").format(
            command=RESUME_SOLO
        )

    @work(exclusive=True, group="table", exit_on_error=False)
    async def rejoin_table(self) -> None:
        """The network worker after a table vanished: rejoin it in the background
        (:meth:`TableRelay.rejoin`, a few minutes of tries), then relay as before."""
        if isinstance(self.session, JoinSession):
            await self.relay.rejoin(self.session, give_up_after=self.rejoin_for)

    def action_stop_reconnecting(self) -> None:
        """Stop trying to get back to a lost table (``c`` on the connecting screen)."""
        if self.connected or not self.rejoining:
            return
        self.rejoining = False
        self.workers.cancel_group(self, "table")
        message = _("Stopped reconnecting. Press r to try again.")
        if self.lobby is not None and isinstance(self.session, JoinSession):
            address = format_address(self.session.host, self.session.port)
            self.back_to_lobby(message, address=address)
            return
        self.failed = True
        self._say(message, failed=True)

    def action_reconnect(self) -> None:
        """Try again: rejoin with our seat's token, or set up the solo table again."""
        if isinstance(self.session, JoinSession) and self.token:
            self.session = replace(self.session, token=self.token)
        self.failed = False
        self._say(_("Trying again…"))
        self.run_table()
