"""The lobby marks tables that stopped answering or came back, and a table closed from its
own lobby says nothing of it remains (no "your seat is kept")."""

from __future__ import annotations

from pathlib import Path

from pilot import until
from test_app_lan import HOST, Browsers, ad_for, hosting, lobby_of

from net.discovery import TableAd
from poissonnier_tui.hosting.tokens import TokenStore
from poissonnier_tui.shell.app import BrowseSession, PoissonnierApp
from poissonnier_tui.shell.screens.browse import BrowseScreen, table_line

AD = TableAd("Friday", "10.0.0.2", 7374, 1, "0", "poissonnier", 1, 4, "lobby", True)


def test_rows_of_tables_not_answering_or_back_are_marked() -> None:
    assert table_line(AD).plain.startswith("Friday")
    silent = table_line(AD, "not_answering")
    assert silent.plain.startswith("[not answering] Friday")
    assert any("red" in str(span.style) for span in silent.spans)
    assert table_line(AD, "back").plain.startswith("[back] Friday")


async def test_a_table_closed_in_its_lobby_does_not_promise_a_kept_seat(tmp_path: Path) -> None:
    browsers = Browsers()
    async with hosting() as table:
        app = PoissonnierApp(
            BrowseSession(name="Ben"), tokens=TokenStore(tmp_path / "s.json"),
            browser_factory=browsers,
        )  # fmt: skip
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: bool(browsers.made) and browsers.last.running)
            browsers.last.show(ad_for(table))
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: app.seat is not None)
            await table.server.close()  # the host closes the table from its lobby
            await until(pilot, lambda: isinstance(app.screen, BrowseScreen))
            status = lobby_of(app).status
            assert f"The host closed the table at {HOST}:{table.port}" in status
            assert "nothing of it remains" in status
            assert "kept" not in status
