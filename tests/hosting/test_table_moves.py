"""The log says what the *table* did for an away seat, live and after a resume or replay.

A default played because its player is away (RULES.md R6, R20) is marked in the
match's public log (``"by": "table"``, ``"why"``), recorded in the table log
(``by: "table"``), and marked again when the log is replayed or resumed, so every
screen writes "The table declared Ben ready (away, R6)", never "Ben declared ready".
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from test_persistence import Watched, match_of, no

from net.client import TableClient
from net.messages import View
from net.server import TableServer
from net.tablelog import read_log
from poissonnier_tui import __version__
from poissonnier_tui.games import game_entry
from poissonnier_tui.games.poissonnier.ui.describe import event_text
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.hosting.persistence import plan_resume, record_table, replay_log
from poissonnier_tui.hosting.tables import BotKinds, resume_server
from poissonnier_tui.shell.seats import SeatLabel

SEATS = (SeatLabel("Ben"), SeatLabel("Bot 1", "bot"), SeatLabel("Bot 2", "bot"))


def _by_table(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in view["log"] if e.get("by") == "table"]


async def test_defaults_for_an_away_seat_are_the_tables_everywhere(tmp_path: Path) -> None:
    game = Watched()
    kinds = BotKinds(game_entry("poissonnier"))
    server = TableServer(
        game, name="Away", seats=3, seed=5, app_version=__version__, auto_start=True,
        bots={1: kinds.make("random", 1), 2: kinds.make("random", 2)}, bot_delay=0,
        absent_grace=0.05,
    )  # fmt: skip
    recorder = record_table(server, directory=tmp_path, table={"code": None}, bot_kind=kinds)
    await server.open()
    ben = await TableClient.connect(
        "127.0.0.1", server.port, name="Ben", app_version=__version__, game="poissonnier"
    )
    spectator = await TableClient.connect(
        "127.0.0.1", server.port, name="Sam", app_version=__version__, game="poissonnier",
        role="spectator",
    )  # fmt: skip
    await ben.close()  # Ben's client dies: the table plays for him after the grace
    seen: dict[str, Any] | None = None
    async with asyncio.timeout(20):
        async for msg in spectator.messages():
            if isinstance(msg, View) and _by_table(msg.view):
                seen = msg.view
                break
    await spectator.close()
    await server.close("crash")
    assert seen is not None
    marked = _by_table(seen)[0]
    assert marked["seat"] == 0 and marked["why"] == "away"
    assert marked["t"] in {"ready", "decline", "end_turn", "bought_to_hand"}
    snap = TableSnapshot(seen, SEATS)
    line = event_text(snap, marked) or ""
    assert line.startswith("The table ") and "Ben" in line and "(away" in line, line
    assert not line.startswith("[b]Ben")  # the table did it, not Ben

    # The table log records it; a replay and a resume mark the same events.
    assert recorder.path is not None and game.match is not None
    live = game.match.state.log
    log = read_log(recorder.path)
    assert any(a.why == "away" and a.seat == 0 for a in log.actions)
    assert all(a.why is None for a in log.actions if a.seat != 0)  # bots move themselves
    assert replay_log(log).match.state.log == live  # type: ignore[attr-defined]
    again, _ = resume_server(plan_resume(recorder.path, confirm=no), port=0, bot_delay=0)
    assert match_of(again).state.log == live
