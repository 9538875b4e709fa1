"""One way to build a table server with bots: solo, ``host``, ``serve`` and resume.

No Textual here. Every table this app runs is described by a
:class:`TableSettings` (the game's registry name, its table options, seats,
bots and their levels, the network side) and started by :func:`open_table`,
which builds a :class:`net.server.TableServer` for that game
(:func:`poissonnier_tui.games.game_entry`), seats the bots (named with their
level, :func:`bot_name`), attaches the table's log recorder
(:mod:`poissonnier_tui.hosting.persistence`) and, when asked, advertises it on
the LAN (:class:`net.advertise.ServerAdvertiser`). A resumed table is built
the same way from its log (:func:`resumed_settings` fits the settings to it).

* solo: :func:`solo_settings` — 127.0.0.1, any free port, not advertised, the
  human in seat 0, bots in the others, started as soon as seat 0 is taken;
* ``host``: seat 0 is the host's own, advertised once it is taken;
* ``serve``: no seat of its own, advertised at once;
* resume: ``open_table(settings, resume=plan)``.

:class:`HostedTable` gives the host's controls: add or remove bots in the
lobby, hand an absent player's seat to a bot mid-game.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import secrets
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol, runtime_checkable

from net.advertise import ServerAdvertiser
from net.chat import ChatPolicy
from net.discovery import advertised_addresses
from net.drafts import MOST_DRAFTS_PER_WAIT, MOST_SECONDS, DraftRules
from net.game import Agent, GameDefinition, Match
from net.listen import ANY
from net.recorder import LoggedSeat, TableRecorder
from net.server import TableServer, TableSummary
from net.turns import BOT_PATIENCE, StepLimit, TimeLimit
from poissonnier_tui import __version__
from poissonnier_tui.games import DEFAULT_GAME, GameEntry, game_entry
from poissonnier_tui.hosting.lan import DEFAULT_PORT, format_address
from poissonnier_tui.hosting.persistence import (
    ResumeError,
    ResumePlan,
    logged_port,
    record_table,
    restore_table,
)
from poissonnier_tui.i18n import _, decimal, ngettext

log = logging.getLogger(__name__)

ABSENT_GRACE: Final = 10.0
"""Seconds a disconnected player is waited for before the table's defaults play for them."""

BOT_PATIENCE_MAX: Final = 600.0
"""Longest bot patience a table accepts, in seconds (a bot waits on people at most this)."""

SOLO_TABLE: Final = "Solo"
"""The name of a solo table."""


# --- bots ----------------------------------------------------------------------------------------


def bot_name(seat: int, kind: str | None = None) -> str:
    """A bot's name: ``"Bot 3 · hard"`` in the third seat (as people count seats) for a
    ``hard`` bot, so everyone sees what they play against; ``"Bot 3"`` without a kind."""
    return f"Bot {seat + 1}" if kind is None else f"Bot {seat + 1} · {kind}"


def kind_for(kinds: tuple[str, ...], index: int) -> str:
    """The level of the ``index``-th bot seated (0-based) when a table was asked for
    ``kinds``: they are handed out in turn (``("hard", "easy")`` seats hard, easy,
    hard...), one kind seats it everywhere.

    Raises:
        ValueError: ``kinds`` is empty.
    """
    if not kinds:
        raise ValueError(_("no bot level given"))
    return kinds[index % len(kinds)]


