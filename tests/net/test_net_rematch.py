"""A rematch after the game, over real TCP: same seats, a new seed, a new log.

Two players and a spectator finish a game of "count to N"
(``test_net_toygame``); the table goes back to its lobby for a rematch and all
three follow it into game 2 on the same connections. A player who left
after game 1 leaves an open seat that a bot can take; the log of each game
is its own file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_net_server import Watch, join, serving
from test_net_toygame import FirstBot

from net.client import TableClient
from net.messages import Lobby, View
from net.recorder import TableRecorder
from net.table import Refused
from net.tablelog import read_log


async def play_out(a: TableClient, a_w: Watch, b: TableClient, b_w: Watch) -> None:
    """To 4: Ana adds 2, Ben adds 2 and wins."""
    await a.send_action({"add": 2})
    await b_w.until(lambda m: isinstance(m, View) and m.view["total"] == 2)
    await b.send_action({"add": 2})
    await a_w.until(lambda m: isinstance(m, View) and m.view["winner"] == 1)


async def test_players_and_a_spectator_follow_the_table_into_a_rematch(tmp_path: Path) -> None:
    paths = iter(tmp_path / f"game{n}.log" for n in range(1, 4))
    recorder = TableRecorder(lambda: next(paths))
    async with serving(options={"target": 4}) as server:
        recorder.attach(server)
        a, a_w = await join(server, "Ana")
        b, b_w = await join(server, "Ben")
        spec, s_w = await join(server, "Sue", role="spectator")
        with pytest.raises(Refused) as info:
            await server.rematch()
        assert info.value.code == "not_over"
        await server.start()
        await a_w.view(0)
        await play_out(a, a_w, b, b_w)
        assert server.phase == "over"
        first_seed = server.seed
        ana_token, ben_token = a.token, b.token

        for watch in (a_w, b_w, s_w):  # read up to the end of game 1
            await watch.until(lambda m: isinstance(m, Lobby) and m.phase == "over")
        await server.rematch(seed=first_seed + 1)
        for watch in (a_w, b_w, s_w):
            lobby = await watch.until(lambda m: isinstance(m, Lobby) and m.phase == "lobby")
            assert not lobby.started
            assert [s.name for s in lobby.seats] == ["Ana", "Ben"]
        assert server.seed == first_seed + 1 and server.rev == 0
        await server.start()
        for watch in (a_w, b_w, s_w):  # everyone, the spectator too, sees game 2 from rev 0
            view = await watch.view(0)
            assert view.view["total"] == 0 and view.view["winner"] is None
        assert (a.token, b.token) == (ana_token, ben_token)  # tokens kept
        await play_out(a, a_w, b, b_w)
        await s_w.until(lambda m: isinstance(m, Lobby) and m.phase == "over")

        # Ben leaves after game 2: his seat opens at the rematch; a bot takes it.
        await b.close()
        await a_w.until(lambda m: isinstance(m, Lobby) and not m.seats[1].connected)
        await server.rematch()
        lobby = await s_w.until(lambda m: isinstance(m, Lobby) and m.phase == "lobby")
        assert [s.kind for s in lobby.seats] == ["human", "open"]
        await server.set_bot(1, FirstBot(), name="Bot 2")
        await server.start()
        assert (await s_w.view(0)).view["total"] == 0
        await a.close()
        await spec.close()
    recorder.close()

    logs = sorted(tmp_path.glob("game*.log"))
    assert [p.name for p in logs] == ["game1.log", "game2.log", "game3.log"]
    first, second = read_log(logs[0]), read_log(logs[1])
    assert second.header["seed"] == first.header["seed"] + 1
    assert first.end is not None and second.end is not None
    assert len(first.actions) == len(second.actions) == 2  # 2 + 2 reaches 4 each game
