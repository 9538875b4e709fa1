"""`TableServer`: hosts one table of any game on asyncio TCP.

One task per connection reads and checks frames; every change to the table
happens under one :class:`asyncio.Lock`, so the order is: apply, hand the
record to the log (``on_record``, group commit), await the ``on_action`` hook,
ack the sender, send every connection its own view, let the lock go. Nothing
waits on the disk under the lock: whatever the server sends after an action
waits in its outbox (:mod:`net.outbox`) until the action's record is on disk,
then leaves in the order sent. Sending only queues (see :mod:`net.connection`),
so a slow client never holds the lock or anyone else.

What leaves the server about the game is only ever ``Match.view(seat)`` (in
``view`` frames) and the game's own refusal sentences (in ``error`` frames).
``lobby`` frames carry names, seat kinds and connection flags; nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import struct
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

import msgpack

from net.answers import AnswerClock
from net.chat import ChatPolicy, ChatRequest, ChatRoom, Said, Talking, Voice
from net.connection import QUEUE_SIZE, WRITE_TIMEOUT, FramedConnection
from net.drafts import DraftHolds, Drafting, DraftRequest, DraftRules, may_draft
from net.frames import (
    CLIENT_LIMITS,
    MAX_FRAME,
    PROTOCOL_VERSION,
    ConnectionLost,
    FrameError,
    encode,
    wire_copy,
)
from net.game import ActionRejected, Agent, GameDefinition, TableMoveReason, Wire
from net.guard import SECRET_MAX, CodeGuard, ThrottledLog, TokenBucket, same_secret
from net.listen import listening_socket
from net.messages import (
    NAME_MAX,
    SEAT_GIVEN,
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
    RematchAnswer,
    RematchState,
    SeatInfo,
    Start,
    TableInfo,
    View,
    Welcome,
    check_action,
    parse_client_message,
)
from net.outbox import UNKNOWN, Outbox
from net.pacing import Pacer
from net.prices import PriceAsk, PriceAsked, Priced, PriceDesk, PriceNamed, Quoting
from net.rematch import RematchVote
from net.schema import BadMessage
from net.table import Refused, SeatRecord, Table
from net.thinking import Thinker
from net.turns import BOT_PATIENCE, Outcome, TimeLimit, TurnKeeper
from net.wording import then, worded

log = logging.getLogger(__name__)

HELLO_TIMEOUT: Final = 5.0
"""Seconds a new connection has to send its ``hello``: a client sends it at once,
so only an idle or half-sent connection waits this long for its slot back."""

MAX_GREETERS: Final = 16
"""Connections that have not said hello yet, all addresses together. A new one
beyond it pushes out the one waiting longest (``busy``): a player's hello takes
milliseconds, so a stranger holding slots open only ever pushes out their own."""

MAX_GREETERS_PER_ADDRESS: Final = 4
"""Connections not yet past hello from one address (the oldest of that address
goes first): one machine cannot even fill the slots of the others."""

MAX_SPECTATORS: Final = 32
"""Spectators at one table: a room's worth of onlookers. Seated players are
never counted: a seat always gets in with its token."""

MAX_SPECTATORS_PER_ADDRESS: Final = 8
"""Spectators from one address: a household or a classroom behind one NAT
watching, but not one stranger taking every spectator place."""

MESSAGE_RATE: Final = 20.0
"""Messages a second one connection may send, of any type, pings included. A
person acts a few times a second at most and the client pings every 15 s."""

MESSAGE_BURST: Final = 40
"""Messages one connection may send at once above :data:`MESSAGE_RATE` (a
client catching up after a stall)."""

ACTION_RATE: Final = 10.0
"""Actions a second one seat may have accepted, over all its connections: a
quick player rearranging crates makes 2 to 3; this bounds how fast a flooder
grows the table's log (about 10 lines a second at most)."""

ACTION_BURST: Final = 20
"""Actions one seat may send at once above :data:`ACTION_RATE`."""

MAX_STRIKES: Final = 20
"""Refused messages (bad, illegal, or over the rate) in a row after which a
connection is dropped; pings and pongs never clear the count."""


