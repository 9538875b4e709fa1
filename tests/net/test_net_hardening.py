"""A table no stranger can spoil: each attack of a hostile raw client, and that it fails.

Every test drives the server through :mod:`rawwire` (a socket and msgpack,
nothing of ``net``'s client) the way an attacker on the LAN would.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest
from rawwire import Wire, frame, hello
from test_net_toygame import CountGame

from net.game import GameDefinition
from net.guard import (
    CODE_ALPHABET,
    CODE_FREE_TRIES,
    CODE_TABLE_BURST,
    GENERATED_CODE_LENGTH,
    LOG_BURST,
    CodeGuard,
    TokenBucket,
    generate_code,
    same_secret,
)
from net.server import ACTION_BURST, ACTION_RATE, TableServer, Timing
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.hosting.tables import time_limit as fill_time_limit

APP = "1.0"
QUICK = Timing(ping_interval=5.0, idle_timeout=10.0, hello_timeout=2.0, close_timeout=0.5)


@asynccontextmanager
async def table(
    game: GameDefinition | None = None, *, seats: int = 2, **kwargs: Any
) -> AsyncIterator[TableServer]:
    kwargs.setdefault("timing", QUICK)
    kwargs.setdefault("bot_delay", 0.0)
    server = TableServer(
        game or CountGame(), name="Hard table", seats=seats, seed=7, app_version=APP, **kwargs
    )
    async with server:
        yield server


def count_hello(name: str = "Raw", **fields: Any) -> dict[str, Any]:
    return hello("count", APP, name, **fields)


def fish_hello(name: str = "Raw", **fields: Any) -> dict[str, Any]:
    return hello("poissonnier", APP, name, **fields)


async def seated(port: int, msg: dict[str, Any]) -> tuple[Wire, dict[str, Any]]:
    wire = await Wire.open(port)
    welcome = await wire.answer(msg)
    assert welcome["type"] == "welcome", welcome
    return wire, welcome


async def wait_for(ready: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not ready():
            await asyncio.sleep(0.01)


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# --- text that is not ASCII -----------------------------------------------------


async def test_non_ascii_codes_and_tokens_are_answered_not_tracebacks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with table(code="café") as server:
        ana, _ = await seated(server.port, count_hello("Ana", code="café"))  # the right code works
        wrong = await Wire.open(server.port)
        assert (await wrong.answer(count_hello(code="éé")))["code"] == "bad_code"
        # A seat now has a token, so a non-ASCII token is compared with it.
        bea, welcome = await seated(server.port, count_hello("Bea", token="é", code="café"))
        assert welcome["seat"] == 1
        too_long = await Wire.open(server.port)
        refused = await too_long.answer(count_hello(code="é" * 65))
        assert refused["type"] == "error" and refused["code"] == "bad_message"
        assert errors(caplog) == []
        for wire in (ana, wrong, bea, too_long):
            wire.close()


def test_secrets_compare_as_bounded_utf8() -> None:
    assert same_secret("café", "café") and not same_secret("cafe", "café")
    assert not same_secret("é" * 65, "é" * 65)  # longer than any code or token
    assert not same_secret("\ud800", "x") and not same_secret(None, "x")


def test_a_generated_code_has_40_bits_of_a_readable_alphabet() -> None:
    codes = {generate_code() for _ in range(50)}
    assert len(codes) == 50
    assert all(len(c) == GENERATED_CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert len(CODE_ALPHABET) ** GENERATED_CODE_LENGTH == 2**40


# --- guessing the join code ---------------------------------------------------------


def test_code_guard_backs_off_doubling_to_its_ceiling() -> None:
    guard = CodeGuard(free=2, first=1.0, ceiling=8.0, forget=100.0)
    waits = [guard.failed("a", 0.0) for _ in range(7)]
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert guard.wait("a", 5.0) == 3.0 and guard.wait("b", 5.0) == 0.0
    assert guard.wait("a", 200.0) == 0.0  # forgotten after a quiet while
    guard.failed("c", 0.0)
    guard.succeeded("c")
    assert guard.wait("c", 0.0) == 0.0


def test_code_guard_has_one_budget_for_the_whole_table() -> None:
    guard = CodeGuard(free=100, table_burst=3, table_rate=0.5)
    for address in ("a", "b", "c"):
        assert guard.table_wait(0.0) == 0.0
        guard.failed(address, 0.0)
    assert guard.table_wait(0.0) == 2.0 and guard.table_wait(1.0) == 1.0
    assert guard.wait("d", 0.0) == 0.0  # no address of its own to wait for
    assert guard.table_wait(2.0) == 0.0  # one wrong code more every 2 s


async def test_a_guesser_with_many_addresses_meets_the_tables_budget() -> None:
    """Each guess from a new address (the per-address back-off never starts): the
    table checks CODE_TABLE_BURST of them, then none, not even a friend's right code,
    until its budget has a code again; the friend is told why and gets in then."""
    now = [0.0]
    async with table(code="4271", clock=lambda: now[0]) as server:
        replies = []
        for k in range(CODE_TABLE_BURST + 5):
            wire = await Wire.open(server.port, source=f"127.0.0.{k + 2}")
            replies.append(await wire.answer(count_hello(code=f"{k:04d}")))
            wire.close()
        codes = [r["code"] for r in replies]
        assert codes == ["bad_code"] * CODE_TABLE_BURST + ["slow_down"] * 5
        assert replies[-1]["params"]["key"] == "code_busy"
        friend = await Wire.open(server.port, source="127.0.0.200")
        refused = await friend.answer(count_hello("Ana", code="4271"))
        assert (refused["code"], refused["params"]["wait"]) == ("slow_down", 2)
        friend.close()
        now[0] += 2.0
        await seated(server.port, count_hello("Ana", code="4271"))


async def test_code_guesses_in_10_seconds_are_bounded(caplog: pytest.LogCaptureFixture) -> None:
    """One address guessing as fast as it can has 6 codes checked at once (5 free, and
    the one that starts the back-off), then waits 1, 2, 4, 8 s: at 1, 3 and 7 s, so 9
    codes checked in 10 s (the table's clock runs 50 times faster than the wall's)."""
    caplog.set_level(logging.WARNING)
    start = time.monotonic()

    def fast() -> float:
        return start + (time.monotonic() - start) * 50.0

    checked = slowed = 0
    async with table(code="4271", clock=fast) as server:
        for guess in range(3000):  # today's code checks every one: ~2,500 a second
            if fast() - start >= 10.0:
                break
            wire = await Wire.open(server.port)
            reply = await wire.answer(count_hello(code=f"{guess:04d}"))
            wire.close()
            assert reply["type"] == "error", reply
            checked += reply["code"] == "bad_code"
            slowed += reply["code"] == "slow_down"
        # The right code from another address would still get in; from this one it
        # waits its turn like any other guess.
        waiting = await Wire.open(server.port)
        assert (await waiting.answer(count_hello(code="4271")))["code"] == "slow_down"
        waiting.close()
    print(f"codes checked in 10 s: {checked}; refused unchecked: {slowed}")
    assert CODE_FREE_TRIES < checked <= CODE_FREE_TRIES + 4
    assert slowed > 0
    lines = [r for r in caplog.records if r.name == "net.server" and "Refused" in r.getMessage()]
    assert 1 <= len(lines) <= LOG_BURST + 1  # the host hears of it, without a flood


# --- admission -----------------------------------------------------------------------


async def test_a_seated_player_reconnects_at_once_past_idlers_and_spectators(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Idlers hold connections that never say hello; they are dropped only after a
    minute here, so the player can get back in only past them, never by waiting for
    one to go: the answer's own 3-s deadline (rawwire) is the test, no wall-clock bound."""
    caplog.set_level(logging.WARNING)
    async with table(auto_start=True, timing=replace(QUICK, hello_timeout=60.0)) as server:
        ana, welcome = await seated(server.port, count_hello("Ana"))
        bea, _ = await seated(server.port, count_hello("Bea"))
        await ana.until("view")
        idlers = [await Wire.open(server.port) for _ in range(100)]  # no hello, ever
        await idlers[-1].send_bytes(b"\x00\x00\x01")  # and one half a frame header
        spectators: list[Wire] = []
        busy = 0
        for n in range(40):
            wire = await Wire.open(server.port)
            reply = await wire.answer(count_hello(f"Spec {n}", role="spectator"))
            if reply["type"] == "welcome":
                spectators.append(wire)
            else:
                assert reply["code"] == "busy", reply
                busy += 1
                wire.close()
        for wire in spectators:
            await wire.send({"type": "ping"})
        ana.close()
        await wait_for(lambda: not server.seats()[0].connected)
        # The stranger grabs whatever the leaver freed before the player is back.
        idlers += [await Wire.open(server.port) for _ in range(20)]
        back, again = await seated(server.port, count_hello("Ana", token=welcome["token"]))
        print(f"spectators refused busy: {busy}")
        assert again["seat"] == 0
        assert len(spectators) == QUICK.max_spectators_per_address and busy == 40 - len(spectators)
        assert any("Busy" in r.getMessage() or "busy" in r.getMessage() for r in caplog.records)
        for wire in [back, bea, *idlers, *spectators]:
            wire.close()


