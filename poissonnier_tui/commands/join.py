"""``poissonnier join``: take a seat at a LAN table (by address, or from the lobby of tables)."""

from __future__ import annotations

import argparse
import sys

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.i18n import _


def add_join_options(p: argparse.ArgumentParser, *, spectate: bool) -> None:
    """Options shared by ``join`` and ``spectate``."""
    p.add_argument(
        "address", nargs="?", metavar="HOST:PORT", default=None,
        help=_("the table's address; without it, pick a table from the LAN lobby"),
    )  # fmt: skip
    p.add_argument(
        "--name",
        default=None,
        help=_("your name at the table (default: the one saved in Settings, else your login)"),
    )
    p.add_argument("--code", metavar="CODE", default=None, help=_("the table's join code"))
    p.add_argument(
        "--interface", metavar="IP", default=None,
        help=_("IPv4 address of the interface to look for tables on (default: all)"),
    )  # fmt: skip
    p.add_argument(
        "--table", metavar="NAME", default=None,
        help=_("with no address: go straight to the table with this name once it is found"),
    )  # fmt: skip
    p.add_argument(
        "--headless", action="store_true",
        help=_("no UI: watch and print the result") if spectate
        else _("no UI: a bot plays the seat"),
    )  # fmt: skip
    # For tests and tools: record every view frame, seed the headless bot.
    p.add_argument("--record", metavar="FILE", default=None, help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--find-timeout", type=float, default=5.0, help=argparse.SUPPRESS)


def register(sub: Subparsers) -> None:
    """Add the ``join`` parser."""
    p = sub.add_parser(
        "join",
        help=_("join a table on the LAN"),
        description=_(
            "Join a table. With HOST:PORT, join it directly; without, a lobby lists "
            "the tables found on the LAN. Your seat's token is saved, so running the same "
            "command again after a crash or Ctrl-C gives you your seat back."
        ),
    )
    add_join_options(p, spectate=False)
    p.add_argument(
        "--bot", "--level", dest="bot", default=None, metavar="LEVEL",
        help=_("with --headless: the level of the bot playing the seat, one of the table's "
        "game's levels (easy, medium, hard...; default: the game's default level)"),
    )  # fmt: skip
    p.set_defaults(run=run, role="player")


def run(args: argparse.Namespace) -> int:
    """Join (TUI or headless); exit 0, 1 if joining failed (headless), 2 on bad options."""
    from pathlib import Path

    from poissonnier_tui.hosting.lan import clean_name, format_address, parse_address
    from poissonnier_tui.hosting.tokens import TokenStore

    role = args.role
    bot = getattr(args, "bot", None)
    if bot is not None and not bot.strip():
        print("poissonnier: " + _("--bot needs a level, e.g. medium"), file=sys.stderr)
        return 2
    bot = bot.strip().lower() if bot else None
    if bot is not None:  # the table's game checks it once joined; no game has it: stop now
        from poissonnier_tui.games import all_games

        known = list(dict.fromkeys(k for entry in all_games() for k in entry.bot_kinds))
        if bot not in known:
            print(
                "poissonnier: "
                + _("no game here has a bot level {level}; choose from {levels}").format(
                    level=repr(bot), levels=", ".join(known)
                ),
                file=sys.stderr,
            )
            return 2
    address = None
    if args.address is not None:
        try:
            address = parse_address(args.address)
        except ValueError as exc:
            print(f"poissonnier: {exc}", file=sys.stderr)
            return 2
    from poissonnier_tui.commands._table_options import offered_player_name

    default_name = _("Spectator") if role == "spectator" else offered_player_name()
    name = clean_name(args.name or default_name)
    tokens = TokenStore()
    if args.headless:
        import asyncio

        from poissonnier_tui.client.joining import join_headless

        def err(line: str) -> None:
            print(line, file=sys.stderr, flush=True)

        def out(line: str) -> None:
            print(line, flush=True)

        try:
            return asyncio.run(
                join_headless(
                    args.address,
                    name=name,
                    role=role,
                    code=args.code,
                    table=args.table,
                    interface=args.interface,
                    bot=bot,
                    seed=args.seed,
                    tokens=tokens,
                    record=Path(args.record) if args.record else None,
                    find_timeout=args.find_timeout,
                    out=out,
                    err=err,
                )
            )
        except KeyboardInterrupt:
            return 1
    from poissonnier_tui.shell.app import BrowseSession, JoinSession, PoissonnierApp
    from poissonnier_tui.shell.session import Session

    browse = BrowseSession(
        name=name, role=role, code=args.code, interface=args.interface, table=args.table
    )
    session: Session = browse
    if address is not None:
        host, port = address
        saved = tokens.find(format_address(host, port), player=name) if role == "player" else None
        session = JoinSession(
            host, port, name=name, role=role, code=args.code,
            token=saved.token if saved else None,
        )  # fmt: skip
    app = PoissonnierApp(session, tokens=tokens, lobby=browse)
    app.run()
    return int(app.return_code or 0)
