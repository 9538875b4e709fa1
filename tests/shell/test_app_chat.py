"""The table chat in the app: ``k`` opens it, game keys never fire while typing,
quick phrases, Esc returns; what is said shows in the table's log (net/chat.py)."""

from __future__ import annotations

from pilot import until

from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.chat import ChatScreen
from poissonnier_tui.shell.session import SoloSession


def log_text(app: PoissonnierApp) -> str:
    return "\n".join(line.text for line in app.screen.query_one(GameLog).lines)


async def test_a_player_chats_with_a_line_and_a_quick_phrase_and_no_game_key_fires() -> None:
    session = SoloSession(bots=2, seed=5, bot_delay=0.0, name="Ana")
    app = PoissonnierApp(session)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.snapshot is not None and app._table is app.screen)
        assert app.snapshot is not None and app.snapshot.phase == "fill"
        assert not app.snapshot.view["seats"][0]["ready"]
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen))
        # "r" is ready and "e" ends a turn at the table: here they are letters.
        await pilot.press(*"ready? e", "enter")
        await until(pilot, lambda: [h.text for h in app.heard] == ["ready? e"])
        assert app._table is app.screen and app.snapshot is not None
        assert not app.snapshot.view["seats"][0]["ready"]  # "r" did not get us ready
        assert app.snapshot.phase == "fill" and app.last_error is None
        assert app.heard[0].name == "Ana" and app.heard[0].seat == 0
        assert "Ana: ready? e" in log_text(app)
        await pilot.press("k", "down", "down", "enter")  # the second quick phrase
        await until(pilot, lambda: len(app.heard) == 2)
        assert app.heard[1].text == "Too expensive!"
        await pilot.press("k", "x", "escape")  # Esc: back, nothing sent
        await until(pilot, lambda: app._table is app.screen)
        await pilot.pause(0.2)
        assert len(app.heard) == 2 and "Ana: Too expensive!" in log_text(app)