async def test_an_idle_connection_is_closed_at_the_hello_deadline() -> None:
    async with table(timing=Timing(hello_timeout=0.2, close_timeout=0.5)) as server:
        idle = await Wire.open(server.port)
        frames = await idle.rest(timeout=2.0)
        assert [f["code"] for f in frames] == ["timeout"]


# --- R6: a deadline on the whole fill step ---------------------------------------------


def crate_fish(view: dict[str, Any]) -> list[str]:
    return list(view["me"]["crates"][0])


def a_fish(view: dict[str, Any]) -> list[str]:
    """One fish of the viewer's hand (special cards never go in a crate)."""
    return [next(c for c in view["me"]["hand"] if not cards.is_special(c))]


def rearrange(seq: int, fish: list[str]) -> dict[str, Any]:
    """Even: put ``fish`` in crate 0; odd: take it back. Legal forever in a fill step."""
    if seq % 2 == 0:
        return {"type": "place", "cards": fish, "crate": 0}
    return {"type": "take_back", "crate": 0}


async def test_a_seat_that_keeps_moving_is_made_ready_at_the_step_deadline() -> None:
    limit = 0.8
    async with table(
        PoissonnierGame(), turn_timeout=fill_time_limit(limit), auto_start=True
    ) as server:
        mover, _ = await seated(server.port, fish_hello("Ana"))
        idle, _ = await seated(server.port, fish_hello("Bea"))
        first = await mover.until("view")
        began = time.monotonic()
        assert first["view"]["phase"] == "fill"
        assert 0 < first["ends_in_ms"] <= limit * 1000  # the countdown, for everyone
        assert (await idle.until("view"))["ends_in_ms"] == first["ends_in_ms"]
        fish = a_fish(first["view"])
        moves = 0
        ready_at: float | None = None
        for seq in range(100):  # 12 s at most; ready must come after about 0.8 s
            action = rearrange(seq, fish)
            reply = await mover.answer({"type": "action", "seq": seq, "action": action})
            if reply["type"] == "error":
                assert reply["code"] in ("already_ready", "not_fill"), reply
                ready_at = time.monotonic() - began
                break
            assert reply == {"type": "ack", "seq": seq}
            moves += 1
            await asyncio.sleep(0.12)
        print(f"{moves} moves, then declared ready {ready_at} s into a {limit} s step")
        assert ready_at is not None and moves >= 3
        assert limit - 0.1 <= ready_at <= limit + 2.0  # generous: a loaded machine
        seats = [v for v in mover.frames if v["type"] == "view"][-1]["view"]["seats"]
        assert seats[0]["ready"] or seats[0]["crates"]  # ready, or the step already ended
        mover.close()
        idle.close()


