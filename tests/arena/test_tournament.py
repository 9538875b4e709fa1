"""``poissonnier tournament``: seat rotation, per-bot statistics, Wilson intervals, the CLI."""

from __future__ import annotations

import gc
import json
from collections import Counter
from typing import Any

import pytest

from poissonnier_tui.arena import tournament as sim
from poissonnier_tui.arena.play import GameRecord
from poissonnier_tui.arena.stats import percentile, wilson_interval
from poissonnier_tui.arena.tournament import entrant_labels, tournament, tournament_schedule
from poissonnier_tui.cli import main


def test_wilson_interval_known_values() -> None:
    """Wilson 95 % intervals (z = 1.96) against values computed by hand."""
    lo, hi = wilson_interval(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-4) and hi == pytest.approx(0.6906, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(240, 400)  # the 2-player target: 60 % of 400 games
    assert 0.55 < lo < 0.6 < hi < 0.65


def test_percentile() -> None:
    assert percentile([], 95) == 0.0
    assert percentile([5.0], 50) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile(list(map(float, range(101))), 95) == 95.0


def test_schedule_rotates_every_bot_through_every_seat_on_each_deal() -> None:
    """Each deal is played once per seating; entrant j sits at seat (j + r) mod n."""
    games = tournament_schedule(3, 9, ["hard", "medium", "easy"], seed=4)
    assert len(games) == 9 and len({g.seed for g in games}) == 3
    for deal in {g.seed for g in games}:
        seatings = [g.seats for g in games if g.seed == deal]
        assert len(seatings) == 3
        for entrant in range(3):
            assert sorted(s.index(entrant) for s in seatings) == [0, 1, 2]
    # A number of games that is not a multiple of the players: the last deal is cut short.
    assert len(tournament_schedule(2, 5, ["a", "b"], seed=1)) == 5


def test_labels_number_repeated_kinds() -> None:
    assert entrant_labels(["hard", "medium", "easy", "easy"]) == [
        "hard", "medium", "easy#1", "easy#2"
    ]  # fmt: skip


def test_tournament_report_adds_up() -> None:
    """Per-entrant games, win credits, tallies and decisions match the games played."""
    report = tournament(2, 6, ["medium", "easy"], seed=3)
    assert report.games == report.finished == 6 and report.deals_played == 3
    assert report.errors == [] and report.stalls == 0
    assert [e.label for e in report.entrants] == ["medium", "easy"]
    assert all(e.games == 6 for e in report.entrants)
    assert sum(e.wins for e in report.entrants) == pytest.approx(6)  # credits add up to games
    for e in report.entrants:
        assert e.ci_low <= e.win_rate <= e.ci_high
        assert e.scores["coins"] > 0 and e.scores["clients"] > 0 and e.scores["stamps"] > 0
        assert list(e.scores) == ["coins", "clients", "stamps"]
        assert list(e.counts) == ["deals", "proposals", "counters"]
        assert e.decisions > 0 and 0 < e.ms_median <= e.ms_p95 <= e.ms_max
        assert e.illegal == 0
    data = json.loads(report.to_json())
    assert data["entrants"][0]["label"] == "medium"
    keys = {"win_rate", "ci_low", "ci_high", "coins", "clients", "stamps", "deals",
            "proposals", "ms_median", "ms_p95", "cpu_ms_p95"}  # fmt: skip
    assert keys <= set(data["entrants"][0])
    text = report.format_text()
    assert "95% CI" in text and "medium" in text and "seat-rotated" in text


def test_tournament_is_deterministic_for_a_seed() -> None:
    """R3: the same seed plays the same games (timings aside)."""
    a = tournament(3, 3, ["medium", "easy", "greedy"], seed=11)
    b = tournament(3, 3, ["medium", "easy", "greedy"], seed=11)
    key = [(e.wins, e.scores, e.counts, e.decisions) for e in a.entrants]
    assert key == [(e.wins, e.scores, e.counts, e.decisions) for e in b.entrants]


def test_shared_victories_credit_a_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """A victory shared by k seats credits 1/k to each (RULES.md §8 step 4), so win
    rates add up to 100 %."""

    def fake_game(seed: int, agents: Any, **_: Any) -> GameRecord:
        n = len(agents)
        scores = [{"seat": i, "coins": 1, "clients": 2, "stamps": 3} for i in range(n)]
        return GameRecord(
            seed=seed, finished=True, winners=[0, 1], shared=True,
            result={"winners": [0, 1], "scores": scores},
            seat_seconds=[[0.001]] * n, seat_cpu=[[0.001]] * n, seat_errors=[0] * n,
        )  # fmt: skip

    monkeypatch.setattr(sim, "play_game", fake_game)
    report = tournament(4, 8, ["easy", "easy", "medium", "medium"], seed=1)
    assert report.shared_victories == 8
    wins = Counter({e.label: e.wins for e in report.entrants})
    assert sum(wins.values()) == pytest.approx(8)
    assert all(w == pytest.approx(2) for w in wins.values())  # each seat won half of 2 games


def test_games_are_played_with_the_cyclic_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game runs with automatic collections off (poissonnier_tui/collector.py); the
    tournament gives them back afterwards."""
    collecting: list[bool] = []
    real = sim.play_game

    def spy(seed: int, agents: Any, **kwargs: Any) -> GameRecord:
        collecting.append(gc.isenabled())
        return real(seed, agents, **kwargs)

    monkeypatch.setattr(sim, "play_game", spy)
    assert gc.isenabled()
    report = tournament(2, 2, ["random", "easy"], seed=3)
    assert report.games == 2 and collecting == [False, False]
    assert gc.isenabled()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"players": 1}, "2 to 5"),
        ({"games": -1}, "games"),
        ({"bots": ["medium"]}, "seats"),
        ({"bots": ["medium", "clever"]}, "clever"),
        ({"jobs": 0}, "jobs"),
        ({"budget": 0}, "budget"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {"players": 2, "games": 1, "bots": ["medium", "easy"], "seed": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        tournament(**args)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``poissonnier tournament ... --json`` prints one JSON object; exit 0 without errors."""
    code = main(["tournament", "--players", "2", "--games", "2", "--bots", "medium,easy",
                 "--seed", "5", "--json"])  # fmt: skip
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and [e["kind"] for e in data["entrants"]] == ["medium", "easy"]


def test_cli_text_and_one_kind_for_all(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--players", "3", "--games", "3", "--bots", "easy", "--seed", "2"])
    assert code == 0
    out = capsys.readouterr().out
    assert "easy#1" in out and "easy#3" in out and "win rate" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--bots", "medium,easy,easy"],
        ["--games", "0"],
        ["--jobs", "0"],
    ],
)
def test_cli_refuses_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    base = ["tournament", "--players", "2", "--games", "1", "--bots", "medium,easy"]
    assert main(base + argv) == 2
    assert "poissonnier:" in capsys.readouterr().err


def test_cli_names_an_unknown_bot_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "medium,clever"]) == 2
    err = capsys.readouterr().err
    assert "Le Poissonnier has no bot level 'clever'; choose from easy, medium" in err


def test_jobs_play_the_same_games() -> None:
    """Worker processes play exactly the games the single process plays."""
    one = tournament(2, 4, ["medium", "greedy"], seed=8)
    two = tournament(2, 4, ["medium", "greedy"], seed=8, jobs=2)
    assert [(e.wins, e.scores) for e in one.entrants] == [
        (e.wins, e.scores) for e in two.entrants
    ]
