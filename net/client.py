"""`TableClient`: joins a table over TCP and turns its frames into typed messages.

Usage::

    client = await TableClient.connect(host, port, name="Ana", app_version=V, game="poissonnier")
    async for msg in client.messages():      # View, Lobby, ErrorReply, Ack, Bye
        ...
        seq = await client.send_action({...})
    await client.close()

The client answers pings itself and ends :meth:`TableClient.messages` when
the connection ends for any reason (after a ``bye``, a reset, a garbled
frame, or 45 s of silence); it never hangs.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Mapping
from typing import Any, Final, NotRequired, TypedDict, Unpack, cast

from net.chat import ChatRequest
from net.connection import FramedConnection, open_stream
from net.drafts import DraftRequest
from net.frames import PROTOCOL_VERSION, SERVER_LIMITS, ConnectionLost, FrameError
from net.game import Wire
from net.messages import (
    TABLE_CLOSED,
    ActionRequest,
    Bye,
    ErrorReply,
    Hello,
    Ping,
    Pong,
    RematchAnswer,
    Role,
    ServerMessage,
    Start,
    TableInfo,
    Welcome,
    check_action,
    parse_server_frame,
    parse_server_message,
)
from net.prices import PriceAsk, PriceNamed
from net.schema import BadMessage
from net.wording import WordedParams, worded

log = logging.getLogger(__name__)

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to reach the table and get an answer to ``hello``."""

IDLE_TIMEOUT: Final = 45.0
"""Seconds of silence from the table after which the connection counts as lost."""

_END: Final = object()

_VIEW_HEAD: Final = b"\xa4type\xa4view"
"""The bytes after the map's one-byte header that begin every ``view`` frame the table
packs (``net.server.encode_view``: ``type`` first). Such a frame waits in the inbox as
bytes and is checked when taken (:meth:`TableClient.receive`); the prefix only says when
a frame is checked, never whether it passes."""