async def test_every_view_of_one_broadcast_tells_the_same_time_left() -> None:
    # The table's clock moves on by 5 ms at every reading, as on a loaded machine
    # between building one seat's frame and the next: the time left must still be
    # counted from one instant for all of them (every screen agrees on it).
    async with table(
        PoissonnierGame(), turn_timeout=fill_time_limit(30.0), auto_start=True
    ) as server:
        readings = iter(range(10_000))
        server._keeper._clock = lambda: time.monotonic() + next(readings) * 0.005
        watcher, _ = await seated(server.port, fish_hello("Eve", role="spectator"))
        ana, _ = await seated(server.port, fish_hello("Ana"))
        bea, _ = await seated(server.port, fish_hello("Bea"))
        firsts = [await wire.until("view") for wire in (watcher, ana, bea)]
        assert [f["rev"] for f in firsts] == [firsts[0]["rev"]] * 3  # one broadcast
        assert firsts[0]["view"] != firsts[1]["view"] != firsts[2]["view"]  # three frames
        left = [f["ends_in_ms"] for f in firsts]
        assert left == [left[0]] * 3 and 0 < left[0] <= 30_000, left
        for wire in (watcher, ana, bea):
            wire.close()


# --- private moves send nothing to the others ----------------------------------------------


async def test_another_seats_private_rearrangement_sends_no_frame_to_the_others() -> None:
    async with table(PoissonnierGame(), seats=3, auto_start=True) as server:
        mover, _ = await seated(server.port, fish_hello("Ana"))
        other, _ = await seated(server.port, fish_hello("Bea"))
        watcher, _ = await seated(server.port, fish_hello("Cid"))
        first = await mover.until("view")
        for wire in (other, watcher):
            await wire.until("view")
            assert await wire.quiet_until_pong() == []
        fish = a_fish(first["view"])
        for seq in range(10):
            action = rearrange(seq, fish)
            assert await mover.answer({"type": "action", "seq": seq, "action": action}) == {
                "type": "ack",
                "seq": seq,
            }
            mine = await mover.until("view")  # the mover sees its own crates change
            assert crate_fish(mine["view"]) == (fish if seq % 2 == 0 else [])
        heard = [await wire.quiet_until_pong() for wire in (other, watcher)]
        print(f"frames the others got during 10 private moves: {sum(map(len, heard))}")
        assert heard == [[], []]
        # A public change still reaches everyone.
        assert await mover.answer({"type": "action", "seq": 99, "action": {"type": "ready"}}) == {
            "type": "ack",
            "seq": 99,
        }
        for wire in (other, watcher):
            view = (await wire.until("view"))["view"]
            assert view["seats"][0]["ready"]
        for wire in (mover, other, watcher):
            wire.close()


