"""End to end: the real app, a solo table on 127.0.0.1, bots, keys only.

``PoissonnierApp(SoloSession(...))`` starts an in-process ``TableServer``
with bots and joins it over real TCP (docs/ARCHITECTURE.md "Textual": one code path).
The test plays with key presses only: it fills a crate, declares ready
(RULES.md §3.2), then on its turn serves a client or ends the turn (§3.4),
and checks what the screen shows. Bots move with no delay and a fixed seed,
and every wait polls the app's state with a timeout instead of sleeping.
"""

from __future__ import annotations

from pilot import mounted, until

from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.ui.screens.serve_dialog import ServeDialog
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.players import PlayersTable
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.session import JoinSession, SoloSession

SEED = 3
"""With 2 bots, seat 0 (the human) plays turn 2 and its queue starts with an undecided client."""


def waited_on(app: PoissonnierApp, phase: str) -> bool:
    """The game is in ``phase`` and waits for this seat."""
    snap = app.snapshot
    return snap is not None and snap.phase == phase and snap.me in snap.waiting_on


def my_serve(app: PoissonnierApp) -> bool:
    """It is this seat's turn to serve (§3.4) and the game waits for it."""
    return waited_on(app, "serve") and app.snapshot is not None and app.snapshot.my_turn


async def test_solo_fill_ready_and_serve_with_keys_only() -> None:
    app = PoissonnierApp(SoloSession(bots=2, seed=SEED, name="Ana", bot_delay=0.0))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: waited_on(app, "fill") and isinstance(app.screen, TableScreen))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await until(pilot, lambda: bool(screen.query_one(HandView).selection))
        hand = screen.query_one(HandView)
        chosen = list(hand.selection)  # the cursor's whole freshness is selected
        code = chosen[0][0]

        # §3.2: the selection goes into crate 1 (keys only).
        await pilot.press("1")
        await until(pilot, lambda: app.snapshot is not None and bool(app.snapshot.crates[0]))
        assert app.snapshot is not None
        assert sorted(app.snapshot.crates[0]) == sorted(chosen)
        await pilot.pause()
        assert screen.query_one(MyStall).crate(0).fish == code * len(chosen)
        assert not set(chosen) & set(app.snapshot.hand)

        # Ready: the log says so, and the turn moves on once everyone is.
        await pilot.press("r")
        await until(
            pilot,
            lambda: any(
                e.get("t") == "ready" and e.get("seat") == 0
                for e in (app.snapshot.view["log"] if app.snapshot else [])
            ),
        )
        await pilot.pause()
        log_text = "\n".join(line.text for line in screen.query_one(GameLog).lines)
        assert "You declared ready." in log_text

        # Play on with keys until it is our turn to serve (ready in each fill step).
        # A bot serving may ask us for fish (§4): decline with x.
        for _ in range(30):
            await until(pilot, lambda: waited_on(app, "fill") or waited_on(app, "serve"))
            if my_serve(app):
                break
            if waited_on(app, "serve"):
                rev = app.snapshot.rev if app.snapshot else -1
                await pilot.press("x")
                await until(pilot, lambda r=rev: app.snapshot is not None and app.snapshot.rev > r)
                continue
            await pilot.press("r")
            await until(pilot, lambda: not waited_on(app, "fill"))
        snap = app.snapshot
        assert snap is not None and snap.my_turn and snap.phase == "serve"
        assert "Your turn" in str(screen.query_one(StatusLine).render())
        turn, won = snap.view["turn"], list(snap.seat(0)["clients"])

        # §3.4: s then 1 opens the serve dialog for the first client.
        await pilot.press("s", "1")
        await until(pilot, lambda: isinstance(app.screen, ServeDialog))
        dialog = app.screen
        assert isinstance(dialog, ServeDialog)
        if dialog.options:
            client = dialog.client_id
            await pilot.press("enter")
            await until(
                pilot,
                lambda: app.snapshot is not None and client in app.snapshot.seat(0)["clients"],
            )
            assert app.snapshot is not None
            assert client not in app.snapshot.queue
            await pilot.pause()
            players = screen.query_one(PlayersTable)
            assert str(players.get_cell_at((0, 2))) == str(len(won) + 1)  # the Clients column
        else:
            await pilot.press("escape", "e")
            await until(
                pilot, lambda: app.snapshot is not None and app.snapshot.view["turn"] > turn
            )
        assert app.last_error is None


