"""``poissonnier spectate``: watch a LAN table (public view only), before or during its game."""

from __future__ import annotations

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.commands.join import add_join_options, run
from poissonnier_tui.i18n import _


def register(sub: Subparsers) -> None:
    """Add the ``spectate`` parser."""
    p = sub.add_parser(
        "spectate",
        help=_("watch a table on the LAN"),
        description=_(
            "Watch a table as a spectator: you see what every player may see "
            "(no hands, no crates' contents until revealed). With no address, pick a table "
            "from the LAN lobby."
        ),
    )
    add_join_options(p, spectate=True)
    p.set_defaults(run=run, role="spectator")
