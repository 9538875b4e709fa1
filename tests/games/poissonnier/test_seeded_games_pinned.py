"""Seeded games pinned: the same seed and choices give the very same game, byte for byte (R3).

The digests below were computed on the engine and bots *before* they were
made faster (see docs/measurements/bench-before.txt); any change in what the
engine offers (``legal_actions``, in order), how it applies an action, what a
seat sees (``view_for``) or what a bot chooses changes a digest and fails
here. A deliberate change of play must recompute them and say why.

Three kinds of games:

* random play on the bare engine: a seeded ``random.Random`` picks a waiting
  seat and one of its legal actions by index, so the *order* of
  ``legal_actions`` is pinned too, and every seat's and a spectator's view is
  hashed after every action;
* bot games through :func:`poissonnier_tui.arena.simulate.play_game` (medium, random,
  greedy and a fixed-work hard bot), every applied wire action recorded;
* :func:`poissonnier_tui.arena.simulate.simulate` reports (timings aside).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from net.game import Agent
from poissonnier_tui.arena import simulate as sim
from poissonnier_tui.games.poissonnier.bots import HardBot, make_bot
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

MAX_STEPS = 4000
"""A random game on the bare engine is cut off here (none of the pinned ones gets near)."""


def _digest(items: Sequence[Any]) -> str:
    """sha256 of the JSON of ``items`` (tuples and lists alike), first 16 hex digits."""
    text = json.dumps(list(items), sort_keys=True, ensure_ascii=False, default=list)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _random_engine_game(seed: int, players: int, *, views: bool) -> tuple[str, int]:
    """Play one game by seeded random choices; the digest of every action (and view) and steps."""
    state = new_game(seed, players)
    rng = random.Random(seed)
    trail: list[Any] = []
    steps = 0
    while state.phase is not Phase.OVER and steps < MAX_STEPS:
        seat = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        apply(state, seat, action)
        trail.append([seat, len(legal), to_wire(action)])
        if views:
            trail.append([view_for(state, s) for s in (*range(players), None)])
        steps += 1
    trail.append(state.log)
    trail.append(state.result)
    return _digest(trail), steps


RANDOM_ENGINE_GAMES = [
    # (seed, players, hash every view, digest, actions)
    (1, 2, True, "a6b752e7ebbff0ce", 731),
    (2, 3, True, "e1467ae612c4b744", 592),
    (3, 4, True, "18b69928f9ea3160", 894),
    (4, 5, True, "261353a530448c0a", 681),
    (11, 4, False, "f25fe6f5b9445944", 722),
    (12, 5, False, "bc5d2b19808bbe89", 611),
]


@pytest.mark.parametrize(("seed", "players", "views", "digest", "steps"), RANDOM_ENGINE_GAMES)
def test_random_play_on_the_engine_is_pinned(
    seed: int, players: int, views: bool, digest: str, steps: int
) -> None:
    """Seeded random play gives the same legal lists, actions, views, log and result."""
    assert _random_engine_game(seed, players, views=views) == (digest, steps)


def _bot_game(seed: int, agents: Sequence[Agent], monkeypatch: pytest.MonkeyPatch) -> str:
    """Play one game through ``play_game``; the digest of every applied action and the outcome."""
    applied: list[Any] = []

    def recording(state: GameState, seat: int, wire: dict[str, Any]) -> None:
        apply_wire(state, seat, wire)
        applied.append([seat, wire])

    monkeypatch.setattr(sim, "apply_wire", recording)
    record = sim.play_game(seed, agents)
    assert record.finished and not record.errors
    return _digest([applied, record.result, record.turns, record.deals, record.stalls])


def _fixed_hard(seed: int) -> Agent:
    """A hard bot whose search stops on work done only (no clock), so its games are pinned."""
    return HardBot(random.Random(seed), budget=0.1, time_limit=1e9, wall_limit=1e9)


BOT_GAMES = [
    # (seed, kinds, digest)
    (21, ("medium", "medium"), "5f379f02b0dd510b"),
    (22, ("medium", "random", "medium"), "3f67de8bb555c341"),
    (23, ("medium", "medium", "medium", "medium"), "6f2d5b6a663557a3"),
    (24, ("greedy", "medium", "random", "medium", "easy"), "47c97709219ae9ae"),
    (25, ("hard", "medium"), "9761e462a858529d"),
    (26, ("hard", "medium", "random"), "8de6e1153ee91b86"),
]


@pytest.mark.parametrize(("seed", "kinds", "digest"), BOT_GAMES)
def test_bot_games_are_pinned(
    seed: int, kinds: tuple[str, ...], digest: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeded bot games apply the same actions and end with the same result."""
    agents = [
        _fixed_hard(seed * 8 + i) if kind == "hard" else make_bot(kind, seed * 8 + i)
        for i, kind in enumerate(kinds)
    ]
    assert _bot_game(seed, agents, monkeypatch) == digest


def _simulate_summary(players: int, games: int, seed: int, bot: str) -> dict[str, Any]:
    report = sim.simulate(players, games, seed, bot=bot).to_dict()
    for timing in ("seconds", "games_per_second", "decision_ms_mean", "decision_ms_max"):
        del report[timing]
    return report


SIMULATIONS = [
    # (players, games, seed, bot, digest)
    (4, 3, 5, "medium", "cde676face97af61"),
    (2, 4, 6, "greedy", "8425c523ac858832"),
]


@pytest.mark.parametrize(("players", "games", "seed", "bot", "digest"), SIMULATIONS)
def test_simulate_reports_are_pinned(
    players: int, games: int, seed: int, bot: str, digest: str
) -> None:
    """``simulate`` gives the same wins, turns, deals and decisions for a seed."""
    summary = _simulate_summary(players, games, seed, bot)
    assert summary["finished"] == games and summary["errors"] == []
    assert _digest([summary]) == digest


def test_a_copied_state_plays_on_like_the_original() -> None:
    """``GameState.copy`` carries the generator: both copies reshuffle and end alike (R3, R7)."""
    state = new_game(31, 4)
    rng = random.Random(31)
    for _ in range(150):  # into the game, before the copy
        seat = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.randrange(len(legal))])
    copy = state.copy()
    assert copy.rng.getstate() == state.rng.getstate()
    assert copy.rng is not state.rng
    logs = []
    for game in (state, copy):
        choices = random.Random(32)
        steps = 0
        while game.phase is not Phase.OVER and steps < MAX_STEPS:
            seat = choices.choice(sorted(waiting_on(game)))
            legal = legal_actions(game, seat)
            apply(game, seat, legal[choices.randrange(len(legal))])
            steps += 1
        assert game.phase is Phase.OVER
        logs.append(_digest([game.log, game.result]))
    assert logs[0] == logs[1]
