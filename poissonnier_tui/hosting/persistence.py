"""Never lose a game: where table logs live, and recording, resuming and listing them.

Every table this app runs (solo, ``host``, ``serve``) keeps an append-only
log (:mod:`net.tablelog`, docs/ARCHITECTURE.md "Persistence") in the user's data
directory::

    $POISSONNIER_DATA_DIR/games/            when that variable is set (tests, scripts)
    platformdirs.user_data_path("poissonnier")/games/   otherwise, e.g.
        ~/.local/share/poissonnier/games/ on Linux,
        ~/Library/Application Support/poissonnier/games/ on macOS,
        %LOCALAPPDATA%\\poissonnier\\games\\ on Windows

one file per game, named ``YYYY-MM-DD_HHMMSS_seed<SEED>_<4 hex>.plog``
after the moment the game started. From a log:

* :func:`plan_resume` + :func:`resume_server` rebuild the table after a crash
  (``serve --resume`` / ``host --resume``): the match is replayed action by
  action from the seed (R3), so the state after resume equals the state
  before the crash; players reclaim their seats with their tokens, bots are
  seated again, and the table appends to the same file.
* :func:`replay_log` replays it headless (tests, ``history``); the replay
  viewer (:mod:`poissonnier_tui.hosting.replay`) steps through it.
* :func:`list_games` summarises every saved game for ``poissonnier history``.

A damaged log (truncated by a crash mid-write, or corrupted) is reported by
:class:`net.tablelog.LogDamaged` naming the byte offset and the last good
action; :func:`plan_resume` asks before continuing from the valid prefix and
keeps a copy of the damaged file.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import platformdirs

from net.game import Agent
from net.recorder import (
    BadHeader,
    LoggedSeat,
    LogHeader,
    Replayed,
    TableRecorder,
    parse_header,
    replay,
    restore_server,
)
from net.server import TableServer
from net.table import Refused
from net.tablelog import LogDamaged, TableLog, describe_action, read_log
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.match import RULES_VERSION, PoissonnierGame, PoissonnierMatch

if TYPE_CHECKING:
    from poissonnier_tui.hosting.lan import TableSettings

APP_NAME: Final = "poissonnier"
DATA_DIR_ENV: Final = "POISSONNIER_DATA_DIR"
"""Environment variable that moves the data directory (tests never touch the real home)."""
LOG_SUFFIX: Final = ".plog"
"""File name ending of table logs."""
RESUME_GRACE: Final = 60.0
"""Seconds a resumed table waits for each absent player before R6 defaults play for them
(rather than the usual absent grace): everyone's client must first notice the crash."""
DEFAULT_BOT: Final = "greedy"
"""Bot kind re-seated for a logged bot seat whose kind was not recorded or is unknown."""


# --- where -----------------------------------------------------------------------------------


def data_dir() -> Path:
    """The user's data directory for this app (not created here).

    ``$POISSONNIER_DATA_DIR`` if set and not empty, else
    ``platformdirs.user_data_path("poissonnier", appauthor=False)``.
    """
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def games_dir() -> Path:
    """Where table logs go: ``data_dir() / "games"`` (not created here)."""
    return data_dir() / "games"


def new_log_path(seed: int, directory: Path | None = None, now: float | None = None) -> Path:
    """A fresh file name for a game starting now (local time) with ``seed``.

    Args:
        seed: the match's seed, part of the name.
        directory: where; default :func:`games_dir`.
        now: Unix seconds; default the current time.
    """
    stamp = time.strftime("%Y-%m-%d_%H%M%S", time.localtime(time.time() if now is None else now))
    return (directory or games_dir()) / f"{stamp}_seed{seed}_{secrets.token_hex(2)}{LOG_SUFFIX}"


# --- recording ---------------------------------------------------------------------------------


def bot_kind_of(agent: Agent) -> str | None:
    """The :data:`~poissonnier_tui.games.poissonnier.bots.BOT_KINDS` name of a bot object,
    if it can be told.

    An agent's own ``kind`` attribute wins; otherwise the class is looked up
    among the bot factories that are classes.
    """
    from poissonnier_tui.games.poissonnier.bots import BOT_FACTORIES

    kind = getattr(agent, "kind", None)
    if isinstance(kind, str) and kind in BOT_FACTORIES:
        return kind
    for name, factory in BOT_FACTORIES.items():
        if isinstance(factory, type) and type(agent) is factory:
            return name
    return None


