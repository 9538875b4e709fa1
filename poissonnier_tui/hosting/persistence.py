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

* :func:`plan_resume` + :func:`poissonnier_tui.hosting.tables.resume_server`
  (through :func:`restore_table`) rebuild the table after a crash
  (``serve --resume`` / ``host --resume``): the match is replayed action by
  action from the seed (R3), so the state after resume equals the state
  before the crash; players reclaim their seats with their tokens, bots are
  seated again, and the table appends to the same file.
* :func:`replay_log` replays it headless on its game (the header names it; the
  registry, :mod:`poissonnier_tui.games`, gives its rules) for tests and
  ``history``; the replay
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
from typing import Any, Final

import platformdirs

from net.game import Agent, GameDefinition, Match
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
from poissonnier_tui.botnames import shown_bot_name
from poissonnier_tui.games import GameEntry, game_entry
from poissonnier_tui.i18n import _, ngettext

APP_NAME: Final = "poissonnier"
DATA_DIR_ENV: Final = "POISSONNIER_DATA_DIR"
"""Environment variable that moves the data directory (tests never touch the real home)."""
LOG_SUFFIX: Final = ".plog"
"""File name ending of table logs."""
RESUME_GRACE: Final = 60.0
"""Seconds a resumed table waits for each absent player before R6 defaults play for them
(rather than the usual absent grace): everyone's client must first notice the crash."""


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


def _own_kind(agent: Agent) -> str | None:
    """A bot's own ``kind`` attribute, if it is text."""
    kind = getattr(agent, "kind", None)
    return kind if isinstance(kind, str) else None


def record_table(
    server: TableServer,
    *,
    directory: Path | None = None,
    table: dict[str, Any] | None = None,
    bot_kind: Callable[[Agent], str | None] | None = None,
) -> TableRecorder:
    """Keep ``server``'s log from the moment its match starts (call before ``open``).

    Args:
        server: a new table (not a resumed one: see
            :func:`poissonnier_tui.hosting.tables.resume_server`).
        directory: where the log goes; default :func:`games_dir`.
        table: table settings to store for a resume (e.g. ``{"code": ...}``).
        bot_kind: names a bot's level for the log's header, so a resume seats the
            same level (e.g. :class:`poissonnier_tui.hosting.tables.BotKinds`);
            default: the agent's own ``kind`` attribute, if it has one.

    Returns:
        The attached recorder: ``recorder.path`` once the game starts, or
        ``recorder.error`` if the file could not be created (the game then
        goes on unsaved).
    """
    recorder = TableRecorder(
        lambda: new_log_path(server.seed, directory), bot_kind=bot_kind or _own_kind, table=table
    )
    recorder.attach(server)
    return recorder


# --- reading and replaying -----------------------------------------------------------------------


class ResumeError(Exception):
    """A log that cannot be resumed (or replayed); the message says why and what to do."""


def check_header(log: TableLog) -> LogHeader:
    """The log's header, checked to be a log of a registered game this version can replay.

    Raises:
        ResumeError: a game this app does not know, unusable fields, or another
            rules version (a replay could then give a different game, R3).
    """
    try:
        header = parse_header(log.header)
    except BadHeader as exc:
        raise ResumeError(_("This log's header is unusable: {why}.").format(why=exc)) from None
    entry = log_game(header)
    rules = entry.definition.rules_version
    if header.rules != rules:
        raise ResumeError(
            _(
                "This log was written with {game} rules version {rules} (poissonnier {app}); "
                "this is rules version {our_rules} (poissonnier {our_app}). Replaying it could "
                "give a different game (R3): use the version that wrote it."
            ).format(
                game=entry.title, rules=header.rules, app=header.app, our_rules=rules,
                our_app=__version__,
            )
        )  # fmt: skip
    if not entry.min_seats <= len(header.seats) <= entry.max_seats:
        raise ResumeError(
            ngettext(
                "This log has {n} seat; {game} has {low} to {high}.",
                "This log has {n} seats; {game} has {low} to {high}.",
                len(header.seats),
            ).format(
                n=len(header.seats), game=entry.title, low=entry.min_seats, high=entry.max_seats
            )
        )
    return header


