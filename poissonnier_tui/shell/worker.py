"""The network worker's body and the outbox: a table's frames in, moves out, as messages.

No widgets here. :class:`TableRelay` opens a link with its ``connect``
callable (:func:`~poissonnier_tui.shell.link.open_link` by default; tests pass
one that returns a link of their own, e.g. the rules engine in process), turns
each server frame into a message of :mod:`poissonnier_tui.shell.messages` and
posts it, and sends the moves queued with :meth:`TableRelay.send` one by one,
in order. The app runs :meth:`TableRelay.run` in an App-level worker (screen
workers would die with their screen).

Nothing here may end the app silently: a move that cannot be sent becomes
:class:`~poissonnier_tui.shell.messages.ActionRefused`, a failed join
:class:`~poissonnier_tui.shell.messages.ConnectFailed`, a lost connection or an
unexpected exception :class:`~poissonnier_tui.shell.messages.Disconnected`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from net.chat import Said
from net.client import JoinError
from net.drafts import Drafting
from net.game import Wire
from net.messages import (
    TABLE_CLOSED,
    Ack,
    Bye,
    ErrorReply,
    Lobby,
    RematchState,
    ServerMessage,
    View,
)
from net.prices import PriceAsked, Priced
from net.reconnect import GIVE_UP_AFTER, Attempt, GaveUp, TableTarget, known_hosts, reconnect_table
from poissonnier_tui.i18n import _, decimal
from poissonnier_tui.refusals import goodbye_text, refusal_or_message
from poissonnier_tui.shell.link import TableLink, open_link
from poissonnier_tui.shell.messages import (
    ActionAcked,
    ActionRefused,
    ChatHeard,
    Connected,
    ConnectFailed,
    Disconnected,
    DraftHeard,
    LobbyChanged,
    PriceHeard,
    PriceQuestion,
    Progress,
    RematchHeard,
    ViewReceived,
)
from poissonnier_tui.shell.seats import seat_names
from poissonnier_tui.shell.session import JoinSession, Session

if TYPE_CHECKING:
    from textual.message import Message

    from poissonnier_tui.hosting.tables import HostedTable

log = logging.getLogger(__name__)


class Link(Protocol):
    """A joined table as the worker uses it (:class:`~poissonnier_tui.shell.link.TableLink`).

    Attributes:
        seat: our seat, ``None`` for a spectator.
        token: the seat's reconnect token.
        table_name: the table's name.
        address: ``host:port`` for messages to the player.
        game: the game the table plays (a registry name).
        lost_reason: why the connection ended, once it has.
        hosted: the LAN table this process hosts, if any.
    """

    @property
    def seat(self) -> int | None: ...

    @property
    def token(self) -> str | None: ...

    @property
    def table_name(self) -> str: ...

    @property
    def address(self) -> str: ...

    @property
    def game(self) -> str: ...

    @property
    def lost_reason(self) -> str | None: ...

    @property
    def hosted(self) -> HostedTable | None: ...

    def messages(self) -> AsyncIterator[ServerMessage]:
        """The table's messages in order, until the connection ends."""
        ...

    async def send_action(self, action: Mapping[str, Any]) -> int:
        """Send a game action; returns the ``seq`` its ``ack`` or ``error`` echoes."""
        ...

    async def start(self) -> None:
        """Ask the table to start the game (the host only)."""
        ...

    async def close(self) -> None:
        """Leave the table (and stop what this process runs for it). Safe twice."""
        ...


@runtime_checkable
class Chatty(Protocol):
    """A link that can chat (:meth:`~poissonnier_tui.shell.link.TableLink.say`)."""

    async def say(self, text: str) -> None:
        """Send ``text`` to the table's chat."""


@runtime_checkable
class Drafty(Protocol):
    """A link that can say its player drafts
    (:meth:`~poissonnier_tui.shell.link.TableLink.draft`)."""

    async def draft(self, on: bool) -> None:
        """Tell the table a draft starts (``on``) or ends."""


@runtime_checkable
class Pricey(Protocol):
    """A link that can ask and name prices (``net.prices``)."""

    async def ask_price(self, seat: int, deal: Mapping[str, Any]) -> None:
        """Ask ``seat`` its price on ``deal``."""

    async def name_price(self, asker: int, deal: Mapping[str, Any], coins: int | None) -> None:
        """Answer ``asker``'s price question."""


@runtime_checkable
class Rematchy(Protocol):
    """A link that can answer a proposed rematch
    (:meth:`~poissonnier_tui.shell.link.TableLink.answer_rematch`)."""

    async def answer_rematch(self, yes: bool) -> None:
        """Accept (``yes``) or decline the rematch."""


class Connect(Protocol):
    """Opens the table a session describes (the signature of ``open_link``).

    Raises:
        JoinError: the table refused us or could not be reached.
        OSError: a port cannot be bound or reached.
        ValueError: impossible settings.
    """

    async def __call__(
        self, session: Session, *, say: Callable[[str], None] | None = None
    ) -> Link: ...


