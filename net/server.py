"""`TableServer`: hosts one table of any game on asyncio TCP.

One task per connection reads and checks frames; every change to the table
happens under one :class:`asyncio.Lock`, so the order is: apply, await the
``on_action`` hook (the action log), ack the sender, send every connection its
own view. Sending only queues (see :mod:`net.connection`), so a slow client
never holds the lock or anyone else.

What leaves the server about the game is only ever ``Match.view(seat)`` (in
``view`` frames) and the game's own refusal sentences (in ``error`` frames).
``lobby`` frames carry names, seat kinds and connection flags; nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from net.connection import QUEUE_SIZE, WRITE_TIMEOUT, FramedConnection
from net.frames import CLIENT_LIMITS, PROTOCOL_VERSION, ConnectionLost, FrameError, encode
from net.game import Agent, GameDefinition, Wire
from net.listen import listening_socket
from net.messages import (
    NAME_MAX,
    SEQ_MAX,
    TABLE_CLOSED,
    Ack,
    ActionRequest,
    Bye,
    ErrorReply,
    Hello,
    Lobby,
    Phase,
    Ping,
    Pong,
    SeatInfo,
    Start,
    TableInfo,
    View,
    Welcome,
    check_action,
    parse_client_message,
)
from net.schema import BadMessage
from net.table import Refused, SeatRecord, Table
from net.turns import Outcome, TimeLimit, TurnKeeper

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Timing:
    """Network timings and limits; the defaults suit a LAN, tests shrink them.

    Attributes:
        ping_interval: Seconds between keep-alive pings to each client.
        idle_timeout: Seconds of silence after which a client is dropped.
        hello_timeout: Seconds a new connection has to send its ``hello``.
        queue_size: Frames queued per client before it counts as too slow.
        write_timeout: Seconds one write may block before the client is dropped.
        close_timeout: Seconds :meth:`TableServer.close` waits for each goodbye to flush.
        max_strikes: Refused messages in a row after which a client is dropped.
        max_connections: Open connections (players, spectators, greeters)
            beyond which new ones are turned away with ``busy``.
    """

    ping_interval: float = 15.0
    idle_timeout: float = 45.0
    hello_timeout: float = 10.0
    queue_size: int = QUEUE_SIZE
    write_timeout: float = WRITE_TIMEOUT
    close_timeout: float = 2.0
    max_strikes: int = 20
    max_connections: int = 64


@dataclass(frozen=True)
class TableSummary:
    """The public state of a table, as a discovery layer would advertise it.

    Attributes:
        name: Table name.
        game: Game name (``GameDefinition.name``).
        protocol: Wire protocol version.
        app_version: The host's application version.
        seats: Number of seats.
        taken: Seats held by a human or a bot.
        phase: ``"lobby"``, ``"playing"`` or ``"over"``.
        spectators: Whether spectators may join.
        code_required: Whether a join code is needed.
        port: The TCP port, 0 until listening.
    """

    name: str
    game: str
    protocol: int
    app_version: str
    seats: int
    taken: int
    phase: Phase
    spectators: bool
    code_required: bool
    port: int


@dataclass(eq=False)
class _Client:
    """A connection that completed its hello."""

    conn: FramedConnection
    seat: int | None  # None: a spectator
    strikes: int = field(default=0)


class TableServer:
    """Hosts one table: a lobby, then one match of ``game``, on asyncio TCP.

    Args:
        game: The game; ``net`` knows it only through :mod:`net.game`.
        name: Table name shown to players (1 to 64 printable characters).
        seats: Number of seats.
        seed: Seed for the match.
        app_version: This application's version, sent in ``welcome``.
        options: Game options for ``new_match``.
        bots: Seats played by the server: seat -> agent.
        bot_names: Display names for bot seats; default ``"Bot <seat>"`` or the
            agent's ``name`` attribute if it has a string one.
        bot_delay: Seconds before a bot is asked to move.
        code: Join code every ``hello`` must carry; ``None`` for an open table.
        allow_spectators: Whether spectators may join.
        auto_start: Start as soon as no seat is open.
        check_app_version: Refuse clients whose app version differs (the
            protocol version must always match).
        turn_timeout: Seconds a seat may take before its default action is
            played (``Match.timeout_action``); ``None`` for no limit; or a
            :data:`net.turns.TimeLimit` giving the limit state by state.
        absent_grace: Seconds a waited-on human may be disconnected before
            their default action is played; ``None`` to wait for them.
        resume_grace: Seconds instead of ``absent_grace`` for the players of a
            table rebuilt by :meth:`restore`, until each reconnects (they must
            notice the crash and find the table again); ``None``: ``absent_grace``.
        host: Address to listen on; ``"::"`` (:data:`net.listen.ANY`) for every
            address, IPv6 and IPv4 on one port (:func:`net.listen.listening_socket`).
        port: TCP port; 0 picks a free one (see :attr:`port` once open).
        on_change: Called with a :class:`TableSummary` whenever seats, connections
            or the phase change. Synchronous: schedule slow work yourself.
        on_action: Awaited with ``(seat, action)`` for every accepted action,
            before anyone is told of it (an append-only log goes here). If it
            raises, the action is applied but unrecorded, so nobody may hear
            of it: the error is logged and the table closes (``bye`` reason
            ``"record_failed"``); a resume from the log then matches what
            every player saw.
        timing: Network timings and limits.

    Raises:
        ValueError: ``seats`` out of the game's range, a bad bot seat, or a
            name or version that is empty, too long or not printable.
    """

    def __init__(
        self,
        game: GameDefinition,
        *,
        name: str,
        seats: int,
        seed: int,
        app_version: str,
        options: Mapping[str, Any] | None = None,
        bots: Mapping[int, Agent] | None = None,
        bot_names: Mapping[int, str] | None = None,
        bot_delay: float = 0.5,
        code: str | None = None,
        allow_spectators: bool = True,
        auto_start: bool = False,
        check_app_version: bool = True,
        turn_timeout: float | TimeLimit | None = None,
        absent_grace: float | None = 10.0,
        resume_grace: float | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        on_change: Callable[[TableSummary], None] | None = None,
        on_action: Callable[[int, Wire], Awaitable[None]] | None = None,
        timing: Timing | None = None,
    ) -> None:
        _check_text("table name", name, 64)
        _check_text("app version", app_version, 32)
        _check_text("game name", game.name, 32)
        names = dict(bot_names or {})
        for bot_name in names.values():
            _check_text("bot name", bot_name, NAME_MAX)
        self._table = Table(
            game,
            seats=seats,
            seed=seed,
            options=options,
            bots={s: (names.get(s) or _bot_name(s, a), a) for s, a in (bots or {}).items()},
        )
        self.game = game
        self.name = name
        self.app_version = app_version
        self.on_change = on_change
        """See the class arguments; may be set after construction."""
        self.on_action = on_action
        """See the class arguments; set it before :meth:`open`."""
        self.on_start: Callable[[tuple[SeatRecord, ...]], None] | None = None
        """Called with every seat's :class:`~net.table.SeatRecord` when the match
        starts, before anyone sees it (a log writes its header here). Synchronous;
        if it raises, the error is logged and the table carries on."""
        self._halted = False  # an action could not be recorded: closing, accept nothing
        self._halt_task: asyncio.Task[None] | None = None
        self._code = code
        self._allow_spectators = allow_spectators
        self._auto_start = auto_start
        self._check_app_version = check_app_version
        self._host = host
        self._port = port
        self._timing = timing or Timing()
        self._lock = asyncio.Lock()
        self._keeper = TurnKeeper(
            self._table,
            self._lock,
            self._submit,
            bot_delay=bot_delay,
            turn_timeout=turn_timeout,
            absent_grace=absent_grace,
            resume_grace=resume_grace,
        )
        self._clients: list[_Client] = []  # in join order, for stable broadcast order
        self._by_seat: dict[int, _Client] = {}
        self._conns: set[FramedConnection] = set()
        self._handlers: set[asyncio.Task[Any]] = set()
        self._server: asyncio.Server | None = None
        self._pinger: asyncio.Task[None] | None = None
        self._over = asyncio.Event()
        self._closing = False

    # --- lifecycle ----------------------------------------------------------

    async def open(self) -> None:
        """Start listening (and, for ``auto_start`` with no open seat, start the game).

        Raises:
            OSError: The address cannot be bound (e.g. the port is in use).
        """
        self._server = await asyncio.start_server(
            self._handle, sock=listening_socket(self._host, self._port)
        )
        self._port = self._server.sockets[0].getsockname()[1]
        self._pinger = asyncio.create_task(self._ping_loop(), name="table pings")
        log.info("Table %r listening on %s:%d.", self.name, self._host, self._port)
        async with self._lock:
            self._maybe_auto_start()
            self._changed()

    async def __aenter__(self) -> TableServer:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self, reason: str = "closing") -> None:
        """Say ``bye`` to every connection, stop listening, stop bots and timers.

        Waits at most ``timing.close_timeout`` seconds for goodbyes to flush.
        """
        if self._closing:
            return
        self._closing = True
        if self._server is not None:
            self._server.close()
        if self._pinger is not None:
            self._pinger.cancel()
            await asyncio.gather(self._pinger, return_exceptions=True)
        # Let an action in flight finish its broadcast, but don't hang on an
        # on_action hook that never returns.
        try:
            async with asyncio.timeout(self._timing.close_timeout):
                await self._lock.acquire()
            locked = True
        except TimeoutError:
            log.warning("An action is stuck in on_action; closing anyway.")
            locked = False
        if reason == "closing" and self._table.phase == "lobby":
            reason = TABLE_CLOSED  # no game, no log: nothing of the table remains
        try:
            self._keeper.close()
            for conn in self._conns:
                conn.send(Bye(reason).to_wire())
                conn.close(reason)
        finally:
            if locked:
                self._lock.release()
        self._over.set()  # nothing more will happen: release wait_over()
        await asyncio.gather(
            *(conn.wait_closed(self._timing.close_timeout) for conn in list(self._conns))
        )
        handlers = list(self._handlers)
        if handlers:
            _done, pending = await asyncio.wait(handlers, timeout=self._timing.close_timeout)
            for task in pending:
                task.cancel()
        if self._server is not None:
            await self._server.wait_closed()

    async def start(self) -> None:
        """Start the match now.

        Raises:
            Refused: ``already_started``, ``seats_open``, or ``bad_options``.
        """
        async with self._lock:
            self._start_locked()

    def restore(
        self, humans: Mapping[int, tuple[str, str]], actions: Iterable[tuple[int, Wire]]
    ) -> None:
        """Before :meth:`open`: rebuild the match from a log (resume after a crash).

        Humans (seat -> (name, token)) start away and reclaim their seats by
        joining with their token; bot seats come from the constructor. Every
        action is applied in order without ``on_action`` or any message (R3:
        the same seed, seats and actions give the same state). See
        :meth:`net.table.Table.restore`.

        Raises:
            RuntimeError: the server is already open.
            ValueError: a bad seat or token in ``humans``.
            Refused: the match could not start, or a logged action was refused
                (``bad_record``); discard this server then.
        """
        if self._server is not None:
            raise RuntimeError("restore() must come before open()")
        self._table.restore(humans, actions)
        self._keeper.resumed(humans)
        if self._table.phase == "over":
            self._over.set()

    async def set_bot(self, seat: int, agent: Agent | None, name: str | None = None) -> None:
        """Give a seat to ``agent``, or take the bot off it with ``None``.

        In the lobby: an open or bot seat, and ``None`` opens it up. During the
        game: a disconnected player's seat or a bot's; the bot stands in under
        the player's name until the player reconnects with their token (which
        takes the seat back) or ``None`` hands it back to them (see
        :meth:`net.table.Table.set_bot`).

        Raises:
            Refused: ``no_such_seat``, ``seat_taken`` (a connected player, or
                any player in the lobby), ``game_over``, or ``already_started``
                (opening a seat once the game has begun).
            ValueError: ``name`` is empty, longer than 24 characters or not printable.
        """
        if name is not None:
            _check_text("bot name", name, NAME_MAX)
        async with self._lock:
            self._table.set_bot(seat, name or (_bot_name(seat, agent) if agent else ""), agent)
            self._changed()
            self._maybe_auto_start()

    async def wait_over(self) -> Wire | None:
        """Wait until the game ends (or the server closes); return :meth:`result`."""
        await self._over.wait()
        return self.result()

    # --- read-only state ----------------------------------------------------

    @property
    def port(self) -> int:
        """The TCP port listened on (the real one when constructed with 0)."""
        return self._port

    @property
    def host(self) -> str:
        """The address listened on."""
        return self._host

    @property
    def phase(self) -> Phase:
        """``"lobby"``, ``"playing"`` or ``"over"``."""
        return self._table.phase

    @property
    def seed(self) -> int:
        """The match's seed (R3); for the table's own log, never sent to clients."""
        return self._table.seed

    @property
    def options(self) -> Mapping[str, Any]:
        """The game options the match is made with."""
        return self._table.options

    @property
    def rev(self) -> int:
        """The match revision: 0 at the start, plus one per accepted action."""
        return self._table.rev

    def result(self) -> Wire | None:
        """The match's public result once over, else ``None``."""
        return self._table.result()

    def seats(self) -> tuple[SeatInfo, ...]:
        """Name, kind and connection flag of every seat."""
        return self._table.seat_infos()

    def summary(self) -> TableSummary:
        """The table's public state, for discovery."""
        infos = self._table.seat_infos()
        return TableSummary(
            name=self.name,
            game=self.game.name,
            protocol=PROTOCOL_VERSION,
            app_version=self.app_version,
            seats=len(infos),
            taken=sum(1 for s in infos if s.kind != "open"),
            phase=self._table.phase,
            spectators=self._allow_spectators,
            code_required=self._code is not None,
            port=self._port,
        )

    # --- connections --------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        conn = FramedConnection(
            reader,
            writer,
            limits=CLIENT_LIMITS,
            queue_size=self._timing.queue_size,
            write_timeout=self._timing.write_timeout,
        )
        self._conns.add(conn)
        client: _Client | None = None
        try:
            if self._closing:
                conn.send(Bye("closing").to_wire())
                return
            if len(self._conns) > self._timing.max_connections:
                self._send_error(conn, "busy", "This table has too many connections; try later.")
                return
            client = await self._handshake(conn)
            if client is not None:
                await self._serve(client)
        except Exception:
            # Nothing a client sends should get here; if it does, only this
            # connection ends.
            log.exception("Connection %s failed.", conn.label)
        finally:
            if client is not None:
                await self._leave(client)
            conn.close(conn.close_reason or "closing")
            await conn.wait_closed(self._timing.close_timeout)
            self._conns.discard(conn)
            if task is not None:
                self._handlers.discard(task)

    async def _handshake(self, conn: FramedConnection) -> _Client | None:
        """Read and answer the hello; return the admitted client, or None (conn to close)."""
        try:
            async with asyncio.timeout(self._timing.hello_timeout):
                raw = await conn.recv()
            msg = parse_client_message(raw)
            if not isinstance(msg, Hello):
                raise BadMessage("bad_message", "The first message must be 'hello'.")
        except TimeoutError:
            self._send_error(conn, "timeout", "No hello arrived in time.")
            return None
        except FrameError as exc:
            self._send_error(conn, "bad_frame", str(exc))
            return None
        except BadMessage as exc:
            self._send_error(conn, exc.code, exc.message)
            return None
        except ConnectionLost:
            return None
        async with self._lock:
            if self._closing or self._halted:
                return None
            try:
                return self._admit(conn, msg)
            except Refused as exc:
                log.info("Refused %s (%s): %s", conn.label, exc.code, exc.message)
                self._send_error(conn, exc.code, exc.message)
                return None

    def _admit(self, conn: FramedConnection, hello: Hello) -> _Client:
        """Seat (or seat as spectator) a client. Holds the lock. Raises Refused."""
        app_ok = hello.app == self.app_version or not self._check_app_version
        if hello.protocol != PROTOCOL_VERSION or not app_ok:
            raise Refused(
                "version_mismatch",
                f"This table runs protocol {PROTOCOL_VERSION} (app {self.app_version}); "
                f"your client runs protocol {hello.protocol} (app {hello.app}). "
                "Use the same version as the host.",
            )
        if hello.game != self.game.name:
            raise Refused("wrong_game", f"This table plays {self.game.name!r}, not {hello.game!r}.")
        if self._code is not None and (
            hello.code is None or not secrets.compare_digest(hello.code, self._code)
        ):
            what = "is wrong" if hello.code else "is needed"
            raise Refused("bad_code", f"This table's join code {what}; ask the host for it.")
        seat: int | None = None
        token: str | None = None
        if hello.role == "spectator":
            if not self._allow_spectators:
                raise Refused("spectators_not_allowed", "This table does not allow spectators.")
        else:
            try:
                seat, token, _reclaimed = self._table.claim(hello.name, hello.token)
            except Refused as exc:
                if self._allow_spectators:
                    raise Refused(exc.code, exc.message + " Join as a spectator to watch.") from exc
                raise
            old = self._by_seat.get(seat)
            if old is not None:
                # The token's new holder wins: the old connection is told and closed.
                old.conn.send(Bye("replaced").to_wire())
                old.conn.close("replaced")
                self._clients.remove(old)
            self._table.set_connected(seat, True)
        client = _Client(conn, seat)
        self._clients.append(client)
        if seat is not None:
            self._by_seat[seat] = client
        conn.send(
            Welcome(
                protocol=PROTOCOL_VERSION,
                app=self.app_version,
                game=self.game.name,
                seat=seat,
                token=token,
                table=TableInfo(self.name, self._table.seat_count, self._allow_spectators),
            ).to_wire()
        )
        log.info("%s joined as %s.", conn.label, "spectator" if seat is None else f"seat {seat}")
        self._changed()
        if self._table.match is not None:
            frame = self._view_frame(seat)
            if frame is not None:
                conn.send_frame(frame)
        self._maybe_auto_start()
        return client

    async def _serve(self, client: _Client) -> None:
        """Read and handle a client's messages until it leaves or is dropped."""
        conn = client.conn
        while not conn.closing:
            try:
                async with asyncio.timeout(self._timing.idle_timeout):
                    raw = await conn.recv()
            except TimeoutError:
                conn.send(Bye("timeout").to_wire())
                conn.close("timeout")
                return
            except FrameError as exc:
                # The stream is out of step: no way to find the next frame.
                self._send_error(conn, "bad_frame", str(exc))
                conn.close("bad_frame")
                return
            except ConnectionLost:
                return
            try:
                msg = parse_client_message(raw)
            except BadMessage as exc:
                self._refuse(client, exc.code, exc.message, _seq_of(raw))
            else:
                if isinstance(msg, Bye):
                    return
                await self._dispatch(client, msg)
            if client.strikes >= self._timing.max_strikes:
                log.warning("Dropping %s: %d refusals in a row.", conn.label, client.strikes)
                conn.send(Bye("too_many_errors").to_wire())
                conn.close("too_many_errors")
                return
            # A client with a backlog of buffered frames must not starve others.
            await asyncio.sleep(0)

    async def _dispatch(
        self, client: _Client, msg: Hello | ActionRequest | Start | Ping | Pong
    ) -> None:
        if isinstance(msg, Ping):
            client.conn.send(Pong().to_wire())
            client.strikes = 0
        elif isinstance(msg, Pong):
            client.strikes = 0
        elif isinstance(msg, Hello):
            self._refuse(client, "bad_message", "This connection has already said hello.")
        elif isinstance(msg, Start):
            await self._client_start(client)
        elif client.seat is None:
            self._refuse(client, "not_a_player", "Spectators cannot play.", msg.seq)
        else:
            action = msg.action
            await self._submit(client.seat, lambda: action, "client", origin=client, seq=msg.seq)

    async def _client_start(self, client: _Client) -> None:
        if client.seat != 0:
            self._refuse(client, "not_host", "Only the host (seat 0) can start the game.")
            return
        async with self._lock:
            try:
                self._start_locked()
            except Refused as exc:
                self._refuse(client, exc.code, exc.message)
            else:
                client.strikes = 0

    async def _leave(self, client: _Client) -> None:
        async with self._lock:
            if client in self._clients:
                self._clients.remove(client)
            seat = client.seat
            if seat is None or self._by_seat.get(seat) is not client:
                return  # a spectator, or replaced by a reconnect
            del self._by_seat[seat]
            self._table.set_connected(seat, False)
            # In the lobby a seat is given back; once playing it is kept for
            # a reconnect with its token.
            self._table.release(seat)
            log.info("Seat %d disconnected (%s).", seat, client.conn.close_reason or "left")
            if not self._closing:
                self._changed()

    async def _ping_loop(self) -> None:
        ping = encode(Ping().to_wire())
        while True:
            await asyncio.sleep(self._timing.ping_interval)
            for client in list(self._clients):
                client.conn.send_frame(ping)

    # --- changes (all under the lock) ---------------------------------------

    async def _submit(
        self,
        seat: int,
        make_action: Callable[[], Wire | None],
        source: str,
        *,
        origin: _Client | None = None,
        seq: int | None = None,
    ) -> Outcome:
        """The one path by which an action changes the match; see :data:`net.turns.Submit`."""
        async with self._lock:
            if (
                self._closing
                or self._halted
                or (origin is not None and origin not in self._clients)
            ):
                return "skipped"  # closing, or a replaced connection's leftovers
            try:
                action = make_action()
                if action is None:
                    return "skipped"
                check_action(action)  # bots and defaults get a client's checks
                self._table.apply(seat, action)
            except (BadMessage, Refused) as exc:
                if origin is not None:
                    self._refuse(origin, exc.code, exc.message, seq)
                else:
                    log.info("%s action for seat %d refused: %s", source, seat, exc.message)
                return "rejected"
            if origin is not None:
                origin.strikes = 0
            if self.on_action is not None:
                try:
                    await self.on_action(seat, action)
                except Exception:
                    # Applied but not recorded: nobody may hear of it (see on_action).
                    log.exception("on_action failed for seat %d; the table closes.", seat)
                    self._halted = True
                    self._halt_task = asyncio.create_task(self.close("record_failed"))
                    return "skipped"
            if origin is not None and seq is not None:
                origin.conn.send(Ack(seq).to_wire())
            self._broadcast_views()
            self._keeper.note_action(seat)
            self._keeper.update()
            if self._table.phase == "over":
                log.info("Table %r: game over at rev %d.", self.name, self._table.rev)
                self._changed()
                self._over.set()
            return "accepted"

    def _start_locked(self) -> None:
        self._table.start()
        log.info("Table %r: game started.", self.name)
        if self.on_start is not None:
            try:
                self.on_start(self._table.seat_records())
            except Exception:
                log.exception("on_start failed; carrying on.")
        self._changed()
        self._broadcast_views()
        self._keeper.update()
        if self._table.phase == "over":
            self._over.set()

    def _maybe_auto_start(self) -> None:
        if self._auto_start and self._table.phase == "lobby" and self._table.is_full():
            try:
                self._start_locked()
            except Refused as exc:
                log.warning("Auto-start failed: %s", exc.message)

    def _changed(self) -> None:
        """Seats, connections or phase changed: tell clients, timers and discovery."""
        lobby = Lobby(
            seats=self._table.seat_infos(),
            started=self._table.phase != "lobby",
            phase=self._table.phase,
        )
        frame = encode(lobby.to_wire())
        for client in self._clients:
            client.conn.send_frame(frame)
        self._keeper.update()  # a (dis)connection moves absence deadlines
        if self.on_change is not None:
            try:
                self.on_change(self.summary())
            except Exception:
                log.exception("on_change failed.")

    def _broadcast_views(self) -> None:
        frames: dict[int | None, bytes | None] = {}
        for client in self._clients:
            if client.seat not in frames:
                frames[client.seat] = self._view_frame(client.seat)
            frame = frames[client.seat]
            if frame is not None:
                client.conn.send_frame(frame)

    def _view_frame(self, seat: int | None) -> bytes | None:
        """The encoded ``view`` frame for ``seat``: the only game data that leaves."""
        try:
            return encode(View(self._table.rev, self._table.view(seat)).to_wire())
        except Exception:
            log.exception("Cannot build the view for seat %s.", seat)
            return None

    # --- errors ---------------------------------------------------------------

    def _refuse(self, client: _Client, code: str, message: str, seq: int | None = None) -> None:
        client.strikes += 1
        self._send_error(client.conn, code, message, seq)

    @staticmethod
    def _send_error(
        conn: FramedConnection, code: str, message: str, seq: int | None = None
    ) -> None:
        # Game sentences are passed through; cap them so one can't break the frame.
        conn.send(ErrorReply(code[:64], message[:1024], seq).to_wire())


def _check_text(what: str, text: str, longest: int) -> None:
    # Each of these goes on the wire, where clients check the same bounds.
    if not (0 < len(text) <= longest and text.isprintable() and text.strip()):
        raise ValueError(f"A {what} must be 1 to {longest} printable characters, not {text!r}.")


def _bot_name(seat: int, agent: Agent) -> str:
    name = getattr(agent, "name", None)
    if isinstance(name, str) and 0 < len(name) <= NAME_MAX and name.isprintable() and name.strip():
        return name
    return f"Bot {seat}"


def _seq_of(raw: Wire) -> int | None:
    """The ``seq`` of a refused message, if it carried a usable one."""
    seq = raw.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= SEQ_MAX:
        return seq
    return None
