"""LAN tables: hosting one (server + zeroconf advert), addresses, and the serve log.

No Textual here. ``poissonnier host`` and ``poissonnier serve`` build a
:class:`TableSettings` and call :func:`open_table`, which starts a
:class:`net.server.TableServer` for Le Poissonnier and advertises it on the
LAN (docs/ARCHITECTURE.md "Discovery") with a record kept in step with the seats and
the phase. :class:`HostedTable` gives the host's controls: add or remove
bots in the lobby, hand an absent player's seat to a bot mid-game.
:class:`SeatLog` turns seat changes into the plain lines ``serve`` prints.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from net.advertise import ServerAdvertiser
from net.discovery import TableAd, advertised_addresses
from net.frames import PROTOCOL_VERSION
from net.game import Agent, GameDefinition, Match
from net.listen import ANY
from net.messages import NAME_MAX, SeatInfo
from net.server import TableServer, TableSummary
from net.turns import StepLimit, TimeLimit
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.match import PoissonnierGame, PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.state import Phase

if TYPE_CHECKING:
    from poissonnier_tui.hosting.persistence import ResumePlan

log = logging.getLogger(__name__)

GAME: Final = PoissonnierGame.name
"""The game name on the wire and in the zeroconf service type."""

DEFAULT_PORT: Final = 7374
"""TCP port a table listens on unless told otherwise (a busy one falls back to any free port)."""

ABSENT_GRACE: Final = 10.0
"""Seconds a disconnected player is waited for before R6 / the table's defaults play for them."""


