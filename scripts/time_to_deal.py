"""Measure time to deal (net/drafts.py): bot turns with and without a person drafting.

A real seeded table on loopback, built like a solo one: seat 0 is a scripted
"person" (a TableClient whose own moves a medium bot chooses, like the app's
autoplay), seat 1 a medium bot that waits ``--bot-delay`` seconds before each
move (the app's solo default is 0.8 s). On every other serve turn of the bot
in which the person has fish in a crate, the person opens the deal dialog
(``draft on``), composes for ``--takes`` seconds — answering nothing
meanwhile, as a person whose dialog is open — and offers the bot 1 fish for
1 coin (RULES.md §4); on the turns between, the person lets the bot play.

Both ways are measured on the same seed: time to deal off (``--draft-seconds
0``, the table before time to deal: the ``draft on`` is refused and the bot
plays on) and on (the default 20 s bound). Printed for each: how long the
bot's serve turns lasted with the person drafting and with nobody drafting
(the anchor: the same bot, the same delay, in the same run), how many offers
reached the bot before its turn ended (the table accepted the proposal), and
how many the bot answered (deal, counter or decline) within its turn.

    .venv/bin/python scripts/time_to_deal.py --turns 4 --takes 5 --seeds 3 4 5

Bounded: ``--turns`` drafted offers each way and seed, and at most ``--cap``
seconds each way and seed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from net.client import TableClient
from net.drafts import DraftRules
from net.messages import Ack, ErrorReply, View
from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view

BOT = 1
ME = 0


@dataclass
class Turn:
    """One serve turn of the bot as the person saw it."""

    turn: int
    began: float
    drafted: bool = False
    ended: float | None = None
    offer: int | None = None  # seq of the person's offer
    landed: bool = False  # the table accepted the offer within the turn
    answered: bool = False  # the bot dealt, countered or declined it within the turn


@dataclass
class Run:
    """What one way of playing measured."""

    turns: list[Turn] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    def lengths(self, drafted: bool) -> list[float]:
        return [
            t.ended - t.began for t in self.turns if t.ended is not None and t.drafted == drafted
        ]


def answered(view: dict[str, Any]) -> bool:
    """The bot answered an offer of the person's this turn (deal, counter, decline)."""
    log = view["log"]
    start = max((i for i, e in enumerate(log) if e["t"] == "turn"), default=-1) + 1
    mine = set()
    for event in log[start:]:
        if event["t"] == "propose" and event["seat"] == ME and event.get("buyer") == BOT:
            mine.add(event["proposal"]["id"])
    for event in log[start:]:
        pid = event.get("proposal")
        pid = pid.get("id") if isinstance(pid, dict) else pid
        if pid in mine and event["t"] in ("deal", "decline"):
            return True
        if event["t"] == "propose" and event.get("counter") in mine:
            return True
    return False


