"""``poissonnier simulate``: headless bot games of any registered game, on its match."""

from __future__ import annotations

import argparse
import sys

from poissonnier_tui.commands import Subparsers, add_game_option, bot_delay, check_levels
from poissonnier_tui.i18n import _


def register(sub: Subparsers) -> None:
    """Add the ``simulate`` parser."""
    p = sub.add_parser("simulate", help=_("play headless bot games and print statistics"))
    add_game_option(p, what=_("the game to simulate"))
    p.add_argument(
        "--players",
        type=int,
        default=4,
        metavar="N",
        help=_("players per game, within the game's limits (Le Poissonnier 2-5; default 4)"),
    )
    p.add_argument("--games", type=int, default=100, help=_("games to play (default 100)"))
    p.add_argument("--seed", type=int, default=1, help=_("seed of the first game (default 1)"))
    p.add_argument(
        "--bot", default=None,
        help=_("bot level for every seat (default greedy, or the game's default level)"),
    )  # fmt: skip
    p.add_argument(
        "--bot-delay",
        type=bot_delay,
        default=0.0,
        metavar="SECONDS",
        help=_("accepted for symmetry with other commands; simulate never waits"),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the games; exit code 1 if any game saw an error, 2 on bad arguments."""
    from poissonnier_tui.arena.simulate import simulate
    from poissonnier_tui.games import game_entry

    entry = game_entry(args.game)
    if args.bot is not None and (error := check_levels(entry, [args.bot])) is not None:
        print(f"poissonnier: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("poissonnier: " + _("--games must be at least 1"), file=sys.stderr)
        return 2
    try:
        report = simulate(
            players=args.players, games=args.games, seed=args.seed, bot=args.bot, game=entry
        )
    except ValueError as exc:  # players outside the game's limits
        print(f"poissonnier: {exc}", file=sys.stderr)
        return 2
    print(report.to_json() if args.json else report.format_text())
    return 1 if report.errors else 0