class BotKinds:
    """Remembers the level of every bot a table seats, so its log can name it.

    Call it with an agent (``TableRecorder(bot_kind=...)``): the level it was
    made with, its own ``kind`` attribute if it has one of ``entry.bot_kinds``,
    else ``None``.
    """

    def __init__(self, entry: GameEntry) -> None:
        self._entry = entry
        self._made: dict[int, tuple[Agent, str]] = {}  # the agent is kept: ids stay unique

    def make(self, kind: str, seed: int) -> Agent:
        """A new bot of ``kind`` seeded by ``seed`` (R3), as the game seats it
        (``GameEntry.seat_bot``), remembered.

        Raises:
            ValueError: an unknown kind for this game.
        """
        agent = self._entry.seated_bot(kind, seed)  # e.g. reasons and quotes at a table
        self._made[id(agent)] = (agent, kind)
        return agent

    def __call__(self, agent: Agent) -> str | None:
        made = self._made.get(id(agent))
        if made is not None and made[0] is agent:
            return made[1]
        kind = getattr(agent, "kind", None)
        return kind if isinstance(kind, str) and kind in self._entry.bot_kinds else None


# --- time limits ---------------------------------------------------------------------------------


@runtime_checkable
class TimedSteps(Protocol):
    """A match whose table time limit runs on whole steps (optional for a game).

    Le Poissonnier's R6 limits the fill step, counted from its start whatever
    the seats do (:class:`net.turns.StepLimit`); a game without this method has
    its limit run afresh whenever a seat is waited on.
    """

    def limited_step(self, seat: int) -> Hashable | None:
        """The step whose time limit runs for ``seat`` now (equal values: the same
        step, e.g. ``("fill", turn)``), or ``None`` when no limit runs for it."""
        ...


def time_limit(seconds: float) -> TimeLimit:
    """A table time limit of ``seconds``: on each step the game limits
    (:class:`TimedSteps`, counted from the step's start), else per wait."""

    def limit(match: Match, seat: int) -> float | StepLimit | None:
        if isinstance(match, TimedSteps):
            step = match.limited_step(seat)
            return None if step is None else StepLimit(step, seconds)
        return seconds

    return limit


