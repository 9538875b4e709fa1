"""Seeded games pinned: the same seed and choices give the very same game, byte for byte (R3).

The digests below pin the games of the engine and bots as they were *before*
they were made faster (see docs/measurements/bench-before.txt): the actions,
legal lists, logs and results are those of the old code, checked digest for
digest. Views gained each proposal's answerer since, and the arena's reports
their game's name, so those digests were taken again on games shown identical
without them; the same again when logged offers and deals in views gained their
``buyer`` (the other digests did not move). Any change in what the engine
offers (``legal_actions``, in order), how it applies an action, what a seat
sees (``view_for``) or what a bot chooses changes a digest and
fails here. A deliberate change of play must recompute them and say why.

Three kinds of games:

* random play on the bare engine: a seeded ``random.Random`` picks a waiting
  seat and one of its legal actions by index, so the *order* of
  ``legal_actions`` is pinned too, and every seat's and a spectator's view is
  hashed after every action;
* bot games through :func:`poissonnier_tui.arena.play.play_game` (medium, random,
  greedy and a fixed-work hard bot), every applied action recorded in its
  canonical wire form;
* :func:`poissonnier_tui.arena.simulate.simulate` reports (timings aside).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from net.game import Agent
from poissonnier_tui.arena import simulate as sim
from poissonnier_tui.arena.play import play_game
from poissonnier_tui.games.poissonnier.bots import HardBot, make_bot
from poissonnier_tui.games.poissonnier.bots.hard import HOPE_Z
from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.actions import parse_action, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Phase
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
    (1, 2, True, "fafbfdb43d351aad", 731),
    (2, 3, True, "fcd0770f91f1acd1", 592),
    (3, 4, True, "bdc58837bec3e602", 894),
    (4, 5, True, "2f4a8e33dc140a76", 681),
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
    """Play one game through ``play_game``; the digest of every applied action (in its
    canonical wire form) and the outcome."""
    applied: list[Any] = []
    apply_on_match = PoissonnierMatch.apply

    def recording(match: PoissonnierMatch, seat: int, wire: Mapping[str, Any]) -> None:
        apply_on_match(match, seat, wire)
        applied.append([seat, to_wire(parse_action(wire))])

    monkeypatch.setattr(PoissonnierMatch, "apply", recording)
    record = play_game(seed, agents)
    assert record.finished and not record.errors
    assert record.result is not None
    return _digest([applied, record.result["winners"], record.turns])


def _fixed_hard(seed: int) -> Agent:
    """A hard bot whose search stops on work done only (no clock), so its games are pinned."""
    return HardBot(random.Random(seed), budget=0.1, time_limit=1e9, wall_limit=1e9)


BOT_GAMES = [
    # (seed, kinds, digest)
    (21, ("medium", "medium"), "b0e5a429c1ebcf36"),
    (22, ("medium", "random", "medium"), "c80afdf9c4802ed7"),
    (23, ("medium", "medium", "medium", "medium"), "3325b719db31cd6b"),
    (24, ("greedy", "medium", "random", "medium", "easy"), "4d13ffbf9ee8ced4"),
    (25, ("hard", "medium"), "71784a7981e737c4"),
    # Taken again when the hard bot stopped searching offers to give its fish for nothing
    # (the random bot makes it one, and the search no longer draws its worlds), then when
    # its searches came to drop hopeless candidates (still_hopeful).
    (26, ("hard", "medium", "random"), "fdc6bc088e6d5e72"),
    # 4-player greedy and medium games, pinned before the greedy bot was made faster
    (27, ("greedy", "greedy", "greedy", "greedy"), "5fd27137da4d80c7"),
    (28, ("greedy", "medium", "greedy", "medium"), "a1d857c7277a7224"),
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


@pytest.mark.parametrize(
    ("hope_z", "digest", "searches", "worlds"),
    [(math.inf, "d8fd75fea6868de2", 39, 466), (HOPE_Z, "216511ea52bf531e", 55, 421)],
)
def test_a_racing_hard_game_is_pinned(
    hope_z: float, digest: str, searches: int, worlds: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hard bot with enough worlds per search for racing to stop some of its searches
    early (budget 0.3): the same searches, the same game. Without dropping hopeless
    candidates (``hope_z`` = ``math.inf``), the game pinned when racing came in; with it,
    the game pinned when that came in (the bot then plays differently from its first
    searched answer on). (Without racing either, ``race_z`` and ``lead_z`` set to
    ``math.inf`` too, this seed gives ``bf79d296a5c78f33`` in 36 searches of 497 worlds.)"""
    hard = HardBot(random.Random(29 * 8), budget=0.3, time_limit=1e9, wall_limit=1e9, hope_z=hope_z)
    played = _bot_game(29, [hard, make_bot("medium", 29 * 8 + 1)], monkeypatch)
    assert (played, hard.searches, hard.worlds) == (digest, searches, worlds)


def _simulate_summary(players: int, games: int, seed: int, bot: str) -> dict[str, Any]:
    report = sim.simulate(players, games, seed, bot=bot).to_dict()
    for timing in ("seconds", "games_per_second", "decision_ms_mean", "decision_ms_max"):
        del report[timing]
    return report


SIMULATIONS = [
    # (players, games, seed, bot, digest)
    (4, 3, 5, "medium", "ce811371094497bb"),
    (2, 4, 6, "greedy", "a0d9daa7e7c779b2"),
    # `poissonnier simulate --players 4 --seed 1` (greedy, the default, and medium), short
    (4, 4, 1, "greedy", "730fbadffdc52570"),
    (4, 3, 1, "medium", "dbc4f12abd1b5acf"),
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
