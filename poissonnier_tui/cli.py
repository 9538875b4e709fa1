"""The ``poissonnier`` command.

``poissonnier``                     the home screen: solo, host, join, watch, replay,
                                    rules, settings
``poissonnier --bots 2 ...``        with solo options: a solo game straight away
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
        "game, and more. With no command: the home screen (solo, host, join, watch, replay, "
        "rules, settings); with solo options and no command: a solo game, as 'poissonnier solo'.",
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


def run_home(args: argparse.Namespace) -> int:
    """The home screen in the TUI (the bare ``poissonnier``)."""
    from poissonnier_tui.shell.app import PoissonnierApp
    from poissonnier_tui.shell.session import HomeSession

    app = PoissonnierApp(HomeSession(lang=getattr(args, "lang", None)))
    app.run()
    return int(app.return_code or 0)


def solo_options_given(parser: argparse.ArgumentParser, args: argparse.Namespace) -> bool:
    """Whether the bare command was given a solo option (``--bots 2``...): then it starts
    a solo game as ``poissonnier solo`` does, else it opens the home screen."""
    solo = argparse.ArgumentParser(add_help=False)
    add_solo_options(solo)
    return any(
        getattr(args, action.dest, None) != parser.get_default(action.dest)
        for action in solo._actions
    )


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
        parser = build_parser()
        args = parser.parse_args(argv)
        run = getattr(args, "run", None)
        if run is not None:
            return int(run(args))
        return run_solo(args) if solo_options_given(parser, args) else run_home(args)
    except KeyboardInterrupt:  # Ctrl-C before a command set up its own handling
        return 130


if __name__ == "__main__":
    sys.exit(main())