# --- settings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSettings:
    """How to run a table (the options of ``solo``, ``host`` and ``serve``).

    Attributes:
        name: table name, 1 to 64 printable characters.
        game: the game's name in the registry (:data:`poissonnier_tui.games.ENTRY_MODULES`).
        options: the game's table options (``GameDefinition.new_match`` checks them).
        seats: seats, within the game's ``min_seats..max_seats``.
        bots: bots seated from the start, in the last seats.
        bot_kinds: the bots' levels (the game's ``bot_kinds``), handed out to the
            bot seats in turn (:func:`kind_for`); the first is also the level the
            host's lobby adds next.
        bot_delay: seconds before each bot move.
        port: TCP port; ``None`` tries :data:`~poissonnier_tui.hosting.lan.DEFAULT_PORT`
            then any free one; ``0`` takes any free one.
        interface: IPv4 address to listen and advertise on; ``None`` listens
            on all and advertises every non-loopback address.
        code: join code players must give, or ``None``.
        fill_timeout: table time limit in seconds (Le Poissonnier: R6, on the
            fill step only; see :class:`TimedSteps`), or ``None``.
        spectators: whether spectators may join.
        seed: seed of the deal (R3); ``None`` draws one.
        start_when_full: start as soon as no seat is open.
        advertise: announce the table with zeroconf.
        host_seat: seat 0 is the host's own (``host``, solo): bots never take it.
        absent_grace: seconds a disconnected player is waited for (``None``: forever).
        solo: a solo table (logged as such: it has no port to come back to).
        chat: the table chat's options (``net.chat.ChatPolicy``: whether players
            hear spectators, the rate).
        drafts: how long and how often a person drafting an offer holds the
            bots, and how long an offer waits for its answer
            (``net.drafts.DraftRules``; ``--draft-seconds`` …).
        bot_patience: seconds a bot waiting on a person (an answer to its
            offer, RULES.md §4) is left before it is asked again and may
            withdraw the offer (``net.turns.BOT_PATIENCE``).
    """

    name: str
    game: str = DEFAULT_GAME
    options: Mapping[str, Any] = field(default_factory=dict)
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
    solo: bool = False
    chat: ChatPolicy = field(default_factory=ChatPolicy)
    drafts: DraftRules = field(default_factory=DraftRules)
    bot_patience: float = BOT_PATIENCE

    @property
    def entry(self) -> GameEntry:
        """The game's registry entry.

        Raises:
            ValueError: no such game.
        """
        return game_entry(self.game)

    def problems(self) -> list[str]:
        """What is wrong with these settings, in sentences (empty when fine)."""
        try:
            entry = self.entry
        except ValueError as exc:
            return [str(exc)]
        out = []
        low, high = entry.min_seats, entry.max_seats
        if not low <= self.seats <= high:
            out.append(
                _("a table of {game} has {low} to {high} seats, not {n}").format(
                    game=entry.title, low=low, high=high, n=self.seats
                )
            )
        most = self.seats - 1 if self.host_seat else self.seats
        if not 0 <= self.bots <= most:
            out.append(
                ngettext(
                    "--bots must be 0 to {most} with {n} seat",
                    "--bots must be 0 to {most} with {n} seats",
                    self.seats,
                ).format(most=most, n=self.seats)
            )
        if not self.bot_kinds:
            out.append(_("name at least one bot level"))
        for kind in self.bot_kinds:
            if kind not in entry.bot_kinds:
                out.append(
                    _("unknown bot level {level} for {game}; choose from {levels}").format(
                        level=repr(kind), game=entry.title, levels=", ".join(entry.bot_kinds)
                    )
                )
        if not (0 < len(self.name) <= 64 and self.name.isprintable() and self.name.strip()):
            out.append(_("the table name must be 1 to 64 printable characters"))
        if self.code is not None and not 0 < len(self.code) <= 64:
            out.append(_("the join code must be 1 to 64 characters"))
        if not 0 < self.bot_patience <= BOT_PATIENCE_MAX:
            out.append(
                _("--bot-patience must be more than 0 and at most {seconds} s").format(
                    seconds=decimal(BOT_PATIENCE_MAX)
                )
            )
        if self.fill_timeout is not None and not self.fill_timeout > 0:
            out.append(_("--fill-timeout must be a positive number of seconds"))
        if self.port is not None and not 0 <= self.port < 65536:
            out.append(_("--port must be 0 to 65535"))
        if not out:
            try:  # the game checks its own options (and the seat count once more)
                entry.definition.new_match(self.seed or 0, self.seats, dict(self.options))
            except ValueError as exc:
                out.append(
                    _("bad table option for {game}: {why}").format(game=entry.title, why=exc)
                )
        return out


def solo_settings(
    game: str = DEFAULT_GAME,
    *,
    bots: int,
    bot_kinds: tuple[str, ...],
    seed: int | None = None,
    bot_delay: float = 0.5,
    options: Mapping[str, Any] | None = None,
    bot_patience: float = BOT_PATIENCE,
    drafts: DraftRules | None = None,
) -> TableSettings:
    """A solo table: the player in seat 0, ``bots`` bots after them, on 127.0.0.1.

    Any free port, not advertised, started as soon as seat 0 is taken, and
    the table waits for its only human forever. ``drafts``: time to deal
    (``net.drafts.DraftRules``; ``None``: its defaults).
    """
    return TableSettings(
        name=SOLO_TABLE,
        game=game,
        options=dict(options or {}),
        seats=bots + 1,
        bots=bots,
        bot_kinds=bot_kinds,
        bot_delay=bot_delay,
        bot_patience=bot_patience,
        port=0,
        interface="127.0.0.1",
        seed=seed,
        start_when_full=True,
        advertise=False,
        host_seat=True,
        absent_grace=None,
        solo=True,
        drafts=drafts or DraftRules(),
    )


