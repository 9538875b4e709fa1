"""The table chat in a replay: each message at the step it was said (net/chat.py)."""

from __future__ import annotations

from pathlib import Path

from logcheck import play_log

from net.tablelog import LogWriter, read_log
from poissonnier_tui.hosting.replay import Replay


def test_a_replay_shows_the_chat_said_by_each_step_and_the_game_is_unchanged(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chat.plog"
    played = play_log(path, seed=24, players=3, actions=8, humans=1)
    writer = LogWriter.reopen(path, path.stat().st_size)
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