async def run(seconds: float, turns: int, takes: float, bot_delay: float, seed: int,
              cap: float) -> Run:  # fmt: skip
    """Play until ``turns`` drafted offers were tried (or ``cap`` seconds passed)."""
    server = TableServer(
        PoissonnierGame(), name="measure", seats=2, seed=seed, app_version=__version__,
        bots={BOT: make_bot("medium", seed + 1)}, bot_delay=bot_delay, auto_start=True,
        absent_grace=None, drafts=DraftRules(seconds=seconds),
    )  # fmt: skip
    me = make_bot("medium", seed)
    out = Run()
    stop = time.monotonic() + cap
    async with server:
        client = await TableClient.connect(
            "127.0.0.1", server.port, name="Ana", app_version=__version__, game="poissonnier"
        )
        view: dict[str, Any] = {}
        current: Turn | None = None
        composing: asyncio.Task[None] | None = None
        eligible = 0  # bot serve turns in which the person had fish to offer

        async def compose(turn: Turn) -> None:
            """The person composes for ``takes`` seconds, then offers 1 fish for 1 coin."""
            await asyncio.sleep(takes)
            crates = view["seats"][ME]["crates"]
            k = next((i for i, c in enumerate(crates) if c), None)
            if k is None or current is not turn:
                await client.draft(False)
                return
            wire = {"type": "propose", "seller": ME, "fish": [[k, 1]], "coins": 1}
            turn.offer = await client.send_action(wire)

        try:
            while time.monotonic() < stop:
                if sum(1 for t in out.turns if t.drafted) >= turns and composing is None:
                    break
                try:
                    async with asyncio.timeout(0.2):
                        msg = await client.receive()
                except TimeoutError:
                    continue
                now = time.monotonic()
                if composing is not None and composing.done():
                    composing = None
                if isinstance(msg, Ack) and current is not None and msg.seq == current.offer:
                    current.landed = True
                elif isinstance(msg, ErrorReply):
                    out.refusals.append(f"{msg.code}: {msg.message}")
                if not isinstance(msg, View):
                    continue
                view = msg.view
                if view["phase"] == "over":
                    break
                serving_bot = view["phase"] == "serve" and view["active"] == BOT
                if current is not None:
                    current.answered = current.answered or answered(view)
                    if not serving_bot or view["turn"] != current.turn:
                        current.ended = now
                        current = None
                if serving_bot and current is None:
                    current = Turn(view["turn"], now)
                    out.turns.append(current)
                    if any(view["seats"][ME]["crates"]) and composing is None:
                        eligible += 1
                        if eligible % 2 == 1:  # every other one: the person drafts
                            current.drafted = True
                            await client.draft(True)
                            composing = asyncio.create_task(compose(current))
                if composing is None and view["waiting_on"] and ME in view["waiting_on"]:
                    action = me.act(view, legal_from_view(view))
                    if action is not None:
                        await client.send_action(action)
        finally:
            if composing is not None:
                composing.cancel()
            await client.close()
    return out


def figures(lengths: list[float]) -> str:
    if not lengths:
        return "none"
    return (
        f"median {statistics.median(lengths):.1f} s, max {max(lengths):.1f} s "
        f"({len(lengths)} turns)"
    )


def main() -> None:
    """Parse the options, measure both ways, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=4, help="drafted offers to try each way")
    parser.add_argument("--takes", type=float, default=5.0, help="seconds a person composes")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds before bot moves")
    parser.add_argument("--seeds", type=int, nargs="+", default=[3], help="deals to play")
    parser.add_argument("--cap", type=float, default=150.0, help="seconds at most each way")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    seeds = " ".join(str(seed) for seed in args.seeds)
    print(
        f"time to deal, seeds {seeds}: a medium bot (--bot-delay {args.bot_delay:g} s) "
        f"against a person who composes each offer for {args.takes:g} s; "
        f"load average {load:.1f} on {os.cpu_count()} cores"
    )
    for seconds, label in ((0.0, "off (--draft-seconds 0, as before)"), (20.0, "on (20 s)")):
        got = Run()
        for seed in args.seeds:
            one = asyncio.run(run(seconds, args.turns, args.takes, args.bot_delay, seed, args.cap))
            got.turns += one.turns
            got.refusals += one.refusals
        drafted = [t for t in got.turns if t.drafted and t.ended is not None]
        print(f"time to deal {label}:")
        print(f"  bot serve turns, the person drafting: {figures(got.lengths(True))}")
        print(f"  bot serve turns, nobody drafting:     {figures(got.lengths(False))}")
        print(
            f"  offers that reached the bot in its turn: "
            f"{sum(t.landed for t in drafted)}/{len(drafted)}; "
            f"answered by the bot in its turn: {sum(t.answered for t in drafted)}/{len(drafted)}"
        )
        for why in sorted(set(got.refusals)):
            print(f"  refused ({got.refusals.count(why)}×): {why}")


if __name__ == "__main__":
    main()
