"""``poissonnier tables``: list the tables zeroconf finds on the LAN."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from poissonnier_tui.commands import Subparsers
from poissonnier_tui.commands._table_options import seconds


def register(sub: Subparsers) -> None:
    """Add the ``tables`` parser."""
    p = sub.add_parser(
        "tables",
        help="list the tables on the LAN",
        description="Listen for tables on the LAN (zeroconf) and list them: name, address, "
        "port, seats taken/total, state, version, and whether this app can join.",
    )
    p.add_argument(
        "--timeout", type=seconds, default=3.0, metavar="S",
        help="seconds to listen (default 3)",
    )  # fmt: skip
    p.add_argument(
        "--interface", metavar="IP", default=None,
        help="IPv4 address of the interface to listen on (default: all)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON array")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List the tables; exit 0 (even with none found), 1 if no interface can be used."""
    import asyncio
    import json

    from net.discovery import sort_key

    try:
        ads = sort_key(asyncio.run(discover_all(args.timeout, args.interface)))
    except OSError as exc:
        print(f"poissonnier: cannot listen on the network: {exc}", file=sys.stderr)
        return 1
    rows = [describe(ad) for ad in ads]
    if args.json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print(
            f"No tables found in {args.timeout:g} s. Is the host on this network? "
            "Try --interface IP, or join by address: poissonnier join HOST:PORT"
        )
        return 0
    print(format_rows(rows))
    return 0


async def discover_all(timeout: float, interface: str | None) -> list[Any]:
    """The tables of every registered game found on the LAN in ``timeout`` seconds
    (each game is its own zeroconf service type, ``_<game>._tcp.local.``)."""
    import asyncio

    from net.discovery import discover
    from poissonnier_tui.games import game_names

    found = await asyncio.gather(*(discover(g, timeout, interface) for g in game_names()))
    return [ad for ads in found for ad in ads]


def describe(ad: Any) -> dict[str, Any]:
    """One table as a JSON-able map: the advert's fields plus ``joinable`` and ``why_not``."""
    from poissonnier_tui.hosting.lan import incompatibility

    why = incompatibility(ad)
    return {**ad.to_json(), "joinable": why is None, "why_not": why}


def format_rows(rows: list[dict[str, Any]]) -> str:
    """A plain text table of :func:`describe` rows."""
    head = ("NAME", "GAME", "ADDRESS", "SEATS", "STATE", "VERSION", "CAN JOIN")
    lines = [head]
    for r in rows:
        can = "yes" + (" (code)" if r["code"] else "") if r["joinable"] else f"no: {r['why_not']}"
        lines.append(
            (
                r["name"],
                r["game"],
                f"{r['address']}:{r['port']}",
                f"{r['taken']}/{r['seats']}",
                r["state"],
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
