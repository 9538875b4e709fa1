"""Headless bot games, played straight on the rules engine (no network).

:func:`simulate` plays many games between bots and sums them up in a
:class:`SimulationReport`; :func:`play_game` plays one game between given
agents. Each agent is handed only what a table hands a bot seat:
``view_for(state, seat)`` and the seat's legal actions as wire maps
(RULES.md §9), never the state.

Driving the table follows ``waiting_on`` (``engine.waiting_on``):

* fill step (RULES.md §3.2): every seat not yet ready acts once, in seat
  order, round after round;
* serve step (§3.4, §4): first the seats that must answer a proposal, then
  the active seat; the first to act wins the round.

An action the engine refuses counts as an error (its message is recorded)
and the seat is then given the table's default
(:meth:`poissonnier_tui.table.PoissonnierMatch.timeout_action`: ``ready`` in
the fill step, ``decline`` a proposal to answer, else ``end_turn``). When no
waiting seat acts at all (every bot passes), the first one asked gets that
default too and the game counts a *stall*. A game reaching
:data:`MAX_ACTIONS` actions is stopped and counts as an error.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from net.game import Agent
from poissonnier_tui.bots import BOT_KINDS, make_bot
from poissonnier_tui.game import cards
from poissonnier_tui.game.actions import Action, to_wire
from poissonnier_tui.game.engine import apply_wire, legal_actions, new_game, waiting_on
from poissonnier_tui.game.errors import IllegalAction
from poissonnier_tui.game.state import GameState, Phase
from poissonnier_tui.game.view import view_for
from poissonnier_tui.table import PoissonnierMatch

MAX_ACTIONS = 5000
"""Actions one game may take before it is stopped as an error (a bot gone round in circles)."""


@dataclass(slots=True)
class GameRecord:
    """The outcome of one headless game.

    Attributes:
        seed: the game's seed (R3).
        finished: the game reached its end (RULES.md §8).
        turns: turns played.
        winners: winning seats (several for a shared victory); empty if unfinished.
        shared: a shared victory.
        clients_served: clients won by all seats together.
        deals: deals that bound and settled (R8).
        stalls: rounds where no waiting seat acted and the default was applied.
        actions: actions applied, defaults included.
        errors: one message per refused action (or the action cap).
        decision_seconds: time spent in each ``act`` call.
        result: the engine's result map (``scoring.decide_winner`` plus seed and turns).
    """

    seed: int
    finished: bool = False
    turns: int = 0
    winners: list[int] = field(default_factory=list)
    shared: bool = False
    clients_served: int = 0
    deals: int = 0
    stalls: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)
    result: dict[str, Any] | None = None


@lru_cache(maxsize=1 << 14)
def _wire_of(action: Action) -> dict[str, Any]:
    """``to_wire(action)``, cached: actions are frozen and ``to_wire`` is costly (``asdict``)."""
    return to_wire(action)


def _legal_wires(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The seat's legal actions as wire maps, each a fresh copy (bots may keep or change them)."""
    return [_copy_wire(_wire_of(a)) for a in legal_actions(state, seat)]


def _copy_wire(wire: dict[str, Any]) -> dict[str, Any]:
    """A copy of a wire action deep enough that no list is shared (values nest two deep)."""
    return {
        k: [list(x) if isinstance(x, list) else x for x in v] if isinstance(v, list) else v
        for k, v in wire.items()
    }


def _over(state: GameState) -> bool:
    """True once the game has ended (RULES.md §8); a call, so type checkers re-read the phase."""
    return state.phase is Phase.OVER


def _ask_order(state: GameState) -> list[int]:
    """Seats to ask, in order: answerers of proposals first, then the active seat."""
    waiting = waiting_on(state)
    if state.phase is Phase.FILL:
        return sorted(waiting)
    return sorted(waiting - {state.active}) + ([state.active] if state.active in waiting else [])


