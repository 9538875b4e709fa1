"""Declines with reasons and prices go through a real table's log and replay alike (R3, §4).

A solo table (a person, two medium bots seated as tables seat them). On her
turn Ana asks Bot 2 for one fish at 0 coins; each counter she declines saying
it is too dear (naming one coin less) and she asks again, until the bot
declines, saying why. The table log holds both sides' reasons; replayed from
the seed, it rebuilds the very same public log.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from net.messages import ServerMessage, View
from net.tablelog import read_log
from poissonnier_tui.client.joining import connect_table
from poissonnier_tui.hosting.persistence import games_dir, replay_log
from poissonnier_tui.hosting.tables import open_table, solo_settings


async def _next_view(messages: AsyncIterator[ServerMessage], test: Any) -> dict[str, Any]:
    async with asyncio.timeout(20):
        async for msg in messages:
            if isinstance(msg, View) and test(msg.view):
                return msg.view
    raise AssertionError("the table closed")


async def test_reasons_on_both_sides_are_logged_and_replayed() -> None:
    settings = solo_settings(
        bots=2, bot_kinds=("medium",), seed=3, bot_delay=0, options={"first_player": 0}
    )
    table = await open_table(settings)
    try:
        dialled, _entry = await connect_table(("127.0.0.1",), table.port, name="Ana")
        ana = dialled.client
        messages = ana.messages()
        await ana.send_action({"type": "ready"})
        view = await _next_view(messages, lambda v: v["phase"] == "serve")
        assert view["active"] == 0
        crate = next(k for k, c in enumerate(view["seats"][1]["crates"]) if c)
        bot_declined = None
        for _ in range(6):
            await ana.send_action(
                {"type": "propose", "seller": 1, "fish": [[crate, 1]], "coins": 0}
            )
            view = await _next_view(
                messages,
                lambda v: (
                    v["log"][-1]["t"] == "decline"
                    or any(p["proposer"] == 1 for p in v["proposals"])
                ),
            )
            if view["log"][-1]["t"] == "decline":
                bot_declined = view["log"][-1]
                break
            counter = next(p for p in view["proposals"] if p["proposer"] == 1)
            await ana.send_action(
                {
                    "type": "decline",
                    "proposal": counter["id"],
                    "reason": "too_dear",
                    "price": counter["coins"] - 1,
                }
            )
            await _next_view(messages, lambda v: not v["proposals"])
        assert bot_declined is not None and bot_declined["seat"] == 1
        assert bot_declined["reason"] in ("too_cheap", "not_selling", "no_thanks")
        live = table.server._table.match
        assert live is not None
        await ana.close()
    finally:
        await table.close()
    (path,) = sorted(games_dir().glob("*.plog"))
    log = read_log(path)
    declines = [a.action for a in log.actions if a.action["type"] == "decline"]
    said = {"reason": bot_declined["reason"], "price": bot_declined.get("price")}
    assert declines[-1] == {
        "type": "decline",
        "proposal": bot_declined["proposal"],
        **{k: v for k, v in said.items() if v is not None},
    }
    assert any(d.get("reason") == "too_dear" for d in declines[:-1])  # Ana on its counter
    replayed = replay_log(log).match
    assert replayed.view(None)["log"] == live.view(None)["log"]