def record_table(
    server: TableServer,
    *,
    directory: Path | None = None,
    table: dict[str, Any] | None = None,
) -> TableRecorder:
    """Keep ``server``'s log from the moment its match starts (call before ``open``).

    Args:
        server: a new table (not a resumed one: see :func:`resume_server`).
        directory: where the log goes; default :func:`games_dir`.
        table: table settings to store for a resume (e.g. ``{"code": ...}``).

    Returns:
        The attached recorder: ``recorder.path`` once the game starts, or
        ``recorder.error`` if the file could not be created (the game then
        goes on unsaved).
    """
    recorder = TableRecorder(
        lambda: new_log_path(server.seed, directory), bot_kind=bot_kind_of, table=table
    )
    recorder.attach(server)
    return recorder


# --- reading and replaying -----------------------------------------------------------------------


class ResumeError(Exception):
    """A log that cannot be resumed (or replayed); the message says why and what to do."""


def check_header(log: TableLog) -> LogHeader:
    """The log's header, checked to be a Poissonnier log this version can replay.

    Raises:
        ResumeError: not a Poissonnier log, unusable fields, or another rules
            version (a replay could then give a different game, R3).
    """
    try:
        header = parse_header(log.header)
    except BadHeader as exc:
        raise ResumeError(f"This log's header is unusable: {exc}.") from None
    if header.game != PoissonnierGame.name:
        raise ResumeError(f"This is a log of {header.game!r}, not of {PoissonnierGame.name!r}.")
    if header.rules != RULES_VERSION:
        raise ResumeError(
            f"This log was written with rules version {header.rules} (poissonnier "
            f"{header.app}); this is rules version {RULES_VERSION} (poissonnier {__version__}). "
            "Replaying it could give a different game (R3): use the version that wrote it."
        )
    if not 2 <= len(header.seats) <= 5:
        raise ResumeError(f"This log has {len(header.seats)} seats; a game has 2 to 5.")
    return header


def replay_log(log: TableLog, header: LogHeader | None = None) -> Replayed:
    """Replay every action of ``log`` on a fresh match (R3), stopping at a refused one.

    Raises:
        ResumeError: the header is unusable (see :func:`check_header`).
    """
    header = header or check_header(log)
    try:
        return replay(PoissonnierGame(), header, log.actions)
    except ValueError as exc:  # the game refused the seats or options
        raise ResumeError(f"This log's game cannot be set up: {exc}.") from None


@dataclass(frozen=True)
class ResumePlan:
    """What :func:`resume_server` will rebuild, decided by :func:`plan_resume`.

    Attributes:
        path: the log file.
        log: the log as read (the valid prefix if the file is damaged).
        header: its checked header.
        actions: how many logged actions to replay (fewer than ``log.actions``
            when a refused action and what follows are dropped).
        damage: the damage message the user accepted, or ``None`` for a sound log.
    """

    path: Path
    log: TableLog
    header: LogHeader
    actions: int
    damage: str | None = None


def _read(path: Path) -> tuple[TableLog | None, LogDamaged | None]:
    try:
        return read_log(path), None
    except LogDamaged as exc:
        return exc.log, exc
    except FileNotFoundError:
        raise ResumeError(f"There is no log at {path}.") from None
    except IsADirectoryError:
        raise ResumeError(f"{path} is a directory, not a log.") from None
    except OSError as exc:
        raise ResumeError(f"Cannot read {path}: {exc.strerror or exc}.") from None


