"""Headless bot games, played straight on the rules engine (no network).

:func:`simulate` plays many games between bots and sums them up in a
:class:`SimulationReport`; :func:`tournament` plays seat-rotated games
between a lineup of bot kinds and reports per bot (:class:`TournamentReport`:
win rate with a 95 % Wilson interval, mean tallies, deals, decision times);
:func:`play_game` plays one game between given agents. Each agent is handed
only what a table hands a bot seat: ``view_for(state, seat)`` and the seat's
legal actions as wire maps (RULES.md §9), never the state.

Driving the table follows ``waiting_on`` (``engine.waiting_on``):

* fill step (RULES.md §3.2): every seat not yet ready acts once, in seat
  order, round after round;
* serve step (§3.4, §4): first each seat the game does not wait on
  (``engine.volunteers``) gets one chance per state to offer a deal unasked;
  then the seats that must answer a proposal, then the active seat; the
  first to act wins the round. Unasked chances keep nobody waiting, so they
  are timed only when the seat acts.

An action the engine refuses counts as an error (its message is recorded)
and the seat is then given the table's default
(:meth:`poissonnier_tui.games.poissonnier.match.PoissonnierMatch.timeout_action`: ``ready`` in
the fill step, ``decline`` a proposal to answer, else ``end_turn``). When no
waiting seat acts at all (every bot passes), the first one asked gets that
default too and the game counts a *stall*. A game reaching
:data:`MAX_ACTIONS` actions is stopped and counts as an error.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from net.game import Agent
from poissonnier_tui.games.poissonnier.bots import BOT_KINDS, make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import wires_of
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    volunteers,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

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
        decision_seconds: wall time spent in each ``act`` call.
        result: the engine's result map (``scoring.decide_winner`` plus seed and turns).
        seat_seconds: per seat, the wall time of each of its ``act`` calls.
        seat_cpu: per seat, the CPU time (this thread, one core) of each of its ``act`` calls.
        seat_errors: per seat, actions refused by the engine.
        seat_deals: per seat, deals it took part in, as buyer or seller (§4, R8).
        seat_proposals: per seat, proposals and counter-proposals it made (§4).
        seat_counters: per seat, counter-proposals it made (haggling, R8).
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
    seat_seconds: list[list[float]] = field(default_factory=list)
    seat_cpu: list[list[float]] = field(default_factory=list)
    seat_errors: list[int] = field(default_factory=list)
    seat_deals: list[int] = field(default_factory=list)
    seat_proposals: list[int] = field(default_factory=list)
    seat_counters: list[int] = field(default_factory=list)


def _legal_wires(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The seat's legal actions as wire maps, each a fresh copy (bots may keep or change them)."""
    return wires_of(legal_actions(state, seat))


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
    n = len(agents)
    record = GameRecord(
        seed=seed,
        seat_seconds=[[] for _ in range(n)],
        seat_cpu=[[] for _ in range(n)],
        seat_errors=[0] * n,
        seat_deals=[0] * n,
        seat_proposals=[0] * n,
        seat_counters=[0] * n,
    )

    def default(seat: int, why: str) -> None:
        wire = match.timeout_action(seat)
        if wire is None:
            record.errors.append(f"seed {seed} turn {state.turn} seat {seat}: no default ({why})")
            return
        apply_wire(state, seat, wire)
        record.actions += 1

    def ask(seat: int, *, waited: bool) -> dict[str, Any] | None:
        """The seat's agent's choice; timed when the table waits on it (an unasked
        offer, §4, keeps nobody waiting, so its mostly empty asks are not timed)."""
        view = view_for(state, seat)
        legal = _legal_wires(state, seat)
        start = time.perf_counter()
        cpu = time.thread_time()
        wire = agents[seat].act(view, legal)
        if waited or wire is not None:
            record.seat_cpu[seat].append(time.thread_time() - cpu)
            elapsed = time.perf_counter() - start
            record.decision_seconds.append(elapsed)
            record.seat_seconds[seat].append(elapsed)
        return wire

    def play(seat: int, wire: dict[str, Any]) -> bool:
        """Apply ``wire`` for ``seat``; an illegal action is recorded. True if applied."""
        try:
            apply_wire(state, seat, wire)
            record.actions += 1
            return True
        except IllegalAction as exc:
            record.seat_errors[seat] += 1
            record.errors.append(
                f"seed {seed} turn {state.turn} seat {seat} "
                f"({type(agents[seat]).__name__}): {exc.sentence} — action {wire!r}"
            )
            return False

    offered_at: dict[int, int] = {}  # seat -> actions count when last given the chance to offer
    while not _over(state):
        if record.actions >= max_actions:
            record.errors.append(f"seed {seed}: stopped after {max_actions} actions (safety cap)")
            break
        # Unasked offers first (§4): each seat the game does not wait on gets one
        # chance per state, as a live table asks its idle bots after each change.
        offered = False
        for seat in sorted(volunteers(state)):
            if offered_at.get(seat) == record.actions:
                continue
            offered_at[seat] = record.actions
            wire = ask(seat, waited=False)
            if wire is not None:
                play(seat, wire)  # refused: recorded, and nobody waits on this seat
                offered = True
                break
        if offered:
            continue
        order = _ask_order(state)
        acted = False
        for seat in order:
            if _over(state) or seat not in waiting_on(state):
                break
            wire = ask(seat, waited=True)
            if wire is None:
                continue
            acted = True
            if not play(seat, wire):
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
    active = state.first_player
    for event in state.log:
        kind = event["t"]
        if kind == "turn":
            active = event["seat"]
        elif kind == "propose":
            record.seat_proposals[event["seat"]] += 1
            record.seat_counters[event["seat"]] += event.get("counter") is not None
        elif kind == "deal":
            record.deals += 1
            record.seat_deals[active] += 1
            record.seat_deals[event["proposal"]["seller"]] += 1
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


