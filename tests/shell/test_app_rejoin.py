"""The app gets back to a table that crashed, by itself (Pilot, real tables in process).

The table's server vanishes without a goodbye (its sockets aborted, as a
``kill -9`` would), then is resumed from its log on the same port. The app
shows "Host lost — reconnecting…" meanwhile, keeps trying
(``net.reconnect.reconnect_table``) and retakes its seat the moment the table
is back; ``c`` stops trying.
"""

from __future__ import annotations

import time
from dataclasses import replace

from pilot import mounted, until
from test_app_lan import HOST
from textual.pilot import Pilot

from net.server import TableServer
from poissonnier_tui.games import DEFAULT_GAME as GAME
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.hosting.persistence import games_dir, plan_resume
from poissonnier_tui.hosting.tables import HostedTable, TableSettings, open_table, resume_server
from poissonnier_tui.shell.app import JoinSession, PoissonnierApp
from poissonnier_tui.shell.screens.connecting import ConnectingScreen


def _settings() -> TableSettings:
    return TableSettings(
        name="Friday", seats=2, bots=1, bot_delay=0.0, port=0, interface=HOST,
        advertise=False, seed=3, absent_grace=None,
    )  # fmt: skip


async def _crash(server: TableServer) -> None:
    """Kill the table as ``kill -9`` would: no goodbye, the port closed."""
    listening = server._server
    assert listening is not None
    listening.close()
    for client in list(server._clients):
        client.conn.abort("crash")
    server._keeper.close()
    server._closing = True
    await listening.wait_closed()


async def _at_the_table(pilot: Pilot[None], app: PoissonnierApp, table: HostedTable) -> None:
    """Seated at ``table``, its game started, the table screen shown."""
    await until(pilot, lambda: app.seat == 0)
    await table.server.start()
    await until(pilot, lambda: isinstance(app.screen, TableScreen))


def _message(app: PoissonnierApp) -> str:
    screen = app.connecting_screen
    return screen.message if screen is not None else ""


async def test_the_app_retakes_its_seat_when_a_crashed_table_is_resumed() -> None:
    table = await open_table(_settings())
    port = table.port
    app = PoissonnierApp(JoinSession(HOST, port, name="Ana", game=GAME))
    async with app.run_test(size=(120, 40)) as pilot:
        await _at_the_table(pilot, app, table)
        token, rev = app.token, table.server.rev
        await _crash(table.server)
        await until(pilot, lambda: "reconnecting" in _message(app))
        assert isinstance(app.screen, ConnectingScreen) and not app.connected
        assert app.rejoining and app.is_running
        await until(pilot, lambda: "attempt 2" in _message(app))  # still trying
        [log] = sorted(games_dir().glob("*"))
        resumed, _ = resume_server(plan_resume(log, confirm=lambda _q: True), port=port,
                                   host=HOST, bot_delay=0.0)  # fmt: skip
        await resumed.open()
        opened = time.monotonic()
        await until(pilot, lambda: app.connected and isinstance(app.screen, TableScreen), 15)
        back = time.monotonic() - opened
        assert app.seat == 0 and app.token == token and not app.rejoining
        assert resumed.seats()[0].connected and resumed.rev >= rev
        await until(pilot, lambda: app.snapshot is not None and app.snapshot.rev == resumed.rev)
        print(f"host resume -> client back in its seat: {back * 1000:.0f} ms")
        await resumed.close()
    await table.server.close()


async def test_back_at_a_table_resumed_just_as_it_was() -> None:
    """The table is resumed showing exactly what it showed at the crash (its bot is
    slow to move): nothing new to draw, yet the app leaves "reconnecting" for the
    table (a player once sat on the waiting screen until someone moved)."""
    settings = _settings()
    slow = 60.0  # the bot does not move before the test ends, before or after the crash
    table = await open_table(replace(settings, bot_delay=slow))
    port = table.port
    app = PoissonnierApp(JoinSession(HOST, port, name="Ana", game=GAME))
    async with app.run_test(size=(120, 40)) as pilot:
        await _at_the_table(pilot, app, table)
        await until(pilot, lambda: mounted(app.screen))
        await pilot.press("r")  # Ana is ready: one action in the log
        await until(pilot, lambda: table.server.rev == 1 and app.snapshot is not None
                    and app.snapshot.rev == 1)  # fmt: skip
        before = app.snapshot
        await _crash(table.server)
        await until(pilot, lambda: "reconnecting" in _message(app))
        [log] = sorted(games_dir().glob("*"))
        resumed, _ = resume_server(plan_resume(log, confirm=lambda _q: True), port=port,
                                   host=HOST, bot_delay=slow)  # fmt: skip
        await resumed.open()
        await until(pilot, lambda: app.connected and isinstance(app.screen, TableScreen), 15)
        assert app.snapshot == before and resumed.rev == 1  # the very same moment
        await resumed.close()
    await table.server.close()


async def test_a_spectator_watches_again_when_a_crashed_table_is_resumed() -> None:
    """A spectator has no seat to retake, but a table that vanished without a goodbye
    may come back all the same: it keeps trying too, and watches on once it does."""
    table = await open_table(replace(_settings(), bots=2, bot_delay=0.3))
    port = table.port
    app = PoissonnierApp(JoinSession(HOST, port, name="Sue", role="spectator", game=GAME))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.connected)
        await table.server.start()
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await until(pilot, lambda: table.server.rev >= 2)  # the bots' moves are logged
        await _crash(table.server)
        await until(pilot, lambda: "reconnecting" in _message(app))
        assert app.seat is None and app.rejoining
        [log] = sorted(games_dir().glob("*"))
        resumed, _ = resume_server(plan_resume(log, confirm=lambda _q: True), port=port,
                                   host=HOST, bot_delay=0.3)  # fmt: skip
        await resumed.open()
        await until(pilot, lambda: app.connected and isinstance(app.screen, TableScreen), 15)
        assert app.seat is None and not app.rejoining
        await resumed.close()
    await table.server.close()


async def test_c_stops_reconnecting() -> None:
    table = await open_table(_settings())
    app = PoissonnierApp(JoinSession(HOST, table.port, name="Ana", game=GAME))
    async with app.run_test(size=(120, 40)) as pilot:
        await _at_the_table(pilot, app, table)
        await _crash(table.server)
        await until(pilot, lambda: "reconnecting" in _message(app))
        await pilot.press("c")
        await until(pilot, lambda: app.failed)
        assert not app.rejoining and "Stopped reconnecting" in _message(app)
        assert not [w for w in app.workers if w.group == "table" and w.is_running]
    await table.server.close()


async def test_the_lobbys_toasts_do_not_follow_into_the_table() -> None:
    table = await open_table(_settings())
    app = PoissonnierApp(JoinSession(HOST, table.port, name="Ana", game=GAME))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.seat == 0)
        app.notify("A table of the lobby changed.", timeout=60)
        await pilot.pause()
        assert len(app._notifications) == 1
        await table.server.start()
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert len(app._notifications) == 0
        await until(pilot, lambda: mounted(app.screen))  # before we quit
    await table.server.close()
