"""Options shared by ``host`` and ``serve`` (a helper module, not a command)."""

from __future__ import annotations

import argparse
import getpass
import socket
from typing import TYPE_CHECKING, Final

from poissonnier_tui.commands import add_game_option, bot_delay, option_pair
from poissonnier_tui.commands._resume import add_resume_options
from poissonnier_tui.i18n import _, decimal

if TYPE_CHECKING:
    from net.drafts import DraftRules
    from poissonnier_tui.games import GameEntry
    from poissonnier_tui.hosting.tables import TableSettings

DEFAULT_SEATS = 4
"""Seats at a table when ``--seats`` is not given (within the game's limits)."""


AUTO_CODE = "auto"
"""``--code auto``: a generated code (:func:`net.guard.generate_code`: 40 random bits,
which the table's per-address back-off makes unguessable in a game's time)."""


def _number_of_seconds(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number of seconds: {text}").format(text=repr(text))
        ) from None


def seconds(text: str) -> float:
    """Parse a positive number of seconds.

    Raises:
        argparse.ArgumentTypeError: not a number, or not above 0.
    """
    value = _number_of_seconds(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(_("must be more than 0 seconds"))
    return value


def seconds_or_off(text: str) -> float:
    """Parse a number of seconds from 0 (off) to ``net.drafts.MOST_SECONDS`` (3600).

    Raises:
        argparse.ArgumentTypeError: not a number, or out of range.
    """
    from net.drafts import MOST_SECONDS

    value = _number_of_seconds(text)
    if not 0 <= value <= MOST_SECONDS:
        raise argparse.ArgumentTypeError(
            _("must be 0 to {most} seconds").format(most=decimal(MOST_SECONDS))
        )
    return value


def draft_count(text: str) -> int:
    """Parse how many drafts a seat may start per wait: a whole number from 1 to
    ``net.drafts.MOST_DRAFTS_PER_WAIT`` (99).

    Raises:
        argparse.ArgumentTypeError: not a whole number in range.
    """
    from net.drafts import MOST_DRAFTS_PER_WAIT

    if not text.isdigit() or not 1 <= int(text) <= MOST_DRAFTS_PER_WAIT:
        raise argparse.ArgumentTypeError(
            _("not a whole number from 1 to {most}: {text}").format(
                most=MOST_DRAFTS_PER_WAIT, text=repr(text)
            )
        )
    return int(text)


def add_draft_options(p: argparse.ArgumentParser) -> None:
    """``--draft-seconds --drafts-per-wait --answer-seconds``: time to deal
    (``net.drafts.DraftRules``), read back by :func:`draft_rules`."""
    from net.drafts import ANSWER_SECONDS, DRAFT_SECONDS, DRAFTS_PER_WAIT

    p.add_argument(
        "--draft-seconds", type=seconds_or_off, default=None, metavar="SECONDS",
        help=_("how long a player preparing an offer holds the bots (default {default}; "
               "0: the bots never wait)").format(default=decimal(DRAFT_SECONDS)),
    )  # fmt: skip
    p.add_argument(
        "--drafts-per-wait", type=draft_count, default=None, metavar="N",
        help=_("offers a player may prepare while the table waits on the same players, "
               "e.g. during one bot's turn (default {default})").format(default=DRAFTS_PER_WAIT),
    )  # fmt: skip
    p.add_argument(
        "--answer-seconds", type=seconds_or_off, default=None, metavar="SECONDS",
        help=_("how long an offer waits for its answer before the table withdraws it "
               "(default {default}; 0: until it lapses)").format(default=decimal(ANSWER_SECONDS)),
    )  # fmt: skip


def draft_rules(args: argparse.Namespace) -> DraftRules:
    """The time-to-deal bounds given by :func:`add_draft_options` (RULES.md §4, R25);
    the defaults for those not given."""
    from net.drafts import DraftRules

    rules = DraftRules()
    return DraftRules(
        seconds=rules.seconds if args.draft_seconds is None else args.draft_seconds,
        per_wait=rules.per_wait if args.drafts_per_wait is None else args.drafts_per_wait,
        answer_seconds=(
            rules.answer_seconds if args.answer_seconds is None else args.answer_seconds
        ),
    )


RESUMABLE: Final = ("draft_seconds", "drafts_per_wait", "answer_seconds", "bot_patience",
                    "spectators_heard")  # fmt: skip
"""The table options a resumed table takes from its log unless the command line gives them."""


def given_options(args: argparse.Namespace) -> frozenset[str]:
    """Which of :data:`RESUMABLE` the command line gave (they default to ``None``)."""
    return frozenset(k for k in RESUMABLE if getattr(args, k, None) is not None)


def bot_patience(args: argparse.Namespace) -> float:
    """``--bot-patience``, or its default when not given."""
    from net.turns import BOT_PATIENCE

    return BOT_PATIENCE if args.bot_patience is None else float(args.bot_patience)


def port_number(text: str) -> int:
    """Parse a TCP port, 0 to 65535 (0: any free port).

    Raises:
        argparse.ArgumentTypeError: not a number in range.
    """
    if not text.isdigit() or not 0 <= int(text) < 65536:
        raise argparse.ArgumentTypeError(
            _("not a port number (0-65535): {text}").format(text=repr(text))
        )
    return int(text)


def default_table_name(who: str | None = None) -> str:
    """``"<who>'s table"``: by default the name saved in Settings, else the login, else
    the machine's name (as :func:`offered_player_name` offers a player's name)."""
    if not who:
        from poissonnier_tui.settings import load_settings

        who = load_settings().settings.name
    if not who:
        try:
            who = getpass.getuser()
        except Exception:  # no user name in this environment (getuser raises several kinds)
            who = socket.gethostname().split(".")[0] or "Poissonnier"
    return _("{name}'s table").format(name=who)[:64]


def default_player_name() -> str:
    """The user's login name as a player name (``"Player"`` when there is none)."""
    try:
        who = getpass.getuser()
    except Exception:  # no user name in this environment (getuser raises several kinds)
        return _("Player")
    return who[:24] or _("Player")


def offered_player_name() -> str:
    """The player name to use when none is given: the one saved in Settings, else the
    login name (:func:`default_player_name`), as the home screen offers it."""
    from poissonnier_tui.settings import load_settings

    return load_settings().settings.name or default_player_name()


def add_level_option(p: argparse.ArgumentParser) -> None:
    """``--level LIST`` (also spelt ``--bot``): the bots' levels, handed out in turn; checked
    against the game's levels by :func:`levels_of`."""
    from poissonnier_tui.commands import bot_kinds

    p.add_argument(
        "--level", "--bot", dest="level", type=bot_kinds, default=None, metavar="LIST",
        help=_("bot level: easy, medium or hard (Le Poissonnier also has greedy and random); "
        "a comma list such as hard,easy gives the bots their levels in turn "
        "(default: the game's default level, medium)"),
    )  # fmt: skip


def levels_of(args: argparse.Namespace, entry: GameEntry) -> tuple[str, ...]:
    """The ``--level`` list checked against ``entry``'s levels (its default level if none).

    Raises:
        ValueError: a level the game does not have (the message lists its levels).
    """
    from poissonnier_tui.commands import check_levels

    levels: tuple[str, ...] = args.level or (entry.default_level,)
    if (error := check_levels(entry, levels)) is not None:
        raise ValueError(error)
    return levels


def add_option_option(p: argparse.ArgumentParser) -> None:
    """``--option KEY=VALUE`` (repeatable): one of the game's table options."""
    p.add_argument(
        "--option", dest="options", type=option_pair, action="append", default=[],
        metavar="KEY=VALUE",
        help=_("a table option of the game (repeatable), checked by the game; "
        "Le Poissonnier has none"),
    )  # fmt: skip


def add_patience_option(p: argparse.ArgumentParser) -> None:
    """``--bot-patience SECONDS``: how long a bot waits on a person before it is asked
    again and may withdraw its offer (RULES.md §4)."""
    from net.turns import BOT_PATIENCE

    p.add_argument(
        "--bot-patience", type=seconds, default=None, metavar="SECONDS",
        help=_("how long a bot leaves its offer to a person open before it may withdraw it "
               "(default {default})").format(default=decimal(BOT_PATIENCE)),
    )  # fmt: skip


def add_table_options(p: argparse.ArgumentParser) -> None:
    """``--table --seats --bots --port --interface --code --fill-timeout --no-spectators
    --quiet-spectators``, the
    bot kind, bot delay and seed, and time to deal (:func:`add_draft_options`)."""
    p.add_argument(
        "--table", metavar="NAME", default=None, help=_("table name (default: USER's table)")
    )
    add_game_option(p)
    add_option_option(p)
    p.add_argument(
        "--seats", type=int, default=None, metavar="N",
        help=_("seats at the table, within the game's limits (Le Poissonnier 2-5; "
               "default {default}, or the game's nearest limit)").format(default=DEFAULT_SEATS),
    )  # fmt: skip
    p.add_argument(
        "--bots", type=int, default=0, metavar="K",
        help=_("bots seated from the start, in the last seats (default 0)"),
    )  # fmt: skip
    p.add_argument(
        "--port", type=port_number, default=None, metavar="P",
        help=_("TCP port (default 7374, or any free port if that one is busy)"),
    )  # fmt: skip
    p.add_argument(
        "--interface", metavar="IP", default=None,
        help=_("IPv4 address to listen and advertise on (default: all interfaces)"),
    )  # fmt: skip
    p.add_argument(
        "--code", metavar="CODE", default=None,
        help=_("join code players must give; '{auto}' makes one nobody can guess "
               "(8 letters and digits, printed when the table opens)").format(auto=AUTO_CODE),
    )  # fmt: skip
    p.add_argument(
        "--fill-timeout", type=seconds, default=None, metavar="SECONDS",
        help=_("R6 time limit on the fill step: a seat still filling then is declared ready"),
    )  # fmt: skip
    p.add_argument(
        "--no-spectators", dest="spectators", action="store_false", help=_("refuse spectators")
    )
    p.add_argument(
        "--quiet-spectators", dest="spectators_heard", action="store_false", default=None,
        help=_("players do not hear what spectators say in the chat (spectators still hear "
               "everyone)"),
    )  # fmt: skip
    add_level_option(p)
    p.add_argument(
        "--bot-delay", type=bot_delay, default=0.5, metavar="SECONDS",
        help=_("pause before each bot move (default 0.5)"),
    )  # fmt: skip
    add_patience_option(p)
    p.add_argument("--seed", type=int, default=None, help=_("seed of the deal (default random)"))
    add_draft_options(p)
    add_resume_options(p)


def settings_from(
    args: argparse.Namespace, *, host_seat: bool, start_when_full: bool
) -> TableSettings:
    """A :class:`~poissonnier_tui.hosting.tables.TableSettings` from parsed options.

    Raises:
        ValueError: a bot level or a table option the game does not have (the
            rest is checked by :meth:`TableSettings.problems`).
    """
    from net.chat import ChatPolicy
    from net.guard import generate_code
    from poissonnier_tui.commands import table_options
    from poissonnier_tui.games import game_entry
    from poissonnier_tui.hosting.tables import TableSettings

    entry = game_entry(args.game)
    seats = args.seats
    if seats is None:
        seats = max(entry.min_seats, min(DEFAULT_SEATS, entry.max_seats))
    return TableSettings(
        name=args.table or default_table_name(),
        game=entry.name,
        options=table_options(entry, args.options),
        seats=seats,
        bots=args.bots,
        bot_kinds=levels_of(args, entry),
        bot_delay=args.bot_delay,
        bot_patience=bot_patience(args),
        port=args.port,
        interface=args.interface,
        code=generate_code() if args.code == AUTO_CODE else args.code,
        fill_timeout=args.fill_timeout,
        spectators=args.spectators,
        seed=args.seed,
        start_when_full=start_when_full,
        host_seat=host_seat,
        drafts=draft_rules(args),
        chat=ChatPolicy(spectators_to_players=args.spectators_heard is not False),
    )