def play_game(seed: int, agents: Sequence[Agent], *, max_actions: int = MAX_ACTIONS) -> GameRecord:
    """Play one game between ``agents`` (seat i is ``agents[i]``) on the engine.

    Args:
        seed: the game's seed; the first player is drawn from it (R3, R4).
        agents: 2..5 agents; each is handed only its seat's view and legal
            actions (RULES.md §9).
        max_actions: the safety cap; a game reaching it is stopped and
            records an error.

    Returns:
        The :class:`GameRecord`.
    """
    state = new_game(seed, len(agents))
    match = PoissonnierMatch(state)
    record = GameRecord(seed=seed)

    def default(seat: int, why: str) -> None:
        wire = match.timeout_action(seat)
        if wire is None:
            record.errors.append(f"seed {seed} turn {state.turn} seat {seat}: no default ({why})")
            return
        apply_wire(state, seat, wire)
        record.actions += 1

    while not _over(state):
        if record.actions >= max_actions:
            record.errors.append(f"seed {seed}: stopped after {max_actions} actions (safety cap)")
            break
        order = _ask_order(state)
        acted = False
        for seat in order:
            if _over(state) or seat not in waiting_on(state):
                break
            view = view_for(state, seat)
            legal = _legal_wires(state, seat)
            start = time.perf_counter()
            wire = agents[seat].act(view, legal)
            record.decision_seconds.append(time.perf_counter() - start)
            if wire is None:
                continue
            acted = True
            try:
                apply_wire(state, seat, wire)
                record.actions += 1
            except IllegalAction as exc:
                record.errors.append(
                    f"seed {seed} turn {state.turn} seat {seat} "
                    f"({type(agents[seat]).__name__}): {exc.sentence} — action {wire!r}"
                )
                default(seat, "after an illegal action")
            if state.phase is not Phase.FILL:
                break  # serve step: re-ask answerers first
        if not acted and not _over(state) and order:
            record.stalls += 1
            default(order[0], "every waiting seat passed")
    if state.phase is Phase.OVER and state.result is not None:
        record.finished = True
        record.result = dict(state.result)
        record.winners = list(state.result["winners"])
        record.shared = bool(state.result["shared"])
    record.turns = state.turn
    record.clients_served = sum(len(s.clients) for s in state.seats)
    record.deals = sum(1 for e in state.log if e["t"] == "deal")
    return record


