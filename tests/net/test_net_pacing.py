"""The fair queue in front of bots' work on the event loop (net/pacing.py): a timer or a
read scheduled while many bots' answers are pending runs after a few of them, not after
all; waiting slots are granted in arrival order; every slot is granted in the end.

Time is a fake clock the slots advance, so every count here is exact."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Iterable

import pytest
from test_net_server import game_of, serving
from test_net_toygame import RandomBot

from net.game import Agent, Wire
from net.pacing import Pacer, loop_pacer
from net.thinking import Question


class FakeClock:
    """Seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _work(pacer: Pacer, clock: FakeClock, name: int, done: list[int]) -> None:
    async with pacer.slot():
        clock.now += 0.001  # one millisecond of work
        done.append(name)


def _probe(done: list[int], seen: list[int]) -> Callable[[], None]:
    """A callback that re-schedules itself: it runs once per pass of the loop and notes
    how many slots were done by then."""
    loop = asyncio.get_running_loop()

    def run() -> None:
        seen.append(len(done))
        if len(seen) < 1000:  # bounded
            loop.call_soon(run)

    return run


async def test_a_callback_scheduled_meanwhile_runs_after_the_budget_not_after_every_slot() -> (
    None
):
    clock = FakeClock()
    pacer = Pacer(0.003, clock=clock)
    done: list[int] = []
    tasks = [asyncio.create_task(_work(pacer, clock, i, done)) for i in range(50)]
    when: list[int] = []
    asyncio.get_running_loop().call_soon(lambda: when.append(len(done)))
    await asyncio.gather(*tasks)
    # 3 ms of budget, 1 ms per slot: the callback waited for 3 slots, not 50.
    assert when == [3]
    assert done == list(range(50))  # in arrival order
    assert pacer.granted == 50 and pacer.queued == 47


async def test_every_pass_of_the_loop_holds_a_bounded_number_of_slots() -> None:
    clock = FakeClock()
    pacer = Pacer(0.003, clock=clock)
    done: list[int] = []
    seen: list[int] = []
    tasks = [asyncio.create_task(_work(pacer, clock, i, done)) for i in range(60)]
    asyncio.get_running_loop().call_soon(_probe(done, seen))
    await asyncio.gather(*tasks)
    per_pass = [b - a for a, b in itertools.pairwise([0, *seen])]
    assert sum(per_pass) == 60
    # At most the budget's 3 slots per slice; never more than two slices in a pass.
    assert max(per_pass) <= 2 * 3
    assert len([n for n in per_pass if n > 0]) >= 60 // 6


async def test_a_slice_stays_within_budget_when_slots_cost_more_than_the_pacer_thought() -> (
    None
):
    clock = FakeClock()
    pacer = Pacer(0.003, clock=clock)
    cheap: list[int] = []
    for i in range(40):  # teach it that a slot costs 0.1 ms
        async with pacer.slot():
            clock.now += 0.0001
            cheap.append(i)
        await asyncio.sleep(0)
    done: list[int] = []
    seen: list[int] = []
    tasks = [asyncio.create_task(_work(pacer, clock, i, done)) for i in range(30)]  # 1 ms each
    asyncio.get_running_loop().call_soon(_probe(done, seen))
    await asyncio.gather(*tasks)
    per_pass = [b - a for a, b in itertools.pairwise([0, *seen])]
    # It calls ~30 at the next tick; those finding the slice spent wait, first in line.
    assert max(per_pass) <= 2 * 3 and done == list(range(30))


async def test_a_cancelled_waiter_does_not_hold_up_the_others() -> None:
    clock = FakeClock()
    pacer = Pacer(0.002, clock=clock)
    done: list[int] = []
    tasks = [asyncio.create_task(_work(pacer, clock, i, done)) for i in range(6)]
    await asyncio.sleep(0)  # all six have asked: two ran, four wait
    assert done == [0, 1] and pacer.waiting == 4
    tasks[2].cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert done == [0, 1, 3, 4, 5]
    assert tasks[2].cancelled()


async def test_with_time_to_spare_nothing_waits() -> None:
    clock = FakeClock()
    pacer = Pacer(0.010, clock=clock)
    done: list[int] = []
    for i in range(20):  # one at a time: each slice has room
        await _work(pacer, clock, i, done)
        await asyncio.sleep(0)
    assert done == list(range(20)) and pacer.queued == 0


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="above 0"):
        Pacer(0.0)


async def test_each_loop_has_one_pacer_shared_by_its_tables() -> None:
    assert loop_pacer() is loop_pacer()


class Instant:
    """A thinker that answers in the same step (no thread, no process): every table's
    bot would be ready in the same pass of the loop."""

    async def think(self, agent: Agent, question: Question) -> Wire | None:
        return question.answer(agent)

    def forget(self, agents: Iterable[Agent]) -> None:
        """Nothing is held."""


async def _play_tables(pacer: Pacer, tables: int = 20) -> tuple[list[int], list[list[int]]]:
    """Moves applied in each pass of the loop while ``tables`` three-bot tables, started
    together, play their game; and each table's game (its moves)."""
    loop = asyncio.get_running_loop()
    moves: list[int] = []
    async with contextlib.AsyncExitStack() as stack:
        servers = [
            await stack.enter_async_context(
                serving(
                    seats=3,
                    bots={s: RandomBot(seed=10 * t + s) for s in range(3)},
                    options={"target": 30},
                    thinker=Instant(),
                    pacer=pacer,
                )
            )
            for t in range(tables)
        ]

        def probe() -> None:  # once per pass of the loop
            moves.append(sum(s.rev for s in servers))
            if not all(s.phase == "over" for s in servers) and len(moves) < 100_000:
                loop.call_soon(probe)

        loop.call_soon(probe)
        await asyncio.gather(*(s.start() for s in servers))  # every table's bots at once
        await asyncio.gather(*(s.wait_over() for s in servers))
        games = [list(game_of(s).moves) for s in servers]
    return [b - a for a, b in itertools.pairwise(moves)], games


async def test_many_tables_bots_share_the_loop_a_few_moves_per_pass() -> None:
    ticking = itertools.count()
    # Every clock read is 1 ms later: each slot (view, or applying a move) "costs" 1 ms.
    pacer = Pacer(0.003, clock=lambda: next(ticking) / 1000)
    per_pass, games = await _play_tables(pacer)
    assert sum(per_pass) >= 20 * 10  # the games were played
    # Without the pacer, each pass applied a move of every table whose bot was ready
    # (all 20 here); with it, at most two slices of 3 one-millisecond slots.
    assert max(per_pass) <= 2 * 3
    assert pacer.queued > 0
    # Only when, never what: with all the time in the world, the same games.
    roomy, same = await _play_tables(Pacer(1000.0))
    assert same == games and max(roomy) == 20
