"""Bots' patience is a table setting: how long a bot's offer to a person stays open
before the bot is asked again and may withdraw it (RULES.md §4; ``net/turns.py``)."""

from __future__ import annotations

import pytest

from net.turns import BOT_PATIENCE
from poissonnier_tui.cli import build_parser
from poissonnier_tui.commands._table_options import settings_from
from poissonnier_tui.hosting.tables import open_table, solo_settings


def test_host_serve_and_solo_take_a_patience_and_default_to_todays() -> None:
    parser = build_parser()
    serve = parser.parse_args(["serve", "--bots", "2", "--bot-patience", "45"])
    assert settings_from(serve, host_seat=False, start_when_full=True).bot_patience == 45.0
    host = parser.parse_args(["host", "--bots", "1"])
    assert settings_from(host, host_seat=True, start_when_full=False).bot_patience == BOT_PATIENCE
    assert parser.parse_args(["solo", "--bot-patience", "7.5"]).bot_patience == 7.5
    for bad in ("0", "-3", "soon"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--bot-patience", bad])


def test_a_patience_beyond_ten_minutes_is_refused() -> None:
    settings = solo_settings(bots=2, bot_kinds=("easy",), bot_patience=601)
    assert any("--bot-patience" in p for p in settings.problems())
    assert solo_settings(bots=2, bot_kinds=("easy",), bot_patience=600).problems() == []


async def test_the_table_waits_on_people_for_the_patience_it_was_given() -> None:
    table = await open_table(solo_settings(bots=2, bot_kinds=("easy",), bot_patience=33.0))
    try:
        assert table.server._keeper._bot_patience == 33.0
    finally:
        await table.close()
