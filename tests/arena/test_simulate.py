"""Headless simulation: determinism, report values, and how bad bots are handled."""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest

from net.game import Wire
from poissonnier_tui.arena import simulate as sim
from poissonnier_tui.arena.play import GameRecord, play_game
from poissonnier_tui.arena.simulate import SimulationReport, simulate
from poissonnier_tui.arena.stats import game_seeds
from poissonnier_tui.games.poissonnier.bots import make_bot


def test_simulate_is_deterministic_for_a_seed() -> None:
    """R3: the same seed gives the same games, hence the same wins and turns."""
    kinds = ["greedy", "random", "greedy"]
    a = simulate(3, 6, seed=17, bots=kinds)
    b = simulate(3, 6, seed=17, bots=kinds)
    fields = ("wins_by_seat", "mean_turns", "totals", "shared_victories",
              "decisions", "errors")  # fmt: skip
    assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    assert game_seeds(17, 6) == game_seeds(17, 6) != game_seeds(18, 6)


def test_report_values_and_json() -> None:
    """The JSON carries the documented keys with values matching the games played."""
    report = simulate(2, 5, seed=3, bots=["greedy", "random"])
    data = json.loads(report.to_json())
    for key in ("games", "games_per_second", "wins_by_seat", "errors", "mean_turns",
                "mean_clients_served", "shared_victories", "deals", "seconds"):  # fmt: skip
        assert key in data
    assert data["games"] == 5 == report.finished
    assert data["errors"] == []
    assert len(data["wins_by_seat"]) == 2
    assert sum(data["wins_by_seat"]) >= data["games"]  # shared victories credit each winner
    assert data["wins_by_kind"] == {"greedy": data["wins_by_seat"][0],
                                    "random": data["wins_by_seat"][1]}  # fmt: skip
    assert data["games_per_second"] == pytest.approx(5 / report.seconds, rel=0.01)
    assert data["mean_turns"] > 10 and data["mean_clients_served"] > 0
    text = report.format_text()
    assert "games/s" in text and "seat 0 (greedy)" in text


def test_a_shared_victory_credits_each_winner(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md §8 step 4: every winner of a shared victory gets a win."""

    def fake_game(seed: int, agents: Any, **_: Any) -> GameRecord:
        return GameRecord(seed=seed, finished=True, turns=12, winners=[0, 2], shared=True)

    monkeypatch.setattr(sim, "play_game", fake_game)
    report = simulate(3, 4, seed=1, bot="random")
    assert report.wins_by_seat == [4, 0, 4]
    assert report.shared_victories == 4
    assert report.wins_by_kind == {"random": 8}
    assert report.mean_turns == 12


def test_games_are_played_with_the_cyclic_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game runs with automatic collections off (poissonnier_tui/collector.py)."""
    collecting: list[bool] = []

    def spy(seed: int, agents: Any, **kwargs: Any) -> GameRecord:
        collecting.append(gc.isenabled())
        return play_game(seed, agents, **kwargs)

    monkeypatch.setattr(sim, "play_game", spy)
    assert gc.isenabled()
    assert simulate(2, 3, seed=1, bot="random").finished == 3
    assert collecting == [False, False, False] and gc.isenabled()


def test_zero_games() -> None:
    report = simulate(4, 0, seed=1)
    assert report.games == 0 and report.wins_by_seat == [0, 0, 0, 0]
    assert json.loads(report.to_json())["errors"] == []


@pytest.mark.parametrize(
    ("players", "kwargs"),
    [(1, {}), (6, {}), (2, {"bots": ["greedy"]}), (2, {"bot": "genius"}), (2, {"games": -1})],
)
def test_bad_arguments(players: int, kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"games": 1, "seed": 1, **kwargs}
    with pytest.raises(ValueError):
        simulate(players, **args)


class Cheat:
    """Plays an illegal ``end_turn`` in the fill step, otherwise like a greedy bot."""

    def __init__(self) -> None:
        self.inner = make_bot("greedy", 0)

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        if view["phase"] == "fill":
            return {"type": "end_turn"}
        return self.inner.act(view, legal)


class Sleeper:
    """Never does anything."""

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        return None


class Fidget:
    """Places a fish and takes it back forever: legal, but the game never moves on."""

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        for kind in ("take_back", "place"):
            for a in legal:
                if a["type"] == kind:
                    return a
        return next((a for a in legal if a["type"] in ("ready", "end_turn")), None)


def test_an_illegal_action_is_an_error_and_the_game_goes_on() -> None:
    """The refused action is recorded with the engine's sentence; the seat is then declared
    ready (R6, the table's default) and the game reaches its end."""
    record = play_game(8, [Cheat(), make_bot("greedy", 1)])
    assert record.finished
    assert record.errors
    assert all("seat 0" in e and "fill step" in e for e in record.errors)


def test_a_seat_that_never_acts_gets_the_default() -> None:
    """A silent seat stalls the table; each stall applies the default (ready, decline,
    end_turn) and the game still ends."""
    record = play_game(8, [Sleeper(), make_bot("greedy", 1)])
    assert record.finished and record.errors == [] and record.stalls > 0


def test_the_action_cap_stops_a_game_that_never_ends() -> None:
    record = play_game(8, [Fidget(), make_bot("greedy", 1)], max_actions=300)
    assert not record.finished and record.winners == []
    assert record.errors and "safety cap" in record.errors[-1]


def test_report_dataclass_defaults() -> None:
    report = SimulationReport(players=2, bots=["random", "random"], seed=0)
    assert report.to_dict()["games"] == 0


def test_game_records_per_seat_figures() -> None:
    """Per seat: one time per decision, refused actions, deals as buyer or seller (§4, R8)
    and proposals made, read from the public log."""
    record = play_game(12, [make_bot("medium", 1), make_bot("easy", 2), make_bot("medium", 3)])
    assert record.finished and record.errors == []
    assert [len(t) for t in record.seat_seconds] == [len(t) for t in record.seat_cpu]
    assert sum(len(t) for t in record.seat_seconds) == len(record.decision_seconds)
    assert record.seat_errors == [0, 0, 0]
    deals, counts = record.totals["deals"], record.seat_counts
    assert deals > 0
    assert sum(counts["deals"]) == 2 * deals  # each deal has a buyer and a seller
    assert sum(counts["proposals"]) >= deals
    assert 0 <= sum(counts["counters"]) <= sum(counts["proposals"])


def test_wires_of_hands_out_fresh_copies_of_to_wire() -> None:
    """Bots may keep or change the legal maps they get: a change never shows in a later list."""
    from poissonnier_tui.games.poissonnier.rules.actions import Propose, Serve, to_wire, wires_of

    actions = [Propose(1, ((0, 2),), coins=3), Serve("C01", ("T01",), ("T01",), ("F",))]
    first = wires_of(actions)
    assert first == [to_wire(a) for a in actions]
    first[0]["fish"][0][1] = 99
    first[0]["coins"] = 0
    first[1]["fish"].append("M02")
    second = wires_of(actions)
    assert second == [to_wire(a) for a in actions]
    assert second[0]["fish"] == [[0, 2]] and second[1]["fish"] == ["T01"]
