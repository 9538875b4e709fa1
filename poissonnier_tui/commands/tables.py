"""``poissonnier tables``: list the tables zeroconf finds on the LAN (``--watch``: follow them).

``--watch`` prints a line per change until ``--timeout``: a table listed, changed, not
answering (its process died: the probes of :class:`net.live.LiveBrowser` fail), back,
or gone. A short ``--timeout`` still listens :data:`MIN_LISTEN` seconds: zeroconf
needs about a second and a half to hear a table.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.commands._table_options import seconds
from poissonnier_tui.i18n import N_, _, decimal

MIN_LISTEN = 2.0
"""Seconds ``tables`` listens at least: zeroconf needs about 1.5 s to hear a table."""
WATCH_TIMEOUT = 300.0
"""Seconds ``tables --watch`` runs without ``--timeout``."""


def register(sub: Subparsers) -> None:
    """Add the ``tables`` parser."""
    p = sub.add_parser(
        "tables",
        help=_("list the tables on the LAN"),
        description=_(
            "Listen for tables on the LAN (zeroconf) and list them: name, address, "
            "port, seats taken/total, state, version, and whether this app can join."
        ),
    )
    p.add_argument(
        "--timeout", type=seconds, default=None, metavar="S",
        help=_("seconds to listen (default 3, at least {least}; "
               "with --watch: default {watch})").format(
                   least=decimal(MIN_LISTEN), watch=decimal(WATCH_TIMEOUT)
               ),
    )  # fmt: skip
    p.add_argument(
        "--watch", action="store_true",
        help=_("keep listening and print a line per change: a table listed, changed, "
        "not answering, back or gone (each table is probed)"),
    )  # fmt: skip
    p.add_argument(
        "--interface", metavar="IP", default=None,
        help=_("IPv4 address of the interface to listen on (default: all)"),
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print one JSON array"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List the tables; exit 0 (even with none found), 1 if no interface can be used."""
    import asyncio
    import json

    from net.discovery import sort_key

    if args.watch:
        try:
            asyncio.run(watch(args.timeout or WATCH_TIMEOUT, args.interface, args.json))
        except OSError as exc:
            print(
                "poissonnier: " + _("cannot listen on the network: {error}").format(error=exc),
                file=sys.stderr,
            )
            return 1
        except KeyboardInterrupt:
            pass
        return 0
    asked = 3.0 if args.timeout is None else args.timeout
    listen = max(asked, MIN_LISTEN)
    if listen > asked:
        print(
            _(
                "(Listening {listen} s rather than {asked} s: zeroconf needs about 1.5 s "
                "to hear a table.)"
            ).format(listen=decimal(listen), asked=decimal(asked)),
            file=sys.stderr,
        )
    try:
        ads = sort_key(asyncio.run(discover_all(listen, args.interface)))
    except OSError as exc:
        print(
            "poissonnier: " + _("cannot listen on the network: {error}").format(error=exc),
            file=sys.stderr,
        )
        return 1
    rows = [describe(ad) for ad in ads]
    if args.json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print(
            _(
                "No tables found in {listen} s. Is the host on this network? "
                "Try --interface IP, or join by address: poissonnier join HOST:PORT"
            ).format(listen=decimal(listen))
        )
        return 0
    print(format_rows(rows))
    return 0


WATCH_WORDS = {
    "live": N_("listed"), "not_answering": N_("not answering"), "back": N_("back"),
    "gone": N_("gone"), "changed": N_("changed"),
}  # fmt: skip
"""The word ``--watch`` prints for each :mod:`net.live` state (``changed`` for a new advert),
translated when printed (JSON lines keep the English word)."""


async def watch(timeout: float, interface: str | None, as_json: bool) -> None:
    """Print a line per table change for ``timeout`` seconds (``--watch``).

    Text lines: ``HH:MM:SS  EVENT  NAME  ADDRESS  SEATS  STATE``; with ``as_json``
    one JSON map per line: :func:`describe`'s fields plus ``event`` and ``time``
    (seconds since the watch began).

    Raises:
        OSError: no usable interface.
    """
    import asyncio
    import json
    import time

    from net.live import LiveBrowser, LiveTable
    from poissonnier_tui.games import game_names
    from poissonnier_tui.hosting.lan import format_address

    began = time.monotonic()
    last: dict[str, str] = {}

    def changed(name: str, table: LiveTable) -> None:
        state: str = table.state
        if last.get(name) == table.state and table.state != "gone":
            state = "changed"
        event = WATCH_WORDS[state]  # JSON lines keep the English word
        last[name] = table.state
        row = describe(table.ad)
        if as_json:
            print(json.dumps({"event": event, "time": round(time.monotonic() - began, 3), **row}),
                  flush=True)  # fmt: skip
            return
        print(
            "  ".join((
                time.strftime("%H:%M:%S"), f"{_(event):<13}", row["name"],
                format_address(row["address"], row["port"]), f"{row['taken']}/{row['seats']}",
                row["state"],
            )),
            flush=True,
        )  # fmt: skip

    browsers = [LiveBrowser(game, changed, interface) for game in game_names()]
    try:
        for live in browsers:
            await live.start()
        await asyncio.sleep(timeout)
    finally:
        for live in browsers:
            await live.close()


async def discover_all(timeout: float, interface: str | None) -> list[Any]:
    """The tables of every registered game found on the LAN in ``timeout`` seconds
    (each game is its own zeroconf service type, ``_<game>._tcp.local.``)."""
    import asyncio

    from net.discovery import discover
    from poissonnier_tui.games import game_names

    found = await asyncio.gather(*(discover(g, timeout, interface) for g in game_names()))
    return [ad for ads in found for ad in ads]


def describe(ad: Any) -> dict[str, Any]:
    """One table as a JSON-able map: the advert's fields plus ``joinable`` and ``why_not``.

    Joinable: same version, in its lobby, a seat open. Otherwise ``why_not`` says why
    (another version; full; already playing or over: watch it instead).
    """
    from poissonnier_tui.hosting.lan import format_address, incompatibility

    why = incompatibility(ad)
    if why is None and ad.state == "playing":
        why = _(
            "already playing (its players can rejoin; to watch: poissonnier spectate {address})"
        ).format(address=format_address(ad.address, ad.port))
    elif why is None and ad.state == "over":
        why = _("its game is over")
    elif why is None and ad.state != "lobby":
        why = _("it is {state}").format(state=repr(ad.state))
    elif why is None and ad.taken >= ad.seats:
        why = _("full ({taken}/{seats})").format(taken=ad.taken, seats=ad.seats)
    return {**ad.to_json(), "joinable": why is None, "why_not": why}


def format_rows(rows: list[dict[str, Any]]) -> str:
    """A plain text table of :func:`describe` rows."""
    from poissonnier_tui.hosting.lan import state_word

    head = (
        _("NAME"), _("GAME"), _("ADDRESS"), _("SEATS"), _("STATE"), _("VERSION"), _("CAN JOIN"),
    )  # fmt: skip
    lines = [head]
    for r in rows:
        if r["joinable"]:
            can = _("yes (code)") if r["code"] else _("yes")
        else:
            can = _("no: {why}").format(why=r["why_not"])
        lines.append(
            (
                r["name"],
                r["game"],
                f"{r['address']}:{r['port']}",
                f"{r['taken']}/{r['seats']}",
                state_word(r["state"]),
                r["app"],
                can,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(head) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(line[:-1], widths, strict=True))
        + "  "
        + line[-1]
        for line in lines
    )
