"""The ``poissonnier`` command.

``poissonnier``                     a solo game in the TUI against bots
``poissonnier simulate ...``        headless bot games straight on the engine
``poissonnier --version``           print the version

Heavy imports (Textual, asyncio networking) happen inside the command that
needs them, so ``simulate`` and ``--version`` start fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from poissonnier_tui import __version__

DEFAULT_BOT_DELAY = 0.5
"""Seconds a bot waits before acting in the TUI, so a person can follow it."""


def _bot_delay(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 30:
        raise argparse.ArgumentTypeError("bot delay must be between 0 and 30 seconds")
    return value


def _bot_kinds() -> tuple[str, ...]:
    from poissonnier_tui.bots import BOT_KINDS

    return tuple(BOT_KINDS)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="poissonnier",
        description="Le Poissonnier, the fish-market card game, in your terminal. "
        "With no command: a solo game against bots.",
    )
    parser.add_argument("--version", action="version", version=f"poissonnier {__version__}")
    parser.add_argument(
        "--bots",
        type=int,
        default=3,
        choices=range(1, 5),
        metavar="N",
        help="number of bot opponents, 1-4 (default 3)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal (default random)")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--bot", default="greedy", help="bot kind (default greedy)")
    parser.add_argument(
        "--bot-delay",
        type=_bot_delay,
        default=DEFAULT_BOT_DELAY,
        metavar="SECONDS",
        help="pause before each bot move (default 0.5)",
    )
    sub = parser.add_subparsers(dest="command")

    sim = sub.add_parser("simulate", help="play headless bot games and print statistics")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="N")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--bot", default="greedy", help="bot kind for every seat")
    sim.add_argument(
        "--bot-delay",
        type=_bot_delay,
        default=0.0,
        metavar="SECONDS",
        help="accepted for symmetry; simulate never waits",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _run_solo(args: argparse.Namespace) -> int:
    from poissonnier_tui.app.app import PoissonnierApp, SoloSession

    if args.bot not in _bot_kinds():
        print(
            f"poissonnier: unknown bot kind {args.bot!r}; choose from {', '.join(_bot_kinds())}",
            file=sys.stderr,
        )
        return 2
    app = PoissonnierApp(
        SoloSession(
            bots=args.bots,
            seed=args.seed,
            name=args.name,
            bot_delay=args.bot_delay,
            bot_kind=args.bot,
        )
    )
    app.run()
    return int(app.return_code or 0)


def _run_simulate(args: argparse.Namespace) -> int:
    from poissonnier_tui.simulate import simulate

    if args.bot not in _bot_kinds():
        print(
            f"poissonnier: unknown bot kind {args.bot!r}; choose from {', '.join(_bot_kinds())}",
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("poissonnier: --games must be at least 1", file=sys.stderr)
        return 2
    report = simulate(players=args.players, games=args.games, seed=args.seed, bot=args.bot)
    if args.json:
        print(report.to_json())
    else:
        print(report.format_text())
    return 1 if report.errors else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``poissonnier`` console script.

    Returns:
        The process exit code: 0 on success, 1 when a simulation saw errors,
        2 on bad arguments.
    """
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        return _run_simulate(args)
    return _run_solo(args)


if __name__ == "__main__":
    sys.exit(main())
