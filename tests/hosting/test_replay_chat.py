"""The table chat in a replay: each message at the step it was said (net/chat.py)."""

from __future__ import annotations

from pathlib import Path

from logcheck import play_log
from pilot import until

from net.tablelog import LogWriter, read_log
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.hosting.replay import Replay
from poissonnier_tui.shell.replay_app import ReplayApp


def test_a_replay_shows_the_chat_said_by_each_step_and_the_game_is_unchanged(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chat.plog"
    played = play_log(path, seed=24, players=3, actions=8, humans=1)
    writer = LogWriter.reopen(path, read_log(path).valid_bytes)
    writer.append_chat(0, "P0", "How much for the bass?", 3)
    writer.append_chat(None, "Eve", "Too expensive!", 8)
    replay = Replay.load(path)
    assert replay.problem is None and replay.steps == len(played) == 8
    assert [m.action for m in replay.moves] == [a for _, a in played]
    assert replay.chat_at(2) == []
    assert [(c.seat, c.text) for c in replay.chat_at(3)] == [(0, "How much for the bass?")]
    assert [(c.name, c.text) for c in replay.chat_at(8)] == [
        ("P0", "How much for the bass?"),
        ("Eve", "Too expensive!"),
    ]
    assert len(read_log(path).chats) == 2


async def test_the_replay_viewer_writes_the_chat_said_by_the_step_shown(tmp_path: Path) -> None:
    path = tmp_path / "chat.plog"
    play_log(path, seed=24, players=3, actions=8, humans=1)
    writer = LogWriter.reopen(path, read_log(path).valid_bytes)
    writer.append_chat(1, "Bot 1", "3 coins and it's yours", 4)
    app = ReplayApp(Replay.load(path))
    async with app.run_test(size=(160, 50)) as pilot:
        log = app.screen.query_one(GameLog)

        def text() -> str:
            return "\n".join(line.text for line in log.lines)

        assert "3 coins" not in text()  # step 0: not said yet
        for _ in range(4):
            await pilot.press("right")
        await until(pilot, lambda: "Bot 1: 3 coins and it's yours" in text())
        await pilot.press("left")
        await until(pilot, lambda: "3 coins" not in text())