def log_game(header: LogHeader) -> GameEntry:
    """The registered game a log header names (its ``game``).

    Raises:
        ResumeError: no such game in this app (the message lists the known ones).
    """
    try:
        return game_entry(header.game)
    except ValueError as exc:
        raise ResumeError(
            _("This is a log of a game this app does not know: {why}.").format(why=exc)
        ) from None


def replay_log(log: TableLog, header: LogHeader | None = None) -> Replayed:
    """Replay every action of ``log`` on a fresh match of its game (R3), stopping at a
    refused one.

    Raises:
        ResumeError: the header is unusable (see :func:`check_header`).
    """
    header = header or check_header(log)
    try:
        return replay(log_game(header).definition, header, log.actions)
    except ValueError as exc:  # the game refused the seats or options
        raise ResumeError(_("This log's game cannot be set up: {why}.").format(why=exc)) from None


def public_turn(match: Match) -> int | None:
    """The turn number a match's public view shows (its ``"turn"``), if it shows one."""
    turn = match.view(None).get("turn")
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else None


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


def damage_text(damaged: LogDamaged) -> str:
    """What :class:`~net.tablelog.LogDamaged` says, in the current language (its
    ``reason``, a few words from the reader, as it is): the file, the byte where the
    damage starts and the last good record."""
    log, good = damaged.log, damaged.good_actions
    if log is None:
        last = _("none: the header itself is unreadable")
    elif good:
        last = _("action {n} ({action})").format(
            n=good, action=describe_action(log.actions[good - 1])
        )
    else:
        last = _("the header (no action was recorded)")
    return _(
        "{path}: damaged at byte {offset} ({why}); the last good record is {last}"
    ).format(path=damaged.path, offset=damaged.offset, why=damaged.reason, last=last)


