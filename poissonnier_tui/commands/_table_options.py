"""Options shared by ``host`` and ``serve`` (a helper module, not a command)."""

from __future__ import annotations

import argparse
import getpass
import socket
from typing import TYPE_CHECKING

from poissonnier_tui.commands import bot_delay
from poissonnier_tui.commands._resume import add_resume_options

if TYPE_CHECKING:
    from poissonnier_tui.hosting.lan import TableSettings


AUTO_CODE = "auto"
"""``--code auto``: a generated code (:func:`net.guard.generate_code`: 40 random bits,
which the table's per-address back-off makes unguessable in a game's time)."""


def seconds(text: str) -> float:
    """Parse a positive number of seconds.

    Raises:
        argparse.ArgumentTypeError: not a number, or not above 0.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


def port_number(text: str) -> int:
    """Parse a TCP port, 0 to 65535 (0: any free port).

    Raises:
        argparse.ArgumentTypeError: not a number in range.
    """
    if not text.isdigit() or not 0 <= int(text) < 65536:
        raise argparse.ArgumentTypeError(f"not a port number (0-65535): {text!r}")
    return int(text)


def default_table_name() -> str:
    """``"<user>'s table"``, or the machine's name when the user has none."""
    try:
        who = getpass.getuser()
    except Exception:  # no user name in this environment (getuser raises several kinds)
        who = socket.gethostname().split(".")[0] or "Poissonnier"
    return f"{who}'s table"[:64]


def default_player_name() -> str:
    """The user's login name as a player name (``"Player"`` when there is none)."""
    try:
        who = getpass.getuser()
    except Exception:  # no user name in this environment (getuser raises several kinds)
        return "Player"
    return who[:24] or "Player"


def add_level_option(p: argparse.ArgumentParser) -> None:
    """``--level LIST`` (also spelt ``--bot``): the bots' levels, handed out in turn."""
    from poissonnier_tui.commands import bot_kinds
    from poissonnier_tui.games.poissonnier.bots import DEFAULT_LEVEL

    p.add_argument(
        "--level", "--bot", dest="level", type=bot_kinds, default=(DEFAULT_LEVEL,),
        metavar="LIST",
        help=f"bot level: easy, medium or hard (also greedy, random); a comma list such as "
        f"hard,easy gives the bots their levels in turn (default {DEFAULT_LEVEL})",
    )  # fmt: skip


def add_table_options(p: argparse.ArgumentParser) -> None:
    """``--table --seats --bots --port --interface --code --fill-timeout --no-spectators`` and
    the bot kind, bot delay and seed."""
    p.add_argument(
        "--table", metavar="NAME", default=None, help="table name (default: USER's table)"
    )
    p.add_argument(
        "--seats", type=int, default=4, choices=range(2, 6), metavar="2-5",
        help="seats at the table, 2-5 (default 4)",
    )  # fmt: skip
    p.add_argument(
        "--bots", type=int, default=0, metavar="K",
        help="bots seated from the start, in the last seats (default 0)",
    )  # fmt: skip
    p.add_argument(
        "--port", type=port_number, default=None, metavar="P",
        help="TCP port (default 7374, or any free port if that one is busy)",
    )  # fmt: skip
    p.add_argument(
        "--interface", metavar="IP", default=None,
        help="IPv4 address to listen and advertise on (default: all interfaces)",
    )  # fmt: skip
    p.add_argument(
        "--code", metavar="CODE", default=None,
        help=f"join code players must give; '{AUTO_CODE}' makes one nobody can guess "
        "(8 letters and digits, printed when the table opens)",
    )  # fmt: skip
    p.add_argument(
        "--fill-timeout", type=seconds, default=None, metavar="SECONDS",
        help="R6 time limit on the fill step: a seat still filling then is declared ready",
    )  # fmt: skip
    p.add_argument(
        "--no-spectators", dest="spectators", action="store_false", help="refuse spectators"
    )
    add_level_option(p)
    p.add_argument(
        "--bot-delay", type=bot_delay, default=0.5, metavar="SECONDS",
        help="pause before each bot move (default 0.5)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default random)")
    add_resume_options(p)


def settings_from(
    args: argparse.Namespace, *, host_seat: bool, start_when_full: bool
) -> TableSettings:
    """A :class:`~poissonnier_tui.hosting.lan.TableSettings` from parsed options."""
    from net.guard import generate_code
    from poissonnier_tui.hosting.lan import TableSettings

    return TableSettings(
        name=args.table or default_table_name(),
        seats=args.seats,
        bots=args.bots,
        bot_kinds=args.level,
        bot_delay=args.bot_delay,
        port=args.port,
        interface=args.interface,
        code=generate_code() if args.code == AUTO_CODE else args.code,
        fill_timeout=args.fill_timeout,
        spectators=args.spectators,
        seed=args.seed,
        start_when_full=start_when_full,
        host_seat=host_seat,
    )