@dataclass(frozen=True)
class Timing:
    """Network timings and limits; the defaults suit a LAN, tests shrink them.

    Attributes:
        ping_interval: Seconds between keep-alive pings to each client.
        idle_timeout: Seconds of silence after which a client is dropped.
        hello_timeout: See :data:`HELLO_TIMEOUT`.
        queue_size: Frames queued per client before it counts as too slow.
        write_timeout: Seconds one write may block before the client is dropped.
        close_timeout: Seconds :meth:`TableServer.close` waits for each goodbye to flush.
        max_strikes: See :data:`MAX_STRIKES`.
        max_greeters: See :data:`MAX_GREETERS`.
        max_greeters_per_address: See :data:`MAX_GREETERS_PER_ADDRESS`.
        max_spectators: See :data:`MAX_SPECTATORS`.
        max_spectators_per_address: See :data:`MAX_SPECTATORS_PER_ADDRESS`.
        message_rate: See :data:`MESSAGE_RATE`.
        message_burst: See :data:`MESSAGE_BURST`.
        action_rate: See :data:`ACTION_RATE`.
        action_burst: See :data:`ACTION_BURST`.
    """

    ping_interval: float = 15.0
    idle_timeout: float = 45.0
    hello_timeout: float = HELLO_TIMEOUT
    queue_size: int = QUEUE_SIZE
    write_timeout: float = WRITE_TIMEOUT
    close_timeout: float = 2.0
    max_strikes: int = MAX_STRIKES
    max_greeters: int = MAX_GREETERS
    max_greeters_per_address: int = MAX_GREETERS_PER_ADDRESS
    max_spectators: int = MAX_SPECTATORS
    max_spectators_per_address: int = MAX_SPECTATORS_PER_ADDRESS
    message_rate: float = MESSAGE_RATE
    message_burst: int = MESSAGE_BURST
    action_rate: float = ACTION_RATE
    action_burst: int = ACTION_BURST


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
    bucket: TokenBucket
    name: str = field(default="")  # as said in hello (a seat's shown name is the table's)
    strikes: int = field(default=0)
    last_view: bytes | None = field(default=None)  # what its last view frame showed
    last_lobby: bytes | None = field(default=None)  # its last lobby frames, as sent


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
        code_guard: Counts wrong join codes per address (default
            :class:`net.guard.CodeGuard` with its documented numbers).
        clock: Monotonic clock in seconds for rate limits and the code
            back-off (tests speed it up).
        chat: The table's chat options (:class:`net.chat.ChatPolicy`); the
            defaults let everyone hear everyone.
        drafts: How long and how often a person drafting a move holds the
            bots (:class:`net.drafts.DraftRules`).
        bot_patience: Seconds a bot that waits on a person (e.g. for an
            answer to its offer) is left before it is asked again and may
            withdraw (:data:`net.turns.BOT_PATIENCE`).
        thinker: Where the bots think (:mod:`net.thinking`): default a worker
            thread per decision; a :class:`net.thinking.ProcessThinker` shared
            by every table of a process that hosts many.
        pacer: The fair queue through which bots' work takes the event loop's
            time (:mod:`net.pacing`); default the running loop's own, shared by
            every table of the process.

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
        code_guard: CodeGuard | None = None,
        clock: Callable[[], float] = time.monotonic,
        chat: ChatPolicy | None = None,
        drafts: DraftRules | None = None,
        bot_patience: float = BOT_PATIENCE,
        thinker: Thinker | None = None,
        pacer: Pacer | None = None,
    ) -> None:
        _check_text("table name", name, 64)
        if code is not None:
            _check_text("join code", code, SECRET_MAX)
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
        self.last_move_by_table: TableMoveReason | None = None
        """While ``on_action`` runs: why the table played that move itself
        (``"away"``, ``"time"``), or ``None`` for the seat's own move."""
        """See the class arguments; set it before :meth:`open`."""
        self.on_start: Callable[[tuple[SeatRecord, ...]], None] | None = None
        """Called with every seat's :class:`~net.table.SeatRecord` when the match
        starts, before anyone sees it (a log writes its header here). Synchronous;
        if it raises, the error is logged and the table carries on."""
        self.on_record: Callable[[int, Wire], asyncio.Future[None] | None] | None = None
        """Called with ``(seat, action)`` right after each accepted action is applied,
        under the lock and before ``on_action`` (a group-committing log queues the
        record here, :meth:`net.recorder.TableRecorder.record_action`). It returns a
        future that resolves once the record is durable, or ``None`` if nothing is
        recorded. Nothing the server sends from then on leaves before that future
        resolves (:mod:`net.outbox`); the lock is not held meanwhile. If it raises,
        or the future fails, nobody hears of the action and the table closes
        (``bye`` reason ``"record_failed"``), as for ``on_action``."""
        self.on_chat: Callable[[Said], Awaitable[None]] | None = None
        """Awaited with each chat message before it is relayed (a log records it
        here). If it raises, the error is logged and the message is still relayed:
        chat is not game state."""
        self._chat = ChatRoom(chat or ChatPolicy(), clock)
        self._drafts = DraftHolds(drafts or DraftRules(), time.monotonic)
        self._prices = PriceDesk(clock)
        self._voices: dict[int, Voice] = {}  # bot seat -> its chat budget's key
        self._halted = False  # an action could not be recorded: closing, accept nothing
        self._outbox = Outbox(self._record_failed, self._group_of)  # every connection's gate
        # Per recipient group (a seat; None: the spectators): its view as the last
        # action left it, and how many actions left it unchanged (see _note_heard).
        self._views_heard: dict[int | None, bytes] = {}
        self._unheard: dict[int | None, int] = {}
        self._heard: set[int | None] = set()  # the groups the last action's views reached
        self._halt_task: asyncio.Task[None] | None = None
        self._code = code
        self._code_guard = code_guard or CodeGuard()
        self._clock = clock
        self._refusals = ThrottledLog(log)
        self._greeters: dict[FramedConnection, None] = {}  # not past hello, oldest first
        self._seat_buckets: dict[int, TokenBucket] = {}
        self._allow_spectators = allow_spectators
        self._auto_start = auto_start
        self._check_app_version = check_app_version
        self._host = host
        self._port = port
        self._timing = timing or Timing()
        self._lock = asyncio.Lock()
        # The absences last sent (see _presence_of):
        self._presence: tuple[tuple[int, float, float | None], ...] = ()
        self._keeper = TurnKeeper(
            self._table,
            self._lock,
            self._submit,
            bot_delay=bot_delay,
            turn_timeout=turn_timeout,
            absent_grace=absent_grace,
            resume_grace=resume_grace,
            holds=self._drafts,
            bot_patience=bot_patience,
            thinker=thinker,
            pacer=pacer,
        )
        self._answers = AnswerClock(
            (drafts or DraftRules()).answer_seconds,
            lambda: self._table.match,
            self._submit,
            time.monotonic,
        )
        self._clients: list[_Client] = []  # in join order, for stable broadcast order
        self._by_seat: dict[int, _Client] = {}
        self._conns: set[FramedConnection] = set()
        self._handlers: set[asyncio.Task[Any]] = set()
        self._server: asyncio.Server | None = None
        self._pinger: asyncio.Task[None] | None = None
        self._over = asyncio.Event()
        self._admitting = asyncio.Event()  # set: connections are read (see open)
        self._closing = False
        self._vote: RematchVote | None = None  # a proposed rematch (net/rematch.py)
        self._gifts: dict[int, tuple[str, Agent] | None] = {}  # seats the host gave away

    # --- lifecycle ----------------------------------------------------------

    async def open(self, *, admit: bool = True) -> None:
        """Start listening (and, for ``auto_start`` with no open seat, start the game).

        Args:
            admit: Admit connections at once. With ``False`` the port
                listens (and :attr:`port` is known) but every connection waits,
                unread and unanswered, until :meth:`admit` (e.g. until the
                table is advertised and says it is ready).

        Raises:
            OSError: The address cannot be bound (e.g. the port is in use).
        """
        if admit:
            self._admitting.set()
        self._server = await asyncio.start_server(
            self._handle, sock=listening_socket(self._host, self._port)
        )
        self._port = self._server.sockets[0].getsockname()[1]
        self._pinger = asyncio.create_task(self._ping_loop(), name="table pings")
        log.info("Table %r listening on %s:%d.", self.name, self._host, self._port)
        async with self._lock:
            self._maybe_auto_start()
            self._changed()

    def admit(self) -> None:
        """Let in the connections waiting since ``open(admit=False)``, and all later ones.

        Idempotent.
        """
        self._admitting.set()

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
        self._admitting.set()  # those still waiting hear "bye" below
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
        # What was sent before the close leaves once its records are on disk.
        try:
            async with asyncio.timeout(self._timing.close_timeout):
                await self._outbox.drained()
        except TimeoutError:
            log.warning("The table log does not answer; closing without what waits on it.")
        self._outbox.open()  # the goodbyes go out at once
        if reason == "closing" and self._table.phase == "lobby":
            reason = TABLE_CLOSED  # no game, no log: nothing of the table remains
        try:
            self._keeper.close()
            self._answers.close()
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
        self,
        humans: Mapping[int, tuple[str, str]],
        actions: Iterable[tuple[int, Wire] | tuple[int, Wire, TableMoveReason | None]],
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

    async def rematch(self, seed: int | None = None) -> None:
        """After the game: the same seats back in the lobby for a new match (``seed``, else
        a random one), without asking anyone (a proposal still open is dropped);
        everyone connected, spectators included, hears of it in a ``lobby`` frame
        (phase ``"lobby"``) and sees the new game once it starts. A table that starts
        by itself when full starts the new match at once. See
        :meth:`net.table.Table.rematch` for who keeps a seat.

        Raises:
            Refused: ``not_over`` (the game is not over).
        """
        async with self._lock:
            self._rematch_locked(seed, {})
            self._maybe_auto_start()

    async def propose_rematch(self, by: int | None = None) -> None:
        """After the game: propose a rematch (``net/rematch.py``); seat ``by`` (the host's,
        if seated) and the bots accept at once, the seated people answer. Everyone,
        spectators included, hears where the answers stand in ``rematch`` frames.

        Raises:
            Refused: ``not_over``; ``rematch_proposed`` (one is open already).
        """
        async with self._lock:
            if self._table.phase != "over":
                raise Refused("not_over", "A rematch can follow only a finished game.")
            if self._vote is not None:
                raise Refused("rematch_proposed", *worded("rematch_proposed"))
            self._vote = RematchVote(by)
            log.info("Table %r: a rematch is proposed.", self.name)
            self._send_lobby()

    async def give_rematch_seat(self, seat: int, agent: Agent | None, name: str = "") -> None:
        """The host gives a seat whose player declined the proposed rematch, left, or has
        not answered to ``agent`` (``None``: opens it for a newcomer) when the rematch
        starts; that player's connection then closes (``bye`` ``seat_given``).

        Raises:
            Refused: ``no_rematch``; ``rematch_answered`` (the seat accepted);
                ``no_such_seat``.
            ValueError: ``name`` is not a valid bot name.
        """
        if agent is not None:
            name = name or _bot_name(seat, agent)
            _check_text("bot name", name, NAME_MAX)
        async with self._lock:
            vote = self._require_vote()
            vote.give(seat, agent is not None, self._table.seat_infos())
            self._gifts[seat] = None if agent is None else (name, agent)
            self._send_lobby()

    async def start_rematch(self, seed: int | None = None) -> None:
        """Start the proposed rematch: those who accepted keep their seats and tokens, the
        seats given away go to their bots or open; with no seat open the new game
        (``seed``, else a random one) starts at once, else the table waits in its
        lobby for newcomers and the host's start.

        Raises:
            Refused: ``no_rematch``; ``rematch_waiting`` (``params`` ``names``: the
                seats still awaited, declined or away, which the host must give away
                or wait for).
        """
        async with self._lock:
            vote = self._require_vote()
            infos = self._table.seat_infos()
            unsettled = vote.unsettled(infos)
            if unsettled:
                names = ", ".join(infos[i].name for i in unsettled)
                raise Refused("rematch_waiting", *worded("rematch_waiting", names=names))
            given = dict(self._gifts)
            for seat in given:
                gone = self._by_seat.pop(seat, None)
                if gone is not None:  # they declined or did not answer: their game is over
                    gone.conn.send(Bye(SEAT_GIVEN).to_wire())
                    gone.conn.close(SEAT_GIVEN)
                    self._clients.remove(gone)
            self._rematch_locked(seed, given)
            if self._table.is_full():
                self._start_locked()

    async def answer_rematch(self, seat: int | None, yes: bool) -> None:
        """``seat``'s player accepts (``yes``) or declines the proposed rematch.

        Raises:
            Refused: ``no_rematch``, ``rematch_not_seated`` (``None``: a spectator),
                ``already_answered``, ``seat_settled``.
        """
        async with self._lock:
            self._answer_locked(seat, yes)

    def _answer_locked(self, seat: int | None, yes: bool) -> None:
        vote = self._require_vote()
        if seat is None or self._table.seat_infos()[seat].kind != "human":
            raise Refused("rematch_not_seated", *worded("rematch_not_seated"))
        vote.answer(seat, yes)
        self._send_lobby()

    def _require_vote(self) -> RematchVote:
        if self._vote is None or self._table.phase != "over":
            raise Refused("no_rematch", *worded("no_rematch"))
        return self._vote

    def _rematch_locked(
        self, seed: int | None, given: Mapping[int, tuple[str, Agent] | None]
    ) -> None:
        """Back to the lobby for a new match (see :meth:`rematch`), the vote closed."""
        self._table.rematch(secrets.randbelow(2**31) if seed is None else seed, given)
        self._vote = None
        self._gifts = {}
        frame = encode(RematchState(None).to_wire())
        self._over.clear()
        for client in self._clients:
            client.last_view = None  # the new game's first view goes to everyone
            client.conn.send_frame(frame)
        log.info("Table %r: rematch, seed %d.", self.name, self._table.seed)
        self._changed()

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
            gate=self._outbox,
        )
        self._conns.add(conn)
        client: _Client | None = None
        try:
            await self._admitting.wait()  # set by admit(), or close()
            if self._closing:
                conn.send(Bye("closing").to_wire())
                return
            self._greet(conn)
            try:
                client = await self._handshake(conn)
            finally:
                self._greeters.pop(conn, None)
            if client is not None:
                await self._serve(client)
        except Exception:
            # Nothing a client sends should get here; if it does, only this
            # connection ends.
            log.exception("Connection %s failed.", conn.label)
        finally:
            self._greeters.pop(conn, None)
            if client is not None:
                await self._leave(client)
            conn.close(conn.close_reason or "closing")
            await conn.wait_closed(self._timing.close_timeout)
            self._conns.discard(conn)
            if task is not None:
                self._handlers.discard(task)

    def _greet(self, conn: FramedConnection) -> None:
        """Count ``conn`` among the connections waiting to say hello, making room first.

        Beyond the per-address or the overall cap the oldest greeter (of the
        same address, or of all) is told ``busy`` and closed: a newcomer's
        hello comes at once, so those holding slots open lose them, never a
        player who is reconnecting.
        """
        same = [c for c in self._greeters if c.address == conn.address]
        old: FramedConnection | None = None
        if len(same) >= self._timing.max_greeters_per_address:
            old = same[0]
        elif len(self._greeters) >= self._timing.max_greeters:
            old = next(iter(self._greeters))
        if old is not None:
            del self._greeters[old]
            self._refusals.warning(
                "Busy: closed %s, which had not said hello, to make room for %s.",
                old.label,
                conn.label,
            )
            self._send_error(old, "busy", *worded("busy_waiting"))
            old.close("busy")
        self._greeters[conn] = None

    async def _handshake(self, conn: FramedConnection) -> _Client | None:
        """Read and answer the hello; return the admitted client, or None (conn to close)."""
        try:
            async with asyncio.timeout(self._timing.hello_timeout):
                raw = await conn.recv()
            msg = parse_client_message(raw)
            if not isinstance(msg, Hello):
                raise BadMessage("bad_message", *worded("first_hello"))
        except TimeoutError:
            self._send_error(conn, "timeout", *worded("no_hello"))
            return None
        except FrameError as exc:
            self._send_error(conn, "bad_frame", str(exc))
            return None
        except BadMessage as exc:
            self._send_error(conn, exc.code, exc.message, params=exc.params)
            return None
        except ConnectionLost:
            return None
        async with self._lock:
            if self._closing or self._halted:
                return None
            try:
                return self._admit(conn, msg)
            except Refused as exc:
                if exc.code in ("busy", "bad_code", "slow_down"):
                    self._refusals.warning("Refused %s (%s): %s", conn.label, exc.code, exc.message)
                else:
                    log.info("Refused %s (%s): %s", conn.label, exc.code, exc.message)
                self._send_error(conn, exc.code, exc.message, params=exc.params)
                return None

    def _admit(self, conn: FramedConnection, hello: Hello) -> _Client:
        """Seat (or seat as spectator) a client. Holds the lock. Raises Refused."""
        app_ok = hello.app == self.app_version or not self._check_app_version
        if hello.protocol != PROTOCOL_VERSION or not app_ok:
            raise Refused(
                "version_mismatch",
                *worded(
                    "version_mismatch", protocol=PROTOCOL_VERSION, app=self.app_version,
                    their_protocol=hello.protocol, their_app=hello.app,
                ),
            )  # fmt: skip
        if hello.game != self.game.name:
            raise Refused(
                "wrong_game",
                *worded("wrong_game", game=repr(self.game.name), asked=repr(hello.game)),
            )
        # A seat's token is a 128-bit secret given only after the code was
        # right: its holder is back, whatever the code or the caps say.
        returning = hello.role == "player" and self._table.holds_token(hello.token)
        if self._code is not None and not returning:
            self._check_code(conn, hello.code)
        seat: int | None = None
        token: str | None = None
        if hello.role == "spectator":
            if not self._allow_spectators:
                raise Refused("spectators_not_allowed", *worded("no_spectators"))
            self._check_room_for_spectator(conn)
        else:
            try:
                seat, token, _reclaimed = self._table.claim(hello.name, hello.token)
            except Refused as exc:
                if self._allow_spectators:
                    said = (exc.message, exc.params)
                    raise Refused(exc.code, *then(said, "watch_instead")) from exc
                raise
            old = self._by_seat.get(seat)
            if old is not None:
                # The token's new holder wins: the old connection is told and closed.
                old.conn.send(Bye("replaced").to_wire())
                old.conn.close("replaced")
                self._clients.remove(old)
            self._table.set_connected(seat, True)
        bucket = TokenBucket(self._timing.message_rate, self._timing.message_burst)
        client = _Client(conn, seat, bucket, name=hello.name)
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
            shown = self._view_frame(seat, self._keeper.now())
            if shown is not None:
                client.last_view, frame = shown
                conn.send_frame(frame)
            for held, until in self._drafts.held_by().items():  # a late joiner hears them too
                conn.send_frame(self._drafting_frame(held, until))
        self._maybe_auto_start()
        return client

    def _check_code(self, conn: FramedConnection, code: str | None) -> None:
        """Check a hello's join code, with the per-address and the table's back-off.
        Raises Refused."""
        now = self._clock()
        wait = self._code_guard.wait(conn.address, now)
        if wait > 0:
            raise Refused("slow_down", *worded("code_slow", wait=round(wait)))
        wait = self._code_guard.table_wait(now)
        if wait > 0:  # wrong codes from everywhere: a guesser with many addresses
            raise Refused("slow_down", *worded("code_busy", wait=max(1, math.ceil(wait))))
        if code is not None and same_secret(code, self._code or ""):
            self._code_guard.succeeded(conn.address)
            return
        if not code:
            raise Refused("bad_code", *worded("code_needed"))
        wait = self._code_guard.failed(conn.address, now)
        wrong = worded("code_wrong")
        raise Refused("bad_code", *(then(wrong, "code_wait", wait=round(wait)) if wait else wrong))

    def _check_room_for_spectator(self, conn: FramedConnection) -> None:
        """Refuse (``busy``) a spectator beyond the overall or per-address cap."""
        watching = [c for c in self._clients if c.seat is None and not c.conn.closing]
        if len(watching) >= self._timing.max_spectators:
            raise Refused("busy", *worded("busy_spectators", n=len(watching)))
        mine = sum(1 for c in watching if c.conn.address == conn.address)
        if mine >= self._timing.max_spectators_per_address:
            raise Refused("busy", *worded("busy_address", n=mine))

    async def _serve(self, client: _Client) -> None:
        """Read and handle a client's messages until it leaves or is dropped.

        A client silent for ``timing.idle_timeout`` seconds while the server waits
        for its next frame is told ``bye`` (``"timeout"``) and closed.
        """
        conn = client.conn
        silence = _Silence(self._timing.idle_timeout)
        try:
            while not conn.closing:
                try:
                    silence.waiting = True
                    try:
                        raw = await conn.recv()
                    finally:
                        silence.waiting = False
                except asyncio.CancelledError:
                    if not silence.ended_wait():
                        raise
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
                if await self._handle_frame(client, raw):
                    return
                # A client with a backlog of buffered frames must not starve others.
                await asyncio.sleep(0)
        finally:
            silence.close()

    async def _handle_frame(self, client: _Client, raw: Wire) -> bool:
        """Check and act on one frame from ``client``; True when its connection is done
        (its ``bye``, or too many refusals in a row: then it is told and closed)."""
        conn = client.conn
        if not client.bucket.take(self._clock()):
            # Dropped unread: costs nothing but this refusal and a strike.
            self._refuse(client, "slow_down", *worded("slow_messages"), seq=_seq_of(raw))
        else:
            try:
                msg = parse_client_message(raw)
            except BadMessage as exc:
                self._refuse(client, exc.code, exc.message, exc.params, _seq_of(raw))
            else:
                if isinstance(msg, Bye):
                    return True
                await self._dispatch(client, msg)
        if client.strikes >= self._timing.max_strikes:
            log.warning("Dropping %s: %d refusals in a row.", conn.label, client.strikes)
            conn.send(Bye("too_many_errors").to_wire())
            conn.close("too_many_errors")
            return True
        return False

    async def _dispatch(
        self,
        client: _Client,
        msg: (
            Hello | ActionRequest | Start | RematchAnswer | ChatRequest | DraftRequest | PriceAsk
            | PriceNamed | Ping | Pong
        ),
    ) -> None:
        # Pings and pongs never clear strikes: a flooder cannot hide behind them.
        if isinstance(msg, ActionRequest):  # first: the message of every move
            if client.seat is None:
                self._refuse(client, "not_a_player", *worded("spectator_plays"), seq=msg.seq)
            elif not self._seat_bucket(client.seat).take(self._clock()):
                self._refuse(client, "slow_down", *worded("slow_moves"), seq=msg.seq)
            else:
                action = msg.action
                await self._submit(
                    client.seat, lambda: action, "client", origin=client, seq=msg.seq
                )
        elif isinstance(msg, Ping):
            client.conn.send(Pong().to_wire())
        elif isinstance(msg, Pong):
            pass
        elif isinstance(msg, Hello):
            self._refuse(client, "bad_message", *worded("hello_twice"))
        elif isinstance(msg, Start):
            await self._client_start(client)
        elif isinstance(msg, ChatRequest):
            await self._say(client, msg.text)
        elif isinstance(msg, DraftRequest):
            await self._draft(client, msg.on)
        elif isinstance(msg, PriceAsk):
            await self._ask_price(client, msg)
        elif isinstance(msg, PriceNamed):
            await self._name_price(client, msg)
        else:
            await self._client_answer(client, msg.yes)

    def _seat_bucket(self, seat: int) -> TokenBucket:
        """The seat's action budget, shared by all its connections, present and future."""
        bucket = self._seat_buckets.get(seat)
        if bucket is None:
            bucket = TokenBucket(self._timing.action_rate, self._timing.action_burst)
            self._seat_buckets[seat] = bucket
        return bucket

    async def _client_start(self, client: _Client) -> None:
        if client.seat != 0:
            self._refuse(client, "not_host", *worded("not_host"))
            return
        async with self._lock:
            try:
                self._start_locked()
            except Refused as exc:
                self._refuse(client, exc.code, exc.message, params=exc.params)
            else:
                client.strikes = 0

    async def _client_answer(self, client: _Client, yes: bool) -> None:
        """A client's answer to the proposed rematch; a refusal changes nothing."""
        async with self._lock:
            if client not in self._clients:
                return
            try:
                self._answer_locked(client.seat, yes)
            except Refused as exc:
                self._refuse(client, exc.code, exc.message, params=exc.params)
            else:
                client.strikes = 0

    async def _say(self, client: _Client, text: str) -> None:
        """Check, record and relay a chat message (see :mod:`net.chat`)."""
        async with self._lock:
            if client not in self._clients:
                return
            seat = client.seat
            name = client.name if seat is None else self._table.seat_infos()[seat].name
            try:
                said = self._chat.say(client, seat, name, text, self._table.rev)
            except BadMessage as exc:
                self._refuse(client, exc.code, exc.message, params=exc.params)
                return
            await self._relay_said(said)
            if self._table.match is not None and any(
                isinstance(a, Talking) for a in self._table.bots().values()
            ):
                task = asyncio.create_task(self._bots_answer(said), name="bots answer")
                self._handlers.add(task)
                task.add_done_callback(self._handlers.discard)

    async def _relay_said(self, said: Said) -> None:
        """Record ``said`` and send it to everyone who may hear it (under the lock)."""
        if self.on_chat is not None:
            try:
                await self.on_chat(said)
            except Exception:
                log.exception("on_chat failed; the message is relayed unrecorded.")
        # Its place among the actions (``after``) is for the log: a listener told it
        # would learn of moves it may not hear of (R15; see _note_heard).
        frame = encode(replace(said, after=0).to_wire())
        for other in self._clients:
            if self._chat.reaches(said, other.seat):
                other.conn.send_frame(frame)

    async def _bots_answer(self, said: Said) -> None:
        """Each talking bot (``net.chat.Talking``) may answer a person's message once,
        from its own seat's view, in its own name and chat budget."""
        async with self._lock:
            names = [info.name for info in self._table.seat_infos()]
            asked = [
                (seat, agent, wire_copy(self._table.view(seat)))
                for seat, agent in sorted(self._table.bots().items())
                if isinstance(agent, Talking) and self._table.phase == "playing"
            ]
        for seat, agent, view in asked:
            try:
                text = await asyncio.to_thread(agent.chat_reply, view, said.seat, said.text, names)
            except Exception:
                log.exception("The bot at seat %d failed to answer the chat.", seat)
                continue
            if not text:
                continue
            async with self._lock:
                if self._closing or self._table.agent(seat) is not agent:
                    continue
                voice = self._voices.setdefault(seat, Voice(seat))
                try:
                    answer = self._chat.say(voice, seat, names[seat], text, self._table.rev)
                except BadMessage as exc:
                    log.info("The bot at seat %d did not answer: %s", seat, exc.message)
                    continue
                await self._relay_said(answer)

    async def _ask_price(self, client: _Client, msg: PriceAsk) -> None:
        """A seat asks another its price (``net/prices.py``): a bot names it from its own
        view, a person is asked; the answer goes to the asker only."""
        async with self._lock:
            if client not in self._clients:
                return
            try:
                deal = self._prices.question(
                    client, client.seat, msg.to, msg.deal, self._table.match,
                    self._table.seat_count,
                )  # fmt: skip
            except BadMessage as exc:
                self._refuse(client, exc.code, exc.message, params=exc.params)
                return
            except ActionRejected as exc:  # the game's refusal, said in each language
                self._refuse(client, exc.code, exc.message, params=exc.params)
                return
            agent = self._table.agent(msg.to)
            if not isinstance(agent, Quoting):
                person = self._by_seat.get(msg.to) if agent is None else None
                if person is None or client.seat is None:
                    self._refuse(client, "not_here", *worded("price_not_now"))
                    return
                self._prices.asked(client.seat, msg.to, deal)
                person.conn.send(PriceAsked(client.seat, deal).to_wire())
                return
            view = wire_copy(self._table.view(msg.to))
        try:
            coins = await asyncio.to_thread(agent.quote, view, deal)
        except Exception:
            log.exception("The bot at seat %d failed to name a price.", msg.to)
            coins = None
        if client in self._clients:
            client.conn.send(Priced(msg.to, deal, coins, bot=True).to_wire())

    async def _name_price(self, client: _Client, msg: PriceNamed) -> None:
        """A person answers a price question; only the asker hears it (``net/prices.py``)."""
        async with self._lock:
            if client not in self._clients or client.seat is None:
                self._refuse(client, "not_a_player", *worded("price_namer"))
                return
            try:
                self._prices.answer(client, client.seat, msg.to, msg.deal)
            except BadMessage as exc:
                self._refuse(client, exc.code, exc.message, params=exc.params)
                return
            asker = self._by_seat.get(msg.to)
            if asker is not None:
                asker.conn.send(Priced(client.seat, msg.deal, msg.coins, bot=False).to_wire())

    async def _draft(self, client: _Client, on: bool) -> None:
        """A seat starts or ends a draft (``net/drafts.py``); everyone is told."""
        async with self._lock:
            seat = client.seat
            if client not in self._clients:
                return
            if seat is None or self._table.match is None:
                self._refuse(client, "not_a_player", *worded("spectator_drafts"))
                return
            if not on:
                self._end_draft(seat)
                return
            if not may_draft(self._table.match, seat):  # e.g. no deal in this step
                self._refuse(client, "not_now", *worded("drafts_not_now"))
                return
            try:
                until = self._drafts.start(seat, self._table.waiting_on())
            except BadMessage as exc:
                self._refuse(client, exc.code, exc.message, params=exc.params)
                return
            self._tell_drafting(seat, until)
            if self._answers.hold_for(seat, until):  # offers it answers wait for its draft
                self._broadcast_views()
            loop = asyncio.get_running_loop()
            loop.call_later(max(0.0, until - time.monotonic()), self._draft_timed_out, seat, until)

    def _draft_timed_out(self, seat: int, until: float) -> None:
        if self._drafts.until_of(seat) == until:  # not ended nor started again since
            self._end_draft(seat)

    def _end_draft(self, seat: int) -> None:
        if self._drafts.end(seat):
            self._tell_drafting(seat, None)

    def _tell_drafting(self, seat: int, until: float | None) -> None:
        frame = self._drafting_frame(seat, until)
        for client in self._clients:
            client.conn.send_frame(frame)

    @staticmethod
    def _drafting_frame(seat: int, until: float | None) -> bytes:
        """The ``drafting`` frame for ``seat``'s draft ending at ``until`` (``None``: over)."""
        ends = None if until is None else max(0, round((until - time.monotonic()) * 1000))
        return encode(Drafting(seat, ends).to_wire())

    async def _leave(self, client: _Client) -> None:
        async with self._lock:
            if client in self._clients:
                self._clients.remove(client)
            seat = client.seat
            if seat is None or self._by_seat.get(seat) is not client:
                return  # a spectator, or replaced by a reconnect
            del self._by_seat[seat]
            self._end_draft(seat)
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
        """The one path by which an action changes the match; see :data:`net.turns.Submit`.

        ``origin``: the client whose message carried the action (its schema checked
        it, :data:`net.messages.ACTION_SPEC`), answered with an ``ack`` of ``seq``;
        ``None`` for the table's own moves (bots, defaults), checked here."""
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
                if origin is None:  # bots and defaults get a client's checks (a client's
                    check_action(action)  # action had them: ActionRequest's schema)
                why: TableMoveReason | None = None
                if source == "timeout":  # the table plays for the seat: say why
                    why = "away" if self._table.absent_since(seat) is not None else "time"
                self._table.apply(seat, action, why)
                self.last_move_by_table = why
            except (BadMessage, Refused) as exc:
                if origin is not None:
                    self._refuse(origin, exc.code, exc.message, exc.params, seq)
                else:
                    log.info("%s action for seat %d refused: %s", source, seat, exc.message)
                return "rejected"
            if origin is not None:
                origin.strikes = 0
            durable = None
            if self.on_record is not None:
                try:
                    durable = self.on_record(seat, action)
                except Exception as exc:
                    self._record_failed(exc)
                    return "skipped"
                if durable is not None:
                    self._outbox.after(durable)  # what follows waits until it is on disk
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
            if source != "timeout":  # its move is made: the bots carry on
                self._end_draft(seat)
            self._drafts.moved_on(self._table.waiting_on())
            self._keeper.note_action(seat)
            self._keeper.update()  # first: the views carry the new time limit
            self._answers.update()  # and the offers' deadlines
            self._broadcast_views(self._note_heard())
            if self._presence_of() != self._presence:
                self._send_lobby()  # an absent seat's countdown started, stopped or moved
            if durable is not None:  # its record holds frames back: say who heard of it
                # Only the groups whose view it changed (and its seat, acked): what goes
                # to the others from now on need not wait for its record.
                self._outbox.heard_by(frozenset(self._heard) | {seat})
            if self._table.phase == "over":
                log.info("Table %r: game over at rev %d.", self.name, self._table.rev)
                self._changed()
                self._over.set()
            return "accepted"

    def records_durable(self) -> None:
        """Let go at once what waited for records whose futures (``on_record``'s) were
        just resolved: the log's recorder calls it right after resolving them. Else the
        outbox would hear of it through the futures' callbacks a loop turn later,
        ≈ 20 µs on every action's path (docs/measurements/bench-server.txt, round 8)."""
        self._outbox.flush()

    def _record_failed(self, exc: BaseException) -> None:
        """An accepted action's record failed: nobody may hear of it; the table closes."""
        if self._halted:
            return
        log.error("An action could not be recorded (%s); the table closes.", exc, exc_info=exc)
        self._halted = True
        self._halt_task = asyncio.create_task(self.close("record_failed"))

    def _start_locked(self) -> None:
        self._table.start()
        log.info("Table %r: game started.", self.name)
        if self.on_start is not None:
            try:
                self.on_start(self._table.seat_records())
            except Exception:
                log.exception("on_start failed; carrying on.")
        self._changed()
        self._keeper.update()  # first: the views carry the step's time limit
        self._answers.update()
        self._views_heard.clear()  # a new match: its revisions count from its first views
        self._unheard.clear()
        self._broadcast_views(self._note_heard())
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
        self._keeper.update()  # first: a (dis)connection moves absence deadlines
        self._answers.update()  # a restored table's open offers get their time
        self._send_lobby()
        if self.on_change is not None:
            try:
                self.on_change(self.summary())
            except Exception:
                log.exception("on_change failed.")

    def _send_lobby(self) -> None:
        """Send every client the seats (with who is away and for how long) and the phase,
        unless it has them as they are: spectators are not listed, and one who comes or
        goes must not make every client redraw its lobby (a churn of spectators pushed
        ~1,900 identical frames a second to each player)."""
        lobby = Lobby(
            seats=self._seat_infos(),
            started=self._table.phase != "lobby",
            phase=self._table.phase,
        )
        self._presence = self._presence_of()
        frames = [encode(lobby.to_wire())]
        if self._vote is not None:  # the answers follow the seats (who left, came back)
            answers = self._vote.states(self._table.seat_infos())
            frames.append(encode(RematchState(answers).to_wire()))
        sent = b"".join(frames)
        for client in self._clients:
            if client.last_lobby == sent:
                continue  # nothing in it changed for this client (a spectator came or went)
            client.last_lobby = sent
            for frame in frames:
                client.conn.send_frame(frame)

    def _presence_of(self) -> tuple[tuple[int, float, float | None], ...]:
        """``(seat, away since, default due)`` of each absent human, on the keeper's clock."""
        absent = ((i, self._table.absent_since(i)) for i in range(self._table.seat_count))
        return tuple(
            (i, since, self._keeper.deadline(i)) for i, since in absent if since is not None
        )

    def _seat_infos(self) -> tuple[SeatInfo, ...]:
        """Every seat's public facts, with how long each absent human has been away and
        how long until the table plays for it (public: the same for every recipient)."""
        now = self._keeper.now()
        infos = list(self._table.seat_infos())
        for seat, since, due in self._presence_of():
            infos[seat] = replace(
                infos[seat],
                away_ms=max(0, round((now - since) * 1000)),
                defaults_in_ms=None if due is None else max(0, round((due - now) * 1000)),
            )
        return tuple(infos)

    def _note_heard(self) -> dict[int | None, tuple[Wire, bytes]]:
        """After an accepted action, count it against every recipient group (each seat,
        and the spectators: ``None``) whose view it left as it was: that group cannot
        know of it (another seat's private move, R15), so the revision its views carry
        (:meth:`rev_for`) does not count it either: a revision that did would tell
        how often the others rearranged their crates. Called once more as a match
        starts, with the counts cleared, to keep its first views. (A table resumed
        from its log starts them at 0: its first views tell the number of actions
        logged, as the log's own length does.) The groups that heard of it are left
        in ``self._heard``, for the outbox (:meth:`net.outbox.Outbox.heard_by`).

        Returns:
            Each group's view now and its bytes (for :meth:`_broadcast_views`); a
            group whose view cannot be built is left out, and counts the action as heard.
        """
        views: dict[int | None, tuple[Wire, bytes]] = {}
        heard = self._heard
        heard.clear()
        for group in (*range(self._table.seat_count), None):
            try:
                view = self._table.view(group)
                packed: bytes = msgpack.packb(view, use_bin_type=True)
            except Exception:
                heard.add(group)
                continue  # _view_frame logs it when a recipient needs this view
            if packed == self._views_heard.get(group):
                self._unheard[group] = self._unheard.get(group, 0) + 1
            else:
                heard.add(group)
            self._views_heard[group] = packed
            views[group] = view, packed
        return views

    def _group_of(self, conn: FramedConnection) -> Hashable:
        """``conn``'s recipient group for the outbox: its client's seat (``None``: a
        spectator), or :data:`net.outbox.UNKNOWN` before it has joined."""
        for client in self._clients:
            if client.conn is conn:
                return client.seat
        return UNKNOWN

    def rev_for(self, group: int | None) -> int:
        """The revision the views of ``group`` (a seat; ``None``: the spectators) carry:
        :attr:`rev`, less the accepted actions that left that group's view as it was
        (another seat's private move, R15), which it cannot know of."""
        return self._table.rev - self._unheard.get(group, 0)

    def _broadcast_views(
        self, built: Mapping[int | None, tuple[Wire, bytes]] | None = None
    ) -> None:
        """Send each client its view, only if what it may see changed since its last one.

        Nothing goes to a client whose view and time limit are as it last saw
        them: another seat's private move (R15) must not even be heard of. Each
        seat's view (and the spectators' one) is built and packed once for all
        its recipients (``built``: those :meth:`_note_heard` built already), and
        the time limits once for everyone.
        """
        now = self._keeper.now()  # one clock read: every screen counts down the same time
        try:
            times = self._times(now)
        except Exception:
            log.exception("Cannot read the time limits for the views.")
            return
        frames: dict[int | None, tuple[bytes, bytes] | None] = {}
        out: list[tuple[FramedConnection, bytes]] = []
        for client in self._clients:
            seat = client.seat
            if seat not in frames:
                frames[seat] = self._view_frame(
                    seat, now, times, None if built is None else built.get(seat)
                )
            shown = frames[seat]
            if shown is not None and shown[0] != client.last_view:
                client.last_view = shown[0]
                out.append((client.conn, shown[1]))
        self._outbox.send_all(out)

    def _times(self, now: float) -> _Times:
        """What every view frame built at ``now`` (the keeper's clock) says of time:
        the bytes of the time limit and the offers' deadlines (to tell whether they
        changed), the milliseconds left on the limit, and on each offer (§4)."""
        due = self._keeper.countdown()
        answers = self._answers.deadlines()  # public: the same for everyone (§4)
        said: bytes = msgpack.packb([due, sorted(answers.items())], use_bin_type=True)
        ends_in = None if due is None else max(0, round((due - now) * 1000))
        return said, ends_in, tuple(self._answers.left_ms(now))

    def _view_frame(
        self,
        seat: int | None,
        now: float,
        times: _Times | None = None,
        built: tuple[Wire, bytes] | None = None,
    ) -> tuple[bytes, bytes] | None:
        """``(what it shows, frame)``: the ``view`` frame for ``seat``, the only game
        data that leaves, and the bytes of its view and deadlines, to tell whether
        anything the recipient may see changed. ``now`` (the keeper's clock) is when
        the frame is sent: the time left in it is counted from then, so frames built
        with the same ``now`` tell every recipient the same time left. ``times``:
        :meth:`_times` at ``now``, if already read; ``built``: the view now and its
        bytes, if already built. The view is packed once, for both. ``None`` (and a log
        entry) when the view cannot be built or sent."""
        try:
            said, ends_in, left = self._times(now) if times is None else times
            if built is None:
                view = self._table.view(seat)
                packed: bytes = msgpack.packb(view, use_bin_type=True)
            else:
                view, packed = built
            frame = encode_view(View(self.rev_for(seat), view, ends_in, left), packed)
            return packed + said, frame
        except Exception:
            log.exception("Cannot build the view for seat %s.", seat)
            return None

    # --- errors ---------------------------------------------------------------

    def _refuse(
        self,
        client: _Client,
        code: str,
        message: str,
        params: Mapping[str, str | int] | None = None,
        seq: int | None = None,
    ) -> None:
        client.strikes += 1
        self._send_error(client.conn, code, message, params, seq)

    @staticmethod
    def _send_error(
        conn: FramedConnection,
        code: str,
        message: str,
        params: Mapping[str, str | int] | None = None,
        seq: int | None = None,
    ) -> None:
        """Send ``code`` and ``message``, with ``params`` (:mod:`net.wording`) that let
        the client say it in its own language, answering request ``seq``."""
        # Game sentences are passed through; cap them so one can't break the frame
        # (ErrorReply.to_wire keeps only the parameters its schema admits).
        conn.send(ErrorReply(code[:64], message[:1024], seq, params or None).to_wire())