# --------------------------------------------------------------------------- tournament

WILSON_Z = 1.959963984540054
"""z for a two-sided 95 % interval."""


def wilson_interval(successes: float, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    Args:
        successes: wins; may be fractional (a shared victory credits a share).
        trials: games, ≥ 0.

    Returns:
        ``(low, high)`` as fractions in [0, 1]; ``(0.0, 1.0)`` for no trials.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values``, linear between closest ranks; 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass(slots=True)
class EntrantStats:
    """One bot of a tournament lineup, over all its games.

    Attributes:
        label: the kind, numbered when a kind appears more than once (``"easy#2"``).
        kind: the bot kind (``poissonnier_tui.games.poissonnier.bots.BOT_KINDS``).
        games: finished games played.
        wins: win credits: 1 for a victory, ``1/k`` for a victory shared by k (§8).
        win_rate: ``wins / games``.
        ci_low / ci_high: the 95 % Wilson interval of the win rate.
        coins / clients / stamps: mean final tallies (RULES.md §8).
        deals: deals made (as buyer or seller, R8), all games together.
        proposals: proposals and counter-proposals made (§4).
        counters: counter-proposals made (haggling, R8).
        decisions: ``act`` calls.
        ms_median / ms_p95 / ms_max: wall time per decision, in milliseconds.
        cpu_ms_median / cpu_ms_p95 / cpu_ms_max: CPU time per decision (one core), in ms.
        illegal: actions the engine refused.
    """

    label: str
    kind: str
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 1.0
    coins: float = 0.0
    clients: float = 0.0
    stamps: float = 0.0
    deals: int = 0
    proposals: int = 0
    counters: int = 0
    decisions: int = 0
    ms_median: float = 0.0
    ms_p95: float = 0.0
    ms_max: float = 0.0
    cpu_ms_median: float = 0.0
    cpu_ms_p95: float = 0.0
    cpu_ms_max: float = 0.0
    illegal: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready map; rates and means rounded."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = round(value, 4) if isinstance(value, float) else value
        return out


@dataclass(slots=True)
class TournamentReport:
    """The outcome of :func:`tournament`.

    Attributes:
        players: seats per game.
        bots: the lineup, one kind per entrant.
        seed: the run's seed.
        games: games played.
        deals_played: distinct deals (seeds); each is played in up to ``players`` seatings.
        finished: games that reached their end.
        budget: the hard bot's budget scale (1.0 = its published budget).
        entrants: per entrant statistics, in lineup order.
        shared_victories: games won by several seats.
        stalls: rounds where every waiting seat passed.
        errors: refused actions and stopped games, with their messages.
        seconds: wall time of the run.
    """

    players: int
    bots: list[str]
    seed: int
    games: int = 0
    deals_played: int = 0
    finished: int = 0
    budget: float = 1.0
    entrants: list[EntrantStats] = field(default_factory=list)
    shared_victories: int = 0
    stalls: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready map."""
        return {
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "deals_played": self.deals_played,
            "finished": self.finished,
            "budget": self.budget,
            "entrants": [e.to_dict() for e in self.entrants],
            "shared_victories": self.shared_victories,
            "stalls": self.stalls,
            "errors": list(self.errors),
            "seconds": round(self.seconds, 3),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as one JSON object."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def format_text(self) -> str:
        """A table for a human reader, one row per entrant."""
        head = (
            f"{self.games} games, {self.players} players, seat-rotated "
            f"({self.deals_played} shuffles, each in every seating), seed {self.seed}"
            + (f", hard budget ×{self.budget:g}" if self.budget != 1.0 else "")
            + f"; {self.seconds:.1f} s"
        )
        rows = [
            (
                "bot",
                "win rate",
                "95% CI",
                "coins",
                "clients",
                "stamps",
                "deals",
                "proposals",
                "counters",
                "ms med",
                "ms p95",
                "cpu p95",
                "illegal",
            )
        ]
        for e in self.entrants:
            rows.append(
                (
                    e.label,
                    f"{100 * e.win_rate:.1f}%",
                    f"{100 * e.ci_low:.1f}–{100 * e.ci_high:.1f}%",
                    f"{e.coins:.1f}",
                    f"{e.clients:.1f}",
                    f"{e.stamps:.1f}",
                    str(e.deals),
                    str(e.proposals),
                    str(e.counters),
                    f"{e.ms_median:.2f}",
                    f"{e.ms_p95:.2f}",
                    f"{e.cpu_ms_p95:.2f}",
                    str(e.illegal),
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [head]
        for r in rows:
            lines.append(
                "  "
                + "  ".join(
                    c.ljust(w) if i == 0 else c.rjust(w)
                    for i, (c, w) in enumerate(zip(r, widths, strict=True))
                )
            )
        lines.append(
            f"  finished {self.finished}/{self.games}; shared victories {self.shared_victories}; "
            f"stalls {self.stalls}; errors {len(self.errors)}"
        )
        lines.append(
            "  deals: trades settled, as buyer or seller (§4); proposals: offers and "
            "counter-offers made; ms: wall time per decision; cpu: CPU time of the deciding "
            "thread (one core)"
        )
        lines += [f"    {e}" for e in self.errors[:10]]
        if len(self.errors) > 10:
            lines.append(f"    … and {len(self.errors) - 10} more")
        return "\n".join(lines)


def entrant_labels(bots: Sequence[str]) -> list[str]:
    """Labels for a lineup: the kind, numbered (``easy#1``, ``easy#2``) when repeated."""
    counts: dict[str, int] = {}
    total = {k: bots.count(k) for k in bots}
    labels = []
    for kind in bots:
        counts[kind] = counts.get(kind, 0) + 1
        labels.append(f"{kind}#{counts[kind]}" if total[kind] > 1 else kind)
    return labels


@dataclass(frozen=True, slots=True)
class _Game:
    """One tournament game to play (picklable, for worker processes)."""

    seed: int
    seats: tuple[int, ...]  # entrant index at each seat
    kinds: tuple[str, ...]  # kind of each entrant
    bot_seeds: tuple[int, ...]  # seed of each entrant's bot
    budget: float


def _play_scheduled(game: _Game) -> GameRecord:
    """Build the bots of ``game`` and play it (runs in a worker process with ``jobs > 1``)."""
    agents = [make_bot(game.kinds[e], game.bot_seeds[e], budget=game.budget) for e in game.seats]
    return play_game(game.seed, agents)


def tournament_schedule(
    players: int, games: int, bots: Sequence[str], seed: int, budget: float = 1.0
) -> list[_Game]:
    """The games of a tournament, seat-rotated on shared deals.

    Deal ``d`` (the ``d``-th seed of :func:`game_seeds`) is played ``players``
    times; in its ``r``-th seating, entrant ``j`` sits at seat ``(j + r) mod
    players``, so every entrant plays every seat on the same cards (and the
    seed's first player, R4, falls on each of them in turn). ``games`` need not
    be a multiple of ``players``: the last deal is then played in fewer seatings.
    """
    deals = -(-games // players)
    out: list[_Game] = []
    for deal_seed in game_seeds(seed, deals):
        bot_seeds = tuple(deal_seed * 8 + j for j in range(players))
        for r in range(players):
            if len(out) == games:
                break
            seats = tuple((s - r) % players for s in range(players))
            out.append(_Game(deal_seed, seats, tuple(bots), bot_seeds, budget))
    return out


def tournament(
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int,
    *,
    jobs: int = 1,
    budget: float = 1.0,
) -> TournamentReport:
    """Play a seat-rotated tournament between bot kinds and sum it up per entrant.

    Args:
        players: seats per game, 2..5.
        games: games to play, ≥ 0.
        bots: the lineup: one kind per seat (``len(bots) == players``); a kind
            may appear several times (each is a separate entrant).
        seed: the run's seed; the same seed gives the same games (R3), the
            hard bot's time cap aside (it never binds at ``budget`` 1 on an idle core).
        jobs: worker processes (1: play in this process).
        budget: scales the hard bot's search budget (e.g. 0.25 for long
            legality runs); other kinds ignore it.

    Returns:
        The :class:`TournamentReport`.

    Raises:
        ValueError: bad ``players``, ``games``, ``jobs``, ``budget``, kinds or lineup length.
    """
    if not cards.MIN_PLAYERS <= players <= cards.MAX_PLAYERS:
        raise ValueError(f"Le Poissonnier is for 2 to 5 players, not {players}")
    if games < 0:
        raise ValueError("games must be 0 or more")
    if jobs < 1:
        raise ValueError("jobs must be 1 or more")
    if not budget > 0:
        raise ValueError("budget must be positive")
    lineup = list(bots)
    if len(lineup) != players:
        raise ValueError(f"{len(lineup)} bots given for {players} seats")
    for kind in lineup:
        if kind not in BOT_KINDS:
            raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
    schedule = tournament_schedule(players, games, lineup, seed, budget)
    start = time.perf_counter()
    if jobs == 1:
        records = [_play_scheduled(g) for g in schedule]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(_play_scheduled, schedule, chunksize=1))
    report = TournamentReport(
        players=players,
        bots=lineup,
        seed=seed,
        games=len(schedule),
        deals_played=len({g.seed for g in schedule}),
        budget=budget,
        entrants=[
            EntrantStats(label, kind)
            for label, kind in zip(entrant_labels(lineup), lineup, strict=True)
        ],
    )
    seconds: list[list[float]] = [[] for _ in lineup]
    cpu: list[list[float]] = [[] for _ in lineup]
    tallies = [[0, 0, 0] for _ in lineup]
    for game, rec in zip(schedule, records, strict=True):
        report.stalls += rec.stalls
        report.errors += rec.errors
        for seat, e in enumerate(game.seats):
            stats = report.entrants[e]
            seconds[e] += rec.seat_seconds[seat]
            cpu[e] += rec.seat_cpu[seat]
            stats.illegal += rec.seat_errors[seat]
            stats.deals += rec.seat_deals[seat]
            stats.proposals += rec.seat_proposals[seat]
            stats.counters += rec.seat_counters[seat]
        if not rec.finished or rec.result is None:
            continue
        report.finished += 1
        report.shared_victories += rec.shared
        for seat, e in enumerate(game.seats):
            stats = report.entrants[e]
            stats.games += 1
            score = rec.result["scores"][seat]
            tallies[e][0] += score["coins"]
            tallies[e][1] += score["clients"]
            tallies[e][2] += score["stamps"]
            if seat in rec.winners:
                stats.wins += 1 / len(rec.winners)
    for e, stats in enumerate(report.entrants):
        if stats.games:
            stats.win_rate = stats.wins / stats.games
            stats.coins, stats.clients, stats.stamps = (t / stats.games for t in tallies[e])
        stats.ci_low, stats.ci_high = wilson_interval(stats.wins, stats.games)
        stats.decisions = len(seconds[e])
        stats.ms_median = 1000 * percentile(seconds[e], 50)
        stats.ms_p95 = 1000 * percentile(seconds[e], 95)
        stats.ms_max = 1000 * max(seconds[e], default=0.0)
        stats.cpu_ms_median = 1000 * percentile(cpu[e], 50)
        stats.cpu_ms_p95 = 1000 * percentile(cpu[e], 95)
        stats.cpu_ms_max = 1000 * max(cpu[e], default=0.0)
    report.seconds = time.perf_counter() - start
    return report
