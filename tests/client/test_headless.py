"""``join --headless``: the client picks the table's game through the registry."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from net.client import JoinError
from net.game import Agent
from poissonnier_tui.client.joining import connect_table, join_headless
from poissonnier_tui.games import game_entry
from poissonnier_tui.games.poissonnier.haggling import TableBot
from poissonnier_tui.hosting.tables import TableSettings, open_table


def race(toy: str, **changes: object) -> TableSettings:
    base: dict[str, object] = {
        "name": "Race", "game": toy, "seats": 2, "bots": 1, "bot_kinds": ("hard",), "port": 0,
        "interface": "127.0.0.1", "advertise": False, "start_when_full": True, "bot_delay": 0,
        "seed": 9,
    }  # fmt: skip
    return TableSettings(**{**base, **changes})  # type: ignore[arg-type]


async def test_a_headless_bot_plays_another_game_to_its_end(toy: str) -> None:
    table = await open_table(race(toy))
    out: list[str] = []
    err: list[str] = []
    try:
        code = await join_headless(
            f"127.0.0.1:{table.port}", name="Ana", bot="hard", out=out.append, err=err.append
        )
    finally:
        await table.close()
    assert code == 0 and err == []
    assert out[0].startswith("Joined 'Race' (Toy Race) at 127.0.0.1:") and "seat 1" in out[0]
    result = json.loads(out[-1].removeprefix("Result: "))
    assert result == table.server.result() and result["total"] >= 10


async def test_a_level_the_tables_game_lacks_is_refused_plainly(toy: str) -> None:
    table = await open_table(race(toy))
    err: list[str] = []
    try:
        code = await join_headless(
            f"127.0.0.1:{table.port}", name="Ana", bot="medium", out=lambda _: None,
            err=err.append,
        )  # fmt: skip
    finally:
        await table.close()
    assert code == 1
    assert err == ["poissonnier: Toy Race has no bot level 'medium'; choose from easy, hard"]


async def test_a_table_of_a_game_this_app_lacks_is_named(toy: str) -> None:
    from poissonnier_tui import games

    table = await open_table(race(toy))
    try:
        del games.ENTRY_MODULES["toy"]  # the monkeypatch puts nothing back: it was added
        try:
            await connect_table(("127.0.0.1",), table.port, name="Ana")
        except JoinError as exc:
            assert exc.code == "wrong_game"
            assert exc.message == (
                "This table plays 'toy', not 'gofish'. This app plays poissonnier, gofish."
            )
        else:
            raise AssertionError("joined a table of a game this app does not have")
        finally:
            games.ENTRY_MODULES["toy"] = "toygame"
    finally:
        await table.close()


async def test_a_headless_bot_is_seated_as_the_game_seats_its_bots(
    toy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``join --bot`` seats its bot as a hosted table does (``GameEntry.seated_bot``): in
    Le Poissonnier a ``haggling.TableBot``, which says why it declines (RULES.md §4)."""
    import toygame

    seated: list[Agent] = []

    def seat(bot: Agent) -> Agent:
        seated.append(bot)
        return bot

    monkeypatch.setattr(toygame, "ENTRY", replace(toygame.ENTRY, seat_bot=seat))
    table = await open_table(race(toy))  # its own bot: seated once
    try:
        code = await join_headless(
            f"127.0.0.1:{table.port}", name="Ana", bot="hard", out=lambda _: None,
            err=lambda _: None,
        )  # fmt: skip
    finally:
        await table.close()
    assert code == 0 and len(seated) == 2  # and Ana's
    assert isinstance(game_entry("poissonnier").seated_bot("medium", 1), TableBot)
