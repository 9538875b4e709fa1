"""``poissonnier replay [LOG]``: watch a saved game again in the TUI, read-only."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.i18n import _


def register(sub: Subparsers) -> None:
    """Add the ``replay`` parser."""
    p = sub.add_parser(
        "replay",
        help=_("watch a saved game again, step by step (read-only)"),
        description=_(
            "Open a table log in the TUI: step one action or one turn at a time, "
            "jump to a turn, and switch the point of view. A finished game shows every seat "
            "and every hand; a game not over yet only the public view and your own seat. "
            "'poissonnier history' lists saved games."
        ),
    )
    p.add_argument(
        "log",
        nargs="?",
        type=Path,
        help=_("the log file (default: the most recent finished game)"),
    )
    p.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help=_(
            "your seat (1-5), for a game that is not over: the one hand it may show "
            "(default: the only player's seat of a solo game)"
        ),
    )
    p.add_argument("--turn", type=int, metavar="T", help=_("open at the start of turn T"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Open the viewer; exit 1 if the log cannot be read, 2 on bad arguments."""
    from poissonnier_tui.hosting.persistence import ResumeError, list_games, replay_order
    from poissonnier_tui.hosting.replay import Replay

    path: Path | None = args.log
    if path is None:
        games = list_games()
        if not games:
            print("poissonnier: " + _("no saved games yet; play one first."), file=sys.stderr)
            return 1
        path = replay_order(games)[0].path
    if args.seat is not None and not 1 <= args.seat <= 5:
        print("poissonnier: " + _("--seat must be 1 to 5"), file=sys.stderr)
        return 2
    try:
        replay = Replay.load(path, seat=None if args.seat is None else args.seat - 1)
    except ResumeError as exc:
        print(f"poissonnier: {exc}", file=sys.stderr)
        return 1
    if replay.problem:
        print(
            "poissonnier: "
            + _("note: the replay stops early: {problem}").format(problem=replay.problem),
            file=sys.stderr,
        )
    from poissonnier_tui.shell.replay_app import ReplayApp

    start = replay.turn_start(args.turn) if args.turn is not None else 0
    ReplayApp(replay, start=start).run()
    return 0
