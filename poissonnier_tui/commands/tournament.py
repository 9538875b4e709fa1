"""``poissonnier tournament``: seat-rotated games between bot levels, with statistics.

Example::

    poissonnier tournament --players 2 --games 400 --bots hard,medium --seed 1
    poissonnier tournament --players 4 --games 200 --bots hard,medium,easy,easy --seed 1 --json

Each deal (seed) is played once per seating, the lineup rotated by one seat
each time, so every bot plays every seat on the same cards. Per bot it
prints the win rate with its 95 % Wilson interval, mean coins / clients /
stamps, deals made, offers made and the decision time (median and p95).
"""

from __future__ import annotations

import argparse
import sys

from poissonnier_tui.commands import Subparsers, add_game_option, bot_kinds, check_levels
from poissonnier_tui.i18n import _, ngettext


def _positive(text: str) -> float:
    """Parse a positive number (``--budget``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number: {text}").format(text=repr(text))
        ) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(_("must be positive"))
    return value


def register(sub: Subparsers) -> None:
    """Add the ``tournament`` parser."""
    p = sub.add_parser(
        "tournament",
        help=_("play seat-rotated games between bot levels and compare them"),
        description=_(
            "Play seat-rotated games between bots and print, per bot, the win rate "
            "with a 95% confidence interval, mean coins / clients / stamps, deals made "
            "and decision time (median, p95)."
        ),
    )
    add_game_option(p)
    p.add_argument(
        "--players",
        type=int,
        default=2,
        metavar="N",
        help=_("players per game, within the game's limits (Le Poissonnier 2-5; default 2)"),
    )
    p.add_argument("--games", type=int, default=100, help=_("games to play (default 100)"))
    p.add_argument(
        "--bots",
        type=bot_kinds,
        default=("hard", "medium"),
        metavar="LIST",
        help=_(
            "comma-separated bot levels, one per seat, e.g. hard,medium,easy,easy "
            "(the game's levels; Le Poissonnier also has greedy and random; default hard,medium)"
        ),
    )
    p.add_argument("--seed", type=int, default=1, help=_("seed of the deals (default 1)"))
    p.add_argument(
        "--jobs", type=int, default=1, help=_("worker processes playing games (default 1)")
    )
    p.add_argument(
        "--budget",
        type=_positive,
        default=1.0,
        help=_("scale of the hard bot's search budget (default 1: the published level)"),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the tournament; exit code 1 if any action was refused, 2 on bad arguments."""
    from poissonnier_tui.arena.tournament import tournament
    from poissonnier_tui.games import game_entry

    entry = game_entry(args.game)
    if (error := check_levels(entry, args.bots)) is not None:
        print(f"poissonnier: {error}", file=sys.stderr)
        return 2
    lineup = list(args.bots)
    if len(lineup) == 1:
        lineup *= args.players
    if len(lineup) != args.players:
        named = ngettext("{n} bot", "{n} bots", len(lineup)).format(n=len(lineup))
        print(
            "poissonnier: "
            + ngettext(
                "--bots names {bots} for {n} player (give one per seat, or one for all)",
                "--bots names {bots} for {n} players (give one per seat, or one for all)",
                args.players,
            ).format(bots=named, n=args.players),
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("poissonnier: " + _("--games must be at least 1"), file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("poissonnier: " + _("--jobs must be at least 1"), file=sys.stderr)
        return 2
    try:
        report = tournament(
            args.players, args.games, lineup, args.seed, game=entry, jobs=args.jobs,
            budget=args.budget,
        )  # fmt: skip
    except ValueError as exc:  # players outside the game's limits
        print(f"poissonnier: {exc}", file=sys.stderr)
        return 2
    print(report.to_json() if args.json else report.format_text())
    return 1 if report.errors else 0
