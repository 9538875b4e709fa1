"""The LAN screens with keys: the lobby of tables, joining, errors, reconnecting, hosting.

Tables are real ``TableServer``s on 127.0.0.1 (``tables.open_table``, not
advertised); the lobby's zeroconf browser is replaced by :class:`FakeBrowser`
so the test says exactly which tables appear, change and vanish (the real
browser is exercised in ``test_lan_processes.py``, in a network namespace).
Seat tokens go to a :class:`TokenStore` in ``tmp_path``.
"""

from __future__ import annotations

import signal
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from netns import LOOPBACK, in_netns, poissonnier, wait_for
from pilot import mounted, until
from textual.widgets import Input, OptionList, Static

from net.client import TableClient
from net.discovery import Advertiser, Browser, TableAd, TableCallback
from net.frames import PROTOCOL_VERSION
from net.messages import SeatInfo
from net.tablelog import read_log
from poissonnier_tui import __version__
from poissonnier_tui.games import DEFAULT_GAME as GAME
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.hosting.lan import DEFAULT_PORT
from poissonnier_tui.hosting.persistence import list_games
from poissonnier_tui.hosting.tables import HostedTable, TableSettings, open_table
from poissonnier_tui.hosting.tokens import TokenStore
from poissonnier_tui.shell.app import BrowseSession, HostSession, PoissonnierApp
from poissonnier_tui.shell.screens.browse import BrowseScreen, TableBrowser
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.screens.seats_dialog import SeatsDialog
from poissonnier_tui.shell.seats import SeatLabel

HOST = "127.0.0.1"


class FakeBrowser:
    """Stands in for zeroconf: the test announces tables with :meth:`show` and :meth:`vanish`."""

    def __init__(self, on_change: TableCallback, interface: str | None) -> None:
        self.on_change = on_change
        self.interface = interface
        self.running = False

    async def start(self) -> None:
        self.running = True

    async def close(self) -> None:
        self.running = False

    def show(self, ad: TableAd) -> None:
        self.on_change(f"{ad.name}._poissonnier._tcp.local.", ad)

    def vanish(self, name: str) -> None:
        self.on_change(f"{name}._poissonnier._tcp.local.", None)


class Browsers:
    """A browser factory that remembers the browsers it made."""

    def __init__(self) -> None:
        self.made: list[FakeBrowser] = []

    def __call__(self, on_change: TableCallback, interface: str | None) -> TableBrowser:
        self.made.append(FakeBrowser(on_change, interface))
        return self.made[-1]

    @property
    def last(self) -> FakeBrowser:
        return self.made[-1]


def ad_for(table: HostedTable, **changes: object) -> TableAd:
    fields: dict[str, object] = {
        "name": table.settings.name, "address": HOST, "port": table.port,
        "protocol": PROTOCOL_VERSION, "app": __version__, "game": GAME,
        "taken": sum(s.kind != "open" for s in table.server.seats()),
        "seats": table.settings.seats, "state": table.server.phase,
        "spectators": table.settings.spectators, "code": table.settings.code is not None,
    }  # fmt: skip
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


@asynccontextmanager
async def hosting(**settings: object) -> AsyncIterator[HostedTable]:
    base: dict[str, object] = {
        "name": "Friday", "seats": 3, "bots": 1, "bot_delay": 0.0, "port": 0,
        "interface": HOST, "advertise": False, "seed": 3, "absent_grace": None,
    }  # fmt: skip
    base.update(settings)
    table = await open_table(TableSettings(**base))  # type: ignore[arg-type]
    try:
        yield table
    finally:
        await table.close()


def lobby_of(app: PoissonnierApp) -> BrowseScreen:
    screen = app.lobby_screen
    assert screen is not None
    return screen


def prompts(screen: BrowseScreen) -> list[tuple[str, bool]]:
    """Each listed table's text and whether it is greyed out."""
    options = screen.query_one(OptionList).options
    return [(str(o.prompt), o.disabled) for o in options]