class _Inbox:
    """What a client received and its consumer has not taken yet, first in, first out:
    :class:`asyncio.Queue`'s ``put_nowait`` and ``get`` for one consumer at a time,
    without what the client does not use (a bound, a second waiting consumer, a count
    of tasks done): ≈ 0.45 µs less per item put and taken, its consumer waiting; with the
    frames cut in the protocol (net/connection.py), ≈ 25 µs less per action on the bench's
    loop, where 22 clients take a view each (docs/measurements/bench-server.txt, round 10).

    A consumer cancelled while it waits takes nothing; what came meanwhile waits for
    the next. Create it inside the event loop that uses it.
    """

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self) -> None:
        self._items: deque[Any] = deque()
        self._loop = asyncio.get_running_loop()
        self._waiter: asyncio.Future[None] | None = None  # the consumer, while it waits

    def qsize(self) -> int:
        """How many items wait."""
        return len(self._items)

    def clear(self) -> None:
        """Drop every item waiting."""
        self._items.clear()

    def put_nowait(self, item: Any) -> None:
        """Add ``item`` last and wake the consumer if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Any:
        """Take the first item, waiting for one if there is none.

        Raises:
            RuntimeError: another consumer is waiting already (one at a time).
        """
        items = self._items
        while not items:
            if self._waiter is not None:
                raise RuntimeError("a client's messages have one consumer at a time")
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return items.popleft()


class JoinError(Exception):
    """The table could not be joined.

    Args:
        code: The server's error code (``"version_mismatch"``, ``"wrong_game"``,
            ``"bad_code"``, ``"table_full"``, ``"already_started"``,
            ``"spectators_not_allowed"``, ``"bad_message"``...) or one of the
            client's own: ``"unreachable"``, ``"timeout"``, ``"closed"``, ``"bad_reply"``.
        message: A plain sentence for the player.
        params: The sentence as data (:mod:`net.wording`), for the player's language.
    """

    def __init__(
        self, code: str, message: str, params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: WordedParams = dict(params or {})


class JoinDetails(TypedDict):
    """Who joins a table: what its ``hello`` says (keyword arguments of
    :meth:`TableClient.connect`, :func:`net.dial.dial`, :func:`net.reconnect.reconnect_table`).

    Attributes:
        name: display name, 1 to 24 printable characters.
        app_version: this application's version.
        game: the game this client plays (``GameDefinition.name``).
        role: ``"player"`` (the default) or ``"spectator"``.
        token: a token from an earlier welcome, to reclaim that seat.
        code: the table's join code, if it has one.
    """

    name: str
    app_version: str
    game: str
    role: NotRequired[Role]
    token: NotRequired[str | None]
    code: NotRequired[str | None]


class TableClient:
    """A joined connection to a table. Create it with :meth:`connect`.

    Attributes:
        seat: This client's seat, ``None`` for a spectator.
        token: The seat's reconnect token (keep it to reclaim the seat), or ``None``.
        table: What the table said about itself.
        server_app: The server's application version.
    """

    def __init__(self, conn: FramedConnection, welcome: Welcome, *, idle_timeout: float) -> None:
        self._conn = conn
        self.seat: int | None = welcome.seat
        self.token: str | None = welcome.token
        self.table: TableInfo = welcome.table
        self.server_app: str = welcome.app
        self._idle_timeout = idle_timeout
        # Unbounded: the server paces itself by the game; a consumer that
        # stops reading is a local bug, not an attack.
        self._inbox = _Inbox()
        self._seq = 0
        self.lost_reason: str | None = None
        """Why the connection ended, once it has."""
        self.lost_params: WordedParams = {}
        """:attr:`lost_reason` as data (:mod:`net.wording`), for the player's language."""
        self.bye_reason: str | None = None
        """The reason code of the table's ``bye``, once it said one (e.g. ``"closing"``,
        :data:`net.messages.TABLE_CLOSED`: the table is gone for good, no seat remains)."""
        self._ended = False  # _END is in the inbox: nothing more is taken
        # One silence timer, checked lazily: each frame only notes the time, and the
        # timer, when it fires early, waits on until idle_timeout after the last frame.
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._heard = loop.time()
        self._silence = loop.call_at(self._heard + idle_timeout, self._check_silence)
        conn.deliver(self._take, self._stream_ended)

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        *,
        timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        **details: Unpack[JoinDetails],
    ) -> TableClient:
        """Connect, say hello, and return once the table has welcomed us.

        Args:
            host: Table address.
            port: Table TCP port.
            timeout: Seconds for connecting and the welcome together.
            idle_timeout: Seconds of silence after which the connection is lost.
            details: who we are (:class:`JoinDetails`): ``name``, ``app_version``,
                ``game``, and optionally ``role``, ``token``, ``code``.

        Returns:
            A client with :attr:`seat`, :attr:`token` and :attr:`table` set.

        Raises:
            JoinError: The table refused us (its code and sentence), or could
                not be reached, did not answer in time, or answered nonsense.
        """
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await open_stream(host, port)
        except (OSError, TimeoutError) as exc:
            said = worded("unreachable", address=f"{host}:{port}")
            raise JoinError("unreachable", *said) from exc
        return await cls.handshake(
            reader, writer, f"{host}:{port}", timeout=timeout, idle_timeout=idle_timeout, **details
        )

    @classmethod
    async def handshake(
        cls,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        where: str,
        *,
        timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        **details: Unpack[JoinDetails],
    ) -> TableClient:
        """Say hello on an open TCP stream and return once the table has welcomed us.

        The second half of :meth:`connect`, for callers that open the stream
        themselves (:func:`net.dial.dial` races several addresses). The stream
        is closed on any failure.

        Args:
            reader / writer: the open stream.
            where: ``host:port`` for messages.
            others: as :meth:`connect`; ``timeout`` bounds the welcome alone.

        Raises:
            JoinError: as :meth:`connect` (but never ``"unreachable"``).
        """
        hello = Hello(
            PROTOCOL_VERSION, details["app_version"], details["game"], details["name"],
            details.get("role", "player"), details.get("token"), details.get("code"),
        )  # fmt: skip
        conn = FramedConnection(reader, writer, limits=SERVER_LIMITS)
        try:
            conn.send(hello.to_wire())
            async with asyncio.timeout(timeout):
                reply = parse_server_message(await conn.recv())
            if isinstance(reply, ErrorReply):
                raise JoinError(reply.code, reply.message, reply.params)
            if not isinstance(reply, Welcome) or reply.protocol != PROTOCOL_VERSION:
                raise JoinError("bad_reply", *worded("no_welcome"))
        except JoinError:
            conn.close("refused")
            await conn.wait_closed(1.0)
            raise
        except (TimeoutError, ConnectionLost, FrameError, BadMessage) as exc:
            conn.abort("failed")
            await conn.wait_closed()
            if isinstance(exc, TimeoutError):
                raise JoinError("timeout", *worded("no_answer", address=where)) from exc
            if isinstance(exc, ConnectionLost):
                raise JoinError("closed", *worded("closed_early")) from exc
            raise JoinError("bad_reply", *worded("nonsense", why=str(exc))) from exc
        except BaseException:  # cancelled mid-hello (a dial race lost): leave nothing open
            conn.abort("cancelled")
            raise
        return cls(conn, reply, idle_timeout=idle_timeout)

    @property
    def closed(self) -> bool:
        """True once the connection is closing or closed."""
        return self._conn.closing

    def messages(self) -> AsyncIterator[ServerMessage]:
        """Iterate over messages from the table, in order, until the connection ends.

        Yields:
            :class:`~net.messages.View`, :class:`~net.messages.Lobby`,
            :class:`~net.messages.Ack`, :class:`~net.messages.ErrorReply`,
            and a final :class:`~net.messages.Bye` if the table said goodbye.
            Pings are answered here and not yielded.

        Unlike an async generator, the iterator survives a cancelled
        ``__anext__`` (e.g. under ``asyncio.timeout``): nothing is lost and
        iteration can go on. Use one consumer at a time.
        """
        return _Messages(self)

    async def receive(self) -> ServerMessage:
        """Wait for the next message (see :meth:`messages`).

        Views are checked here, as they are taken: until then they wait as bytes,
        which cost the garbage collector nothing (a malformed one is skipped, as in
        :meth:`_take`; a garbled one ends the connection there, and what came after
        it is dropped, as if it had been cut there).

        Raises:
            ConnectionLost: The connection has ended and every message was read;
                :attr:`lost_reason` says why.
        """
        while True:
            msg = await self._inbox.get()
            if msg is _END:
                self._inbox.put_nowait(_END)  # every later call ends at once too
                raise ConnectionLost(self.lost_reason or "The connection is closed.")
            if type(msg) is not bytes:
                return cast(ServerMessage, msg)
            try:  # a view's bytes, checked now (see _take); nothing awaited after get()
                return parse_server_frame(msg)
            except BadMessage as exc:
                _skip(exc)
            except FrameError as exc:
                self._garbled_in_inbox(exc)

    async def send_action(self, action: Mapping[str, Any]) -> int:
        """Send an action for our seat.

        Args:
            action: The game's action map.

        Returns:
            The ``seq`` the table will echo in its ``ack`` or ``error``.

        Raises:
            ConnectionLost: The connection is closed.
            BadMessage: ``action`` is not plain data within the protocol's bounds.
        """
        wire: Wire = check_action(dict(action))
        self._seq += 1
        self._send(ActionRequest(self._seq, wire).to_wire())
        return self._seq

    async def start(self) -> None:
        """Ask the table to start (only the host, seat 0, may).

        Raises:
            ConnectionLost: The connection is closed.
        """
        self._send(Start().to_wire())

    async def say(self, text: str) -> None:
        """Say ``text`` at the table's chat (net/chat.py). The table relays it as
        a ``said`` to everyone who may hear it, this client included, or answers
        an ``error`` (too long, control characters, too fast).

        Raises:
            ConnectionLost: The connection is closed.
        """
        self._send(ChatRequest(text).to_wire())

    async def draft(self, on: bool) -> None:
        """Say our player starts (``on``) or stops drafting a move (net/drafts.py): the
        table's bots wait meanwhile, within the table's bounds. Everyone hears it as a
        ``drafting``; a refusal (too many drafts, a spectator) comes as an ``error``.

        Raises:
            ConnectionLost: The connection is closed.
        """
        self._send(DraftRequest(on).to_wire())

    async def ask_price(self, seat: int, deal: Mapping[str, Any]) -> None:
        """Ask ``seat`` its price on ``deal`` (net/prices.py). A bot's answer, or a
        person's if they give one, comes to this client only as a ``priced``; a refusal
        (a spectator, a question the game refuses, too fast) as an ``error``.

        Raises:
            ConnectionLost: The connection is closed.
        """
        self._send(PriceAsk(seat, dict(deal)).to_wire())

    async def name_price(self, asker: int, deal: Mapping[str, Any], coins: int | None) -> None:
        """Answer ``asker``'s price question about ``deal`` (a ``price_asked``) with
        ``coins``, or ``None`` for no price; only the asker hears it.

        Raises:
            ConnectionLost: The connection is closed.
        """
        self._send(PriceNamed(asker, dict(deal), coins).to_wire())

    async def answer_rematch(self, yes: bool) -> None:
        """Accept (``yes``) or decline the rematch the host proposed (net/rematch.py).
        Everyone hears the answers in ``rematch`` frames; a refusal (no rematch
        proposed, a spectator, answered already) comes as an ``error``.

        Raises:
            ConnectionLost: The connection is closed.
        """
        self._send(RematchAnswer(yes).to_wire())

    async def close(self) -> None:
        """Say goodbye and close. Safe to call more than once."""
        if not self._conn.closing:
            self._conn.send(Bye("closing").to_wire())
            self._conn.close("closing")
        await self._conn.wait_closed(1.0)
        self._end()

    def _send(self, msg: Wire) -> None:
        if not self._conn.send(msg):
            raise ConnectionLost(self.lost_reason or "The connection is closed.")

    def _lost(self, said: tuple[str, WordedParams]) -> None:
        """Record why the connection ended, in English and as data."""
        self.lost_reason, self.lost_params = said

    def _end(self, said: tuple[str, WordedParams] | None = None) -> None:
        """The connection is over (``said``: why, unless a reason is known already):
        close it, stop the silence timer, and end :meth:`messages` after what is queued."""
        if self._ended:
            return
        self._ended = True
        if said is not None and self.lost_reason is None:
            self._lost(said)
        self._silence.cancel()
        self._conn.close(self._conn.close_reason or "closing")
        self._inbox.put_nowait(_END)

    def _garbled_in_inbox(self, exc: FrameError) -> None:
        """A view taken from the inbox is garbled: the stream was out of step from
        there, so what came after it is dropped and the connection ends, garbled, as
        if the frame had been cut there (:meth:`_take`)."""
        self._inbox.clear()
        self._ended = False  # end it again: this is why, whatever came after
        self.lost_reason, self.lost_params, self.bye_reason = None, {}, None
        self._end(worded("garbled", why=str(exc)))

    def _check_silence(self) -> None:
        """The silence timer: lost after :attr:`idle_timeout` seconds without a frame."""
        due = self._heard + self._idle_timeout
        if self._loop.time() < due:
            self._silence = self._loop.call_at(due, self._check_silence)
        else:
            self._end(worded("silent", seconds=f"{self._idle_timeout:g}"))

    def _stream_ended(self, why: Exception) -> None:
        """The stream ended (:class:`ConnectionLost`) or is garbled (:class:`FrameError`)."""
        if isinstance(why, FrameError):
            self._end(worded("garbled", why=str(why)))
        else:
            self._end(worded("connection_closed"))

    def _take(self, payload: bytes) -> bool:
        """Decode and check one frame from the table and hand it on (pings answered here),
        in the callback that received its last byte (:meth:`FramedConnection.deliver`).
        A view is handed on as its bytes and checked when taken (:meth:`receive`): 22
        clients in one process (a host's own, the bench's) then do not hold 22 decoded
        views at once, which made a young collection run on every action
        (docs/measurements/bench-server.txt, round 9).

        Returns:
            True when nothing more will be read: after the table's ``bye``, or a
            frame that is not one msgpack map (the stream is garbled).
        """
        if self._ended:  # garbled in the inbox, closed, silent: nothing more is taken
            return True
        self._heard = self._loop.time()
        if payload.startswith(_VIEW_HEAD, 1):  # checked when taken: see receive()
            self._inbox.put_nowait(payload)
            return False
        try:
            msg = parse_server_frame(payload)
        except BadMessage as exc:
            _skip(exc)
            return False
        except FrameError as exc:
            self._end(worded("garbled", why=str(exc)))
            return True
        if isinstance(msg, Ping):
            self._conn.send(Pong().to_wire())
            return False
        if isinstance(msg, Pong):
            return False
        self._inbox.put_nowait(msg)
        if isinstance(msg, Bye):
            self.bye_reason = msg.reason
            self._end(
                worded("table_closed")
                if msg.reason == TABLE_CLOSED
                else worded("goodbye", reason=msg.reason or "no reason")
            )
            return True
        return False


def _skip(exc: BadMessage) -> None:
    """A malformed message from the table: same protocol version, so a server bug;
    skipped rather than lose the game over one odd frame."""
    log.warning("Ignoring a malformed message from the table: %s", exc.message)


class _Messages:
    """Async iterator over a client's messages; ends (rather than raises) at the close."""

    def __init__(self, client: TableClient) -> None:
        self._client = client

    def __aiter__(self) -> _Messages:
        return self

    async def __anext__(self) -> ServerMessage:
        try:
            return await self._client.receive()
        except ConnectionLost:
            raise StopAsyncIteration from None
