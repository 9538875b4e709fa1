"""Subcommands of ``poissonnier``: one module each.

Each module defines ``register(sub)``, which adds its parser to the
``argparse`` sub-parsers and sets ``run=<function(args) -> exit code>`` as a
default. Modules import heavy dependencies (Textual, asyncio servers) inside
``run`` so that ``poissonnier --help`` stays fast.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

# argparse exposes no public name for the object add_subparsers() returns.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: Subcommand modules, in the order ``--help`` lists them.
MODULES = (
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
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 30:
        raise argparse.ArgumentTypeError("bot delay must be between 0 and 30 seconds")
    return value


def bot_kinds(text: str) -> tuple[str, ...]:
    """Parse ``--level LIST``: bot kinds separated by commas, e.g. ``hard,easy``.

    Returns:
        The kinds in order (at least one); a table hands them out to its bot
        seats in turn (see :func:`poissonnier_tui.games.poissonnier.bots.kind_for`).

    Raises:
        argparse.ArgumentTypeError: empty, or a kind that is not in
            :data:`~poissonnier_tui.games.poissonnier.bots.BOT_KINDS` (the message lists them).
    """
    kinds = tuple(k.strip().lower() for k in text.split(",") if k.strip())
    if not kinds:
        raise argparse.ArgumentTypeError("name at least one bot level, e.g. medium")
    for kind in kinds:
        if (error := check_bot_kind(kind)) is not None:
            raise argparse.ArgumentTypeError(error)
    return kinds


def check_bot_kind(kind: str) -> str | None:
    """An error sentence if ``kind`` is not a known bot kind, else ``None``."""
    from poissonnier_tui.games.poissonnier.bots import BOT_KINDS

    if kind in BOT_KINDS:
        return None
    return f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}"
