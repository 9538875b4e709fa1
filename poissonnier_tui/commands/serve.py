"""``poissonnier serve``: a headless LAN table for a spare machine, with plain log lines."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.commands._table_options import add_table_options, settings_from
from poissonnier_tui.i18n import _, ngettext

if TYPE_CHECKING:
    from poissonnier_tui.hosting.persistence import ResumePlan
    from poissonnier_tui.hosting.tables import HostedTable, TableSettings

LINGER = 1.0
"""Seconds the table stays up after the game ends, so every client sees the result."""


def register(sub: Subparsers) -> None:
    """Add the ``serve`` parser."""
    p = sub.add_parser(
        "serve",
        help=_("run a LAN table with no seat of its own (a spare machine)"),
        description=_(
            "Run a table on the LAN without a UI: players join with "
            "'poissonnier join'. Prints a line for every join, leave, start and end; "
            "exits when the game is over (or on Ctrl-C)."
        ),
    )
    add_table_options(p)
    p.add_argument(
        "--start-when-full",
        action="store_true",
        help=_("start as soon as every seat is taken (otherwise seat 1's player starts it)"),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until the game ends or a signal.

    Returns 0, or 1 if the table could not open, 2 on bad options.
    """
    import asyncio

    try:
        settings = settings_from(args, host_seat=False, start_when_full=args.start_when_full)
    except ValueError as exc:
        print(f"poissonnier: {exc}", file=sys.stderr)
        return 2
    plan = None
    if args.resume is not None:  # carry on a saved game
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
    try:
        return asyncio.run(_serve(settings, plan))
    except KeyboardInterrupt:
        return 0


async def _serve(settings: TableSettings, plan: ResumePlan | None = None) -> int:
    """Open the table, log its changes, wait for the end (or SIGINT/SIGTERM), close it."""
    import asyncio
    import json
    import signal

    from poissonnier_tui.hosting.lan import SeatLog
    from poissonnier_tui.hosting.persistence import ResumeError, games_dir
    from poissonnier_tui.hosting.tables import open_table

    def emit(line: str) -> None:
        print(line, flush=True)

    # Signals first: Ctrl-C at any moment, even while the table opens, is a clean stop.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    table: HostedTable | None = None
    seat_log = SeatLog(lambda: table.server.seats() if table else (), emit)
    if plan is not None:
        seat_log.say(
            ngettext(
                "Resuming {path} from its {n} logged move.",
                "Resuming {path} from its {n} logged moves.",
                plan.actions,
            ).format(path=plan.path, n=plan.actions)
        )
    opening = asyncio.ensure_future(
        open_table(settings, on_change=seat_log.changed, resume=plan, admit=False)
    )
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait({opening, stopped}, return_when=asyncio.FIRST_COMPLETED)
    if not opening.done():  # stopped while opening: open_table closes what it opened
        opening.cancel()
        await asyncio.gather(opening, return_exceptions=True)
        stopped.cancel()
        seat_log.say(_("Stopped before the table was ready."))
        return 0
    try:
        table = opening.result()
    except (OSError, ResumeError) as exc:
        stopped.cancel()
        print("poissonnier: " + _("cannot open the table: {why}").format(why=exc), file=sys.stderr)
        return 1
    seat_log.changed(table.server.summary())  # the bots seated from the start
    opened = (
        _("Table {name} ({game}) on {address}, code {code}: {seats}, {bots}, seed {seed}.")
        if settings.code
        else _("Table {name} ({game}) on {address}: {seats}, {bots}, seed {seed}.")
    )
    seat_log.say(
        opened.format(
            name=repr(settings.name), game=settings.entry.title, address=table.address,
            code=settings.code,
            seats=ngettext("{n} seat", "{n} seats", settings.seats).format(n=settings.seats),
            bots=ngettext("{n} bot", "{n} bots", settings.bots).format(n=settings.bots),
            seed=table.seed,
        )
        + " "
        + _("Join with: poissonnier join {address}").format(address=table.address)
    )  # fmt: skip
    if plan is not None:
        moves = table.server.rev
        seat_log.say(
            ngettext(
                "Resumed: {n} move so far. Players take their seats back with: "
                "poissonnier join {address}",
                "Resumed: {n} moves so far. Players take their seats back with: "
                "poissonnier join {address}",
                moves,
            ).format(n=moves, address=table.address)
        )
    else:
        seat_log.say(
            _("The game is saved in {folder} as it goes ('poissonnier history').").format(
                folder=games_dir()
            )
        )
    if table.advertiser is not None:
        seat_log.say(_("Advertised on the LAN (zeroconf); 'poissonnier tables' lists it."))
    else:
        seat_log.say(
            _("Not advertised ({why}); join by address.").format(why=table.advert_error)
        )
    table.server.admit()  # only now that the table said it is ready
    over = asyncio.ensure_future(table.server.wait_over())
    try:
        await asyncio.wait({over, stopped}, return_when=asyncio.FIRST_COMPLETED)
        result = table.server.result()
        if result is not None:
            names = [s.name for s in table.server.seats()]
            winners = [names[w] for w in result.get("winners", [])]
            seat_log.say(
                ngettext("Winner: {names}.", "Winners: {names}.", len(winners)).format(
                    names=_(" and ").join(winners)
                )
            )
            seat_log.say(_("Result: {json}").format(json=json.dumps(result, sort_keys=True)))
            if not stop.is_set():
                await asyncio.wait({stopped}, timeout=LINGER)
        else:
            seat_log.say(_("Stopping: the table closes."))
    finally:
        over.cancel()
        stopped.cancel()
        await table.close("closing")
        seat_log.say(_("Table closed."))
    return 0
