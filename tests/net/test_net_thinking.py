"""Bots thinking in worker processes (net/thinking.py): each bot keeps its memory in its
own worker, and a seeded table plays the same game as with threads."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import AsyncIterator

import pytest
from test_net_server import game_of, serving
from test_net_toygame import RandomBot

from net.frames import FrameError
from net.game import Agent, Wire
from net.thinking import NICENESS, ProcessThinker, Question, Thinker, ThreadThinker


class Counter:
    """A bot that remembers how often it was asked, and says where it thinks."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.asked = 0

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        self.asked += 1
        return {
            "name": self.name,
            "asked": self.asked,
            "pid": os.getpid(),
            "nice": os.nice(0),
            "seen": view,
        }


class Unpicklable(Counter):
    """A bot holding a lock: it cannot be copied to another process."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.lock = threading.Lock()


@pytest.fixture
async def thinker() -> AsyncIterator[ProcessThinker]:
    pool = ProcessThinker(workers=2)
    try:
        yield pool
    finally:
        pool.close()


async def test_each_bot_lives_in_one_worker_and_keeps_its_memory_there(
    thinker: ProcessThinker,
) -> None:
    ana, bob = Counter("ana"), Counter("bob")
    got = [
        await thinker.think(bot, Question.of({"n": i}, [])) for i in range(3) for bot in (ana, bob)
    ]
    assert [(a["name"], a["asked"]) for a in got if a] == [
        ("ana", 1), ("bob", 1), ("ana", 2), ("bob", 2), ("ana", 3), ("bob", 3),
    ]  # fmt: skip
    pids = {a["name"]: {b["pid"] for b in got if b and b["name"] == a["name"]} for a in got if a}
    assert all(len(p) == 1 for p in pids.values()) and pids["ana"] != pids["bob"]
    assert os.getpid() not in pids["ana"] | pids["bob"]
    assert [a["seen"] for a in got if a] == [{"n": i} for i in range(3) for _ in range(2)]
    assert ana.asked == 0  # the copy left behind is never asked
    thinker.forget([ana])
    again = await thinker.think(ana, Question.of({}, []))
    assert again is not None and again["asked"] == 1  # the worker's copy was dropped


async def test_a_bot_that_cannot_be_copied_thinks_in_this_process(
    thinker: ProcessThinker,
) -> None:
    bot = Unpicklable("cy")
    first = await thinker.think(bot, Question.of({}, []))
    second = await thinker.think(bot, Question.of({}, []))
    assert first is not None and second is not None
    assert (first["pid"], second["asked"], bot.asked) == (os.getpid(), 2, 2)


async def test_an_error_in_a_worker_reaches_the_caller(thinker: ProcessThinker) -> None:
    class Broken(Counter):
        pass  # a local class cannot be pickled by name: it thinks here

    with pytest.raises(ZeroDivisionError):
        await thinker.think(Failing(), Question.of({}, []))
    assert (await thinker.think(Broken("x"), Question.of({}, [])) or {})["pid"] == os.getpid()


class Failing:
    """A bot whose every thought fails."""

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        return {"x": 1 // 0}


async def _seeded_moves(thinker: Thinker) -> list[list[int]]:
    bots: dict[int, Agent] = {s: RandomBot(seed=40 + s) for s in range(3)}
    async with serving(
        seats=3, bots=bots, auto_start=True, options={"target": 40}, thinker=thinker
    ) as server:
        await server.wait_over()
        return list(game_of(server).moves)


async def test_a_seeded_table_plays_the_same_game_with_bots_in_processes(
    thinker: ProcessThinker,
) -> None:
    in_threads = await _seeded_moves(ThreadThinker())
    in_processes = await _seeded_moves(thinker)
    assert len(in_threads) >= 14 and in_processes == in_threads


async def test_questions_asked_together_each_reach_their_own_bot(
    thinker: ProcessThinker,
) -> None:
    bots = [Counter(f"b{i}") for i in range(6)]
    for round_ in range(1, 4):
        # One pass of the loop: every question leaves in the same write, and every
        # answer must come back to its own asker.
        got = await asyncio.gather(
            *(thinker.think(bot, Question.of({"r": round_, "who": bot.name}, [])) for bot in bots)
        )
        assert [(a["name"], a["asked"], a["seen"]) for a in got if a] == [
            (bot.name, round_, {"r": round_, "who": bot.name}) for bot in bots
        ]


async def test_when_a_worker_dies_its_bots_think_here_from_the_copy_they_left_with(
    thinker: ProcessThinker,
) -> None:
    bot = Counter("dee")
    first = await thinker.think(bot, Question.of({}, []))
    second = await thinker.think(bot, Question.of({}, []))
    assert first is not None and second is not None and second["asked"] == 2
    os.kill(first["pid"], signal.SIGKILL)
    again = await thinker.think(bot, Question.of({}, []))
    assert again is not None and (again["pid"], again["asked"]) == (os.getpid(), 1)
    later = await thinker.think(Counter("eve"), Question.of({}, []))
    assert later is not None and later["pid"] == os.getpid()  # nobody moves any more


async def test_a_question_under_way_when_the_thinker_closes_is_abandoned() -> None:
    pool = ProcessThinker(workers=1)
    try:
        asked = asyncio.ensure_future(pool.think(Sleepy(), Question.of({}, [])))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the worker starting, or the question on its way
    finally:
        pool.close()
    assert await asked is None


class Sleepy:
    """A bot that takes its time."""

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        time.sleep(0.5)
        return {"late": True}


async def test_workers_think_at_a_lower_priority_than_the_server(
    thinker: ProcessThinker,
) -> None:
    got = await thinker.think(Counter("fay"), Question.of({}, []))
    assert got is not None and got["pid"] != os.getpid()
    assert got["nice"] == min(19, os.nice(0) + NICENESS) > os.nice(0)


async def test_a_bot_whose_first_question_was_cancelled_still_moves_with_its_next(
    thinker: ProcessThinker,
) -> None:
    bot = Counter("gus")
    first = asyncio.ensure_future(thinker.think(bot, Question.of({}, [])))
    await asyncio.sleep(0)  # waiting for its worker to start: nothing sent yet
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    got = await thinker.think(bot, Question.of({"n": 1}, []))
    assert got is not None and (got["asked"], got["seen"]) == (1, {"n": 1})
    assert got["pid"] != os.getpid()


def test_a_question_is_what_a_client_would_decode() -> None:
    view = {"hand": (1, 2), "log": [{"t": "deal"}]}
    question = Question.of(view, [{"type": "pass"}, ("a", 1)])
    got_view, legal = question.unpack()
    assert got_view == {"hand": [1, 2], "log": [{"t": "deal"}]}  # tuples arrive as lists
    assert legal == [{"type": "pass"}, ["a", 1]]
    got_view["log"].clear()
    assert view["log"] == [{"t": "deal"}]  # a copy: nothing shared with the match
    with pytest.raises(FrameError, match="Cannot encode"):
        Question.of({"x": object()}, [])