async def test_lobby_lists_tables_live_greys_old_versions_and_joins(tmp_path: Path) -> None:
    browsers = Browsers()
    tokens = TokenStore(tmp_path / "seats.json")
    async with hosting() as table:
        app = PoissonnierApp(BrowseSession(name="Ben"), tokens=tokens, browser_factory=browsers)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: bool(browsers.made) and browsers.last.running)
            screen = lobby_of(app)
            assert prompts(screen) == []
            # Appear: ours, and one of another version (greyed out, both versions named).
            browsers.last.show(ad_for(table))
            browsers.last.show(ad_for(table, name="Old", app="0.0.9", port=1))
            await pilot.pause()
            listed = prompts(screen)
            assert [disabled for _, disabled in listed] == [False, True]
            assert listed[0][0].startswith("Friday") and "1/3 seats" in listed[0][0]
            assert (
                "cannot join: it runs poissonnier 0.0.9 (protocol 1); "
                f"you have {__version__} (protocol {PROTOCOL_VERSION})"
            ) in listed[1][0]
            # Update, then vanish.
            browsers.last.show(ad_for(table, taken=2))
            browsers.last.vanish("Old")
            await pilot.pause()
            listed = prompts(screen)
            assert len(listed) == 1 and "2/3 seats" in listed[0][0]

            await pilot.press("enter")
            await until(pilot, lambda: app.seat is not None and len(app.seats) == 3)
            assert isinstance(app.screen, ConnectingScreen)
            assert app.seat == 0 and app.seats[0] == SeatLabel("Ben", "human", True)
            saved = tokens.find(f"{HOST}:{table.port}")
            assert saved is not None and (saved.table, saved.seat) == ("Friday", 0)
            assert saved.token == app.token


async def test_wrong_code_then_the_right_one_and_late_join_offers_to_watch(
    tmp_path: Path,
) -> None:
    browsers = Browsers()
    async with hosting(code="sesame") as table:
        app = PoissonnierApp(
            BrowseSession(name="Ben"),
            tokens=TokenStore(tmp_path / "seats.json"),
            browser_factory=browsers,
        )
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: bool(browsers.made))
            browsers.last.show(ad_for(table))
            await pilot.pause()
            assert "code needed" in prompts(lobby_of(app))[0][0]
            await pilot.press("enter")  # no code typed
            await until(pilot, lambda: "join code is needed" in lobby_of(app).status)
            screen = lobby_of(app)
            assert app.screen is screen
            assert "Type the join code in the Code field" in screen.status
            assert screen.query_one("#address", Input).value == f"{HOST}:{table.port}"
            assert app.focused is screen.query_one("#code", Input)
            await pilot.press(*"sesame")
            screen.query_one("#address", Input).focus()
            await pilot.press("enter")
            await until(pilot, lambda: app.seat == 0)
            assert table.server.seats()[0] == SeatInfo("Ben", "human", True)

    async with hosting(seats=2, bots=2) as table:
        await table.server.start()
        app = PoissonnierApp(BrowseSession(name="Cy"), browser_factory=browsers)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: bool(browsers.made) and browsers.last.running)
            browsers.last.show(ad_for(table))
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: "already started" in lobby_of(app).status)
            assert "Press w to watch it as a spectator." in lobby_of(app).status
            await pilot.press("w")
            await until(pilot, lambda: app.snapshot is not None)
            assert app.connected and app.seat is None and app.token is None
            assert app.snapshot is not None and app.snapshot.me is None  # the public view


