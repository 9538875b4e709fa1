"""The server's per-action path, cut to the work it must do: each view packed once,
the idle limit one lazily pushed deadline per connection, an action checked once,
an ack leaving with its view. Same frames, same refusals, same drops as before."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
from test_net_hardening import fish_hello, seated, table
from test_net_server import Raw, close_raws, serving

from net.frames import MAX_FRAME, FrameError, encode
from net.game import Wire
from net.messages import View
from net.server import Timing, _Silence, encode_view
from poissonnier_tui.games.poissonnier.match import PoissonnierGame

__all__ = ["close_raws"]  # test_net_server's autouse fixture: this module's Raws closed too


@pytest.mark.parametrize(
    "frame",
    [
        View(0, {}),
        View(1, {"total": 3, "turn": 1}, None, ()),
        View(2**40, {"a": [1, "é", None, 1.5, {"b": True}], "c": []}, 12_345, ((1, 2), (3, 4000))),
        View(7, {"deep": [[[[{"x": -(2**63)}]]]]}, 0, ((0, 0),)),
    ],
)
def test_a_view_packed_once_makes_the_frame_encode_makes(frame: View) -> None:
    packed = msgpack.packb(frame.view, use_bin_type=True)
    assert encode_view(frame, packed) == encode(frame.to_wire())


def test_a_view_over_the_frame_cap_is_refused_as_encode_refuses_it() -> None:
    frame = View(1, {"text": "y" * MAX_FRAME})
    with pytest.raises(FrameError, match="exceeds the 65536-byte frame cap") as refused:
        encode_view(frame, msgpack.packb(frame.view, use_bin_type=True))
    with pytest.raises(FrameError) as reference:
        encode(frame.to_wire())
    assert str(refused.value) == str(reference.value)


async def test_each_recipient_gets_exactly_the_frame_of_its_own_view() -> None:
    async with serving() as server:
        seats = [Raw.open(server.port), Raw.open(server.port)]
        a, b = [await s for s in seats]
        watcher = await Raw.open(server.port)
        await a.hello("A")
        await b.hello("B")
        await watcher.hello("W", role="spectator")
        await server.start()
        await a.read_until(lambda m: m.get("type") == "view")
        await a.send({"type": "action", "seq": 1, "action": {"add": 2}})
        for raw, seat in ((a, 0), (b, 1), (watcher, None)):
            start = len(raw.received)
            msg = await raw.read_until(lambda m: m.get("type") == "view" and m["rev"] == 1)
            got = bytes(raw.received[start:])
            wanted = encode(View(1, server._table.view(seat), None, ()).to_wire())
            assert got.endswith(wanted)  # the same bytes as encoding the view on its own
            assert msg["view"] == server._table.view(seat)


# --- the idle limit: one deadline per connection, pushed back lazily -----------------


async def _wait_in(silence: _Silence, until: asyncio.Event) -> str:
    """A reading task's wait, as _serve does it: ``"frame"``, ``"silent"`` or cancelled."""
    try:
        silence.waiting = True
        try:
            await until.wait()
        finally:
            silence.waiting = False
    except asyncio.CancelledError:
        if not silence.ended_wait():
            raise
        return "silent"
    return "frame"


async def test_a_wait_as_long_as_the_limit_ends_as_silent() -> None:
    async def reader() -> str:
        silence = _Silence(0.05)
        try:
            return await _wait_in(silence, asyncio.Event())  # nothing ever comes
        finally:
            silence.close()

    assert await asyncio.wait_for(reader(), 5) == "silent"


