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
    assert "unknown bot kind 'genius'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--players", "6"])


def test_level_lists_are_handed_out_to_the_bot_seats_in_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`poissonnier --bots 3 --level hard` and mixed levels (`--level hard,easy`, or the
    older spelling `--bot`) at solo and hosted tables; a bad level stops with a sentence."""
    from poissonnier_tui.cli import build_parser
    from poissonnier_tui.commands._table_options import settings_from
    from poissonnier_tui.games.poissonnier.bots import kind_for

    parser = build_parser()
    assert parser.parse_args(["--bots", "3", "--level", "hard"]).level == ("hard",)
    assert parser.parse_args([]).level == ("medium",)
    mixed = parser.parse_args(["--bot", "Hard, easy"]).level
    assert [kind_for(mixed, i) for i in range(3)] == ["hard", "easy", "hard"]
    serve = parser.parse_args(["serve", "--seats", "4", "--bots", "3", "--level", "easy,hard"])
    settings = settings_from(serve, host_seat=False, start_when_full=True)
    assert settings.bot_kinds == ("easy", "hard") and settings.problems() == []
    for bad in ("genius", ",", "hard,genius"):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(["--level", bad])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert "--level" in err and ("genius" in err or "at least one" in err)


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