class TableRelay:
    """One table's connection for the app: the worker's loop and the outbox of moves.

    Args:
        post: posts a message to the app (``App.post_message``).
        connect: opens the link (default :func:`~poissonnier_tui.shell.link.open_link`).
    """

    def __init__(self, post: Callable[[Message], object], connect: Connect | None = None) -> None:
        self._post = post
        self._connect: Connect = connect or open_link
        self.link: Link | None = None
        """The live connection, while there is one."""
        self.sent: dict[int, Wire] = {}
        """Actions in flight by ``seq``, to name them when refused."""
        self._outbox: asyncio.Queue[Wire] = asyncio.Queue()
        self._chats: set[asyncio.Task[None]] = set()

    async def run(self, session: Session) -> None:
        """Join (or start and join) the table, then relay its frames as messages until the
        connection ends; never raises (every failure becomes a message)."""

        def say(text: str) -> None:
            self._post(Progress(text))

        try:
            link = await self._connect(session, say=say)
        except OSError as exc:  # a host's port is taken, a bad --interface
            message = _("Cannot open the table: {why}").format(why=exc)
            self._post(ConnectFailed("unreachable", message))
            return
        except JoinError as exc:
            self._post(ConnectFailed(exc.code, refusal_or_message(exc.params, exc.message)))
            return
        except Exception as exc:  # e.g. no free port, unknown bot kind: say so, don't die
            log.exception("Could not open the table.")
            self._post(ConnectFailed("error", str(exc) or type(exc).__name__))
            return
        await self._relay(link)

    async def rejoin(self, session: JoinSession, *, give_up_after: float = GIVE_UP_AFTER) -> None:
        """The table vanished without a goodbye: try to rejoin it with the session's
        token in the background (:func:`net.reconnect.reconnect_table`: backoff, for
        ``give_up_after`` seconds; cancel the worker to stop), posting
        :class:`Progress` at every attempt, then relay as :meth:`run` does.

        Never raises: giving up becomes :class:`ConnectFailed`.
        """
        from poissonnier_tui import __version__

        def show(attempt: Attempt) -> None:
            if attempt.state == "trying":
                text = _("Host lost — reconnecting… (attempt {n})").format(n=attempt.number)
            elif attempt.state == "waiting":
                text = _("Host lost — reconnecting… (attempt {n}, next in {s} s)").format(
                    n=attempt.number, s=decimal(attempt.next_in or 0, 0)
                )
            else:
                return
            self._post(Progress(text + " " + _("Press c to stop.")))

        target = TableTarget(known_hosts((session.host,), session.hosts), session.port)
        try:
            dialled = await reconnect_table(
                target,
                on_attempt=show,
                give_up_after=give_up_after,
                name=session.name,
                app_version=__version__,
                game=session.game,
                role=session.role,
                token=session.token,
                code=session.code,
            )
        except GaveUp as exc:
            cause = exc.__cause__  # the last failure, a refusal said as data
            why = (
                refusal_or_message(cause.params, cause.message)
                if isinstance(cause, JoinError)
                else exc.message
            )
            message = _("The table did not come back: {why}").format(why=why)
            self._post(ConnectFailed(exc.code, message))
            return
        await self._relay(TableLink(dialled.client, None, dialled.address, game=session.game))

    async def _relay(self, link: Link) -> None:
        """Relay ``link``'s frames as messages until it ends; then :class:`Disconnected`."""
        self.link = link
        self._post(Connected(link.seat, link.token, link.table_name, link.address, link.game))
        pump = asyncio.create_task(self._pump_outbox(link), name="outbox")
        reason = _("The table closed the connection.")
        closed = goodbye = False
        bye: str | None = None
        try:
            async for msg in link.messages():
                if isinstance(msg, View):
                    self._post(
                        ViewReceived(msg.rev, dict(msg.view), msg.ends_in_ms, msg.answers_in_ms)
                    )
                elif isinstance(msg, Lobby):
                    seats = seat_names([s.to_wire() for s in msg.seats])
                    self._post(LobbyChanged(seats, msg.started, msg.phase))
                elif isinstance(msg, Ack):
                    self._post(ActionAcked(msg.seq))
                elif isinstance(msg, Drafting):
                    self._post(DraftHeard(msg.seat, msg.ends_in_ms))
                elif isinstance(msg, RematchState):
                    self._post(RematchHeard(msg.seats))
                elif isinstance(msg, Said):
                    self._post(ChatHeard(msg.seat, msg.name, msg.text))
                elif isinstance(msg, Priced):
                    self._post(PriceHeard(msg.seat, dict(msg.deal), msg.coins, msg.bot))
                elif isinstance(msg, PriceAsked):
                    self._post(PriceQuestion(msg.by, dict(msg.deal)))
                elif isinstance(msg, ErrorReply):
                    self._post(ActionRefused(msg.code, msg.message, msg.seq, params=msg.params))
                elif isinstance(msg, Bye):
                    reason = goodbye_text(msg.reason)
                    closed = msg.reason == TABLE_CLOSED
                    goodbye = True
                    bye = msg.reason
            if not goodbye:  # a goodbye's reason is said above, from its code
                reason = link.lost_reason or reason
        except Exception as exc:  # a bug in the relay must surface, not end the app silently
            log.exception("The table connection failed.")
            reason = _("The connection failed: {why}").format(why=exc)
        finally:
            pump.cancel()
        self._post(Disconnected(reason, table_closed=closed, goodbye=goodbye, bye=bye))

    async def _pump_outbox(self, link: Link) -> None:
        """Send queued moves one by one, in the order they were chosen."""
        while True:
            action = await self._outbox.get()
            try:
                seq = await link.send_action(action)
            except Exception as exc:  # closed connection or an action that can't be sent
                message = _("Could not send that move: {why}").format(why=exc)
                self._post(ActionRefused("not_sent", message, None, action))
                continue
            self.sent[seq] = action

    def send(self, action: Wire) -> bool:
        """Queue ``action`` for the server; ``False`` (nothing queued) when not connected.

        The answer comes back as :class:`ActionAcked` or :class:`ActionRefused`.
        """
        if self.link is None:
            return False
        self._outbox.put_nowait(action)
        return True

    def say(self, text: str) -> bool:
        """Say ``text`` at the table's chat; ``False`` when not connected or the link
        has no chat. The table's echo comes back as :class:`ChatHeard`, a refusal
        (too long, too fast...) as :class:`ActionRefused` with no ``seq``."""
        link = self.link
        if not isinstance(link, Chatty):
            return False
        return self._spawn(self._say(link, text), "chat")

    def draft(self, on: bool) -> bool:
        """Tell the table our player starts (``on``) or stops drafting a move
        (``net.drafts``); ``False`` when not connected or the link cannot."""
        link = self.link
        if not isinstance(link, Drafty):
            return False
        return self._spawn(link.draft(on), "draft", logged=True)

    def ask_price(self, seat: int, deal: Wire) -> bool:
        """Ask ``seat`` its price on ``deal`` (``net.prices``); ``False`` when not
        connected or the link cannot. The answer comes as :class:`PriceHeard`."""
        link = self.link
        if not isinstance(link, Pricey):
            return False
        return self._spawn(link.ask_price(seat, deal), "ask price", logged=True)

    def name_price(self, asker: int, deal: Wire, coins: int | None) -> bool:
        """Answer ``asker``'s price question; ``False`` when not connected or the link cannot."""
        link = self.link
        if not isinstance(link, Pricey):
            return False
        return self._spawn(link.name_price(asker, deal, coins), "name price", logged=True)

    def answer_rematch(self, yes: bool) -> bool:
        """Accept (``yes``) or decline the rematch the host proposed; ``False`` when not
        connected or the link cannot. The answers come back as :class:`RematchHeard`,
        a refusal as :class:`ActionRefused` with no ``seq``."""
        link = self.link
        if not isinstance(link, Rematchy):
            return False
        return self._spawn(self._answer(link, yes), "rematch answer")

    async def _answer(self, link: Rematchy, yes: bool) -> None:
        try:
            await link.answer_rematch(yes)
        except Exception as exc:  # a closed connection: say so, never raise in a task
            message = _("Could not send your answer: {why}").format(why=exc)
            self._post(ActionRefused("not_sent", message, None))

    def _spawn(self, work: Coroutine[Any, Any, None], name: str, *, logged: bool = False) -> bool:
        """Run ``work`` (a message to the table) as a task kept until it ends; with
        ``logged``, a failure is logged (the others say theirs themselves). ``True``."""
        task = asyncio.create_task(work, name=name)
        self._chats.add(task)
        task.add_done_callback(self._logged if logged else self._chats.discard)
        return True

    def _logged(self, task: asyncio.Task[None]) -> None:
        self._chats.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.info("Could not send %s to the table: %s", task.get_name(), task.exception())

    async def _say(self, link: Chatty, text: str) -> None:
        try:
            await link.say(text)
        except Exception as exc:  # a closed connection: say so, never raise in a task
            message = _("Could not send that message: {why}").format(why=exc)
            self._post(ActionRefused("not_sent", message, None))

    @property
    def queued(self) -> int:
        """Moves queued and not yet handed to the link."""
        return self._outbox.qsize()

    def refused(self, event: ActionRefused) -> Wire | None:
        """The action ``event`` refuses, if known (forgotten from the in-flight ones)."""
        if event.action is not None:
            return event.action
        return self.sent.pop(event.seq, None) if event.seq is not None else None

    def acked(self, seq: int) -> None:
        """The action numbered ``seq`` was accepted: no longer in flight."""
        self.sent.pop(seq, None)

    def lost(self) -> None:
        """The connection ended (the worker said so): no link any more."""
        self.link = None

    async def close(self) -> None:
        """Close the link if there is one; never raises (the app may be exiting)."""
        link, self.link = self.link, None
        if link is not None:
            try:
                await link.close()
            except Exception:  # closing must never stop the app from exiting
                log.exception("Closing the table link failed.")

    def reset(self) -> None:
        """Forget the moves of the last table (before joining another)."""
        self.sent.clear()
        self._outbox = asyncio.Queue()
