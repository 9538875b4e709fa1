"""One way to build a table (``hosting/tables.py``), for any registered game.

A second game (``toy``, ``tests/support/toygame.py``) goes through every path
Le Poissonnier takes: a solo table with its bots named by level, a game played
over TCP to its end, its log written, replayed, listed by ``history`` and shown
by the replay model; a table resumed from its log.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from net.chat import ChatPolicy
from net.drafts import DraftRules
from net.recorder import parse_header
from net.tablelog import read_log
from poissonnier_tui.client.headless import play_seat
from poissonnier_tui.client.joining import connect_table
from poissonnier_tui.games import game_entry
from poissonnier_tui.hosting.persistence import (
    games_dir,
    list_games,
    plan_resume,
    replay_log,
)
from poissonnier_tui.hosting.replay import ALL_HANDS, Replay
from poissonnier_tui.hosting.tables import (
    TableSettings,
    bot_name,
    kind_for,
    logged_table_options,
    open_table,
    resumed_settings,
    solo_settings,
)


def yes(_question: str) -> bool:
    return True


def test_a_resumed_table_takes_only_sound_logged_options() -> None:
    """A log is a file anyone could edit: a logged time to deal, patience or chat policy
    of the wrong type or out of the command line's ranges leaves the command line's own."""
    mine = TableSettings(name="T", bot_patience=12.0)
    bogus = {
        "drafts": {"seconds": -1, "per_wait": 2.5, "answer_seconds": "40"},
        "bot_patience": True,
        "spectators_heard": "no",
    }
    assert logged_table_options(bogus, mine, ()) == {
        "drafts": DraftRules(), "bot_patience": 12.0, "chat": ChatPolicy()
    }
    assert logged_table_options({"drafts": [1, 2]}, mine, ())["drafts"] == DraftRules()
    sound = {"drafts": {"seconds": 0, "per_wait": 3}, "bot_patience": 4, "spectators_heard": False}
    assert logged_table_options(sound, mine, ("bot_patience",)) == {
        "drafts": replace(DraftRules(), seconds=0.0, per_wait=3),
        "bot_patience": 12.0,
        "chat": ChatPolicy(spectators_to_players=False),
    }


def test_levels_are_handed_out_in_turn_and_named() -> None:
    assert [kind_for(("hard", "easy"), i) for i in range(3)] == ["hard", "easy", "hard"]
    assert bot_name(2, "hard") == "Bot 3 · hard" and bot_name(0) == "Bot 1"
    with pytest.raises(ValueError, match="no bot level"):
        kind_for((), 0)


def test_settings_follow_the_games_limits_levels_and_options(toy: str) -> None:
    assert TableSettings(name="T", game=toy, seats=3, bot_kinds=("hard",)).problems() == []
    assert TableSettings(name="T", game=toy, seats=4, bot_kinds=("hard",)).problems() == [
        "a table of Toy Race has 2 to 3 seats, not 4"
    ]
    assert TableSettings(name="T", game=toy, seats=2, bot_kinds=("medium",)).problems() == [
        "unknown bot level 'medium' for Toy Race; choose from easy, hard"
    ]
    bad = TableSettings(name="T", game=toy, seats=2, bot_kinds=("easy",), options={"target": 99})
    assert bad.problems() == [
        "bad table option for Toy Race: target must be a whole number from 3 to 50, not 99"
    ]
    assert TableSettings(name="T", game="chess").problems() == [
        "unknown game 'chess'; choose from poissonnier, gofish, toy"
    ]


async def test_a_solo_table_of_another_game_is_built_played_logged_and_replayed(
    toy: str,
) -> None:
    settings = solo_settings(toy, bots=2, bot_kinds=("hard", "easy"), seed=11, bot_delay=0)
    table = await open_table(settings)
    try:
        seats = table.server.seats()
        assert [(s.name, s.kind) for s in seats] == [
            ("", "open"),
            ("Bot 2 · hard", "bot"),
            ("Bot 3 · easy", "bot"),
        ]
        assert table.server.game.name == "toy" and table.advertiser is None
        assert table.address == f"127.0.0.1:{table.port}"
        dialled, entry = await connect_table(("127.0.0.1",), table.port, name="Ana")
        client = dialled.client
        assert entry.name == "toy" and client.seat == 0
        result = await play_seat(client, entry.make_bot("easy", 3), game=entry)
        await client.close()
    finally:
        await table.close()
    assert result is not None and result["total"] >= 10
    assert result == table.server.result()
    (path,) = sorted(games_dir().glob("*.plog"))
    log = read_log(path)
    header = parse_header(log.header)
    assert (header.game, header.seed, header.table["solo"]) == ("toy", 11, True)
    assert [s.bot for s in header.seats] == [None, "hard", "easy"]
    assert replay_log(log).match.result() == result == log.end
    (summary,) = list_games()
    assert summary.game == "toy" and summary.finished and summary.problem is None
    assert summary.winners == (("Ana",) if result["winners"] == [0] else (
        header.seats[result["winners"][0]].name,))  # fmt: skip
    assert summary.turns == len(log.actions) + 1  # the toy's view counts moves from turn 1
    shown = Replay.load(path)
    assert shown.game.name == "toy" and shown.finished and shown.steps == len(log.actions)
    assert shown.points_of_view() == [None, 0, 1, 2]  # no every-hand view: the toy has none
    assert shown.view(shown.steps, None)["total"] == result["total"]
    assert shown.view(0, 1)["secret"].startswith("TOYSECRET1x")
    assert "secret" not in shown.view(3, None)
    assert shown.turn_at(3) == 4 and shown.turns == len(log.actions) + 1
    assert shown.move_text(1, 0).startswith(shown.header.seats[log.actions[0].seat].name or "Seat")
    assert not shown.allowed(ALL_HANDS)


async def test_a_table_of_another_game_resumes_from_its_log(toy: str, tmp_path: Path) -> None:
    settings = TableSettings(
        name="Race", game=toy, options={"target": 30}, seats=2, bots=1, bot_kinds=("hard",),
        port=0, interface="127.0.0.1", advertise=False, start_when_full=True, bot_delay=0,
        seed=4, absent_grace=None, bot_patience=9.0,
        drafts=DraftRules(seconds=7.0, per_wait=2, answer_seconds=40.0),
        chat=ChatPolicy(spectators_to_players=False),
    )  # fmt: skip
    table = await open_table(settings)
    dialled, _ = await connect_table(("127.0.0.1",), table.port, name="Ana", game=toy)
    client = dialled.client
    moves = 0
    async for msg in client.messages():  # play three of our moves, then the host crashes
        view = getattr(msg, "view", None)
        if view is None or 0 not in view["waiting_on"]:
            continue
        await client.send_action({"add": 1})
        moves += 1
        if moves == 3:
            break
    token = client.token
    await client.close()
    await table.close()
    (path,) = sorted(games_dir().glob("*.plog"))
    plan = plan_resume(path, confirm=yes)
    assert plan.header.game == "toy" and plan.header.options == {"target": 30}
    again = resumed_settings(
        plan, TableSettings(name="Other", port=0, bot_delay=0), name_given=False
    )
    assert (again.game, again.options, again.seats, again.bots, again.seed, again.name) == (
        "toy",
        {"target": 30},
        2,
        1,
        4,
        "Race",
    )
    # the time to deal (R25), the bots' patience and the chat policy come back too...
    assert again.drafts == DraftRules(seconds=7.0, per_wait=2, answer_seconds=40.0)
    assert again.bot_patience == 9.0 and again.chat.spectators_to_players is False
    # ...unless the command line names them
    mine = TableSettings(name="Other", port=0, drafts=DraftRules(answer_seconds=5.0))
    given = resumed_settings(plan, mine, name_given=False, given={"answer_seconds"})
    assert given.drafts == DraftRules(seconds=7.0, per_wait=2, answer_seconds=5.0)
    resumed = await open_table(again, resume=plan, advertise=False)
    try:
        assert resumed.server.rev >= plan.actions > 0
        assert resumed.server.seats()[1].kind == "bot"
        dialled, _ = await connect_table(("127.0.0.1",), resumed.port, name="Ana", token=token)
        back = dialled.client
        assert back.seat == 0
        result = await play_seat(back, game_entry(toy).make_bot("hard", 1), game=toy)
        await back.close()
    finally:
        await resumed.close()
    assert result is not None and result["total"] >= 30
    assert replay_log(read_log(path)).match.result() == result