def _read(path: Path) -> tuple[TableLog | None, LogDamaged | None]:
    try:
        return read_log(path), None
    except LogDamaged as exc:
        return exc.log, exc
    except FileNotFoundError:
        raise ResumeError(_("There is no log at {path}.").format(path=path)) from None
    except IsADirectoryError:
        raise ResumeError(_("{path} is a directory, not a log.").format(path=path)) from None
    except OSError as exc:
        raise ResumeError(
            _("Cannot read {path}: {why}.").format(path=path, why=exc.strerror or exc)
        ) from None


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
        raise ResumeError(
            _("{why}. Nothing can be resumed from it.").format(why=damage_text(damaged))
        )
    header = check_header(log)
    damage: str | None = None
    if damaged is not None:
        question = ngettext(
            "{why}.\nContinue from the valid prefix ({n} action)? "
            "The damaged tail will be cut off; a copy of the file is kept first.",
            "{why}.\nContinue from the valid prefix ({n} actions)? "
            "The damaged tail will be cut off; a copy of the file is kept first.",
            len(log.actions),
        ).format(why=damage_text(damaged), n=len(log.actions))
        if not confirm(question):
            raise ResumeError(_("Not resumed; the log is unchanged."))
        damage = str(damaged)
    done = replay_log(log, header)
    if done.error is not None:
        bad = log.actions[done.applied]
        problem = _(
            "{path}: action {n} ({action}) at byte {offset} is refused on replay: {why}"
        ).format(
            path=path, n=done.applied + 1, action=describe_action(bad), offset=bad.offset,
            why=done.error,
        )  # fmt: skip
        question = ngettext(
            "{problem}.\nContinue from the {n} action before it? It and everything after it "
            "will be cut off; a copy of the file is kept first.",
            "{problem}.\nContinue from the {n} actions before it? It and everything after it "
            "will be cut off; a copy of the file is kept first.",
            done.applied,
        ).format(problem=problem, n=done.applied)
        if not confirm(question):
            raise ResumeError(_("Not resumed; the log is unchanged."))
        damage = problem
    if done.match.is_over:
        raise ResumeError(
            _(
                "The game in {path} is over: nothing to resume. "
                "Watch it again with: poissonnier replay {path}"
            ).format(path=path)
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


def restore_table(
    plan: ResumePlan,
    game: GameDefinition,
    make_agent: Callable[[int, LoggedSeat], Agent],
    **server_kwargs: Any,
) -> tuple[TableServer, TableRecorder]:
    """The table of ``plan`` rebuilt and appending to its log (the server not yet open).

    Use :func:`poissonnier_tui.hosting.tables.resume_server`, which seats the
    bots; this is its part that touches the file. A damaged tail (see
    :attr:`ResumePlan.damage`) is copied aside, then cut.

    Args:
        plan: from :func:`plan_resume`.
        game: the game of the log.
        make_agent: the bot for a logged bot seat.
        server_kwargs: :class:`~net.server.TableServer` arguments;
            ``resume_grace`` defaults to :data:`RESUME_GRACE`; ``port`` (see
            :func:`logged_port`) and ``name`` default to the logged table's, so
            players reconnect to the same address.

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
            game,
            plan.path,
            plan.log,
            plan.header,
            actions=plan.actions,
            make_agent=make_agent,
            app_version=__version__,
            **server_kwargs,
        )
    except OSError as exc:
        raise ResumeError(
            _("Cannot write to {path}: {why}.").format(path=plan.path, why=exc.strerror or exc)
        ) from None
    except (ValueError, Refused) as exc:
        raise ResumeError(
            _("Cannot rebuild the table from {path}: {why}.").format(path=plan.path, why=exc)
        ) from None


def ask_yes_no(question: str) -> bool:
    """Ask on stderr (stdout may be a log), read stdin; only ``y``/``yes`` (or, in
    French, ``o``/``oui``) is yes; EOF is no."""
    choices = _("[y/N]")  # French: [o/N]
    print(f"{question} {choices} ", end="", file=sys.stderr, flush=True)
    try:
        answer = input()
    except EOFError:
        print(file=sys.stderr)
        return False
    return answer.strip().lower() in {"y", "yes", "o", "oui"}


# --- history -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """One saved game, for ``poissonnier history``.

    Attributes:
        path: the log file.
        started: when the game started, Unix seconds (the header's ``created``).
        players: seat names in seat order, bots marked ``"(bot)"`` and their levels in
            the current language (``botnames.py``).
        winners: winning names once over, else ``None``.
        actions: actions logged.
        turns: turns played (the last turn reached for a running game; ``None`` when
            the game's view shows no turn number).
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
    game: str = ""
    """The game's name as the log's header gives it (``""`` when unreadable)."""

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
        assert damaged is not None
        return GameSummary(path, None, (), None, 0, None, False, None, damage_text(damaged))
    problem = None
    if damaged is not None:  # the file is the summary's own: drop it, whatever the language
        said = damage_text(damaged)
        problem = said.removeprefix(f"{path}: ").removeprefix(f"{path}\u00a0: ")
    try:
        header = check_header(log)
        done = replay_log(log, header)
    except ResumeError as exc:
        game = log.header.get("game")
        return GameSummary(
            path, None, (), None, len(log.actions), None, False, None, str(exc),
            game=game if isinstance(game, str) else "",
        )  # fmt: skip
    if done.error is not None:
        bad = log.actions[done.applied]
        problem = problem or _("action {n} at byte {offset} is refused on replay").format(
            n=done.applied + 1, offset=bad.offset
        )
    players = tuple(
        (shown_bot_name(s.name) + " " + _("(bot)") if s.kind == "bot" else s.name)
        or _("Seat {n}").format(n=i + 1)
        for i, s in enumerate(header.seats)
    )
    match = done.match
    result = match.result()
    winners = None
    if result is not None:
        winners = tuple(
            (
                shown_bot_name(header.seats[w].name)
                if header.seats[w].kind == "bot"
                else header.seats[w].name
            )
            or _("Seat {n}").format(n=w + 1)
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
        turns=public_turn(match),
        finished=result is not None,
        duration=max(0.0, last - header.created),
        problem=problem,
        game=header.game,
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
