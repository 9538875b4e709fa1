"""Measure time to deal (net/drafts.py): bot turns with and without a person drafting.

A real table on loopback: seat 0 is a "person" (a TableClient whose own
moves a medium bot chooses, like the app's autoplay), seat 1 a medium bot
that waits ``--bot-delay`` seconds before each move (the app's solo default
is 0.8 s). At the start of each of the bot's serve turns in which the person
has fish in a crate, the person composes an offer for ``--takes`` seconds
(1 fish for 1 coin, RULES.md §4) and sends it. Without drafts the person
says nothing meanwhile; with drafts it sends ``draft on`` first, so the bot
waits. Unlike a person in the app (whose deal dialog is open), the scripted
person keeps answering the bot while composing, and any move of its own ends
its draft (net/drafts.py): the "with drafts" figures understate the effect.
Printed: how long the bot's serve turns lasted (median, max) and how
many offers reached the bot before its turn ended (the table accepted the
proposal), for both.

    .venv/bin/python scripts/time_to_deal.py --turns 6 --takes 5
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from net.client import TableClient
from net.messages import Ack, ErrorReply, View
from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view


async def run(draft: bool, turns: int, takes: float, bot_delay: float, seed: int) -> dict[str, Any]:
    """Play until ``turns`` offers were tried; the bot's turn lengths and offers that landed."""
    server = TableServer(
        PoissonnierGame(), name="measure", seats=2, seed=seed, app_version=__version__,
        bots={1: make_bot("medium", seed + 1)}, bot_delay=bot_delay, auto_start=True,
    )  # fmt: skip
    me = make_bot("medium", seed)
    lengths: list[float] = []
    landed = tried = 0
    async with server:
        client = await TableClient.connect(
            "127.0.0.1", server.port, name="Ana", app_version=__version__, game="poissonnier"
        )
        began: float | None = None
        bot_turn: int | None = None
        offer_at: float | None = None
        sent: set[int] = set()  # offers sent, not yet acked or refused
        view: dict[str, Any] = {}
        pending: asyncio.Task[int | None] | None = None
        refusals: list[str] = []

        async def compose(at: float) -> int | None:
            """The person composes until ``at``, then offers 1 fish for 1 coin (§4)."""
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            crates = view["seats"][0]["crates"]
            k = next((i for i, c in enumerate(crates) if c), None)
            if k is None:
                return None
            wire = {"type": "propose", "seller": 0, "fish": [[k, 1]], "coins": 1}
            seq = await client.send_action(wire)
            sent.add(seq)
            return seq
        try:
            while tried < turns or pending is not None or sent:
                try:
                    async with asyncio.timeout(0.2):
                        msg = await client.receive()
                except TimeoutError:
                    if pending is not None and pending.done():
                        pending = None
                    continue
                now = time.monotonic()
                if isinstance(msg, Ack) and msg.seq in sent:
                    landed += 1
                    sent.discard(msg.seq)
                elif isinstance(msg, ErrorReply) and msg.seq in sent:
                    refusals.append(msg.message)
                    sent.discard(msg.seq)
                if not isinstance(msg, View):
                    continue
                view = msg.view
                if view["phase"] == "over":
                    break
                serving_bot = view["phase"] == "serve" and view["active"] == 1
                if bot_turn is not None and (not serving_bot or view["turn"] != bot_turn):
                    if began is not None:
                        lengths.append(now - began)
                    began = bot_turn = offer_at = None
                if serving_bot and bot_turn is None and tried < turns:
                    bot_turn, began = view["turn"], now
                    crates = view["seats"][0]["crates"]
                    if any(crates):
                        tried += 1
                        offer_at = now + takes
                        if draft:
                            await client.draft(True)
                if view["waiting_on"] and 0 in view["waiting_on"]:
                    action = me.act(view, legal_from_view(view))
                    if action is not None:
                        await client.send_action(action)
                if offer_at is not None and pending is None:
                    pending = asyncio.create_task(compose(offer_at))
                    offer_at = None
                if pending is not None and pending.done():
                    pending = None
        finally:
            await client.close()
    return {"lengths": lengths, "tried": tried, "landed": landed, "refusals": refusals}


def main() -> None:
    """Parse the options, measure both ways, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=6, help="offers to try each way")
    parser.add_argument("--takes", type=float, default=5.0, help="seconds a person composes")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds before bot moves")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    for draft in (False, True):
        got = asyncio.run(run(draft, args.turns, args.takes, args.bot_delay, args.seed))
        lengths = got["lengths"] or [0.0]
        print(
            f"{'with' if draft else 'without'} drafts: bot serve turns "
            f"median {statistics.median(lengths):.1f} s, max {max(lengths):.1f} s "
            f"({len(got['lengths'])} turns); offers that reached the bot in its turn: "
            f"{got['landed']}/{got['tried']}"
        )
        for why in got["refusals"]:
            print("   refused:", why)


if __name__ == "__main__":
    main()
