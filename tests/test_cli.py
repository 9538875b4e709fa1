"""The `poissonnier` command line (issue: simulate and --version)."""

from __future__ import annotations

import json

import pytest

from poissonnier_tui import __version__
from poissonnier_tui.cli import main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"poissonnier {__version__}"


def test_simulate_json_is_one_object_with_the_promised_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--players", "3", "--games", "4", "--seed", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4
    assert report["errors"] == []
    assert len(report["wins_by_seat"]) == 3
    assert sum(report["wins_by_seat"]) >= 4  # a shared victory credits every winner
    assert report["games_per_second"] > 0


def test_simulate_text_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "2", "--games", "2", "--bot", "random"]) == 0
    assert "games" in capsys.readouterr().out
    assert main(["simulate", "--games", "2", "--bot", "genius"]) == 2
    assert "Le Poissonnier has no bot level 'genius'" in capsys.readouterr().err
    assert main(["simulate", "--players", "6"]) == 2
    assert "Le Poissonnier is for 2 to 5 players, not 6" in capsys.readouterr().err


def test_level_lists_are_handed_out_to_the_bot_seats_in_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`poissonnier --bots 3 --level hard` and mixed levels (`--level hard,easy`, or the
    older spelling `--bot`) at solo and hosted tables; a bad level stops with a sentence."""
    from poissonnier_tui.cli import build_parser
    from poissonnier_tui.commands._table_options import settings_from
    from poissonnier_tui.hosting.tables import kind_for

    parser = build_parser()
    assert parser.parse_args(["--bots", "3", "--level", "hard"]).level == ("hard",)
    assert parser.parse_args([]).level is None  # the game's default level, later
    mixed = parser.parse_args(["--bot", "Hard, easy"]).level
    assert [kind_for(mixed, i) for i in range(3)] == ["hard", "easy", "hard"]
    serve = parser.parse_args(["serve", "--seats", "4", "--bots", "3", "--level", "easy,hard"])
    settings = settings_from(serve, host_seat=False, start_when_full=True)
    assert settings.bot_kinds == ("easy", "hard") and settings.problems() == []
    for bad, says in ((",", "at least one"), ("hard,,easy", "an empty bot level in 'hard,,easy'")):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(["--level", bad])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert "--level" in err and says in err
    for bad in ("genius", "hard,genius"):  # the form is fine; the game has no such level
        assert main(["serve", "--level", bad]) == 2
        assert "Le Poissonnier has no bot level 'genius'" in capsys.readouterr().err


def test_table_options_are_the_games_and_checked_by_it(
    toy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--option KEY=VALUE` names one of the game's options, typed like its default; the
    game's `new_match` judges the value; seats follow the game's limits."""
    from poissonnier_tui.cli import build_parser
    from poissonnier_tui.commands._table_options import settings_from

    parser = build_parser()
    args = parser.parse_args(["serve", "--game", toy, "--option", "target=20", "--bots", "1"])
    settings = settings_from(args, host_seat=False, start_when_full=True)
    assert (settings.game, settings.options, settings.seats) == ("toy", {"target": 20}, 3)
    assert settings.bot_kinds == ("easy",) and settings.problems() == []
    for option, says in (
        ("target=abc", "table option target is a whole number, not 'abc'"),
        ("speed=3", "Toy Race has no table option 'speed'; its options: target (default 10)"),
    ):
        assert main(["serve", "--game", toy, "--option", option]) == 2
        assert capsys.readouterr().err == f"poissonnier: {says}\n"
    assert main(["serve", "--game", toy, "--option", "target=99"]) == 2
    assert "bad table option for Toy Race: target must be a whole number from 3 to 50" in (
        capsys.readouterr().err
    )
    assert main(["serve", "--game", toy, "--seats", "4"]) == 2
    assert "a table of Toy Race has 2 to 3 seats, not 4" in capsys.readouterr().err
    assert main(["serve", "--option", "first_player=1"]) == 2
    assert "Le Poissonnier has no table option 'first_player'; its options: none" in (
        capsys.readouterr().err
    )
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--option", "nokey"])
    assert "give a table option as KEY=VALUE, not 'nokey'" in capsys.readouterr().err


