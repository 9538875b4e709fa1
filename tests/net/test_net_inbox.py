"""The client's inbox (``net.client._Inbox``): what ``TableClient.receive`` needs of the
``asyncio.Queue`` it replaces — order, waiting, cancellation losing nothing — and a
clear error, not a silent hang, for a second consumer."""

from __future__ import annotations

import asyncio

import pytest

from net.client import _Inbox


async def test_items_come_out_in_order_and_a_consumer_waits_for_the_next() -> None:
    inbox = _Inbox()
    for item in (1, 2):
        inbox.put_nowait(item)
    assert inbox.qsize() == 2
    assert [await inbox.get(), await inbox.get()] == [1, 2]
    waiting = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    inbox.put_nowait(3)
    inbox.put_nowait(4)
    assert await asyncio.wait_for(waiting, 1.0) == 3
    assert inbox.qsize() == 1
    inbox.clear()
    assert inbox.qsize() == 0


async def test_a_consumer_cancelled_while_waiting_loses_nothing() -> None:
    inbox = _Inbox()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.01):
            await inbox.get()
    again = asyncio.create_task(inbox.get())  # the next consumer waits in its place
    await asyncio.sleep(0)
    inbox.put_nowait("a")
    assert await asyncio.wait_for(again, 1.0) == "a"


async def test_a_consumer_woken_then_cancelled_leaves_the_item_for_the_next() -> None:
    inbox = _Inbox()
    first = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait("x")  # wakes the first...
    first.cancel()  # ...which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await first
    assert inbox.qsize() == 1
    assert await asyncio.wait_for(inbox.get(), 1.0) == "x"


async def test_a_second_consumer_at_once_is_refused_and_the_first_still_gets_its_item() -> None:
    inbox = _Inbox()
    first = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one consumer"):
        await inbox.get()
    inbox.put_nowait("y")
    assert await asyncio.wait_for(first, 1.0) == "y"
