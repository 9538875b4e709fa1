"""``simulate``: many headless games between bots of one game, summed up.

:func:`simulate` plays games on :func:`poissonnier_tui.arena.play.play_game`
(the game loop a table would run, no network) and reports them in a
:class:`SimulationReport`: wins per seat and per bot level, finished games,
turns, the game's own tallies (Le Poissonnier: clients served, deals), stalls,
errors and decision times.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from poissonnier_tui import collector
from poissonnier_tui.arena.play import check_lineup, entry_of, play_game, tally_word
from poissonnier_tui.arena.stats import game_seeds
from poissonnier_tui.games import DEFAULT_GAME, GameEntry
from poissonnier_tui.i18n import _, decimal, ngettext


@dataclass(slots=True)
class SimulationReport:
    """Totals over many headless games.

    Wins: a shared victory credits *each* winner, so ``sum(wins_by_seat)`` may
    exceed the number of finished games; unfinished games credit nobody.

    Attributes:
        players: seats per game.
        bots: the bot level of each seat.
        seed: the seed the game seeds were derived from.
        game: the game's registry name.
        games: games played.
        finished: games that reached their end.
        seconds: wall time of the whole run.
        games_per_second: ``games / seconds``.
        mean_turns: turns per game (the turn number the game's view shows).
        totals: the game's game-wide tallies summed over the games
            (``play.PlayCounts``; Le Poissonnier: ``clients_served``, ``deals``).
        wins_by_seat: wins per seat (shared victories credit each winner).
        wins_by_kind: wins per bot level, summed over the seats of that level.
        shared_victories: games ending in a shared victory.
        stalls: rounds where every waiting bot passed (a default was applied).
        errors: messages of refused actions and stopped games.
        decisions: ``act`` calls made.
        decision_ms_mean / decision_ms_max: time per ``act`` call, in milliseconds.
    """

    players: int
    bots: list[str]
    seed: int
    game: str = DEFAULT_GAME
    games: int = 0
    finished: int = 0
    seconds: float = 0.0
    games_per_second: float = 0.0
    mean_turns: float = 0.0
    totals: dict[str, int] = field(default_factory=dict)
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_kind: dict[str, int] = field(default_factory=dict)
    shared_victories: int = 0
    stalls: int = 0
    errors: list[str] = field(default_factory=list)
    decisions: int = 0
    decision_ms_mean: float = 0.0
    decision_ms_max: float = 0.0

    def mean(self, total: str) -> float:
        """A game-wide tally per game (``totals[total] / games``; 0 without games)."""
        return self.totals.get(total, 0) / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready map (every attribute; each tally ``k`` of
        :attr:`totals` as ``k``, summed, and ``mean_k``, per game)."""
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "mean_turns": round(self.mean_turns, 3),
            **{f"mean_{k}": round(self.mean(k), 3) for k in self.totals},
            "wins_by_seat": list(self.wins_by_seat),
            "wins_by_kind": dict(self.wins_by_kind),
            "shared_victories": self.shared_victories,
            **dict(self.totals),
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
            _("seat {seat} ({kind}) {wins}").format(seat=i, kind=kind, wins=wins)
            for i, (kind, wins) in enumerate(zip(self.bots, self.wins_by_seat, strict=True))
        )
        tallies = "".join(
            _("; {tally} per game {mean}").format(
                tally=tally_word(self.game, k), mean=decimal(self.mean(k), 1)
            )
            for k in self.totals
        )
        lines = [
            ngettext(
                "{n} game of {game}, {players} players ({bots}), seed {seed}",
                "{n} games of {game}, {players} players ({bots}), seed {seed}",
                self.games,
            ).format(
                n=self.games, game=self.game, players=self.players, bots=", ".join(self.bots),
                seed=self.seed,
            ),
            "  "
            + _(
                "{seconds} s, {rate} games/s; decisions: {decisions}, mean {mean} ms, "
                "max {max} ms"
            ).format(
                seconds=decimal(self.seconds, 2), rate=decimal(self.games_per_second, 1),
                decisions=self.decisions, mean=decimal(self.decision_ms_mean, 3),
                max=decimal(self.decision_ms_max, 2),
            ),
            "  "
            + _("finished {finished}; mean turns {turns}").format(
                finished=self.finished, turns=decimal(self.mean_turns, 1)
            )
            + tallies,
            "  " + _("wins (a shared victory credits each winner): {seats}").format(seats=seats),
            "  "
            + _("wins by kind: {wins}").format(
                wins=", ".join(f"{k} {v}" for k, v in sorted(self.wins_by_kind.items()))
            ),
            "  "
            + _("shared victories {shared}; stalls {stalls}; errors {errors}").format(
                shared=self.shared_victories, stalls=self.stalls, errors=len(self.errors)
            ),
        ]  # fmt: skip
        lines += [f"    {e}" for e in self.errors[:10]]
        if len(self.errors) > 10:
            lines.append("    " + _("… and {n} more").format(n=len(self.errors) - 10))
        return "\n".join(lines)


def simulate(
    players: int,
    games: int,
    seed: int,
    bot: str | None = None,
    bots: list[str] | None = None,
    *,
    game: GameEntry | str = DEFAULT_GAME,
    options: dict[str, Any] | None = None,
) -> SimulationReport:
    """Play ``games`` headless bot games of ``game`` and sum them up.

    Game ``i`` uses the ``i``-th seed of :func:`~poissonnier_tui.arena.stats.game_seeds`
    and fresh bots, seeded from the game seed and the seat (``game_seed * 8 + seat``),
    so a run is deterministic for a ``seed`` (timings aside).

    Args:
        players: seats per game, within the game's seat limits.
        games: how many games, ≥ 0.
        seed: the run's seed.
        bot: the level for every seat when ``bots`` is not given (default: the
            game's ``greedy`` baseline if it has one, else its default level).
        bots: one level per seat (``len(bots) == players``).
        game: the game (its entry or registry name).
        options: the game's table options.

    Returns:
        The :class:`SimulationReport`; a shared victory credits each winner.

    Raises:
        ValueError: an unknown game, bad ``players``, ``games``, bot level or
            ``bots`` length.
    """
    entry = entry_of(game)
    if bot is None:
        bot = "greedy" if "greedy" in entry.bot_kinds else entry.default_level
    kinds = list(bots) if bots is not None else [bot] * players
    check_lineup(entry, players, kinds)
    if games < 0:
        raise ValueError(_("games must be 0 or more"))
    report = SimulationReport(
        players=players,
        bots=kinds,
        seed=seed,
        game=entry.name,
        wins_by_seat=[0] * players,
        wins_by_kind={k: 0 for k in dict.fromkeys(kinds)},
    )
    turns = 0
    times: list[float] = []
    start = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        agents = [entry.make_bot(kind, game_seed * 8 + seat) for seat, kind in enumerate(kinds)]
        with collector.paused():  # a game makes no cycles (poissonnier_tui/collector.py)
            rec = play_game(game_seed, agents, game=entry, options=options)
        report.games += 1
        report.finished += rec.finished
        turns += rec.turns
        for k, v in rec.totals.items():
            report.totals[k] = report.totals.get(k, 0) + v
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
    report.decisions = len(times)
    if times:
        report.decision_ms_mean = 1000 * sum(times) / len(times)
        report.decision_ms_max = 1000 * max(times)
    return report