class _Silence:
    """A connection's idle limit for its reading task: one timer for the connection's
    life, pushed back lazily (not one per message). It fires at most once per
    ``seconds`` while frames keep coming; when the task has been waiting for a frame
    (:attr:`waiting`, set around each read) for ``seconds`` or more, it cancels the
    task there, and :meth:`ended_wait` tells that cancellation from any other.

    Args:
        seconds: The idle limit (``Timing.idle_timeout``).

    Create it in the reading task, on its event loop; :meth:`close` when done.
    """

    __slots__ = ("_cancelling", "_expired", "_loop", "_seconds", "_since", "_task", "_timer",
                 "_waiting")  # fmt: skip

    def __init__(self, seconds: float) -> None:
        self._loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None, "a _Silence belongs to a reading task"
        self._task = task
        self._cancelling = task.cancelling()
        self._seconds = seconds
        self._since = self._loop.time()  # when the current wait began
        self._waiting = False
        self._expired = False
        self._timer = self._loop.call_at(self._since + seconds, self._check)

    @property
    def waiting(self) -> bool:
        """Whether the task is waiting for a frame now (set it before each read,
        clear it after): silence counts from the moment it is set."""
        return self._waiting

    @waiting.setter
    def waiting(self, value: bool) -> None:
        if value:
            self._since = self._loop.time()
        self._waiting = value

    def ended_wait(self) -> bool:
        """In the task, on a :class:`asyncio.CancelledError` out of a read: True if it
        is this limit's, and nothing else cancelled the task (then the task goes on);
        False: let the cancellation through."""
        if not self._expired:
            return False
        self._expired = False
        return self._task.uncancel() <= self._cancelling

    def close(self) -> None:
        """Stop the timer."""
        self._timer.cancel()

    def _check(self) -> None:
        """The timer: cancel a wait that has lasted the limit, else look again when the
        current wait would reach it (or a whole limit from now, between waits)."""
        now = self._loop.time()
        due = self._since + self._seconds
        if self._waiting and now >= due:
            self._expired = True
            self._task.cancel()
            return
        self._timer = self._loop.call_at(due if self._waiting else now + self._seconds, self._check)