async def test_join_unreachable_table_says_why_and_offers_retry() -> None:
    """A failed join is shown on screen (with ``r`` to try again), never a silent exit."""
    app = PoissonnierApp(JoinSession("127.0.0.1", 9, name="Ben"))  # port 9: nobody listens
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.failed)
        screen = app.screen
        assert isinstance(screen, ConnectingScreen) and screen.failed
        assert "Cannot reach a table at 127.0.0.1:9" in screen.message
        assert "r" in screen.active_bindings
        assert app.is_running


async def test_lan_join_then_table_closes() -> None:
    """Join a table hosted elsewhere; when it goes away the app says so and keeps running."""
    server = TableServer(
        PoissonnierGame(),
        name="Friday",
        seats=3,
        seed=SEED,
        app_version=__version__,
        bots={1: make_bot("greedy", 1), 2: make_bot("greedy", 2)},
        bot_delay=0.0,
        auto_start=True,
    )
    await server.open()
    try:
        app = PoissonnierApp(JoinSession("127.0.0.1", server.port, name="Ben"))
        async with app.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.seat == 0 and app.token
            assert app.snapshot is not None and app.snapshot.name(1) == "Bot 1"
            await server.close()
            await until(pilot, lambda: app.failed)
            screen = app.screen
            assert isinstance(screen, ConnectingScreen) and screen.failed
            assert "r" in screen.active_bindings  # rejoin with the seat's token
            assert app.is_running
            # Let the screen just shown finish mounting before the app closes: Textual's
            # Header sets its title in a task that fails if the app is torn down first.
            await pilot.pause()
    finally:
        await server.close()


async def test_host_sees_the_lobby_and_starts_the_game() -> None:
    """Seat 0 of a LAN table waits in the lobby, sees who sits where, and starts with Enter."""
    server = TableServer(
        PoissonnierGame(),
        name="Friday",
        seats=2,
        seed=SEED,
        app_version=__version__,
        bots={1: make_bot("greedy", 1)},
        bot_delay=0.0,
    )
    await server.open()
    try:
        app = PoissonnierApp(JoinSession("127.0.0.1", server.port, name="Ana"))
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: len(app.seats) == 2 and app.seats[0].name == "Ana")
            screen = app.screen
            assert isinstance(screen, ConnectingScreen)
            assert "Waiting for the game to start" in screen.message
            assert "enter" in screen.active_bindings
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.snapshot is not None and app.snapshot.players == 2
    finally:
        await server.close()


async def test_a_view_that_arrives_while_the_table_is_torn_down_is_dropped() -> None:
    """The app's shutdown removes the table's widgets before the screen; a view from the
    still-open connection can arrive in between (CI saw ``NoMatches: OtherStalls``). It
    must be dropped, not crash the app on its way out."""
    from dataclasses import replace

    app = PoissonnierApp(SoloSession(bots=2, seed=SEED, name="Ana", bot_delay=0.0))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(
            pilot,
            lambda: isinstance(app.screen, TableScreen)
            and app.snapshot is not None
            and mounted(app.screen),  # torn down once up, as the app's shutdown does
        )
        screen = app.screen
        assert isinstance(screen, TableScreen)
        for widget in list(screen.children):
            await widget.remove()  # what Textual's prune does first, child by child
        snap = app.snapshot
        assert snap is not None
        app.snapshot = replace(snap, rev=snap.rev + 1)  # a view arrives now (and the bots'
        await pilot.pause(0.2)  # views keep arriving over the real connection)
        assert screen.snapshot is not None and screen.snapshot.rev > snap.rev
        assert not screen.query(StatusLine)  # dropped quietly: nothing rebuilt, nothing raised