def test_solo_checks_its_options_against_the_game(
    toy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solo", "--game", toy, "--bots", "3"]) == 2
    assert "a table of Toy Race has 2 to 3 seats, not 4" in capsys.readouterr().err
    assert main(["solo", "--game", toy, "--level", "medium"]) == 2
    assert "Toy Race has no bot level 'medium'; choose from easy, hard" in capsys.readouterr().err
    assert main(["--bots", "5"]) == 2  # the bare command is a solo game too
    assert "a table of Le Poissonnier has 2 to 5 seats, not 6" in capsys.readouterr().err


async def test_history_names_each_games_game(toy: str, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from poissonnier_tui.client.joining import join_headless
    from poissonnier_tui.hosting.tables import open_table, solo_settings

    table = await open_table(solo_settings(toy, bots=1, bot_kinds=("hard",), seed=1, bot_delay=0))
    try:
        code = await join_headless(
            f"127.0.0.1:{table.port}", name="Ana", out=lambda _: None, err=print
        )
    finally:
        await table.close()
    assert code == 0
    assert await asyncio.to_thread(main, ["history", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["game"] == "toy" and row["finished"]
    assert row["players"] == ["Ana", "Bot 2 · hard (bot)"]
    assert await asyncio.to_thread(main, ["history"]) == 0
    assert "Toy Race: Ana, Bot 2 · hard (bot)" in capsys.readouterr().out


def test_tables_shows_each_tables_game() -> None:
    from poissonnier_tui.commands.tables import format_rows

    row = {"name": "Race", "game": "toy", "address": "10.0.0.2", "port": 7374, "taken": 1,
           "seats": 3, "state": "lobby", "app": __version__, "code": False, "joinable": True,
           "why_not": None}  # fmt: skip
    head, line = format_rows([row]).splitlines()
    assert head.split()[:3] == ["NAME", "GAME", "ADDRESS"]
    assert line.split()[:4] == ["Race", "toy", "10.0.0.2:7374", "1/3"]


def test_code_auto_generates_an_unguessable_code_and_a_typed_code_is_kept() -> None:
    from net.guard import CODE_ALPHABET
    from poissonnier_tui.cli import build_parser
    from poissonnier_tui.commands._table_options import settings_from

    parser = build_parser()

    def code(*args: str) -> str | None:
        return settings_from(parser.parse_args(["serve", *args]), host_seat=False,
                             start_when_full=False).code  # fmt: skip

    first, second = code("--code", "auto"), code("--code", "auto")
    assert first is not None and second is not None and first != second
    assert len(first) == 8 and set(first) <= set(CODE_ALPHABET)
    assert code("--code", "café") == "café" and code() is None


def test_time_to_deal_is_a_table_option_of_solo_host_and_serve(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--draft-seconds`` (0: bots never wait), ``--drafts-per-wait`` and ``--answer-seconds``
    (0: no countdown) reach the table's ``DraftRules``; their defaults are ``net.drafts``'."""
    from net.drafts import DraftRules
    from poissonnier_tui.cli import build_parser
    from poissonnier_tui.commands._table_options import draft_rules, settings_from

    parser = build_parser()
    assert draft_rules(parser.parse_args([])) == DraftRules()
    solo = parser.parse_args(["solo", "--draft-seconds", "0", "--answer-seconds", "45"])
    assert draft_rules(solo) == DraftRules(seconds=0.0, per_wait=3, answer_seconds=45.0)
    for command in ("host", "serve"):
        args = parser.parse_args([command, "--draft-seconds", "12.5", "--drafts-per-wait", "1"])
        settings = settings_from(args, host_seat=command == "host", start_when_full=False)
        assert settings.drafts == DraftRules(seconds=12.5, per_wait=1, answer_seconds=20.0)
    for flag, bad, says in (
        ("--draft-seconds", "-1", "must be 0 to 3600 seconds"),
        ("--draft-seconds", "soon", "not a number of seconds: 'soon'"),
        ("--drafts-per-wait", "0", "not a whole number from 1 to 99: '0'"),
        ("--answer-seconds", "9999", "must be 0 to 3600 seconds"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(["serve", flag, bad])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert flag in err and says in err


def test_quiet_spectators_keeps_spectators_chat_from_players() -> None:
    """`--quiet-spectators` on host and serve: the table's chat policy stops players hearing
    spectators (`net.chat.ChatPolicy`); without it players hear them."""
    from poissonnier_tui.cli import build_parser
    from poissonnier_tui.commands._table_options import settings_from

    parser = build_parser()
    for command in ("serve", "host"):
        quiet = parser.parse_args([command, "--quiet-spectators"])
        heard = parser.parse_args([command])
        host_seat = command == "host"
        assert not settings_from(
            quiet, host_seat=host_seat, start_when_full=False
        ).chat.spectators_to_players
        assert settings_from(
            heard, host_seat=host_seat, start_when_full=False
        ).chat.spectators_to_players


def test_solo_names_the_player_as_the_home_screen_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not "You", which reads "You plays first" in the log and the history: the name
    saved in Settings, else the login name; ``--name`` still wins."""
    from poissonnier_tui.settings import Settings, save_settings
    from poissonnier_tui.shell.app import PoissonnierApp

    names: list[str] = []

    def run(app: PoissonnierApp) -> None:
        names.append(app.session.name)  # type: ignore[union-attr]

    monkeypatch.setattr(PoissonnierApp, "run", run)
    monkeypatch.setattr("getpass.getuser", lambda: "marie")
    assert main(["solo", "--bots", "1"]) == 0
    save_settings(Settings(name="Ana"))
    assert main(["solo", "--bots", "1"]) == 0
    assert main(["solo", "--bots", "1", "--name", "Zoé"]) == 0
    assert names == ["marie", "Ana", "Zoé"]


def test_host_and_join_name_the_player_as_solo_and_the_home_screen_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`host` and `join` offer the same name as `solo` and the home screen: the one saved
    in Settings, else the login name; ``--name`` still wins. A spectator is still
    "Spectator" unless named."""
    from poissonnier_tui.settings import Settings, save_settings
    from poissonnier_tui.shell.app import PoissonnierApp

    names: list[str] = []

    def run(app: PoissonnierApp) -> None:
        names.append(app.session.name)  # type: ignore[union-attr]

    monkeypatch.setattr(PoissonnierApp, "run", run)
    monkeypatch.setattr("getpass.getuser", lambda: "marie")
    commands = (["host"], ["join", "127.0.0.1:7777"])
    for command in commands:
        assert main(command) == 0
    save_settings(Settings(name="Ana"))
    for command in commands:
        assert main(command) == 0
        assert main([*command, "--name", "Zoé"]) == 0
    assert main(["spectate", "127.0.0.1:7777"]) == 0
    assert names == ["marie", "marie", "Ana", "Zoé", "Ana", "Zoé", "Spectator"]
