"""The pieces of LAN play that need no network: addresses, versions, tokens, log lines, options."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from net.discovery import TableAd
from net.frames import PROTOCOL_VERSION
from net.messages import SeatInfo
from net.server import TableSummary
from net.turns import StepLimit
from poissonnier_tui import __version__, i18n
from poissonnier_tui.cli import main
from poissonnier_tui.client.joining import advice
from poissonnier_tui.commands.tables import describe, format_rows
from poissonnier_tui.games import DEFAULT_GAME as GAME
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.hosting.lan import (
    DEFAULT_PORT,
    SeatLog,
    clean_name,
    format_address,
    incompatibility,
    incompatible,
    parse_address,
    seat_changes,
)
from poissonnier_tui.hosting.tables import TableSettings
from poissonnier_tui.hosting.tables import time_limit as fill_time_limit
from poissonnier_tui.hosting.tokens import TokenStore, default_path


def ad(**changes: object) -> TableAd:
    fields: dict[str, object] = {
        "name": "Friday", "address": "10.0.0.2", "port": 7374, "protocol": PROTOCOL_VERSION,
        "app": __version__, "game": GAME, "taken": 2, "seats": 4, "state": "lobby",
        "spectators": True, "code": False,
    }  # fmt: skip
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


def test_addresses_parse_with_a_default_port_and_say_what_is_wrong() -> None:
    assert parse_address("10.0.0.2:4000") == ("10.0.0.2", 4000)
    assert parse_address(" laptop.local ") == ("laptop.local", DEFAULT_PORT)
    assert parse_address("[fe80::1]:7000") == ("fe80::1", 7000)
    assert parse_address("[fe80::1]") == ("fe80::1", DEFAULT_PORT)
    for bad, says in [(":4000", "No host"), ("h:0", "not a port"), ("h:99999", "not a port"),
                      ("h:x", "not a port")]:  # fmt: skip
        with pytest.raises(ValueError, match=says):
            parse_address(bad)
    assert format_address("fe80::1", 7000) == "[fe80::1]:7000"
    assert format_address("10.0.0.2", 7000) == "10.0.0.2:7000"


def test_incompatible_tables_name_both_versions() -> None:
    assert incompatibility(ad()) is None
    assert incompatibility(ad(app="0.0.9")) == (
        f"it runs poissonnier 0.0.9 (protocol {PROTOCOL_VERSION}); "
        f"you have {__version__} (protocol {PROTOCOL_VERSION})"
    )
    assert incompatibility(ad(protocol=PROTOCOL_VERSION + 1)) is not None
    assert incompatibility(ad(game="chess")) == (
        "it plays 'chess', a game this app does not have (poissonnier, gofish)"
    )


def test_tokens_are_saved_privately_found_by_address_or_name_and_forgotten(
    tmp_path: Path,
) -> None:
    store = TokenStore(tmp_path / "state" / "seats.json")
    assert store.all() == [] and store.find("10.0.0.2:7374") is None
    store.save("10.0.0.2:7374", "Friday", 2, "tok-a")
    store.save("10.0.0.3:7374", "Sunday", 0, "tok-b")
    assert [s.token for s in store.all()] == ["tok-b", "tok-a"]  # newest first
    mode = stat.S_IMODE(os.stat(store.path).st_mode)
    assert mode == 0o600  # tokens are secrets
    found = store.find("10.0.0.2:7374")
    assert found is not None and (found.table, found.seat, found.token) == ("Friday", 2, "tok-a")
    # The host came back on another port: the table's name finds the seat.
    moved = store.find("10.0.0.2:7999", "Friday")
    assert moved is not None and moved.token == "tok-a"
    assert store.find("10.0.0.2:7999", "Monday") is None
    store.save("10.0.0.2:7374", "Friday", 3, "tok-c")  # replaced, not duplicated
    assert [(s.address, s.token) for s in store.all()] == [
        ("10.0.0.2:7374", "tok-c"), ("10.0.0.3:7374", "tok-b")
    ]  # fmt: skip
    store.forget("10.0.0.2:7374")
    assert [s.token for s in store.all()] == ["tok-b"]


def test_two_players_on_one_account_keep_their_own_seats(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "seats.json")
    store.save("h:1", "T", 0, "ana-token", "Ana")
    store.save("h:1", "T", 1, "ben-token", "Ben")
    ana, ben = store.find("h:1", player="Ana"), store.find("h:1", "T", "Ben")
    assert ana is not None and (ana.seat, ana.token) == (0, "ana-token")
    assert ben is not None and (ben.seat, ben.token) == (1, "ben-token")
    assert store.find("h:1", "T", player="Cy") is None
    store.forget("h:1", "Ana")
    assert [(s.player, s.token) for s in store.all()] == [("Ben", "ben-token")]
    store.forget("h:1")
    assert store.all() == []


def test_a_damaged_token_file_counts_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text("{not json")
    store = TokenStore(path)
    assert store.all() == []
    path.write_text(json.dumps({"seats": [{"address": "a:1"}, "junk", {
        "address": "b:2", "table": "T", "seat": 1, "token": "t", "saved": 5.0}]}))  # fmt: skip
    assert [(s.address, s.token) for s in store.all()] == [("b:2", "t")]
    store.save("c:3", "U", 0, "u")  # rewrites a clean file
    assert json.loads(path.read_text())["version"] == 1


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_STATE_HOME is the Linux convention")
def test_default_token_path_follows_the_state_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/somewhere/state")
    assert default_path() == Path("/somewhere/state/poissonnier/seats.json")


def test_seat_changes_read_as_sentences() -> None:
    open_ = SeatInfo("", "open", False)
    ana = SeatInfo("Ana", "human", True)
    away = SeatInfo("Ana", "human", False)
    bot = SeatInfo("Ana", "bot", True)
    assert seat_changes(1, open_, ana) == ["Ana joined seat 2."]
    assert seat_changes(1, ana, open_) == ["Ana left seat 2."]
    assert seat_changes(1, ana, away) == [
        "Ana disconnected from seat 2; the seat is kept for them."
    ]
    assert seat_changes(1, ana, away, over=True) == ["Ana left seat 2."]
    assert seat_changes(1, away, ana) == ["Ana reconnected to seat 2."]
    assert seat_changes(1, away, bot) == ["A bot plays seat 2 for Ana while they are away."]
    assert seat_changes(1, bot, ana) == ["Ana took back seat 2 from the bot."]
    assert seat_changes(1, bot, away) == ["Ana got back seat 2 from the bot."]
    assert seat_changes(0, open_, SeatInfo("Bot 0", "bot", True)) == ["Bot 0 (bot) sits in seat 1."]
    assert seat_changes(0, ana, ana) == []


def test_seat_log_prints_joins_start_and_end_with_the_time() -> None:
    seats = [SeatInfo("", "open", False), SeatInfo("Bot 1", "bot", True)]
    lines: list[str] = []
    log = SeatLog(lambda: seats, lines.append, clock=lambda: 0.0)

    def summary(phase: str) -> TableSummary:
        taken = sum(s.kind != "open" for s in seats)
        return TableSummary("T", GAME, 1, __version__, 2, taken, phase, True, False, 7374)  # type: ignore[arg-type]

    log.changed(summary("lobby"))
    seats[0] = SeatInfo("Ana", "human", True)
    log.changed(summary("lobby"))
    log.changed(summary("playing"))
    log.changed(summary("over"))
    text = [line.split(" ", 1)[1] for line in lines]
    assert text == [
        "Bot 1 (bot) sits in seat 2. (1/2 seats taken)",
        "Ana joined seat 1. (2/2 seats taken)",
        "Game started: Ana, Bot 1.",
        "Game over.",
    ]
    assert all(len(line.split(" ", 1)[0]) == 8 for line in lines)  # HH:MM:SS


def test_seat_log_counts_each_change_of_one_frame_in_turn() -> None:
    """Two seats taken in one frame: the first line says 1 seat taken, the second 2."""
    seats = [SeatInfo("", "open", False)] * 3
    lines: list[str] = []
    log = SeatLog(lambda: seats, lines.append, clock=lambda: 0.0)
    seats = [SeatInfo("Bot 1", "bot", True), SeatInfo("Ana", "human", True), seats[2]]
    log.changed(TableSummary("T", GAME, 1, __version__, 3, 2, "lobby", True, False, 7374))  # type: ignore[arg-type]
    seats = [seats[0], SeatInfo("", "open", False), SeatInfo("Ben", "human", True)]
    log.changed(TableSummary("T", GAME, 1, __version__, 3, 2, "lobby", True, False, 7374))  # type: ignore[arg-type]
    assert [line.split(" ", 1)[1] for line in lines] == [
        "Bot 1 (bot) sits in seat 1. (1/3 seats taken)",
        "Ana joined seat 2. (2/3 seats taken)",
        "Ana left seat 2. (1/3 seats taken)",
        "Ben joined seat 3. (2/3 seats taken)",
    ]


def test_fill_timeout_limits_the_fill_step_only() -> None:
    match = PoissonnierGame().new_match(1, 3, {})
    limit = fill_time_limit(20.0)
    assert match.state.phase.value == "fill"
    assert limit(match, 0) == StepLimit(("fill", match.state.turn), 20.0)  # the whole step
    for seat in range(3):
        match.apply(seat, {"type": "ready"})
    assert match.state.phase.value != "fill"
    assert limit(match, match.state.active) is None


def test_settings_problems_are_sentences() -> None:
    from poissonnier_tui.games.poissonnier.bots import BOT_KINDS

    assert TableSettings(name="T").problems() == []
    problems = TableSettings(
        name="", seats=6, bots=7, bot_kinds=("genius",), fill_timeout=0, code=""
    ).problems()
    assert problems == [
        "a table of Le Poissonnier has 2 to 5 seats, not 6",
        "--bots must be 0 to 6 with 6 seats",
        f"unknown bot level 'genius' for Le Poissonnier; choose from {', '.join(BOT_KINDS)}",
        "the table name must be 1 to 64 printable characters",
        "the join code must be 1 to 64 characters",
        "--fill-timeout must be a positive number of seconds",
    ]
    assert TableSettings(name="T", bots=4, host_seat=True).problems() == [
        "--bots must be 0 to 3 with 4 seats"
    ]


def test_tables_text_and_json_rows() -> None:
    rows = [describe(ad()), describe(ad(name="Old", app="0.0.9", code=True, address="10.0.0.9"))]
    assert rows[0]["joinable"] is True and rows[0]["why_not"] is None
    assert rows[1]["joinable"] is False and "0.0.9" in rows[1]["why_not"]
    text = format_rows(rows).splitlines()
    head = ["NAME", "GAME", "ADDRESS", "SEATS", "STATE", "VERSION", "CAN", "JOIN"]
    assert text[0].split() == head
    assert text[1].split()[:7] == [
        "Friday", "poissonnier", "10.0.0.2:7374", "2/4", "lobby", __version__, "yes"
    ]  # fmt: skip
    assert text[2].split()[:7] == [
        "Old", "poissonnier", "10.0.0.9:7374", "2/4", "lobby", "0.0.9", "no:"
    ]  # fmt: skip


def test_advice_points_at_the_next_command() -> None:
    assert advice("table_full", "h:1") == "To watch instead: poissonnier spectate h:1"
    assert advice("already_started", "h:1") == "To watch instead: poissonnier spectate h:1"
    assert advice("bad_code", "h:1").endswith("poissonnier join h:1 --code CODE")
    assert "version" in advice("version_mismatch", "h:1")
    assert "poissonnier tables" in advice("unreachable", "h:1")
    assert advice("bad_message", "h:1") == ""


def test_names_are_cleaned_for_the_table() -> None:
    assert clean_name("  Ana\n ") == "Ana"
    assert clean_name("\t") == "Player"
    assert clean_name("x" * 40) == "x" * 24
    assert clean_name("\u3164\u2800") == "Player"  # draws nothing (net.schema.shows)
    assert clean_name("Ana\u3164") == "Ana\u3164"


def test_lan_commands_refuse_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--seats", "3", "--bots", "4"]) == 2
    assert "--bots must be 0 to 3 with 3 seats" in capsys.readouterr().err
    assert main(["host", "--seats", "3", "--bots", "3"]) == 2
    assert "--bots must be 0 to 2 with 3 seats" in capsys.readouterr().err
    assert main(["join", "nohost:notaport"]) == 2
    assert "'notaport' is not a port number" in capsys.readouterr().err
    assert main(["join", "--bot", "genius", "--headless"]) == 2
    assert "no game here has a bot level 'genius'; choose from easy, medium" in (
        capsys.readouterr().err
    )
    assert main(["serve", "--seats", "6"]) == 2
    assert "a table of Le Poissonnier has 2 to 5 seats, not 6" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["tables", "--timeout", "0"])


def test_headless_join_to_nowhere_says_what_to_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert main(["join", "--headless", "127.0.0.1:9"]) == 1
    err = capsys.readouterr().err
    assert "could not join 127.0.0.1:9: Cannot reach a table at 127.0.0.1:9." in err
    assert "poissonnier tables" in err


async def test_a_stray_sighting_right_after_a_goodbye_does_not_list_the_table_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """zeroconf can report a table *added* again just after its goodbye, and answer the
    resolve from records still cached for a second (seen in the lobby test: Removed, then
    Added 16 ms later). Such a sighting is resolved only after ``GOODBYE_GRACE``, and is
    dropped if the table said goodbye again meanwhile; a table that really comes back is
    listed once the grace is over."""
    from zeroconf import ServiceStateChange

    from net import discovery

    oldies = TableAd(name="Oldies", address="127.0.0.1", port=4000, protocol=1, app="0.0.1",
                 game="poissonnier", taken=0, seats=4, state="lobby", spectators=True)  # fmt: skip
    asked_at: list[float] = []  # when each resolve went out (time.monotonic())

    class Info:
        def __init__(self, _type: str, _name: str) -> None:
            pass

        async def async_request(self, _zc: object, _timeout: int) -> bool:
            asked_at.append(time.monotonic())
            return True

    monkeypatch.setattr("zeroconf.asyncio.AsyncServiceInfo", Info)  # the browser's resolver
    monkeypatch.setattr(discovery, "_ad_from_info", lambda _info: oldies)
    monkeypatch.setattr(discovery, "GOODBYE_GRACE", 0.3)
    heard: list[bool] = []
    browser = discovery.Browser("poissonnier", lambda _n, a: heard.append(a is not None))
    name = "Oldies._poissonnier._tcp.local."

    def event(change: ServiceStateChange) -> None:
        browser._handler(None, "_poissonnier._tcp.local.", name, change)  # type: ignore[arg-type]

    async def listed() -> None:  # the resolve runs as a task: wait for it, not for a time
        async with asyncio.timeout(5):
            while name not in browser.tables:
                await asyncio.sleep(0.01)

    event(ServiceStateChange.Added)
    await listed()
    assert heard == [True]
    goodbye = time.monotonic()
    event(ServiceStateChange.Removed)
    event(ServiceStateChange.Added)  # the stray sighting
    event(ServiceStateChange.Removed)  # the goodbye repeated, before the stray is resolved
    async with asyncio.timeout(5):  # the stray's resolve, waited for by its task, not a time
        await asyncio.gather(*browser._tasks)
    # Not resolved from the stale cache at once (only after the grace: a lower bound, which
    # a slow machine cannot break), and dropped because of the goodbye meanwhile.
    assert len(asked_at) == 2 and asked_at[1] - goodbye >= 0.3
    assert name not in browser.tables and heard == [True, False]
    await asyncio.sleep(0.35)
    event(ServiceStateChange.Added)  # it really comes back, well after the goodbye
    await listed()
    assert heard == [True, False, True]


def test_tables_can_join_only_an_open_seat_in_a_lobby() -> None:
    rows = {
        name: describe(ad(name=name, **changes))
        for name, changes in {
            "Open": {},
            "Full": {"taken": 4},
            "Started": {"state": "playing"},
            "Done": {"state": "over"},
        }.items()
    }
    assert {name: row["joinable"] for name, row in rows.items()} == {
        "Open": True, "Full": False, "Started": False, "Done": False,
    }  # fmt: skip
    assert rows["Full"]["why_not"] == "full (4/4)"
    assert "poissonnier spectate 10.0.0.2:7374" in rows["Started"]["why_not"]
    assert rows["Done"]["why_not"] == "its game is over"
    text = format_rows(list(rows.values())).splitlines()
    assert text[2].endswith("no: full (4/4)")


def test_an_incompatible_table_is_a_code_and_parameters_said_in_the_clients_language() -> None:
    """The reason is data; each client words it in its own language when it renders."""
    why = incompatible(ad(app="0.0.9"))
    assert why is not None and why.code == "other_version"
    assert dict(why.params) == {
        "app": "0.0.9", "protocol": PROTOCOL_VERSION,
        "our_app": __version__, "our_protocol": PROTOCOL_VERSION,
    }  # fmt: skip
    i18n.set_language("fr")
    try:
        assert why.text() == (
            f"elle fait tourner poissonnier 0.0.9 (protocole {PROTOCOL_VERSION})\u00a0; "
            f"vous avez {__version__} (protocole {PROTOCOL_VERSION})"
        )
        other = incompatible(ad(game="chess"))
        assert other is not None and other.code == "other_game"
        assert incompatibility(ad(game="chess")) == (
            "elle joue à 'chess', un jeu que cette application n’a pas (poissonnier, gofish)"
        )
    finally:
        i18n.set_language("en")
