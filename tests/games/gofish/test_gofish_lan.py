"""Go Fish over TCP through the same table building as every game (hosting/tables.py).

A 4-seat table with two server bots; two headless players join over loopback
(``join --headless``) and a spectator watches. The spectator never sees a hand;
the game ends with the table's result; its log is listed by ``history``,
replays from its seed, and the replay screen steps through it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gofish_stacking import named_cards
from textual.app import App
from textual.widgets import Static

from net.messages import View
from poissonnier_tui.client.joining import connect_table, join_headless
from poissonnier_tui.games.gofish.ui import GAME_UI
from poissonnier_tui.games.gofish.ui.screens import ReplayScreen
from poissonnier_tui.hosting.persistence import games_dir, list_games
from poissonnier_tui.hosting.replay import Replay
from poissonnier_tui.hosting.tables import TableSettings, open_table


async def watch(port: int, views: list[dict[str, Any]]) -> None:
    """A spectator: keep every view until the result comes."""
    dialled, entry = await connect_table(("127.0.0.1",), port, name="Zoe", role="spectator")
    assert entry.name == "gofish"
    try:
        async for msg in dialled.client.messages():
            if isinstance(msg, View):
                views.append(dict(msg.view))
                if msg.view["result"] is not None:
                    return
    finally:
        await dialled.client.close()


async def test_two_headless_players_a_spectator_then_history_and_replay() -> None:
    settings = TableSettings(
        name="Pond", game="gofish", seats=4, bots=2, bot_kinds=("hard", "easy"), port=0,
        interface="127.0.0.1", advertise=False, start_when_full=True, bot_delay=0, seed=21,
        options={"variant": "card"},
    )  # fmt: skip
    table = await open_table(settings)
    seen: list[dict[str, Any]] = []
    outs: list[list[str]] = [[], []]
    errs: list[str] = []
    try:
        spectator = asyncio.create_task(watch(table.port, seen))
        codes = await asyncio.wait_for(
            asyncio.gather(
                *(
                    join_headless(
                        f"127.0.0.1:{table.port}",
                        name=name,
                        bot=level,
                        seed=i,
                        out=outs[i].append,
                        err=errs.append,
                    )
                    for i, (name, level) in enumerate([("Ana", "medium"), ("Ben", "easy")])
                )
            ),
            timeout=60,
        )
        await asyncio.wait_for(spectator, timeout=30)
        result = table.server.result()
    finally:
        await table.close()
    assert codes == [0, 0] and errs == []
    assert result is not None
    assert json.loads(outs[0][-1].removeprefix("Result: ")) == result
    # The spectator saw the whole game and no hand: only cards shown on a draw or asked
    # for (§6, §8).
    assert seen[-1]["result"] == result and len(seen) > 5
    assert all(v["seat"] is None and v["me"] is None for v in seen)
    shown = {e["shown"] for e in seen[-1]["log"] if e["t"] == "draw" and e["shown"]}
    shown |= {e["rank"] + e["suit"] for e in seen[-1]["log"] if e["t"] == "ask"}
    assert all(named_cards(v) <= shown for v in seen)
    # History lists it with its winners' names; the replay reaches the result.
    (summary,) = list_games()
    assert summary.finished and summary.problem is None
    names = [s.name for s in Replay.load(summary.path).header.seats]
    assert summary.winners == tuple(names[w] for w in result["winners"])
    (path,) = sorted(games_dir().glob("*.plog"))
    replay = Replay.load(path)
    assert replay.game.name == "gofish" and replay.finished
    assert replay.view(replay.steps, None)["result"] == result
    assert replay.points_of_view() == [None, 0, 1, 2, 3]
    assert replay.view(0, 2)["me"]["hand"] and replay.view(0, None)["me"] is None

    class Viewer(App[None]):
        def on_mount(self) -> None:
            self.push_screen(GAME_UI.replay_screen(replay))

    app = Viewer()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "right", "v", "v")  # two asks on; seat 1's view (Ben)
        await pilot.pause()
        status = str(screen.query_one("#gf-status", Static).render())
        assert status.startswith(f"Step 2 of {replay.steps} · Ben · ")
        hand = str(screen.query_one("#gf-hand", Static).render())
        ben = replay.view(2, 1)["me"]["hand"]
        assert ben and all(c[:-1] in hand for c in ben)
        await pilot.press("end")
        await pilot.pause()
        assert str(screen.query_one("#gf-status", Static).render()).startswith(
            f"Step {replay.steps} of {replay.steps}"
        )
