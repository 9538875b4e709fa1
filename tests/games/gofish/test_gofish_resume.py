"""A Go Fish table resumes after its host crashed, from its log (hosting/persistence.py)."""

from __future__ import annotations

from net.tablelog import read_log
from poissonnier_tui.client.headless import play_seat
from poissonnier_tui.client.joining import connect_table
from poissonnier_tui.games import game_entry
from poissonnier_tui.games.gofish.rules.view import legal_from_view
from poissonnier_tui.hosting.persistence import games_dir, plan_resume, replay_log
from poissonnier_tui.hosting.tables import TableSettings, open_table, resumed_settings


def yes(_question: str) -> bool:
    return True


async def test_a_go_fish_table_resumes_from_its_log() -> None:
    settings = TableSettings(
        name="Pond", game="gofish", options={"variant": "card"}, seats=3, bots=2,
        bot_kinds=("medium",), port=0, interface="127.0.0.1", advertise=False,
        start_when_full=True, bot_delay=0, seed=8, absent_grace=None,
    )  # fmt: skip
    table = await open_table(settings)
    dialled, _ = await connect_table(("127.0.0.1",), table.port, name="Ana")
    client = dialled.client
    asked = 0
    async for msg in client.messages():  # two of our asks, then the host crashes
        view = getattr(msg, "view", None)
        if view is None or 0 not in view["waiting_on"]:
            continue
        await client.send_action(legal_from_view(view)[0])
        asked += 1
        if asked == 2:
            break
    token = client.token
    await client.close()
    await table.close()
    (path,) = sorted(games_dir().glob("*.plog"))
    plan = plan_resume(path, confirm=yes)
    assert plan.header.game == "gofish" and plan.header.options == {"variant": "card"}
    again = resumed_settings(
        plan, TableSettings(name="Other", port=0, bot_delay=0), name_given=False
    )
    assert (again.game, again.seats, again.bots, again.seed) == ("gofish", 3, 2, 8)
    resumed = await open_table(again, resume=plan, advertise=False)
    try:
        assert resumed.server.rev >= plan.actions >= 2
        dialled, entry = await connect_table(("127.0.0.1",), resumed.port, name="Ana", token=token)
        back = dialled.client
        assert back.seat == 0 and entry.name == "gofish"
        result = await play_seat(back, game_entry("gofish").make_bot("easy", 1), game=entry)
        await back.close()
    finally:
        await resumed.close()
    assert result is not None and sum(s["books"] for s in result["scores"]) >= 1
    assert replay_log(read_log(path)).match.result() == result