async def test_host_gone_goes_back_to_the_lobby_and_rejoin_reclaims_the_seat(
    tmp_path: Path,
) -> None:
    tokens = TokenStore(tmp_path / "seats.json")
    browsers = Browsers()
    async with hosting(bots=1, seats=2) as table:
        first = PoissonnierApp(BrowseSession(name="Ana"), tokens=tokens, browser_factory=browsers)
        async with first.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: bool(browsers.made) and browsers.last.running)
            browsers.last.show(ad_for(table))
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: first.seat == 0)
            await table.server.start()
            await until(pilot, lambda: isinstance(first.screen, TableScreen))
            await until(pilot, lambda: mounted(first.screen))  # before we quit
        # The app quit (as with Ctrl-C): the seat is kept, shown as disconnected.
        await until_seat(table, lambda s: not s.connected)
        rev = table.server.rev_for(0)  # seat 0's revision: not the bot's private moves (R15)
        again = PoissonnierApp(BrowseSession(name="Ana"), tokens=tokens, browser_factory=browsers)
        async with again.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: bool(browsers.made) and browsers.last.running)
            browsers.last.show(ad_for(table))
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(again.screen, TableScreen))
            assert again.seat == 0 and again.token == first.token
            assert again.snapshot is not None and again.snapshot.rev == rev
            assert table.server.seats()[0] == SeatInfo("Ana", "human", True)
            assert again.snapshot.view == table.server._table.view(0)

            await table.server.close()  # the host goes away mid-game
            await until(pilot, lambda: isinstance(again.screen, BrowseScreen))
            status = lobby_of(again).status
            assert f"Back from the table at {HOST}:{table.port}: The table closed." in status
            assert "may be gone" not in status  # the host said goodbye: it left on purpose
            assert "take it back" in status
            assert again.snapshot is None and again.is_running


async def until_seat(table: HostedTable, ok: Callable[[SeatInfo], bool]) -> None:
    import asyncio

    async with asyncio.timeout(5):
        while not ok(table.server.seats()[0]):
            await asyncio.sleep(0.02)


async def test_host_adds_bots_of_chosen_levels_starts_and_hands_an_absent_seat_to_a_bot() -> None:
    settings = TableSettings(
        name="Home", seats=3, bots=0, bot_delay=0.0, port=0, interface=HOST,
        advertise=False, seed=3, host_seat=True, absent_grace=None,
    )  # fmt: skip
    app = PoissonnierApp(HostSession(settings, name="Ana"))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.hosted is not None and len(app.seats) == 3)
        hosted = app.hosted
        assert hosted is not None
        screen = app.screen
        assert isinstance(screen, ConnectingScreen)
        assert f"poissonnier join {hosted.address}" in screen.message
        assert {"b", "l", "x", "enter"} <= set(screen.active_bindings)
        assert "b adds a medium bot" in screen.message
        kinds = lambda: [s.kind for s in app.seats]  # noqa: E731
        await pilot.press("l")  # medium -> hard: mixed levels at one table
        assert hosted.level == "hard" and "b adds a hard bot" in screen.message
        await pilot.press("b")
        await until(pilot, lambda: kinds() == ["human", "open", "bot"])
        await pilot.press("l")  # hard -> easy
        await pilot.press("b")
        await until(pilot, lambda: kinds() == ["human", "bot", "bot"])
        assert [s.name for s in app.seats[1:]] == ["Bot 2 · easy", "Bot 3 · hard"]
        await pilot.press("x")
        await until(pilot, lambda: kinds() == ["human", "open", "bot"])
        await pilot.press("enter")  # a seat is open: refused, and said why
        await pilot.pause()
        assert table_phase(hosted) == "lobby"

        ben = await TableClient.connect(
            HOST, hosted.port, name="Ben", app_version=__version__, game=GAME
        )
        await until(pilot, lambda: kinds() == ["human", "human", "bot"])
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        # The bot that plays is the level its name says (the table log names its kind).
        header = read_log(list_games()[0].path).header
        assert [s["bot"] for s in header["seats"]] == [None, None, "hard"]
        token = ben.token
        await ben.close()
        await until(pilot, lambda: not app.seats[1].connected)

        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, SeatsDialog))
        dialog = app.screen
        options = dialog.query_one(OptionList)
        assert [o.disabled for o in options.options] == [True, False, True]
        assert "disconnected" in str(options.options[1].prompt)
        options.highlighted = 1
        await pilot.press("enter")
        await until(pilot, lambda: app.seats[1] == SeatLabel("Ben", "bot", True))
        assert hosted.is_stand_in(1)
        await until(pilot, lambda: "give it back" in str(options.options[1].prompt))

        # Ben comes back with his token and takes the seat from the bot.
        back = await TableClient.connect(
            HOST, hosted.port, name="Ben", app_version=__version__, game=GAME, token=token
        )
        assert back.seat == 1
        await until(pilot, lambda: app.seats[1] == SeatLabel("Ben", "human", True))
        assert not hosted.is_stand_in(1)
        await back.close()
        await pilot.press("escape")