def resumed_settings(
    plan: ResumePlan,
    settings: TableSettings,
    *,
    name_given: bool,
    given: Collection[str] = (),
) -> TableSettings:
    """``settings`` (from a command line) made to fit the logged table.

    The game, its options, seats, bots and seed always come from the log; the
    table name, join code and time limit too unless the command line gave
    them (``name_given``; a ``code`` or ``fill_timeout`` that is not ``None``);
    the time to deal, the bots' patience and whether players hear spectators
    too unless named in ``given`` (``draft_seconds``, ``drafts_per_wait``,
    ``answer_seconds``, ``bot_patience``, ``spectators_heard``), and only
    logged values of the right type and range are taken (a log is a file
    anyone could have edited; see :func:`logged_table_options`);
    the port is the logged one unless one was given (see
    :func:`~poissonnier_tui.hosting.persistence.logged_port`). The level the
    host's lobby seats next stays the command line's if the logged game has
    it, else it is the logged bots' (or the game's default level).

    Raises:
        ValueError: the log's game is not registered (a checked plan's is).
    """
    entry = game_entry(plan.header.game)
    kinds = settings.bot_kinds
    if not kinds or any(k not in entry.bot_kinds for k in kinds):
        logged = [s.bot for s in plan.header.seats if s.bot in entry.bot_kinds]
        kinds = tuple(k for k in logged if k is not None) or (entry.default_level,)
    table = plan.header.table
    code, fill = table.get("code"), table.get("fill_timeout")
    name = table.get("name")
    return replace(
        settings,
        game=plan.header.game,
        options=dict(plan.header.options),
        bot_kinds=kinds,
        name=settings.name if name_given or not isinstance(name, str) else name,
        seats=len(plan.header.seats),
        bots=sum(1 for s in plan.header.seats if s.kind == "bot"),
        seed=plan.header.seed,
        code=settings.code if settings.code is not None or not isinstance(code, str) else code,
        fill_timeout=(
            settings.fill_timeout
            if settings.fill_timeout is not None or not isinstance(fill, int | float)
            else float(fill)
        ),
        port=settings.port if settings.port is not None else logged_port(plan),
        **logged_table_options(table, settings, given),
    )


def recorded_table_options(settings: TableSettings) -> dict[str, Any]:
    """What a hosted table's log keeps of its time to deal (RULES.md R25), its bots'
    patience and its chat policy, for :func:`resumed_settings`: ``{"drafts":
    {"seconds", "per_wait", "answer_seconds"}, "bot_patience", "spectators_heard"}``."""
    drafts = settings.drafts
    return {
        "drafts": {
            "seconds": drafts.seconds,
            "per_wait": drafts.per_wait,
            "answer_seconds": drafts.answer_seconds,
        },
        "bot_patience": settings.bot_patience,
        "spectators_heard": settings.chat.spectators_to_players,
    }


def logged_table_options(
    table: Mapping[str, Any], settings: TableSettings, given: Collection[str]
) -> dict[str, Any]:
    """``drafts``, ``bot_patience`` and ``chat`` for :func:`resumed_settings`: each
    logged value (:func:`recorded_table_options`) unless the command line gave it
    (``given``) or it is not a value the command line could have given (wrong type,
    out of range: the command line's own then stays)."""

    def number(value: Any, low: float, high: float) -> float | None:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return float(value) if ok and low <= value <= high else None

    logged = table.get("drafts")
    logged = logged if isinstance(logged, Mapping) else {}
    drafts = settings.drafts
    seconds = number(logged.get("seconds"), 0, MOST_SECONDS)
    answer = number(logged.get("answer_seconds"), 0, MOST_SECONDS)
    per_wait = number(logged.get("per_wait"), 1, MOST_DRAFTS_PER_WAIT)
    if seconds is not None and "draft_seconds" not in given:
        drafts = replace(drafts, seconds=seconds)
    if answer is not None and "answer_seconds" not in given:
        drafts = replace(drafts, answer_seconds=answer)
    if per_wait is not None and per_wait == int(per_wait) and "drafts_per_wait" not in given:
        drafts = replace(drafts, per_wait=int(per_wait))
    patience = number(table.get("bot_patience"), 0, BOT_PATIENCE_MAX)
    heard = table.get("spectators_heard")
    return {
        "drafts": drafts,
        "bot_patience": (
            patience
            if patience is not None and patience > 0 and "bot_patience" not in given
            else settings.bot_patience
        ),
        "chat": (
            replace(settings.chat, spectators_to_players=heard)
            if isinstance(heard, bool) and "spectators_heard" not in given
            else settings.chat
        ),
    }


