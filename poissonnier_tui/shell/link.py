"""The app's connection to a table: a TCP client, plus the server itself in solo.

No Textual here (docs/ARCHITECTURE.md: the I/O layer knows nothing of widgets). The app's
network worker calls :func:`open_link` and then iterates
:meth:`TableLink.messages`; the screens never see a socket.

Solo play takes the same path as a LAN game (docs/ARCHITECTURE.md "Textual"): an
in-process :class:`net.server.TableServer` listens on 127.0.0.1, port 0,
unadvertised, with bots in every seat but the first, and the app joins it as
an ordinary TCP client.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any

from net.client import JoinError, TableClient
from net.messages import ServerMessage
from net.server import TableServer
from poissonnier_tui.games import DEFAULT_GAME
from poissonnier_tui.i18n import _
from poissonnier_tui.refusals import refusal_or_message
from poissonnier_tui.shell.session import HostSession, JoinSession, Session, SoloSession

if TYPE_CHECKING:
    from poissonnier_tui.hosting.tables import HostedTable

log = logging.getLogger(__name__)

__all__ = ["JoinError", "TableLink", "open_link"]


class TableLink:
    """A joined table: the client connection and, in solo, the server it runs.

    Args:
        client: the connected client.
        server: the in-process server of a solo game, closed with the link.
        address: ``host:port`` for messages to the player.
        hosted: the LAN table this process hosts (``poissonnier host``),
            closed with the link (goodbye to everyone, advert withdrawn).
        game: the game's registry name, as sent in ``hello``.
    """

    def __init__(
        self,
        client: TableClient,
        server: TableServer | None = None,
        address: str = "",
        hosted: HostedTable | None = None,
        game: str = DEFAULT_GAME,
    ) -> None:
        self.client = client
        self.server = server
        self.address = address
        self.hosted = hosted
        self.game = game
        """The game the table plays (the name its ``hello`` was accepted with)."""

    @property
    def seat(self) -> int | None:
        """This client's seat, ``None`` for a spectator."""
        return self.client.seat

    @property
    def token(self) -> str | None:
        """The seat's reconnect token (show it so the player can rejoin)."""
        return self.client.token

    @property
    def table_name(self) -> str:
        """The table's name as it announced itself."""
        return self.client.table.name

    @property
    def lost_reason(self) -> str | None:
        """Why the connection ended, once it has (in the player's language)."""
        reason = self.client.lost_reason
        return None if reason is None else refusal_or_message(self.client.lost_params, reason)

    def messages(self) -> AsyncIterator[ServerMessage]:
        """The table's messages in order, until the connection ends."""
        return self.client.messages()

    async def send_action(self, action: Mapping[str, Any]) -> int:
        """Send a game action; returns the ``seq`` echoed in its ``ack`` or ``error``."""
        return await self.client.send_action(action)

    async def say(self, text: str) -> None:
        """Say ``text`` at the table's chat (``net.chat``); the echo comes as a ``said``."""
        await self.client.say(text)

    async def draft(self, on: bool) -> None:
        """Tell the table our player starts (``on``) or stops drafting a move (``net.drafts``)."""
        await self.client.draft(on)

    async def ask_price(self, seat: int, deal: Mapping[str, Any]) -> None:
        """Ask ``seat`` its price on ``deal`` (``net.prices``); the answer comes as ``priced``."""
        await self.client.ask_price(seat, deal)

    async def name_price(self, asker: int, deal: Mapping[str, Any], coins: int | None) -> None:
        """Answer ``asker``'s price question about ``deal`` (``net.prices``)."""
        await self.client.name_price(asker, deal, coins)

    async def answer_rematch(self, yes: bool) -> None:
        """Accept (``yes``) or decline the rematch the host proposed (``net/rematch.py``)."""
        await self.client.answer_rematch(yes)

    async def start(self) -> None:
        """Ask the table to start the game (only the host, seat 0, may)."""
        await self.client.start()

    async def close(self) -> None:
        """Leave the table and, in solo, stop the server. Safe to call twice."""
        try:
            await self.client.close()
        finally:
            if self.server is not None:
                await self.server.close("closing")
            if self.hosted is not None:
                await self.hosted.close("closing")


