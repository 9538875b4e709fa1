"""``poissonnier host``: host a LAN table and play at it, in one process."""

from __future__ import annotations

import argparse
import sys

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.commands._table_options import (
    add_table_options,
    offered_player_name,
    settings_from,
)
from poissonnier_tui.i18n import _


def register(sub: Subparsers) -> None:
    """Add the ``host`` parser."""
    p = sub.add_parser(
        "host",
        help=_("host a table on the LAN and play at it"),
        description=_(
            "Start a table on the LAN (advertised with zeroconf) and take seat 1 "
            "yourself. In the table's lobby: b adds a bot, l changes the level of the "
            "next one (easy, medium, hard), x removes one, Enter starts. "
            "During the game, F2 lists the seats: hand an absent player's seat to a bot."
        ),
    )
    add_table_options(p)
    p.add_argument(
        "--name", default=None,
        help=_("your name at the table (default: the one saved in Settings, else your login)"),
    )  # fmt: skip
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the host's TUI; exit 2 on bad options."""
    from poissonnier_tui.hosting.lan import clean_name
    from poissonnier_tui.shell.app import HostSession, PoissonnierApp

    try:
        settings = settings_from(args, host_seat=True, start_when_full=False)
    except ValueError as exc:
        print(f"poissonnier: {exc}", file=sys.stderr)
        return 2
    plan = None
    if args.resume is not None:  # carry on a saved game from seat 0
        from poissonnier_tui.commands._resume import load_plan
        from poissonnier_tui.commands._table_options import given_options
        from poissonnier_tui.hosting.tables import resumed_settings

        if (plan := load_plan(args)) is None:
            return 1
        settings = resumed_settings(
            plan, settings, name_given=args.table is not None, given=given_options(args)
        )
    if problems := settings.problems():
        for problem in problems:
            print(f"poissonnier: {problem}", file=sys.stderr)
        return 2
    name = clean_name(args.name or offered_player_name())
    app = PoissonnierApp(HostSession(settings, name=name, resume=plan))
    app.run()
    return int(app.return_code or 0)