@dataclass(slots=True)
class SimulationReport:
    """Totals over many headless games.

    Wins: a shared victory (RULES.md §8 step 4, R14) credits *each* winner, so
    ``sum(wins_by_seat)`` may exceed the number of finished games; unfinished
    games credit nobody.

    Attributes:
        players: seats per game.
        bots: the bot kind of each seat.
        seed: the seed the game seeds were derived from.
        games: games played.
        finished: games that reached their end.
        seconds: wall time of the whole run.
        games_per_second: ``games / seconds``.
        mean_turns: turns per game.
        mean_clients_served: clients won per game, all seats together.
        wins_by_seat: wins per seat (shared victories credit each winner).
        wins_by_kind: wins per bot kind, summed over the seats of that kind.
        shared_victories: games ending in a shared victory.
        deals: deals made, all games together.
        stalls: rounds where every waiting bot passed (a default was applied).
        errors: messages of refused actions and stopped games.
        decisions: ``act`` calls made.
        decision_ms_mean / decision_ms_max: time per ``act`` call, in milliseconds.
    """

    players: int
    bots: list[str]
    seed: int
    games: int = 0
    finished: int = 0
    seconds: float = 0.0
    games_per_second: float = 0.0
    mean_turns: float = 0.0
    mean_clients_served: float = 0.0
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_kind: dict[str, int] = field(default_factory=dict)
    shared_victories: int = 0
    deals: int = 0
    stalls: int = 0
    errors: list[str] = field(default_factory=list)
    decisions: int = 0
    decision_ms_mean: float = 0.0
    decision_ms_max: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready map (every attribute)."""
        return {
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "mean_turns": round(self.mean_turns, 3),
            "mean_clients_served": round(self.mean_clients_served, 3),
            "wins_by_seat": list(self.wins_by_seat),
            "wins_by_kind": dict(self.wins_by_kind),
            "shared_victories": self.shared_victories,
            "deals": self.deals,
            "stalls": self.stalls,
            "errors": list(self.errors),
            "decisions": self.decisions,
            "decision_ms_mean": round(self.decision_ms_mean, 4),
            "decision_ms_max": round(self.decision_ms_max, 4),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def format_text(self) -> str:
        """A few lines for a human reader."""
        seats = ", ".join(
            f"seat {i} ({kind}) {wins}"
            for i, (kind, wins) in enumerate(zip(self.bots, self.wins_by_seat, strict=True))
        )
        lines = [
            f"{self.games} games, {self.players} players ({', '.join(self.bots)}), "
            f"seed {self.seed}",
            f"  {self.seconds:.2f} s, {self.games_per_second:.1f} games/s; "
            f"decisions: {self.decisions}, mean {self.decision_ms_mean:.3f} ms, "
            f"max {self.decision_ms_max:.2f} ms",
            f"  finished {self.finished}; mean turns {self.mean_turns:.1f}; "
            f"clients served per game {self.mean_clients_served:.1f}; deals {self.deals}",
            f"  wins (a shared victory credits each winner): {seats}",
            "  wins by kind: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.wins_by_kind.items())),
            f"  shared victories {self.shared_victories}; stalls {self.stalls}; "
            f"errors {len(self.errors)}",
        ]
        lines += [f"    {e}" for e in self.errors[:10]]
        if len(self.errors) > 10:
            lines.append(f"    … and {len(self.errors) - 10} more")
        return "\n".join(lines)


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of ``games`` games derived from ``seed`` (deterministic, R3)."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


def simulate(
    players: int,
    games: int,
    seed: int,
    bot: str = "greedy",
    bots: list[str] | None = None,
) -> SimulationReport:
    """Play ``games`` headless bot games and sum them up.

    Game ``i`` uses the ``i``-th seed of :func:`game_seeds` and fresh bots,
    seeded from the game seed and the seat, so a run is deterministic for a
    ``seed`` (timings aside).

    Args:
        players: seats per game, 2..5.
        games: how many games, ≥ 0.
        seed: the run's seed.
        bot: the kind for every seat when ``bots`` is not given.
        bots: one kind per seat (``len(bots) == players``).

    Returns:
        The :class:`SimulationReport`; a shared victory credits each winner.

    Raises:
        ValueError: bad ``players``, ``games``, bot kind or ``bots`` length.
    """
    if not cards.MIN_PLAYERS <= players <= cards.MAX_PLAYERS:
        raise ValueError(f"Le Poissonnier is for 2 to 5 players, not {players}")
    if games < 0:
        raise ValueError("games must be 0 or more")
    kinds = list(bots) if bots is not None else [bot] * players
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} bot kinds given for {players} seats")
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
    report = SimulationReport(
        players=players,
        bots=kinds,
        seed=seed,
        wins_by_seat=[0] * players,
        wins_by_kind={k: 0 for k in dict.fromkeys(kinds)},
    )
    turns = 0
    served = 0
    times: list[float] = []
    start = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        agents = [make_bot(kind, game_seed * 8 + seat) for seat, kind in enumerate(kinds)]
        rec = play_game(game_seed, agents)
        report.games += 1
        report.finished += rec.finished
        turns += rec.turns
        served += rec.clients_served
        report.deals += rec.deals
        report.stalls += rec.stalls
        report.errors += rec.errors
        report.shared_victories += rec.shared
        for w in rec.winners:
            report.wins_by_seat[w] += 1
            report.wins_by_kind[kinds[w]] += 1
        times += rec.decision_seconds
    report.seconds = time.perf_counter() - start
    report.games_per_second = report.games / report.seconds if report.seconds > 0 else 0.0
    if report.games:
        report.mean_turns = turns / report.games
        report.mean_clients_served = served / report.games
    report.decisions = len(times)
    if times:
        report.decision_ms_mean = 1000 * sum(times) / len(times)
        report.decision_ms_max = 1000 * max(times)
    return report