async def test_nobody_waits_on_the_disk_for_a_move_they_cannot_see() -> None:
    """While another seat's unseen move (R15) waits for its record, the other seat's and
    a spectator's replies leave at once: nobody can time the moves they may not see by
    how late their own pongs come. The mover's own frames wait for the record, in order:
    its ack and view, then its pong (net/outbox.py)."""
    async with table(PoissonnierGame(), seats=2, auto_start=True) as server:
        mover, _ = await seated(server.port, fish_hello("Ana"))
        other, _ = await seated(server.port, fish_hello("Bea"))
        watcher, _ = await seated(server.port, fish_hello("Cid", role="spectator"))
        first = await mover.until("view")
        for wire in (other, watcher):
            await wire.until("view")
        disk: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        server.on_record = lambda seat, action: disk  # the record is not on disk yet
        place = rearrange(0, a_fish(first["view"]))
        await mover.send({"type": "action", "seq": 1, "action": place})
        await wait_for(lambda: server.rev == 1)  # applied, its record pending
        await mover.send({"type": "ping"})
        for wire in (other, watcher):
            await wire.send({"type": "ping"})
            assert (await wire.read(2.0))["type"] == "pong"  # not held behind Ana's record
        with pytest.raises(TimeoutError):
            await mover.read(0.3)  # Ana hears nothing, her own move's ack first, later
        disk.set_result(None)
        assert [(await mover.read())["type"] for _ in range(3)] == ["ack", "view", "pong"]
        for wire in (mover, other, watcher):
            wire.close()


