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
from poissonnier_tui.commands import MODULES
from poissonnier_tui.commands.solo import add_solo_options


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: solo options at the top level, then every subcommand."""
    parser = argparse.ArgumentParser(
        prog="poissonnier",
        description="Fish card games in your terminal: Le Poissonnier, the fish-market "
        "game, and more. With no command: a solo game against bots (as 'poissonnier solo').",
    )
    parser.add_argument("--version", action="version", version=f"poissonnier {__version__}")
    add_solo_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in MODULES:
        importlib.import_module(name).register(sub)
    return parser


def run_solo(args: argparse.Namespace) -> int:
    """A solo game in the TUI (``poissonnier solo``, and the bare command)."""
    from poissonnier_tui.commands.solo import run

    return run(args)


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