_Times = tuple[bytes, int | None, tuple[tuple[int, int], ...]]
"""See :meth:`TableServer._times`."""

_PACKED_VIEW_KEY: Final = msgpack.packb("view")
_FRAME_LENGTH: Final = struct.Struct(">I")


def encode_view(frame: View, packed_view: bytes) -> bytes:
    """``encode(frame.to_wire())``, byte for byte, from the view map's msgpack bytes
    already packed (``msgpack.packb(frame.view, use_bin_type=True)``): the server packs
    each view once, for the frame and to tell whether it changed.

    Args:
        frame: The message; its ``view`` is not packed again.
        packed_view: The bytes of ``frame.view``.

    Returns:
        The complete frame, length prefix included (:func:`net.frames.encode`).

    Raises:
        FrameError: the payload is over :data:`net.frames.MAX_FRAME` bytes, or a
            field cannot be encoded.
    """
    wire = frame.to_wire()
    if len(wire) > 15 or "view" not in wire:  # no such View today: the plain way
        return encode(wire)
    head: dict[str, Any] = {}
    tail: dict[str, Any] = {}
    part = head
    for key, value in wire.items():  # the map's keys, in encode's order
        if key == "view":
            part = tail
        else:
            part[key] = value
    try:
        packed_head: bytes = msgpack.packb(head, use_bin_type=True)
        packed_tail: bytes = msgpack.packb(tail, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise FrameError(f"Cannot encode message: {exc}.") from exc
    # A map of under 16 pairs has a one-byte header (fixmap): the pairs of both
    # parts, with the view's between them, under one header make the whole map.
    size = len(packed_head) + len(packed_tail) - 1 + len(_PACKED_VIEW_KEY) + len(packed_view)
    if size > MAX_FRAME:
        raise FrameError(f"Message of {size} bytes exceeds the {MAX_FRAME}-byte frame cap.")
    return b"".join(
        (
            _FRAME_LENGTH.pack(size),
            bytes((0x80 | len(wire),)),
            packed_head[1:],
            _PACKED_VIEW_KEY,
            packed_view,
            packed_tail[1:],
        )
    )


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