# --- the running table ---------------------------------------------------------------------------

ChangeHook = Callable[[TableSummary], None]


@dataclass(eq=False)
class HostedTable:
    """A running table: the server, its advert, and the host's controls.

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
    bot_maker: BotKinds | None = None
    """Makes the table's bots and remembers their levels for the log."""

    def __post_init__(self) -> None:
        self.level = self.level or self.settings.bot_kinds[0]
        if self.bot_maker is None:
            self.bot_maker = BotKinds(self.entry)

    @property
    def entry(self) -> GameEntry:
        """The game played at this table."""
        return self.settings.entry

    def next_level(self) -> str:
        """Move :attr:`level` to the game's next level, weakest after strongest; return it."""
        levels = self.entry.levels
        at = levels.index(self.level) + 1 if self.level in levels else 0
        self.level = levels[at % len(levels)]
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
        assert self.bot_maker is not None
        return self.bot_maker.make(self.level, self.seed + seat)

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
        (``None``: none open). The game's ``max_seats`` bounds the table, so this too."""
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

    async def give_rematch_seat(self, seat: int, to_bot: bool) -> None:
        """A proposed rematch: ``seat`` (its player declined, left or has not answered)
        goes to a bot of :attr:`level` (``to_bot``) or opens when the rematch starts.

        Raises:
            net.table.Refused: ``no_rematch``, ``rematch_answered`` (see
                :meth:`net.server.TableServer.give_rematch_seat`).
        """
        if to_bot:
            await self.server.give_rematch_seat(seat, self._bot(seat), bot_name(seat, self.level))
        else:
            await self.server.give_rematch_seat(seat, None)

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


def resume_server(
    plan: ResumePlan,
    *,
    game: GameDefinition | None = None,
    bots: BotKinds | None = None,
    **server_kwargs: Any,
) -> tuple[TableServer, TableRecorder]:
    """The table of ``plan`` rebuilt and appending to its log; open the server to play on.

    Bots sit again in their logged seats at their logged level (the game's
    default level when the log names none it knows), seeded ``seed + seat``
    as the first time; players' seats wait for their tokens. A damaged tail
    (:attr:`~poissonnier_tui.hosting.persistence.ResumePlan.damage`) is
    copied aside, then cut.

    Args:
        plan: from :func:`~poissonnier_tui.hosting.persistence.plan_resume`.
        game: the game definition (default: the registry's for the log's game).
        bots: makes the bots and remembers their levels (default a new one).
        server_kwargs: :class:`~net.server.TableServer` arguments (``host``,
            ``bot_delay``, ``code``, ``absent_grace``, ...); ``port`` and
            ``name`` default to the logged table's.

    Returns:
        ``(server, recorder)``, the server not yet open.

    Raises:
        ResumeError: the log's game is not registered, or the table cannot be
            rebuilt or the log reopened.
    """
    try:
        entry = game_entry(plan.header.game)
    except ValueError as exc:
        raise ResumeError(
            _("This log's game cannot be played here: {why}.").format(why=exc)
        ) from None
    kinds = bots or BotKinds(entry)
    seed = plan.header.seed

    def make(seat: int, logged: LoggedSeat) -> Agent:
        kind = logged.bot if logged.bot in entry.bot_kinds else entry.default_level
        return kinds.make(kind, seed + seat)

    return restore_table(plan, game or entry.definition, make, **server_kwargs)


