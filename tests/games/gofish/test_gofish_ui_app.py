"""End to end: the real app, a solo Go Fish table on 127.0.0.1, bots, keys only.

``PoissonnierApp(SoloSession(game="gofish"))`` starts an in-process table with
two bots (no delay, a fixed seed) and joins it over TCP. The test asks with keys
only — a seat number, then a rank key, then in §6 a suit key — until the game is
over, checks the results the app opens, goes back to the table with Escape and
returns with Enter. Every wait polls the app's state.
"""

from __future__ import annotations

from typing import Any

from pilot import until
from textual.widgets import Static

from poissonnier_tui.games.gofish.ui.reader import GoFishSnapshot
from poissonnier_tui.games.gofish.ui.screens import ResultsScreen, TableScreen
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession


def keys_for(ask: dict[str, Any], players: int) -> list[str]:
    """The keys that make ``ask`` on the table screen."""
    keys = [] if players == 2 else [str(ask["target"] + 1)]
    keys.append("0" if ask["rank"] == "10" else ask["rank"].lower())
    if "suit" in ask:
        keys.append(ask["suit"].lower())
    return keys


def current(app: PoissonnierApp) -> GoFishSnapshot:
    """The app's latest Go Fish snapshot."""
    assert isinstance(app.snapshot, GoFishSnapshot)
    return app.snapshot


async def play_to_the_end(options: dict[str, Any] | None, bots: int) -> None:
    app = PoissonnierApp(
        SoloSession(bots=bots, seed=5, name="Ana", bot_delay=0.0, game="gofish", options=options)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert (app.title, app.sub_title) == ("Go Fish", "Solo")  # the header names the game
        asks = 0
        for _ in range(200):
            await until(
                pilot,
                lambda: app.snapshot is not None and (app.snapshot.over or app.snapshot.my_turn),
            )
            snap = current(app)
            if snap.over:
                break
            rev = snap.rev
            if asks == 0:  # the prompt names the next key: with one opponent, the rank
                await pilot.pause()
                status = str(app.screen.query_one("#gf-status", Static).render())
                wanted = "for which rank?" if snap.players == 2 else "number of the player"
                assert wanted in status, status
            ask = snap.legal[-1]  # the last legal ask: round the table, a high rank
            await pilot.press(*keys_for(ask, snap.players))
            await until(pilot, lambda rev=rev: current(app).rev > rev)  # type: ignore[misc]
            mine = [e for e in current(app).view["log"] if e["t"] == "ask" and e["seat"] == 0]
            assert {k: mine[-1][k] for k in ask if k != "type"} == {
                k: v for k, v in ask.items() if k != "type"
            }
            asks += 1
        snap = current(app)
        assert snap.over and asks > 0
        # The app opens the results at the end; Escape shows the final table, Enter again
        # the results.
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        status = str(app.screen.query_one("#gf-status", Static).render())
        assert "The game is over." in status
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        text = str(app.screen.query_one("#gf-results-text", Static).render())
        books = {int(s["seat"]): int(s["books"]) for s in snap.result["scores"]}
        best = max(books.values())
        assert sorted(snap.winners) == sorted(s for s, b in books.items() if b == best)
        assert f"seed {snap.result['seed']}" in text
        if snap.result["shared"]:
            assert "Shared victory!" in text
        elif snap.winners == [0]:
            assert "You won!" in text
        else:
            assert f"{snap.name(snap.winners[0])} won." in text


async def test_solo_game_to_the_results_by_keys() -> None:
    await play_to_the_end(None, bots=2)


async def test_solo_card_variant_asks_with_a_suit_key() -> None:
    await play_to_the_end({"variant": "card"}, bots=1)