# --- addresses and compatibility ------------------------------------------------------------


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"HOST:PORT"``, ``"HOST"`` or ``"[IPv6]:PORT"`` as ``(host, port)``.

    Raises:
        ValueError: empty host, or a port that is not a number in 1..65535
            (the message says what was wrong, for the player).
    """
    text = text.strip()
    host, port_text = text, ""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    if not host:
        raise ValueError(f"No host in {text!r}: give HOST:PORT, e.g. 192.168.1.20:{DEFAULT_PORT}.")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{port_text!r} is not a port number (1-65535).")
    return host, int(port_text)


def format_address(host: str, port: int) -> str:
    """``host:port``, with brackets around an IPv6 host."""
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]:{port}"
    except ValueError:
        pass
    return f"{host}:{port}"


def incompatibility(ad: TableAd) -> str | None:
    """Why this app cannot join the advertised table, naming both versions; ``None`` if it can."""
    if ad.game != GAME:
        return f"it plays {ad.game!r}, not {GAME!r}"
    if ad.protocol != PROTOCOL_VERSION or ad.app != __version__:
        return (
            f"it runs poissonnier {ad.app} (protocol {ad.protocol}); "
            f"you have {__version__} (protocol {PROTOCOL_VERSION})"
        )
    return None


# --- settings and the hosted table ----------------------------------------------------------


def fill_time_limit(seconds: float) -> TimeLimit:
    """R6: a table time limit of ``seconds`` on the fill step only (no limit elsewhere).

    The limit is on the step (:class:`net.turns.StepLimit`): it counts from the
    step's start whatever the seats do, so moving fish never buys time.
    """

    def limit(match: Match, seat: int) -> StepLimit | None:
        if isinstance(match, PoissonnierMatch) and match.state.phase is Phase.FILL:
            return StepLimit(("fill", match.state.turn), seconds)
        return None

    return limit


@dataclass(frozen=True)
class TableSettings:
    """How to host a table (the options of ``host`` and ``serve``).

    Attributes:
        name: table name, 1 to 64 printable characters.
        seats: 2 to 5 seats.
        bots: bots seated from the start, in the last seats.
        bot_kinds: the bots' levels (``poissonnier_tui.games.poissonnier.bots.BOT_KINDS``),
            handed out to the bot seats in turn
            (``poissonnier_tui.games.poissonnier.bots.kind_for``); the first is also the
            level the host's lobby adds next.
        bot_delay: seconds before each bot move.
        port: TCP port; ``None`` tries :data:`DEFAULT_PORT` then any free one;
            ``0`` takes any free one.
        interface: IPv4 address to listen and advertise on; ``None`` listens
            on all and advertises every non-loopback address.
        code: join code players must give, or ``None``.
        fill_timeout: R6 time limit in seconds on the fill step, or ``None``.
        spectators: whether spectators may join.
        seed: seed of the deal (R3); ``None`` draws one.
        start_when_full: start as soon as no seat is open.
        advertise: announce the table with zeroconf.
        host_seat: seat 0 is the host's own (``host``): bots never take it.
        absent_grace: seconds a disconnected player is waited for.
    """

    name: str
    seats: int = 4
    bots: int = 0
    bot_kinds: tuple[str, ...] = ("medium",)
    bot_delay: float = 0.5
    port: int | None = None
    interface: str | None = None
    code: str | None = None
    fill_timeout: float | None = None
    spectators: bool = True
    seed: int | None = None
    start_when_full: bool = False
    advertise: bool = True
    host_seat: bool = False
    absent_grace: float | None = ABSENT_GRACE

    def problems(self) -> list[str]:
        """What is wrong with these settings, in sentences (empty when fine)."""
        from poissonnier_tui.games.poissonnier.bots import BOT_KINDS

        out = []
        if not 2 <= self.seats <= 5:
            out.append(f"a table has 2 to 5 seats, not {self.seats}")
        most = self.seats - 1 if self.host_seat else self.seats
        if not 0 <= self.bots <= most:
            out.append(f"--bots must be 0 to {most} with {self.seats} seats")
        if not self.bot_kinds:
            out.append("name at least one bot level")
        for kind in self.bot_kinds:
            if kind not in BOT_KINDS:
                out.append(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
        if not (0 < len(self.name) <= 64 and self.name.isprintable() and self.name.strip()):
            out.append("the table name must be 1 to 64 printable characters")
        if self.code is not None and not 0 < len(self.code) <= 64:
            out.append("the join code must be 1 to 64 characters")
        if self.fill_timeout is not None and not self.fill_timeout > 0:
            out.append("--fill-timeout must be a positive number of seconds")
        if self.port is not None and not 0 <= self.port < 65536:
            out.append("--port must be 0 to 65535")
        return out


ChangeHook = Callable[[TableSummary], None]


@dataclass(eq=False)
class HostedTable:
    """A running LAN table: the server, its advert, and the host's controls.

    Attributes:
        server: the table server.
        settings: what it was opened with.
        seed: the deal's seed (drawn if the settings had none).
        address: ``host:port`` to give friends (a LAN address when there is one).
        advert_error: why the table could not be advertised, if it could not.
    """

    server: TableServer
    settings: TableSettings
    seed: int
    address: str
    advertiser: ServerAdvertiser | None = None
    advert_error: str | None = None
    stand_ins: set[int] = field(default_factory=set)
    """Seats the host handed to a bot for an absent player (see :meth:`hand_to_bot`)."""
    level: str = ""
    """The level of the next bot the host seats (:meth:`add_bot`, :meth:`hand_to_bot`);
    the first of ``settings.bot_kinds`` at first, changed by :meth:`next_level`."""

    def __post_init__(self) -> None:
        self.level = self.level or self.settings.bot_kinds[0]

    def next_level(self) -> str:
        """Move :attr:`level` to the next of easy, medium, hard (round again); return it."""
        from poissonnier_tui.games.poissonnier.bots import LEVELS

        at = LEVELS.index(self.level) + 1 if self.level in LEVELS else 0
        self.level = LEVELS[at % len(LEVELS)]
        return self.level

    @property
    def port(self) -> int:
        """The TCP port listened on."""
        return self.server.port

    @property
    def connect_host(self) -> str:
        """Address a client on this machine uses to reach the table."""
        return self.settings.interface or "127.0.0.1"

    def _bot(self, seat: int) -> Agent:
        from poissonnier_tui.games.poissonnier.bots import make_bot

        return make_bot(self.level, self.seed + seat)

    async def advertise(self) -> None:
        """Announce the table on the LAN (see :class:`net.advertise.ServerAdvertiser`).

        A failure (no usable interface) is kept in :attr:`advert_error` and
        logged: the table still works by address.
        """
        if self.advertiser is not None:
            return
        advertiser = ServerAdvertiser(self.settings.interface)
        hook = self.server.on_change

        def both(summary: TableSummary) -> None:
            advertiser.changed(summary)
            if hook is not None:
                hook(summary)

        try:
            await advertiser.start(self.server.summary())
        except (OSError, ValueError) as exc:
            self.advert_error = str(exc) or type(exc).__name__
            log.warning("Could not advertise the table: %s", self.advert_error)
            await advertiser.close()
            return
        self.advertiser = advertiser
        self.server.on_change = both

    def is_stand_in(self, seat: int) -> bool:
        """A bot plays ``seat`` for an absent player the host handed it from."""
        seats = self.server.seats()
        return seat in self.stand_ins and 0 <= seat < len(seats) and seats[seat].kind == "bot"

    async def add_bot(self) -> int | None:
        """In the lobby, seat a bot of :attr:`level` in the last open seat; return the seat
        (``None``: none open)."""
        seats = self.server.seats()
        first = 1 if self.settings.host_seat else 0
        for seat in reversed(range(first, len(seats))):
            if seats[seat].kind == "open":
                await self.server.set_bot(seat, self._bot(seat), bot_name(seat, self.level))
                return seat
        return None

    async def remove_bot(self) -> int | None:
        """In the lobby, take the bot off the lowest bot seat; return it (``None``: no bot)."""
        for seat, info in enumerate(self.server.seats()):
            if info.kind == "bot":
                await self.server.set_bot(seat, None)
                return seat
        return None

    async def hand_to_bot(self, seat: int) -> None:
        """Mid-game: a bot of :attr:`level` plays a disconnected player's seat until they
        come back.

        Raises:
            net.table.Refused: ``seat_taken`` (they are connected), ``game_over``...
        """
        await self.server.set_bot(seat, self._bot(seat))
        self.stand_ins.add(seat)

    async def give_back(self, seat: int) -> None:
        """Take the stand-in bot off ``seat``: it is the absent player's again.

        Raises:
            net.table.Refused: ``already_started`` (no player to give it back to).
        """
        await self.server.set_bot(seat, None)
        self.stand_ins.discard(seat)

    async def close(self, reason: str = "closing") -> None:
        """Say goodbye to everyone, stop listening, unregister the advert. Idempotent."""
        try:
            await self.server.close(reason)
        finally:
            if self.advertiser is not None:
                await self.advertiser.close()


async def open_table(
    settings: TableSettings,
    *,
    on_change: ChangeHook | None = None,
    advertise: bool | None = None,
    game: GameDefinition | None = None,
    resume: ResumePlan | None = None,
) -> HostedTable:
    """Start a LAN table: listen, seat the bots, and (unless told not to) advertise it.

    Args:
        settings: the table's settings (check :meth:`TableSettings.problems` first).
        on_change: called with the table's summary on every change of seats,
            connections or phase (e.g. a :class:`SeatLog`).
        advertise: override ``settings.advertise`` (``host`` advertises only
            once its own seat is taken).
        game: the game definition (default :class:`PoissonnierGame`; tests
            pass one that lets them watch the match).
        resume: carry on the game of this log instead of dealing a new one
            (:func:`poissonnier_tui.hosting.persistence.plan_resume`; fit ``settings``
            to it with ``resumed_settings``). A new table's log is started
            when its game starts (every table keeps one).

    Returns:
        The running table, admitting players. Nobody is admitted before (the
        port is bound first, connections wait), and a cancellation part-way
        closes what was opened.

    Raises:
        OSError: the port cannot be bound (in use, or a bad ``--interface``).
        ValueError: impossible settings.
        poissonnier_tui.hosting.persistence.ResumeError: the log's table cannot be rebuilt.
    """
    from poissonnier_tui.hosting.persistence import record_table, resume_server

    if problems := settings.problems():
        raise ValueError("; ".join(problems))
    seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
    if resume is not None:
        seed = resume.header.seed
    listen = settings.interface or ANY  # every address, IPv6 and IPv4
    first_bot = settings.seats - settings.bots

    def build(port: int) -> TableServer:
        from poissonnier_tui.games.poissonnier.bots import kind_for, make_bot

        common: dict[str, Any] = {
            "name": settings.name,
            "bot_delay": settings.bot_delay,
            "code": settings.code,
            "allow_spectators": settings.spectators,
            "turn_timeout": limit,
            "absent_grace": settings.absent_grace,
            "host": listen,
            "port": port,
            "on_change": on_change,
        }
        if resume is not None:
            return resume_server(resume, **common)[0]
        seats = range(first_bot, settings.seats)
        kinds = {s: kind_for(settings.bot_kinds, s - first_bot) for s in seats}
        server = TableServer(
            game or PoissonnierGame(),
            seats=settings.seats,
            seed=seed,
            app_version=__version__,
            bots={s: make_bot(kind, seed + s) for s, kind in kinds.items()},
            bot_names={s: bot_name(s, kind) for s, kind in kinds.items()},
            auto_start=settings.start_when_full,
            **common,
        )
        record_table(server, table={"code": settings.code, "fill_timeout": settings.fill_timeout})
        return server

    limit = fill_time_limit(settings.fill_timeout) if settings.fill_timeout else None
    server = build(DEFAULT_PORT if settings.port is None else settings.port)
    # The port listens at once, but nobody is let in (connections wait) until
    # the table is advertised and complete: then the caller says it is ready.
    try:
        await server.open(admit=False)
    except OSError as exc:
        # A resumed table keeps its port: players' saved tokens are keyed by address.
        if settings.port is not None or resume is not None or exc.errno != errno.EADDRINUSE:
            raise
        log.info("Port %d is busy; taking a free one.", DEFAULT_PORT)
        server = build(0)
        await server.open(admit=False)
    shown = settings.interface or advertised_addresses(None)[0]
    table = HostedTable(server, settings, seed, format_address(shown, server.port))
    try:
        if settings.advertise if advertise is None else advertise:
            await table.advertise()
        server.admit()
    except BaseException:  # cancelled (Ctrl-C) or failed half-way: leave nothing open
        await asyncio.shield(table.close("closing"))
        raise
    return table


def bot_name(seat: int, kind: str | None = None) -> str:
    """A bot's name: ``"Bot 3 · hard"`` in the third seat (as people count seats) for a
    ``hard`` bot, so everyone sees what they play against; ``"Bot 3"`` without a kind."""
    return f"Bot {seat + 1}" if kind is None else f"Bot {seat + 1} · {kind}"


# --- the serve log ----------------------------------------------------------------------------


class SeatLog:
    """Turns table changes into plain log lines: joins, leaves, bots, starts, ends.

    Args:
        seats: reads the current seats (``TableServer.seats``).
        emit: called with each line (``print`` for ``serve``).
        clock: wall-clock time for the ``HH:MM:SS`` prefix.

    Wire :meth:`changed` to the server's ``on_change``.
    """

    def __init__(
        self,
        seats: Callable[[], Sequence[SeatInfo]],
        emit: Callable[[str], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._seats = seats
        self._emit = emit
        self._clock = clock
        self._before: tuple[SeatInfo, ...] | None = None
        self._phase = "lobby"

    def say(self, line: str) -> None:
        """Emit one line with a time stamp."""
        self._emit(f"{time.strftime('%H:%M:%S', time.localtime(self._clock()))} {line}")

    def changed(self, summary: TableSummary) -> None:
        """Compare with the last seats and phase seen, and emit a line per change."""
        now = tuple(self._seats())
        before = self._before or tuple(SeatInfo("", "open", False) for _ in now)
        self._before = now
        for seat, (old, new) in enumerate(zip(before, now, strict=False)):
            for line in seat_changes(seat, old, new, over=self._phase == "over"):
                self.say(f"{line} ({summary.taken}/{summary.seats} seats taken)")
        if summary.phase != self._phase:
            self._phase = summary.phase
            if summary.phase == "playing":
                names = ", ".join(s.name for s in now)
                self.say(f"Game started: {names}.")
            elif summary.phase == "over":
                self.say("Game over.")


def seat_changes(seat: int, old: SeatInfo, new: SeatInfo, *, over: bool = False) -> list[str]:
    """Sentences for what happened at ``seat`` (numbered from 1 for people).

    ``over``: the game has ended, so a disconnection is just someone leaving.
    """
    n = seat + 1
    if old == new:
        return []
    if new.kind == "open":
        return [f"{old.name} left seat {n}."] if old.kind != "open" else []
    if old.kind == "open":
        what = "(bot) sits in" if new.kind == "bot" else "joined"
        return [f"{new.name} {what} seat {n}."]
    if old.kind == "human" and new.kind == "bot":
        return [f"A bot plays seat {n} for {new.name} while they are away."]
    if old.kind == "bot" and new.kind == "human":
        how = "took back" if new.connected else "got back"
        return [f"{new.name} {how} seat {n} from the bot."]
    if old.kind == new.kind == "human" and old.connected != new.connected:
        if new.connected:
            return [f"{new.name} reconnected to seat {n}."]
        if over:
            return [f"{new.name} left seat {n}."]
        return [f"{new.name} disconnected from seat {n}; the seat is kept for them."]
    if old.kind == new.kind == "bot":
        return [f"{new.name} (bot) now plays seat {n}."]
    return []


def clean_name(name: str) -> str:
    """A display name the table accepts: printable, at most 24 characters, not blank."""
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:NAME_MAX]
    return text or "Player"
