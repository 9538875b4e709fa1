"""``poissonnier solo``: a game against bots in the TUI (the bare ``poissonnier`` does the same).

The table is built like any other (:func:`poissonnier_tui.hosting.tables.solo_settings`):
an in-process server on 127.0.0.1, bots in every seat but the player's.
"""

from __future__ import annotations

import argparse
import sys

from poissonnier_tui.commands import Subparsers, add_game_option, bot_delay
from poissonnier_tui.i18n import _

DEFAULT_BOTS = 3
"""Bot opponents when ``--bots`` is not given (fewer if the game seats fewer)."""

DEFAULT_BOT_DELAY = 0.5
"""Seconds a bot waits before acting in the TUI, so a person can follow it."""


def add_solo_options(p: argparse.ArgumentParser) -> None:
    """``--game --bots --level --seed --name --bot-delay --bot-patience --option`` and time
    to deal (``--draft-seconds`` …), also the bare command's."""
    from poissonnier_tui.commands._table_options import (
        add_draft_options,
        add_level_option,
        add_option_option,
        add_patience_option,
    )

    add_game_option(p)
    p.add_argument(
        "--bots", type=int, default=None, metavar="N",
        help=_("number of bot opponents, up to the game's seats less one "
               "(Le Poissonnier 1-4; default {default})").format(default=DEFAULT_BOTS),
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help=_("seed of the deal (default random)"))
    p.add_argument(
        "--name", default=None,
        help=_("your name at the table (default: the one saved in Settings, else your login)"),
    )  # fmt: skip
    add_level_option(p)
    p.add_argument(
        "--bot-delay", type=bot_delay, default=DEFAULT_BOT_DELAY, metavar="SECONDS",
        help=_("pause before each bot move (default {default})").format(default=DEFAULT_BOT_DELAY),
    )  # fmt: skip
    add_patience_option(p)
    add_option_option(p)
    add_draft_options(p)


def register(sub: Subparsers) -> None:
    """Add the ``solo`` parser."""
    p = sub.add_parser(
        "solo",
        help=_("play a game against bots"),
        description=_(
            "Play against bots in the terminal. The table runs in this process "
            "and is not seen on the LAN; the game is saved like any other ('poissonnier history')."
        ),
    )
    add_solo_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the options against the game and run the TUI; exit 2 on bad options."""
    from poissonnier_tui.commands import table_options
    from poissonnier_tui.commands._table_options import (
        bot_patience,
        draft_rules,
        levels_of,
        offered_player_name,
    )
    from poissonnier_tui.games import game_entry
    from poissonnier_tui.hosting.tables import solo_settings
    from poissonnier_tui.shell.session import SoloSession

    entry = game_entry(args.game)
    bots = args.bots
    if bots is None:
        bots = max(entry.min_seats - 1, min(DEFAULT_BOTS, entry.max_seats - 1))
    try:
        levels = levels_of(args, entry)
        options = table_options(entry, args.options)
    except ValueError as exc:
        print(f"poissonnier: {exc}", file=sys.stderr)
        return 2
    drafts = draft_rules(args)
    settings = solo_settings(
        entry.name, bots=bots, bot_kinds=levels, seed=args.seed, options=options,
        bot_patience=bot_patience(args), drafts=drafts,
    )  # fmt: skip
    if problems := settings.problems():
        for problem in problems:
            print(f"poissonnier: {problem}", file=sys.stderr)
        return 2
    from poissonnier_tui.hosting.lan import clean_name
    from poissonnier_tui.shell.app import PoissonnierApp

    # A name, as the home screen offers it: "You" would read "You plays first" in the
    # log and the history, where the others read names.
    name = clean_name(args.name or offered_player_name())
    app = PoissonnierApp(
        SoloSession(
            bots=bots,
            seed=args.seed,
            name=name,
            bot_delay=args.bot_delay,
            bot_kinds=levels,
            game=entry.name,
            options=options or None,
            bot_patience=bot_patience(args),
            drafts=drafts,
        )
    )
    app.run()
    return int(app.return_code or 0)