def plan_resume(path: Path, *, confirm: Callable[[str], bool]) -> ResumePlan:
    """Read and check a log for a resume, asking before dropping anything.

    Args:
        path: the log file.
        confirm: asked a yes/no question (the whole sentence) when the file is
            damaged or an action of it is refused on replay; ``True`` goes on
            from the valid prefix (``--yes`` answers ``True`` without asking).

    Returns:
        The plan; nothing is written yet.

    Raises:
        ResumeError: the file cannot be read, its header is damaged or
            unusable, the game is already over, or ``confirm`` said no.
    """
    log, damaged = _read(path)
    if log is None:
        assert damaged is not None
        raise ResumeError(f"{damaged}. Nothing can be resumed from it.")
    header = check_header(log)
    damage: str | None = None
    if damaged is not None:
        question = (
            f"{damaged}.\nContinue from the valid prefix ({len(log.actions)} actions)? "
            "The damaged tail will be cut off; a copy of the file is kept first."
        )
        if not confirm(question):
            raise ResumeError("Not resumed; the log is unchanged.")
        damage = str(damaged)
    done = replay_log(log, header)
    if done.error is not None:
        bad = log.actions[done.applied]
        problem = (
            f"{path}: action {done.applied + 1} ({describe_action(bad)}) at byte {bad.offset} "
            f"is refused on replay: {done.error}"
        )
        question = (
            f"{problem}.\nContinue from the {done.applied} actions before it? It and "
            "everything after it will be cut off; a copy of the file is kept first."
        )
        if not confirm(question):
            raise ResumeError("Not resumed; the log is unchanged.")
        damage = problem
    if done.match.is_over:
        raise ResumeError(
            f"The game in {path} is over: nothing to resume. "
            f"Watch it again with: poissonnier replay {path}"
        )
    return ResumePlan(path, log, header, done.applied, damage)


def keep_copy(path: Path) -> Path:
    """Copy ``path`` beside itself as ``<name>.damaged-<time>`` before it is cut; return the copy.

    Raises:
        OSError: the copy failed.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    copy = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while copy.exists():
        n += 1
        copy = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    shutil.copy2(path, copy)
    return copy


def logged_port(plan: ResumePlan) -> int | None:
    """The port the logged table listened on, to listen on again (players' saved
    tokens are keyed by address); ``None`` for a solo table's throwaway port."""
    port = plan.header.table.get("port")
    if plan.header.table.get("solo") or not isinstance(port, int) or not 0 < port < 65536:
        return None
    return port


def resumed_settings(
    plan: ResumePlan, settings: TableSettings, *, name_given: bool
) -> TableSettings:
    """``settings`` (from a command line) made to fit the logged table.

    Seats, bots and seed always come from the log; the table name, join code
    and fill time limit too unless the command line gave them (``name_given``;
    a ``code`` or ``fill_timeout`` that is not ``None``); the port is the
    logged one unless one was given (see :func:`logged_port`).
    """
    from dataclasses import replace

    table = plan.header.table
    code, fill = table.get("code"), table.get("fill_timeout")
    name = table.get("name")
    return replace(
        settings,
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
    )


def _agent_for(seed: int) -> Callable[[int, LoggedSeat], Agent]:
    from poissonnier_tui.games.poissonnier.bots import BOT_KINDS, make_bot

    def make(seat: int, logged: LoggedSeat) -> Agent:
        kind = logged.bot if logged.bot in BOT_KINDS else DEFAULT_BOT
        return make_bot(kind, seed + seat)

    return make


def resume_server(plan: ResumePlan, **server_kwargs: Any) -> tuple[TableServer, TableRecorder]:
    """The table of ``plan`` rebuilt and appending to its log; open the server to play on.

    A damaged tail (see :attr:`ResumePlan.damage`) is copied aside, then cut.
    Bots sit again in their logged seats (``make_bot(kind, seed + seat)``, like
    the first time); players' seats wait for their tokens.

    Args:
        plan: from :func:`plan_resume`.
        server_kwargs: :class:`~net.server.TableServer` arguments (``host``,
            ``bot_delay``, ``code``, ``absent_grace``, ``timing``, ...);
            ``resume_grace`` defaults to :data:`RESUME_GRACE`;
            ``port`` (see :func:`logged_port`) and ``name`` default to the
            logged table's, so players reconnect to the same address.

    Returns:
        ``(server, recorder)``, the server not yet open.

    Raises:
        ResumeError: the table cannot be rebuilt or the log reopened.
    """
    table = plan.header.table
    # Its players must notice the crash and find the table again before R6 plays for them.
    server_kwargs.setdefault("resume_grace", RESUME_GRACE)
    port = logged_port(plan)
    if port is not None:
        server_kwargs.setdefault("port", port)
    name = table.get("name")
    if isinstance(name, str):
        server_kwargs.setdefault("name", name)
    try:
        if plan.damage is not None:
            keep_copy(plan.path)
        return restore_server(
            PoissonnierGame(),
            plan.path,
            plan.log,
            plan.header,
            actions=plan.actions,
            make_agent=_agent_for(plan.header.seed),
            app_version=__version__,
            **server_kwargs,
        )
    except OSError as exc:
        raise ResumeError(f"Cannot write to {plan.path}: {exc.strerror or exc}.") from None
    except (ValueError, Refused) as exc:
        raise ResumeError(f"Cannot rebuild the table from {plan.path}: {exc}.") from None