async def open_link(session: Session, *, say: Callable[[str], None] | None = None) -> TableLink:
    """Join the table ``session`` describes; for a solo session, start it first.

    Args:
        session: solo or join.
        say: called with short progress sentences ("Starting the table…").

    Returns:
        A joined :class:`TableLink`.

    Raises:
        JoinError: the table refused us or could not be reached.
        ValueError: a solo or host session with impossible settings (e.g. 0 bots,
            unknown bot kind), or a browse session (it has no table yet).
        OSError: a host session's port cannot be bound.
    """
    from poissonnier_tui.client.joining import connect_table
    from poissonnier_tui.hosting.lan import format_address
    from poissonnier_tui.hosting.tables import open_table, solo_settings

    report = say or (lambda _text: None)
    if isinstance(session, HostSession):
        return await _host(session, report)
    if not isinstance(session, JoinSession | SoloSession):
        raise ValueError(_("Pick a table first: a lobby session has no table to open."))
    if isinstance(session, JoinSession):
        report(
            _("Connecting to {address}…").format(
                address=format_address(session.host, session.port)
            )
        )
        dialled, _entry = await connect_table(  # every advertised address, happy eyeballs
            session.hosts or (session.host,),
            session.port,
            name=session.name,
            role=session.role,
            token=session.token,
            code=session.code,
            game=session.game,
        )
        return TableLink(dialled.client, None, dialled.address, game=session.game)
    report(_("Setting up the fish market…"))
    settings = solo_settings(
        session.game,
        bots=session.bots,
        bot_kinds=session.bot_kinds,
        seed=session.seed,
        options=session.options,
        bot_delay=session.bot_delay,
        bot_patience=session.bot_patience,
        drafts=session.drafts,
    )
    hosted = await open_table(settings)
    report(_("Joining the table on {address}…").format(address=f"127.0.0.1:{hosted.port}"))
    try:
        dialled, _entry = await connect_table(
            ("127.0.0.1",), hosted.port, name=session.name, game=settings.game
        )
    except BaseException:
        await hosted.close("closing")
        raise
    log.info("Solo table on 127.0.0.1:%d, seed %d.", hosted.port, hosted.seed)
    # Not ``hosted=``: a solo player has no host controls; closing the server is all.
    return TableLink(
        dialled.client, hosted.server, f"127.0.0.1:{hosted.port}", game=settings.game
    )


async def _host(session: HostSession, report: Callable[[str], None]) -> TableLink:
    """Open the LAN table, take seat 0 over TCP, then advertise it (so seat 0 is ours)."""
    from poissonnier_tui.client.joining import connect_table
    from poissonnier_tui.hosting.lan import format_address
    from poissonnier_tui.hosting.tables import open_table

    report(_("Setting up the fish market…"))
    hosted = await open_table(session.settings, advertise=False, resume=session.resume)
    # A resumed table: take seat 0 back with its logged token.
    token = session.resume.header.seats[0].token if session.resume is not None else None
    try:
        report(_("Taking your seat at {address}…").format(address=hosted.address))
        dialled, _entry = await connect_table(
            (hosted.connect_host,),
            hosted.port,
            name=session.name,
            token=token,
            code=session.settings.code,
            game=session.settings.game,
        )
        if session.settings.advertise:
            report(_("Announcing the table on the LAN…"))
            await hosted.advertise()
    except BaseException:
        await hosted.close("closing")
        raise
    log.info("Hosting %r on %s, seed %d.", session.settings.name, hosted.address, hosted.seed)
    return TableLink(
        dialled.client,
        None,
        format_address(hosted.connect_host, hosted.port),
        hosted=hosted,
        game=session.settings.game,
    )
