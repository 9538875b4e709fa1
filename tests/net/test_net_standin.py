"""A bot standing in for an absent player mid-game, and per-state time limits.

the host hands a disconnected player's seat to a bot; the
player takes it back by reconnecting with their token. ``count to N`` (see
``test_net_toygame``) keeps every move in ``CountMatch.moves`` so the tests
can say exactly who moved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from test_net_server import join, serving
from test_net_toygame import CountMatch, FirstBot, SlowBot

from net.game import Match
from net.messages import Lobby, SeatInfo
from net.server import TableServer
from net.table import Refused


def match_of(server: TableServer) -> CountMatch:
    match = server._table.match
    assert isinstance(match, CountMatch)
    return match


async def until(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_absent_seat_goes_to_a_bot_and_its_player_takes_it_back() -> None:
    async with serving(absent_grace=None) as server:
        a, a_w = await join(server, "Ana")
        b, b_w = await join(server, "Ben")
        await server.start()
        await a_w.view(0)
        with pytest.raises(Refused) as info:
            await server.set_bot(0, FirstBot())
        assert info.value.code == "seat_taken"  # Ana is connected
        token = a.token
        await a.close()
        await b_w.until(lambda m: isinstance(m, Lobby) and not m.seats[0].connected)
        await asyncio.sleep(0.1)
        assert match_of(server).moves == []  # no grace: the table waits for Ana

        bot = FirstBot()
        await server.set_bot(0, bot, name="Ignored")
        # The stand-in keeps Ana's name, so the log and results still read right.
        assert server.seats()[0] == SeatInfo("Ana", "bot", True)
        await b_w.view(1)
        assert match_of(server).moves == [[0, 1]]  # the bot played Ana's turn
        await b.send_action({"add": 2})
        await b_w.view(3)  # Ben, then the bot again
        assert match_of(server).moves == [[0, 1], [1, 2], [0, 1]]

        back, back_w = await join(server, "Whoever", token=token)
        assert back.seat == 0
        assert server.seats()[0] == SeatInfo("Ana", "human", True)
        view = await back_w.view()
        assert view.rev == 3 and view.view["secret"] == match_of(server).secrets[0]
        await b.send_action({"add": 2})
        await back_w.view(4)
        await asyncio.sleep(0.2)
        # Ana's turn now: the bot stepped down, so nobody moves for her.
        assert match_of(server).moves == [[0, 1], [1, 2], [0, 1], [1, 2]]
        assert len(bot.views) == 2
        await back.send_action({"add": 2})
        assert (await b_w.view(5)).view["moves"][-1] == [0, 2]
        await back.close()
        await b.close()


async def test_host_hands_the_seat_back_and_a_late_bot_answer_is_dropped() -> None:
    async with serving(absent_grace=None) as server:
        a, a_w = await join(server, "Ana")
        b, b_w = await join(server, "Ben")
        await server.start()
        await a_w.view(0)
        token = a.token
        await a.close()
        await b_w.until(lambda m: isinstance(m, Lobby) and not m.seats[0].connected)
        slow = SlowBot(0.3, {"add": 2})
        await server.set_bot(0, slow)
        await asyncio.to_thread(slow.started.wait, 2.0)
        # While the bot thinks, the host gives the seat back: Ana is away again.
        await server.set_bot(0, None)
        assert server.seats()[0] == SeatInfo("Ana", "human", False)
        await asyncio.sleep(0.5)
        assert slow.answered == 1 and match_of(server).moves == []  # answer dropped
        with pytest.raises(Refused) as info:
            await server.set_bot(0, None)  # nothing to hand back now
        assert info.value.code == "already_started"
        back, _back_w = await join(server, "Ana", token=token)
        assert back.seat == 0 and server.seats()[0] == SeatInfo("Ana", "human", True)
        await back.send_action({"add": 1})
        assert (await b_w.view(1)).view["moves"] == [[0, 1]]
        await back.close()
        await b.close()


async def test_a_time_limit_can_depend_on_the_state() -> None:
    asked: list[int] = []

    def limit(match: Match, seat: int) -> float | None:
        asked.append(seat)
        assert isinstance(match, CountMatch)
        return 0.1 if seat == 0 else None  # only seat 0 is on the clock

    async with serving(turn_timeout=limit) as server:
        a, _a_w = await join(server, "Ana")
        b, b_w = await join(server, "Ben")
        await server.start()
        await b_w.view(1)  # Ana's default after 0.1 s
        assert match_of(server).moves == [[0, 1]]
        await asyncio.sleep(0.3)
        assert match_of(server).moves == [[0, 1]]  # Ben has no limit: the table waits
        assert 0 in asked and 1 in asked
        await a.close()
        await b.close()


async def test_game_over_refuses_seat_changes() -> None:
    async with serving(bots={1: FirstBot()}, options={"target": 1}) as server:
        a, _a_w = await join(server, "Ana")
        await server.start()
        await a.send_action({"add": 1})
        await until(lambda: server.phase == "over")
        with pytest.raises(Refused) as info:
            await server.set_bot(1, FirstBot())
        assert info.value.code == "game_over"
        await a.close()