def table_phase(hosted: HostedTable) -> str:
    return hosted.server.phase


# --- with real zeroconf, in a private network namespace (tests/netns.py) -----------------------


@in_netns
async def test_hosted_table_is_advertised_joined_through_discovery_and_closed_by_its_host(
    tmp_path: Path,
) -> None:
    heard: list[TableAd | None] = []
    watcher = Browser(GAME, lambda _name, ad: heard.append(ad), LOOPBACK)
    await watcher.start()

    def listed() -> TableAd | None:
        return next((ad for ad in watcher.tables.values() if ad.name == "Home"), None)

    settings = TableSettings(
        name="Home", seats=3, bots=1, bot_delay=0.0, interface=LOOPBACK, seed=8, host_seat=True
    )
    started = time.monotonic()
    app = PoissonnierApp(HostSession(settings, name="Ana", autoplay=True))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: listed() is not None, 10)
        print(f"\nMEASURE discovery (host app started -> table listed): "
              f"{time.monotonic() - started:.2f} s")  # fmt: skip
        ad = listed()
        assert ad is not None and (ad.taken, ad.seats, ad.state) == (2, 3, "lobby")
        assert ad.port == DEFAULT_PORT and app.seat == 0

        ben = await poissonnier(
            "join", "--headless", "--interface", LOOPBACK, "--name", "Ben", "--seed", "2",
            state=tmp_path / "ben", label="Ben",
        )  # fmt: skip
        names = ["Ana", "Ben", "Bot 3 · medium"]
        await until(pilot, lambda: [s.name for s in app.seats] == names, 15)
        await until(pilot, lambda: (listed() or ad).taken == 3, 5)
        await pilot.press("enter")
        await until(pilot, lambda: app.snapshot is not None and app.snapshot.rev >= 12, 20)
        assert "Found table 'Home'" in ben.text and "in seat 2" in ben.text
        assert any(a is not None and a.state == "playing" for a in heard)
        assert app.snapshot is not None and not app.snapshot.over
    # The host quit mid-game: the player is told, and the advert says goodbye.
    assert await ben.wait(10) == 1
    assert "lost the table before the end: The table said goodbye (closing)." in ben.text
    # The host quit: the advert says goodbye.
    await wait_for(lambda: listed() is None, 5, "the goodbye")
    await watcher.close()


@in_netns
async def test_lobby_screen_follows_real_adverts_and_greys_another_version() -> None:
    serve = await poissonnier(
        "serve", "--table", "Live", "--seats", "3", "--bots", "1", "--interface", LOOPBACK,
        label="serve",
    )  # fmt: skip
    other = Advertiser(
        TableAd(
            name="Oldies", address="", port=4000, protocol=PROTOCOL_VERSION, app="0.0.1",
            game=GAME, taken=0, seats=4, state="lobby", spectators=True,
        ),
        LOOPBACK,
    )  # fmt: skip
    await other.start()
    app = PoissonnierApp(BrowseSession(name="Cy", interface=LOOPBACK))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = lobby_of(app)
        await until(pilot, lambda: len(prompts(screen)) == 2, 10)
        (live, live_off), (old, old_off) = prompts(screen)
        assert live.startswith("Live") and "1/3 seats" in live and not live_off
        assert old.startswith("Oldies") and old_off
        assert f"cannot join: it runs poissonnier 0.0.1 (protocol {PROTOCOL_VERSION})" in old

        dee = await TableClient.connect(
            LOOPBACK, DEFAULT_PORT, name="Dee", app_version=__version__, game=GAME
        )
        await until(pilot, lambda: "2/3 seats" in prompts(screen)[0][0], 5)
        await other.close()
        await until(pilot, lambda: len(prompts(screen)) == 1, 5)
        await dee.close()
        serve.proc.send_signal(signal.SIGTERM)
        assert await serve.wait(10) == 0
        await until(pilot, lambda: prompts(screen) == [], 5)
        assert "Looking for tables" in str(screen.query_one("#empty", Static).render())
