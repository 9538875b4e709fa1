"""Go Fish in the arena: ``simulate`` and ``tournament`` play it through the registry."""

from __future__ import annotations

import pytest

from poissonnier_tui.arena.simulate import simulate
from poissonnier_tui.arena.tournament import tournament
from poissonnier_tui.cli import main


def test_simulate_four_players_no_error() -> None:
    report = simulate(4, 24, seed=1, bots=["medium", "medium", "easy", "random"], game="gofish")
    assert (
        report.game == "gofish" and report.games == report.finished == 24
    )  # the hard bot: in its own tests
    assert report.errors == [] and report.stalls == 0
    # Every game has at least one winner; a shared victory credits each of them (G3).
    assert 24 <= sum(report.wins_by_seat) <= 24 + 3 * report.shared_victories
    assert set(report.wins_by_kind) <= {"medium", "easy", "random"}
    again = simulate(4, 24, seed=1, bots=["medium", "medium", "easy", "random"], game="gofish")
    assert again.wins_by_seat == report.wins_by_seat  # seeded bots and deals (R3)


def test_tournament_and_the_simulate_command(capsys: pytest.CaptureFixture[str]) -> None:
    report = tournament(3, 12, ["medium", "easy", "easy"], seed=2, game="gofish")
    assert report.game == "gofish" and report.finished == 12
    assert sum(e.wins for e in report.entrants) >= 12
    code = main(["simulate", "--game", "gofish", "--players", "6", "--games", "6", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "6 games of gofish, 6 players" in out and "errors 0" in out