# --- floods ----------------------------------------------------------------------------------


def test_token_bucket_refills_at_its_rate() -> None:
    bucket = TokenBucket(rate=10.0, burst=3)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.1) and not bucket.take(0.1)
    assert [bucket.take(10.0) for _ in range(4)] == [True, True, True, False]


async def test_a_flooding_seat_neither_slows_others_nor_grows_the_log() -> None:
    """Seat 1 cheers (a legal move out of turn) as fast as it can, and comes back
    with its token when dropped; a spectator's ping round trips stay under 0.5 s
    (a LAN answers in about a millisecond; the bound leaves room for a loaded
    machine, while the old table reached 1.2 s), and the log holds no more than
    the seat's budget: ACTION_BURST + ACTION_RATE per second."""
    logged: list[int] = []

    async def record(seat: int, action: Any) -> None:
        logged.append(seat)

    async with table(
        options={"cheers": True, "target": 10**6}, auto_start=True, on_action=record
    ) as server:
        ana, _ = await seated(server.port, count_hello("Ana"))
        flooder, welcome = await seated(server.port, count_hello("Flo"))
        watcher, _ = await seated(server.port, count_hello("Spec", role="spectator"))
        await watcher.until("view")
        began = time.monotonic()
        sent = 0
        round_trips: list[float] = []
        cheer = {"type": "action", "seq": 1, "action": {"cheer": 1}}
        comebacks = 0
        for _ in range(20):
            try:
                await flooder.send_bytes(b"".join(frame(cheer) for _ in range(100)))
            except ConnectionError:  # dropped: it comes back with its token
                flooder.close()
                flooder, _ = await seated(server.port, count_hello("Flo", token=welcome["token"]))
                comebacks += 1
                await flooder.send_bytes(b"".join(frame(cheer) for _ in range(100)))
            sent += 100
            sent_ping = time.monotonic()
            await watcher.quiet_until_pong()
            round_trips.append(time.monotonic() - sent_ping)
            await asyncio.sleep(0.05)
        elapsed = time.monotonic() - began
        await asyncio.sleep(0.1)
        cheers = logged.count(1)
        bound = ACTION_BURST + ACTION_RATE * (elapsed + 0.1) + 1
        print(
            f"sent {sent} cheers in {elapsed:.2f} s ({comebacks} comebacks); "
            f"logged {cheers} (bound {bound:.0f}); "
            f"worst round trip {max(round_trips) * 1000:.1f} ms"
        )
        assert cheers <= bound and cheers >= ACTION_BURST
        assert max(round_trips) < 0.5
        for wire in (ana, flooder, watcher):
            wire.close()


# --- names -------------------------------------------------------------------------------------


async def test_two_players_with_one_name_are_told_apart() -> None:
    async with table(seats=3) as server:
        wires = [
            (await seated(server.port, count_hello(name)))[0] for name in ("Ana", "ana ", "Ana")
        ]
        assert [s.name for s in server.seats()] == ["Ana", "ana (2)", "Ana (3)"]
        for wire in wires:
            wire.close()


async def test_names_that_draw_nothing_are_refused_and_lookalikes_told_apart() -> None:
    """A name of Hangul fillers and braille blanks (printable, yet drawn as nothing) is
    refused like one of spaces; a name that only looks like a seated one (a filler after
    it, full-width letters) gets a number, as an exact one does."""
    async with table(seats=3) as server:
        wires = [
            (await seated(server.port, count_hello(name)))[0]
            for name in ("Alice", "Alice\u3164", "\uff21\uff4c\uff49\uff43\uff45")
        ]
        assert [s.name for s in server.seats()] == ["Alice", "Alice\u3164 (2)", "Ａｌｉｃｅ (3)"]
        for blank in ("\u3164", "\u2800 \u2800", "\u115f\u1160\uffa0"):
            wire = await Wire.open(server.port)
            reply = await wire.answer(count_hello(blank, role="spectator"))
            assert (reply["type"], reply["code"]) == ("error", "bad_message"), blank
            wire.close()
        for wire in wires:
            wire.close()