async def test_frames_coming_within_the_limit_keep_the_reader_however_long() -> None:
    """Waits of a tenth of the limit each, for three limits in all: the timer is pushed
    back, never ends a wait, and the reader sees every frame. (Only a stall of the loop
    longer than 0.27 s in one wait could fail it.)"""
    seen: list[str] = []

    async def reader(frames: list[asyncio.Event]) -> None:
        silence = _Silence(0.3)
        try:
            for frame in frames:
                seen.append(await _wait_in(silence, frame))
        finally:
            silence.close()

    frames = [asyncio.Event() for _ in range(30)]
    task = asyncio.create_task(reader(frames))
    for frame in frames:
        await asyncio.sleep(0.03)
        frame.set()
    await asyncio.wait_for(task, 10)
    assert seen == ["frame"] * 30


async def test_the_time_between_waits_is_not_silence() -> None:
    """Handling a frame (here 3 limits long) does not count: the next wait gets a whole limit."""

    async def reader(frame: asyncio.Event) -> list[str]:
        silence = _Silence(0.2)
        try:
            await asyncio.sleep(0.6)  # the server busy with the last frame, not waiting
            return [await _wait_in(silence, frame)]
        finally:
            silence.close()

    frame = asyncio.Event()
    task = asyncio.create_task(reader(frame))
    await asyncio.sleep(0.62)
    frame.set()  # well within the limit of the wait, long after the last frame
    assert await asyncio.wait_for(task, 10) == ["frame"]


async def test_any_other_cancellation_goes_through() -> None:
    started = asyncio.Event()

    async def reader() -> str:
        silence = _Silence(60.0)
        started.set()
        try:
            return await _wait_in(silence, asyncio.Event())
        finally:
            silence.close()

    task = asyncio.create_task(reader())
    await started.wait()
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_client_whose_action_is_slow_to_log_is_not_dropped_as_silent() -> None:
    """The idle limit counts while the server waits for a frame, not while it handles one."""
    gate = asyncio.Event()
    logged: list[Wire] = []

    async def slow_log(seat: int, action: Wire) -> None:
        logged.append(action)
        await gate.wait()

    timing = Timing(ping_interval=60.0, idle_timeout=0.5, close_timeout=0.5)
    async with serving(on_action=slow_log, timing=timing) as server:
        a = await Raw.open(server.port)
        b = await Raw.open(server.port)
        await a.hello("A")
        await b.hello("B")
        await server.start()
        await a.read_until(lambda m: m.get("type") == "view")
        await a.send({"type": "action", "seq": 1, "action": {"add": 2}})
        async with asyncio.timeout(2):
            while not logged:
                await asyncio.sleep(0.01)
        await asyncio.sleep(1.2)  # over two idle limits inside the action's handling
        gate.set()
        assert await a.read_until(lambda m: m.get("type") == "ack") == {"type": "ack", "seq": 1}
        assert server.seats()[0].connected


# --- the keeper's timers ------------------------------------------------------------


async def test_a_move_rearms_only_the_timers_whose_deadline_moved() -> None:
    """Both seats are waited on in the fill, each with a limit counted from its own last
    move: seat 0's moves end and restart its own wait only; seat 1's timer, for the same
    deadline all along, stays the one set first."""
    async with table(PoissonnierGame(), turn_timeout=30.0, auto_start=True) as server:
        ana, _ = await seated(server.port, fish_hello("Ana"))
        bea, _ = await seated(server.port, fish_hello("Bea"))
        await ana.until("view")
        first = dict(server._keeper._timers)
        assert set(first) == {0, 1}
        reply = await ana.answer({"type": "action", "seq": 1, "action": {"type": "ready"}})
        assert reply == {"type": "ack", "seq": 1}
        assert set(server._keeper._timers) == {1} and first[0][1].cancelled()  # not waited on
        reply = await ana.answer({"type": "action", "seq": 2, "action": {"type": "unready"}})
        assert reply == {"type": "ack", "seq": 2}
        now = server._keeper._timers
        assert now[0][0] > first[0][0] and now[0][0] == server._keeper.deadline(0)  # anew
        assert now[1] is first[1] and not first[1][1].cancelled()  # kept, for the same time
        assert now[1][0] == server._keeper.deadline(1)
        ana.close()
        bea.close()