def open_resumed_server(
    path: Path, *, confirm: Callable[[str], bool], **server_kwargs: Any
) -> tuple[TableServer, TableRecorder]:
    """:func:`plan_resume` then :func:`resume_server`, for commands: one call.

    Raises:
        ResumeError: see both.
    """
    return resume_server(plan_resume(path, confirm=confirm), **server_kwargs)


def ask_yes_no(question: str) -> bool:
    """Ask on stderr (stdout may be a log), read stdin; only ``y``/``yes`` is yes; EOF is no."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = input()
    except EOFError:
        print(file=sys.stderr)
        return False
    return answer.strip().lower() in {"y", "yes"}


# --- history -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """One saved game, for ``poissonnier history``.

    Attributes:
        path: the log file.
        started: when the game started, Unix seconds (the header's ``created``).
        players: seat names in seat order, bots marked ``"(bot)"``.
        winners: winning names once over, else ``None``.
        actions: actions logged.
        turns: turns played (the last turn reached for a running game).
        finished: the game is over.
        duration: seconds from start to the last record.
        problem: why the log is damaged or unreadable, else ``None``.
    """

    path: Path
    started: float | None
    players: tuple[str, ...]
    winners: tuple[str, ...] | None
    actions: int
    turns: int | None
    finished: bool
    duration: float | None
    problem: str | None = None

    @property
    def resumable(self) -> bool:
        """Not over, and logged by a game this version can rebuild (``serve --resume``)."""
        return not self.finished and self.started is not None


def summarize(path: Path) -> GameSummary:
    """Summarise one log; a bad log gives a summary with :attr:`GameSummary.problem` set."""
    try:
        log, damaged = _read(path)
    except ResumeError as exc:
        return GameSummary(path, None, (), None, 0, None, False, None, str(exc))
    if log is None:
        return GameSummary(path, None, (), None, 0, None, False, None, str(damaged))
    problem = str(damaged).removeprefix(f"{path}: ") if damaged is not None else None
    try:
        header = check_header(log)
        done = replay_log(log, header)
    except ResumeError as exc:
        return GameSummary(path, None, (), None, len(log.actions), None, False, None, str(exc))
    if done.error is not None:
        bad = log.actions[done.applied]
        problem = problem or f"action {done.applied + 1} at byte {bad.offset} is refused on replay"
    players = tuple(
        s.name + (" (bot)" if s.kind == "bot" else "") or f"Seat {i + 1}"
        for i, s in enumerate(header.seats)
    )
    match = done.match
    assert isinstance(match, PoissonnierMatch)
    result = match.result()
    winners = None
    if result is not None:
        winners = tuple(
            header.seats[w].name or f"Seat {w + 1}"
            for w in result.get("winners", [])
            if 0 <= w < len(header.seats)
        )
    last = log.end_time or (log.actions[-1].time if log.actions else header.created)
    return GameSummary(
        path=path,
        started=header.created,
        players=players,
        winners=winners,
        actions=len(log.actions),
        turns=match.state.turn,
        finished=result is not None,
        duration=max(0.0, last - header.created),
        problem=problem,
    )


def list_games(directory: Path | None = None) -> list[GameSummary]:
    """Every game saved in ``directory`` (default :func:`games_dir`), newest first.

    Only games are listed: a ``*.plog`` file that is not a table log (no
    readable header) and a start aborted before its first move (no action,
    not over) hold nothing to replay or resume, and are left out.
    """
    folder = directory or games_dir()
    if not folder.is_dir():
        return []
    games = [summarize(p) for p in folder.glob(f"*{LOG_SUFFIX}") if p.is_file()]
    games = [g for g in games if g.finished or g.actions > 0]
    games.sort(key=lambda g: (g.started or 0.0, g.path.name), reverse=True)
    return games


def replay_order(games: list[GameSummary]) -> list[GameSummary]:
    """``games`` (newest first, as :func:`list_games` gives them) in the order to offer
    them for a replay: the finished games newest first, then the ones not over."""
    return sorted(games, key=lambda g: not g.finished)
