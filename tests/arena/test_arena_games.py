"""The arena plays any registered game: a second one (``toy``) through play, simulate,
tournament and their commands, with its tallies read from its result's ``scores``."""

from __future__ import annotations

import json

import pytest

from poissonnier_tui.arena.play import play_game, winners_of
from poissonnier_tui.arena.simulate import simulate
from poissonnier_tui.arena.stats import means, numeric_scores, seat_scores
from poissonnier_tui.arena.tournament import tournament
from poissonnier_tui.cli import main
from poissonnier_tui.games import game_entry


def test_score_fields_and_winners_are_read_from_any_result() -> None:
    assert numeric_scores({"seat": 1, "coins": 3, "ok": True, "name": "x", "r": 0.5}) == {
        "coins": 3, "r": 0.5
    }  # fmt: skip
    assert seat_scores({"scores": [{"seat": 0, "books": 2}, {"seat": 1, "books": 4}]}) == [
        {"books": 2}, {"books": 4}
    ]  # fmt: skip
    assert seat_scores({"winner": 1}) == [] and seat_scores(None) == []
    assert means([{"a": 1, "b": 2}, {"a": 3}]) == {"a": 2.0, "b": 2.0}
    assert winners_of({"winners": [0, 2]}) == [0, 2]
    assert winners_of({"winner": 1}) == [1] and winners_of({"winner": True}) == []


def test_one_game_of_another_game(toy: str) -> None:
    entry = game_entry(toy)
    record = play_game(5, [entry.make_bot("easy", 1), entry.make_bot("hard", 2)], game=toy)
    assert record.finished and record.errors == [] and record.stalls == 0
    assert record.result is not None and record.winners == record.result["winners"]
    assert record.actions == len(record.decision_seconds) == record.turns - 1
    points = sum(s["points"] for s in record.result["scores"])
    assert points == record.result["total"] >= 10
    assert record.seat_counts == {} and record.totals == {}  # the toy keeps no tallies
    longer = play_game(5, [entry.make_bot("easy", 1)] * 2, game=entry, options={"target": 40})
    assert longer.result is not None and longer.result["total"] >= 40


def test_simulate_another_game(toy: str) -> None:
    report = simulate(3, 12, seed=2, bots=["hard", "easy", "easy"], game=toy)
    assert report.game == "toy" and report.games == report.finished == 12
    assert sum(report.wins_by_seat) == 12  # no shared victory in a race
    hard_wins = report.wins_by_seat[0]
    assert report.wins_by_kind == {"hard": hard_wins, "easy": 12 - hard_wins}
    assert report.totals == {} and report.errors == []
    again = simulate(3, 12, seed=2, bots=["hard", "easy", "easy"], game=toy)
    assert (again.wins_by_seat, again.mean_turns) == (report.wins_by_seat, report.mean_turns)
    with pytest.raises(ValueError, match="Toy Race is for 2 to 3 players, not 4"):
        simulate(4, 1, seed=1, game=toy)
    with pytest.raises(ValueError, match="unknown bot kind 'greedy' for Toy Race"):
        simulate(2, 1, seed=1, bots=["greedy", "easy"], game=toy)


def test_tournament_of_another_game_reports_its_own_scores(toy: str) -> None:
    report = tournament(2, 20, ["hard", "easy"], seed=3, game=toy)
    assert report.game == "toy" and report.finished == 20 and report.deals_played == 10
    hard, easy = report.entrants
    assert list(hard.scores) == ["adds", "points"] and hard.counts == {}
    assert hard.wins + easy.wins == 20
    # Each game's points add up to its total, 10 or 11: the means of the two seats too.
    assert 10 <= hard.scores["points"] + easy.scores["points"] <= 11
    data = json.loads(report.to_json())
    assert data["game"] == "toy"
    assert data["entrants"][0]["points"] == round(hard.scores["points"], 4)
    text = report.format_text()
    assert "games of toy" in text and "adds" in text and "deals" not in text


def test_simulate_and_tournament_commands_take_a_game(
    toy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--game", toy, "--players", "2", "--games", "6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["game"], data["games"], data["finished"], data["bots"]) == (
        "toy",
        6,
        6,
        ["easy", "easy"],  # no greedy baseline: the game's default level
    )
    assert sum(data["wins_by_seat"]) == 6
    assert main(["tournament", "--game", toy, "--players", "2", "--games", "4",
                 "--bots", "hard,easy", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "toy" and [e["label"] for e in data["entrants"]] == ["hard", "easy"]
    assert main(["tournament", "--game", toy, "--bots", "medium"]) == 2
    assert "Toy Race has no bot level 'medium'" in capsys.readouterr().err
    assert main(["simulate", "--game", toy, "--players", "5"]) == 2
    assert "Toy Race is for 2 to 3 players, not 5" in capsys.readouterr().err
