"""Presence on real screens: a player's client dies mid-game (Pilot, real table).

Every other client (a player and a spectator) sees the seat offline with how
long and the countdown before the table plays for it (RULES.md R6); when the
table plays the default, their log names the table, not the player.
"""

from __future__ import annotations

import time

from pilot import until
from test_app_lan import HOST, hosting

from net.client import TableClient
from poissonnier_tui import __version__
from poissonnier_tui.games import DEFAULT_GAME as GAME
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.players import COLUMNS, PlayersTable
from poissonnier_tui.shell.app import JoinSession, PoissonnierApp


def _now_cell(app: PoissonnierApp, seat: int) -> str:
    """The Now cell of ``seat`` in the players pane ("" until it is shown)."""
    found = app.screen.query(PlayersTable)
    if not found or found.first().row_count <= seat:
        return ""
    return found.first().get_cell_at((seat, COLUMNS.index("Now"))).plain


def _log_lines(app: PoissonnierApp) -> list[str]:
    found = app.screen.query(GameLog)
    return [t.plain for t in found.first()._texts] if found else []


async def test_a_killed_client_is_shown_offline_with_a_countdown_and_the_table_moves_for_him() -> (
    None
):
    async with hosting(seats=3, bots=1, absent_grace=2.0) as table:
        ben = await TableClient.connect(HOST, table.port, name="Ben", app_version=__version__,
                                        game=GAME)  # fmt: skip
        ana = PoissonnierApp(JoinSession(HOST, table.port, name="Ana", game=GAME))
        async with ana.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: ana.seat is not None)
            await table.server.start()
            await until(pilot, lambda: isinstance(ana.screen, TableScreen))
            assert ben.seat == 0 and ana.seat == 1
            killed = time.monotonic()
            ben._conn.abort("killed")  # the process dies: no goodbye
            await until(pilot, lambda: _now_cell(ana, 0).startswith("offline"))
            seen_offline = time.monotonic() - killed
            cell = _now_cell(ana, 0)
            assert "0:0" in cell and "⏱" in cell, cell  # away for seconds, R6 countdown
            assert any("Ben went offline" in line for line in _log_lines(ana))
            # The grace runs out: the table declares Ben ready, and says it did.
            await until(
                pilot,
                lambda: any(line.startswith("The table declared Ben ready (away, R6)")
                            for line in _log_lines(ana)),
            )  # fmt: skip
            assert not any(line.startswith("Ben declared ready") for line in _log_lines(ana))
            print(f"kill -> others see offline: {seen_offline * 1000:.0f} ms")
        await ben.close()
