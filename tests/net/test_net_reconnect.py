"""The reconnect loop: backoff with seeded jitter, reports, bounds, cancellation, and a
real table that comes back on the same port with the seat's token."""

from __future__ import annotations

import asyncio
import random

import pytest
from test_net_server import APP, FAST, HOST
from test_net_toygame import CountGame, FirstBot

from net.client import JoinError
from net.reconnect import (
    MAX_DELAY,
    Attempt,
    GaveUp,
    TableTarget,
    backoff,
    describe,
    reconnect,
    reconnect_table,
)
from net.server import TableServer


class FakeTime:
    """A clock that moves only when the loop sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_backoff_doubles_from_half_a_second_to_five_with_bounded_jitter() -> None:
    delays = backoff(random.Random(3))
    got = [next(delays) for _ in range(8)]
    for delay, base in zip(got, [0.5, 1, 2, 4, 5, 5, 5, 5], strict=True):
        assert base * 0.8 - 1e-9 <= delay <= min(MAX_DELAY, base * 1.2) + 1e-9
    assert got != [0.5, 1, 2, 4, 5, 5, 5, 5]  # jittered
    again = backoff(random.Random(3))
    assert [next(again) for _ in range(8)] == got  # seeded: reproducible


async def test_reconnect_reports_every_attempt_until_it_works() -> None:
    fake, reports = FakeTime(), []
    failures = iter([JoinError("unreachable", "down"), OSError("reset"), None])

    async def attempt() -> str:
        exc = next(failures)
        if exc is not None:
            raise exc
        return "seat 2"

    got = await reconnect(
        attempt, on_attempt=reports.append, rng=random.Random(1), sleep=fake.sleep,
        clock=fake.clock,
    )  # fmt: skip
    assert got == "seat 2"
    assert [(r.state, r.number) for r in reports] == [
        ("trying", 1), ("waiting", 1), ("trying", 2), ("waiting", 2), ("trying", 3), ("back", 3),
    ]  # fmt: skip
    assert [r.next_in for r in reports if r.state == "waiting"] == fake.slept
    assert reports[1].error == "down" and reports[3].error == "reset"
    assert reports[-1].elapsed == pytest.approx(sum(fake.slept))
    assert describe(reports[1]).startswith("Host lost — reconnecting… (attempt 1 failed, next in")


async def test_reconnect_gives_up_after_its_time_and_on_a_refusal() -> None:
    fake, reports = FakeTime(), []

    async def down() -> None:
        raise JoinError("unreachable", "Cannot reach a table at h:1.")

    with pytest.raises(GaveUp) as info:
        await reconnect(
            down, on_attempt=reports.append, give_up_after=60.0, sleep=fake.sleep,
            clock=fake.clock,
        )  # fmt: skip
    assert fake.now <= 60.0 and fake.now > 60.0 - 2 * MAX_DELAY  # used its minute, no more
    assert reports[-1].state == "gave_up" and info.value.attempts == reports[-1].number
    assert 10 < info.value.attempts < 30

    async def refused() -> None:
        raise JoinError("bad_token", "That seat's token is not known here.")

    with pytest.raises(GaveUp) as info:
        await reconnect(refused, sleep=fake.sleep, clock=fake.clock)
    assert (info.value.attempts, info.value.code) == (1, "bad_token")


async def test_reconnect_is_cancellable() -> None:
    started = asyncio.Event()

    async def hang() -> None:
        started.set()
        await asyncio.Event().wait()

    task = asyncio.ensure_future(reconnect(hang))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_reconnect_table_retakes_the_seat_when_the_table_is_back() -> None:
    def table(port: int) -> TableServer:
        return TableServer(
            CountGame(), name="T", seats=2, seed=7, app_version=APP, bots={1: FirstBot()},
            bot_delay=0.0, absent_grace=None, timing=FAST, port=port,
        )  # fmt: skip

    first = table(0)
    await first.open()
    port = first.port
    await first.close()
    reports: list[Attempt] = []
    rejoin = reconnect_table(
        TableTarget(("127.0.0.9", HOST), port, "T"), name="A", token="tok-a",
        app_version=APP, game="count", on_attempt=reports.append, rng=random.Random(0),
    )  # fmt: skip
    again = asyncio.ensure_future(rejoin)
    for _ in range(500):  # the table is down: wait for a failed attempt (bounded)
        if any(r.state == "waiting" for r in reports):
            break
        await asyncio.sleep(0.01)
    back = table(port)
    back.restore({0: ("A", "tok-a")}, [])
    async with back:
        dialled = await asyncio.wait_for(again, 30)
        assert (dialled.client.seat, dialled.client.token, dialled.port) == (0, "tok-a", port)
        assert dialled.host in ("127.0.0.9", HOST)
        assert reports[-1].state == "back" and reports[-1].number >= 2
        await dialled.client.close()
