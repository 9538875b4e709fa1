"""Subcommands of ``poissonnier``: one module each.

Each module defines ``register(sub)``, which adds its parser to the
``argparse`` sub-parsers and sets ``run=<function(args) -> exit code>`` as a
default. Modules import heavy dependencies (Textual, asyncio servers) inside
``run`` so that ``poissonnier --help`` stays fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from poissonnier_tui.i18n import _

if TYPE_CHECKING:
    from poissonnier_tui.games import GameEntry

# argparse exposes no public name for the object add_subparsers() returns.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: Subcommand modules, in the order ``--help`` lists them.
MODULES = (
    "poissonnier_tui.commands.solo",
    "poissonnier_tui.commands.host",
    "poissonnier_tui.commands.serve",
    "poissonnier_tui.commands.join",
    "poissonnier_tui.commands.spectate",
    "poissonnier_tui.commands.tables",
    "poissonnier_tui.commands.simulate",
    "poissonnier_tui.commands.tournament",
    "poissonnier_tui.commands.replay",
    "poissonnier_tui.commands.history",
)


def bot_delay(text: str) -> float:
    """Parse ``--bot-delay SECONDS`` (0 to 30).

    Raises:
        argparse.ArgumentTypeError: out of range or not a number.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number of seconds: {text}").format(text=repr(text))
        ) from None
    if not 0 <= value <= 30:
        raise argparse.ArgumentTypeError(_("bot delay must be between 0 and 30 seconds"))
    return value


def bot_kinds(text: str) -> tuple[str, ...]:
    """Parse ``--level LIST``: bot levels separated by commas, e.g. ``hard,easy``.

    Only the form is checked here (the game is not known yet); the levels are
    checked against the chosen game's by :func:`check_levels`.

    Returns:
        The levels in order, lower-cased (at least one); a table hands them out
        to its bot seats in turn (:func:`poissonnier_tui.hosting.tables.kind_for`).

    Raises:
        argparse.ArgumentTypeError: empty, or an empty item (``hard,,easy``).
    """
    items = [k.strip().lower() for k in text.split(",")]
    if not any(items):
        raise argparse.ArgumentTypeError(_("name at least one bot level, e.g. medium"))
    if not all(items):
        raise argparse.ArgumentTypeError(
            _(
                "an empty bot level in {text}: separate levels with single commas, e.g. hard,easy"
            ).format(text=repr(text))
        )
    return tuple(items)


def check_levels(entry: GameEntry, kinds: Sequence[str]) -> str | None:
    """An error sentence if one of ``kinds`` is not a bot level of the game, else ``None``."""
    for kind in kinds:
        if kind not in entry.bot_kinds:
            return _("{game} has no bot level {level}; choose from {levels}").format(
                game=entry.title, level=repr(kind), levels=", ".join(entry.bot_kinds)
            )
    return None


def add_game_option(p: argparse.ArgumentParser, *, what: str | None = None) -> None:
    """``--game NAME``: a registered game (choices from :mod:`poissonnier_tui.games`).

    ``what`` says what the game is for, already translated (default "the game to play").
    """
    what = _("the game to play") if what is None else what
    from poissonnier_tui.games import DEFAULT_GAME, game_names

    names = game_names()
    p.add_argument(
        "--game", choices=names, default=DEFAULT_GAME, metavar="NAME",
        help=_("{what}: {names} (default {default})").format(
            what=what, names=", ".join(names), default=DEFAULT_GAME
        ),
    )  # fmt: skip


def option_pair(text: str) -> tuple[str, str]:
    """Parse one ``--option KEY=VALUE``.

    Raises:
        argparse.ArgumentTypeError: no ``=`` or an empty key.
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(
            _("give a table option as KEY=VALUE, not {text}").format(text=repr(text))
        )
    return key.strip(), value.strip()


def table_options(entry: GameEntry, pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The game's table options from ``--option KEY=VALUE`` pairs.

    Each key must be one of ``entry.options``; its value is read as the type
    of the option's default (``true``/``false``/``yes``/``no``/``1``/``0`` for
    a flag, a whole number for a number, else text). The game itself checks
    the values when the table deals (``new_match``, see
    :meth:`poissonnier_tui.hosting.tables.TableSettings.problems`).

    Raises:
        ValueError: an unknown key or a value of the wrong type (the message
            lists the game's options).
    """
    known = ", ".join(
        _("{option} (default {value})").format(option=k, value=repr(v))
        for k, v in entry.options.items()
    ) or _("none")
    out: dict[str, Any] = {}
    for key, text in pairs:
        if key not in entry.options:
            raise ValueError(
                _("{game} has no table option {option}; its options: {known}").format(
                    game=entry.title, option=repr(key), known=known
                )
            )
        default = entry.options[key]
        if isinstance(default, bool):
            flag = text.lower()
            if flag not in {"true", "false", "yes", "no", "1", "0", "on", "off"}:
                raise ValueError(
                    _("table option {option} is true or false, not {text}").format(
                        option=key, text=repr(text)
                    )
                )
            out[key] = flag in {"true", "yes", "1", "on"}
        elif isinstance(default, int):
            try:
                out[key] = int(text)
            except ValueError:
                raise ValueError(
                    _("table option {option} is a whole number, not {text}").format(
                        option=key, text=repr(text)
                    )
                ) from None
        else:
            out[key] = text
    return out
