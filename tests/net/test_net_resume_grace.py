"""A table rebuilt after a crash waits longer for its players (``resume_grace``) than for
a player who drops mid-game (``absent_grace``), until each has come back once."""

from __future__ import annotations

from test_net_server import FAST, game_of, join
from test_net_toygame import CountGame, FirstBot

from net.server import TableServer


def restored(resume_grace: float | None) -> TableServer:
    server = TableServer(
        CountGame(), name="T", seats=2, seed=7, app_version="1.0", bots={1: FirstBot()},
        bot_delay=0.0, absent_grace=0.15, resume_grace=resume_grace, timing=FAST,
    )  # fmt: skip
    server.restore({0: ("A", "tok-a")}, [])
    return server


async def test_resumed_seats_get_the_resume_grace_then_the_usual_one() -> None:
    async with restored(resume_grace=60.0) as server:
        keeper, table = server._keeper, server._table
        away = table.absent_since(0)
        deadline = keeper.deadline(0)
        assert away is not None and deadline is not None
        assert deadline - away >= 60.0 - 1e-6  # not the 0.15 s of a dropped player
        # A comes back, then drops again: now the usual grace, and the table plays for A.
        a, a_w = await join(server, "A", token="tok-a")
        assert a.seat == 0
        await a_w.view()
        await a.close()
        spec, s_w = await join(server, "S", role="spectator")
        await s_w.view(2, timeout=5.0)  # a default for A (0.15 s), then the bot's move
        assert game_of(server).moves[0] == [0, 1]
        await spec.close()


async def test_without_resume_grace_a_resumed_seat_waits_the_usual_grace() -> None:
    async with restored(resume_grace=None) as server:
        away, deadline = server._table.absent_since(0), server._keeper.deadline(0)
        assert away is not None and deadline is not None
        assert deadline - away < 5.0  # 0.15 s after the wait began, nowhere near 60 s
