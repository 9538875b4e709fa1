"""The ``poissonnier`` command.

``poissonnier``                     a solo game in the TUI against bots
``poissonnier <command> ...``       see ``poissonnier --help``; each command
                                    lives in ``poissonnier_tui/commands/``
``poissonnier --version``           print the version
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence

if __name__ == "__main__":
    # Ctrl-C while the command loads ends it quietly; main() restores KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)

from poissonnier_tui import __version__
from poissonnier_tui.commands import MODULES, bot_delay
from poissonnier_tui.commands._table_options import add_level_option

DEFAULT_BOT_DELAY = 0.5
"""Seconds a bot waits before acting in the TUI, so a person can follow it."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: solo options at the top level, then every subcommand."""
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
    add_level_option(parser)
    parser.add_argument(
        "--bot-delay",
        type=bot_delay,
        default=DEFAULT_BOT_DELAY,
        metavar="SECONDS",
        help="pause before each bot move (default 0.5)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in MODULES:
        importlib.import_module(name).register(sub)
    return parser


def run_solo(args: argparse.Namespace) -> int:
    """A solo game in the TUI: an in-process table on 127.0.0.1, bots in the other seats."""
    from poissonnier_tui.shell.app import PoissonnierApp, SoloSession

    app = PoissonnierApp(
        SoloSession(
            bots=args.bots,
            seed=args.seed,
            name=args.name,
            bot_delay=args.bot_delay,
            bot_kinds=args.level,
        )
    )
    app.run()
    return int(app.return_code or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``poissonnier`` console script.

    Returns:
        The process exit code: 0 on success, 1 when a command failed (e.g. a
        simulation saw errors), 2 on bad arguments, 130 after a Ctrl-C that no
        command handled itself.
    """
    try:
        if signal.getsignal(signal.SIGINT) is signal.SIG_DFL:  # the guard while loading
            signal.signal(signal.SIGINT, signal.default_int_handler)
        args = build_parser().parse_args(argv)
        run = getattr(args, "run", None)
        return int(run(args)) if run is not None else run_solo(args)
    except KeyboardInterrupt:  # Ctrl-C before a command set up its own handling
        return 130


if __name__ == "__main__":
    sys.exit(main())