async def open_table(
    settings: TableSettings,
    *,
    on_change: ChangeHook | None = None,
    advertise: bool | None = None,
    game: GameDefinition | None = None,
    resume: ResumePlan | None = None,
    admit: bool = True,
) -> HostedTable:
    """Start a table: listen, seat the bots, keep its log and (unless told not to) advertise it.

    Args:
        settings: the table's settings (check :meth:`TableSettings.problems` first).
        on_change: called with the table's summary on every change of seats,
            connections or phase (e.g. a :class:`~poissonnier_tui.hosting.lan.SeatLog`).
        advertise: override ``settings.advertise`` (``host`` advertises only
            once its own seat is taken).
        game: the game definition (default: the registry's for ``settings.game``;
            tests pass one that lets them watch the match).
        resume: carry on the game of this log instead of dealing a new one
            (:func:`poissonnier_tui.hosting.persistence.plan_resume`; fit ``settings``
            to it with :func:`resumed_settings`). A new table's log is started
            when its game starts (every table keeps one).

        admit: let players in once the table is complete; ``False`` leaves that to
            the caller (``table.server.admit()``), e.g. after it said the table is
            ready.

    Returns:
        The running table, admitting players unless ``admit`` is false. Nobody
        is admitted before (the port is bound first, connections wait), and a
        cancellation part-way closes what was opened.

    Raises:
        OSError: the port cannot be bound (in use, or a bad ``--interface``).
        ValueError: impossible settings (the sentences of :meth:`TableSettings.problems`).
        poissonnier_tui.hosting.persistence.ResumeError: the log's table cannot be rebuilt.
    """
    if problems := settings.problems():
        raise ValueError("; ".join(problems))
    entry = settings.entry
    definition = game or entry.definition
    kinds = BotKinds(entry)
    seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
    if resume is not None:
        if resume.header.game != entry.name:
            raise ResumeError(
                _("This is a log of {game}, not of {other}.").format(
                    game=repr(resume.header.game), other=repr(entry.name)
                )
            )
        seed = resume.header.seed
    listen = settings.interface or ANY  # every address, IPv6 and IPv4
    first_bot = settings.seats - settings.bots
    limit = time_limit(settings.fill_timeout) if settings.fill_timeout else None

    def build(port: int) -> TableServer:
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
            "chat": settings.chat,
            "drafts": settings.drafts,
            "bot_patience": settings.bot_patience,
        }
        if resume is not None:
            return resume_server(resume, game=definition, bots=kinds, **common)[0]
        seats = range(first_bot, settings.seats)
        levels = {s: kind_for(settings.bot_kinds, s - first_bot) for s in seats}
        server = TableServer(
            definition,
            seats=settings.seats,
            seed=seed,
            options=dict(settings.options),
            app_version=__version__,
            bots={s: kinds.make(kind, seed + s) for s, kind in levels.items()},
            bot_names={s: bot_name(s, kind) for s, kind in levels.items()},
            auto_start=settings.start_when_full,
            **common,
        )
        stored: dict[str, Any] = {
            "code": settings.code,
            "fill_timeout": settings.fill_timeout,
            **recorded_table_options(settings),
        }
        if settings.solo:
            stored = {"solo": True}
        record_table(server, table=stored, bot_kind=kinds)
        return server

    server = build(DEFAULT_PORT if settings.port is None else settings.port)
    # The port listens at once, but nobody is let in (connections wait) until
    # the table is advertised and complete: then it admits them.
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
    table = HostedTable(server, settings, seed, format_address(shown, server.port), bot_maker=kinds)
    try:
        if settings.advertise if advertise is None else advertise:
            await table.advertise()
        if admit:
            server.admit()
    except BaseException:  # cancelled (Ctrl-C) or failed half-way: leave nothing open
        await asyncio.shield(table.close("closing"))
        raise
    log.info("Table %r (%s) on %s, seed %d.", settings.name, entry.name, table.address, seed)
    return table
