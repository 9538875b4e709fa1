"""``poissonnier history``: the saved games, newest first."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.i18n import _, ngettext


def register(sub: Subparsers) -> None:
    """Add the ``history`` parser."""
    p = sub.add_parser(
        "history",
        help=_("list saved games (date, players, winner, length)"),
        description=_(
            "List the games saved in the data directory, newest first: when, "
            "who, who won, how long, and the log file for 'poissonnier replay' or "
            "'poissonnier serve --resume'."
        ),
    )
    p.add_argument("--limit", type=int, default=20, metavar="N", help=_("at most N games (20)"))
    p.add_argument("--dir", type=Path, help=_("another directory of logs"))
    p.add_argument("--json", action="store_true", help=_("print one JSON array"))
    p.set_defaults(run=run)


def _length(turns: int | None, actions: int, seconds: float | None) -> str:
    parts = []
    if turns is not None:
        parts.append(ngettext("{n} turn", "{n} turns", turns).format(n=turns))
    parts.append(ngettext("{n} move", "{n} moves", actions).format(n=actions))
    if seconds is not None:
        minutes, secs = divmod(int(seconds), 60)
        parts.append(f"{minutes}m{secs:02d}s")
    return ", ".join(parts)


def _title(game: str) -> str:
    """A game's title for people (its registry entry's), or its logged name if unknown here."""
    from poissonnier_tui.games import game_entry

    try:
        return _(game_entry(game).title)
    except ValueError:
        return game or "?"


def run(args: argparse.Namespace) -> int:
    """Print the list; exit 0 (an empty list too), 2 on bad arguments."""
    from poissonnier_tui.hosting.persistence import games_dir, list_games

    if args.limit < 1:
        print("poissonnier: " + _("--limit must be at least 1"), file=sys.stderr)
        return 2
    folder = args.dir or games_dir()
    games = list_games(folder)[: args.limit]
    if args.json:
        rows: list[dict[str, Any]] = [
            {
                "path": str(g.path),
                "game": g.game,
                "started": g.started,
                "players": list(g.players),
                "winners": None if g.winners is None else list(g.winners),
                "finished": g.finished,
                "turns": g.turns,
                "actions": g.actions,
                "duration": g.duration,
                "problem": g.problem,
            }
            for g in games
        ]
        print(json.dumps(rows))
        return 0
    if not games:
        print(_("No saved games in {folder}.").format(folder=folder))
        return 0
    for n, g in enumerate(games, start=1):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started)) if g.started else "?"
        if g.winners:
            outcome = _("winner: {names}").format(names=_(" and ").join(g.winners))
        elif g.finished:
            outcome = _("no winner")
        else:
            outcome = _("not over (serve --resume or host --resume carries it on)")
        colon = _(": ")  # French: " : " (a no-break space first)
        print(f"{n:>3}. {when}  {_title(g.game)}{colon}{', '.join(g.players) or '?'}")
        print(f"     {outcome} · {_length(g.turns, g.actions, g.duration)}")
        if g.problem:
            print("     " + _("problem: {why}").format(why=g.problem))
        print(f"     {g.path}")
    return 0
