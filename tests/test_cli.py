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
