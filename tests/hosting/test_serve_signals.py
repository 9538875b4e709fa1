"""``poissonnier serve`` lets nobody in before it says it is ready, and Ctrl-C stops it
cleanly at any moment: while it opens (zeroconf registering), once ready, mid-game.

The window while it opens is held open in-process (a registration that waits for
the test); the other moments run the real command in a private network
namespace (:mod:`netns`), where the table advertises itself.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket

import pytest
from netns import LOOPBACK, Proc, in_netns, poissonnier, wait_for
from rawwire import Wire, hello

from poissonnier_tui import __version__
from poissonnier_tui.commands.serve import _serve
from poissonnier_tui.hosting.tables import HostedTable, TableSettings

READY = "Table 'Signals' (Le Poissonnier) on"
"""The start of the line ``serve`` prints once the table is ready."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
    return port


async def serve(port: int, *more: str) -> Proc:
    return await poissonnier(
        "serve", "--table", "Signals", "--seats", "2", "--interface", LOOPBACK,
        "--port", str(port), *more, label="serve",
    )  # fmt: skip


def clean(proc: Proc) -> None:
    assert "Traceback" not in proc.text and "Error" not in proc.text, proc.text


class SlowAdvert:
    """Stands in for zeroconf's registration: blocks until :attr:`gate` opens."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        async def advertise(table: HostedTable) -> None:
            self.entered.set()
            await self.gate.wait()

        monkeypatch.setattr(HostedTable, "advertise", advertise)


async def opening(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[SlowAdvert, int, asyncio.Future[int]]:
    """``serve`` started in-process and held where it registers its advert:
    the advert, the table's port, and the running command."""
    advert = SlowAdvert()
    advert.install(monkeypatch)
    port = free_port()
    running = asyncio.ensure_future(_serve(TableSettings(name="Signals", seats=2, port=port)))
    async with asyncio.timeout(10):
        await advert.entered.wait()
    return advert, port, running


async def test_nobody_is_admitted_while_the_table_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    advert, port, running = await opening(monkeypatch)
    early = await Wire.open(port)  # the port is bound: the kernel queues the connection
    await early.send(hello("poissonnier", __version__, "Early"))
    with pytest.raises(TimeoutError):
        await early.read(timeout=0.3)  # not a byte while the table is not ready
    assert READY not in capsys.readouterr().out
    advert.gate.set()
    assert (await early.read(timeout=5))["type"] == "welcome"  # admitted once ready
    assert READY in capsys.readouterr().out
    os.kill(os.getpid(), signal.SIGINT)
    assert await running == 0
    out = capsys.readouterr()
    assert "Table closed." in out.out and "Traceback" not in out.out + out.err
    early.close()


async def test_ctrl_c_while_the_table_opens_is_clean(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _advert, port, running = await opening(monkeypatch)
    os.kill(os.getpid(), signal.SIGINT)
    assert await running == 0
    out = capsys.readouterr()
    assert "Stopped before the table was ready." in out.out
    assert "Traceback" not in out.out + out.err
    with pytest.raises(OSError):  # nothing left listening
        await asyncio.open_connection(LOOPBACK, port)


@in_netns
async def test_ctrl_c_once_ready_and_mid_game_is_clean() -> None:
    port = free_port()
    proc = await serve(port, "--bots", "1", "--start-when-full")
    await wait_for(lambda: proc.line(READY) is not None, 20, "ready")
    player = await Wire.open(port)
    welcome = await player.answer(hello("poissonnier", __version__, "Ana"))
    assert welcome["type"] == "welcome"
    await player.until("view", timeout=10)  # the game is on
    proc.proc.send_signal(signal.SIGINT)
    assert await proc.wait(15) == 0
    clean(proc)
    assert "Table closed." in proc.text
    assert (await player.until("bye"))["reason"] == "closing"
    player.close()

    for delay in (0.0, 0.3):  # at start-up, and soon after
        proc = await serve(free_port())
        await asyncio.sleep(delay)
        proc.proc.send_signal(signal.SIGINT)
        code = await proc.wait(15)
        print(f"MEASURE Ctrl-C {delay} s after start: exit {code}")
        if code == 1 and "Fatal Python error: init_import_site" in proc.text:
            # The signal came while the interpreter itself was still starting (importing
            # its site packages), before any of our code ran: Python's own words.
            assert proc.text.rstrip().endswith("KeyboardInterrupt"), proc.text
            continue
        # Before Python's own handler is in place the signal just ends the process.
        assert code in (0, 130, -signal.SIGINT), proc.text
        clean(proc)
