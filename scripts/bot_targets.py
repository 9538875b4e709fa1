"""Measure the bot levels against the targets in the README ("Bots") and print the figures.

Every figure comes from :func:`poissonnier_tui.arena.tournament.tournament` (the code
behind ``poissonnier tournament``), so each line printed here can be re-run
alone with the command shown above its table.

Targets (README "Bots"):

* strength: hard beats medium in ≥ 60 % of seat-swapped 2-player games; medium
  beats easy in ≥ 70 %; in 4-player games of hard, medium, easy, easy, hard
  has the highest win rate;
* speed: hard's decision time p95 ≤ 300 ms and medium's ≤ 10 ms, CPU time of
  the deciding thread (one core), taken from the strength games;
* legality: no action refused by the engine over ``--legal-games`` games at
  every player count 2–5, each game seating every level.

Usage::

    python scripts/bot_targets.py                  # everything (about 1 h on 2 cores)
    python scripts/bot_targets.py --only strength --games 400 --jobs 2
    python scripts/bot_targets.py --only legality --legal-games 2000 --legal-budget 0.1

Exit status: 0 when every measured target holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

from poissonnier_tui.arena.tournament import EntrantStats, TournamentReport, tournament

HARD_BEATS_MEDIUM = 0.60
MEDIUM_BEATS_EASY = 0.70
HARD_P95_MS = 300.0
MEDIUM_P95_MS = 10.0

LEGALITY_LINEUPS = {
    2: [["hard", "medium"], ["medium", "easy"], ["easy", "hard"]],
    3: [["hard", "medium", "easy"]],
    4: [["hard", "medium", "easy", "easy"]],
    5: [["hard", "medium", "easy", "medium", "easy"]],
}
"""Per player count, the lineups played: every level sits in every game, except at 2
players, where the three pairs are played and each level sits in two of them."""


@dataclass
class Verdict:
    """One target: what was measured, the threshold, and whether it holds."""

    target: str
    measured: str
    holds: bool

    def line(self) -> str:
        """``PASS  hard beats medium ≥ 60 %: 71.0 % (CI 66.4–75.2 %)``."""
        return f"{'PASS' if self.holds else 'FAIL'}  {self.target}: {self.measured}"


def _entrant(report: TournamentReport, label: str) -> EntrantStats:
    return next(e for e in report.entrants if e.label == label)


def _run(
    players: int, games: int, lineup: list[str], seed: int, jobs: int, budget: float = 1.0
) -> TournamentReport:
    command = (
        f"poissonnier tournament --players {players} --games {games} "
        f"--bots {','.join(lineup)} --seed {seed} --jobs {jobs}"
        + (f" --budget {budget:g}" if budget != 1.0 else "")
    )
    print(f"\n$ {command}", flush=True)
    report = tournament(players, games, lineup, seed, jobs=jobs, budget=budget)
    print(report.format_text(), flush=True)
    return report


def _rate(e: EntrantStats) -> str:
    return f"{100 * e.win_rate:.1f} % (95 % CI {100 * e.ci_low:.1f}–{100 * e.ci_high:.1f} %)"


def strength(games: int, seed: int, jobs: int) -> list[Verdict]:
    """The win-rate and decision-time targets, from three tournaments."""
    out = []
    hm = _run(2, games, ["hard", "medium"], seed, jobs)
    hard = _entrant(hm, "hard")
    out.append(Verdict(f"hard beats medium ≥ {HARD_BEATS_MEDIUM:.0%}, {games} 2-player games",
                       _rate(hard), hard.win_rate >= HARD_BEATS_MEDIUM))  # fmt: skip
    me = _run(2, games, ["medium", "easy"], seed, jobs)
    medium = _entrant(me, "medium")
    out.append(Verdict(f"medium beats easy ≥ {MEDIUM_BEATS_EASY:.0%}, {games} 2-player games",
                       _rate(medium), medium.win_rate >= MEDIUM_BEATS_EASY))  # fmt: skip
    four = _run(4, games, ["hard", "medium", "easy", "easy"], seed, jobs)
    ranked = sorted(four.entrants, key=lambda e: e.win_rate, reverse=True)
    rates = ", ".join(f"{e.label} {100 * e.win_rate:.1f} %" for e in ranked)
    out.append(Verdict(f"hard has the highest win rate, {games} 4-player games",
                       rates, ranked[0].label == "hard"))  # fmt: skip
    hard_p95 = max(_entrant(r, "hard").cpu_ms_p95 for r in (hm, four))
    medium_p95 = max(_entrant(r, "medium").cpu_ms_p95 for r in (hm, me, four))
    out.append(Verdict(f"hard decision p95 ≤ {HARD_P95_MS:.0f} ms (CPU, one core)",
                       f"{hard_p95:.1f} ms", hard_p95 <= HARD_P95_MS))  # fmt: skip
    out.append(Verdict(f"medium decision p95 ≤ {MEDIUM_P95_MS:.0f} ms (CPU, one core)",
                       f"{medium_p95:.2f} ms", medium_p95 <= MEDIUM_P95_MS))  # fmt: skip
    return out


def legality(games: int, seed: int, jobs: int, budget: float) -> list[Verdict]:
    """No refused action at each player count over games in which each level sits
    ``games`` times (2 players: ``games / 2`` for each of the three pairs)."""
    out = []
    for players, lineups in LEGALITY_LINEUPS.items():
        refused = finished = played = 0
        for i, lineup in enumerate(lineups):
            share = games if len(lineups) == 1 else -(-games // 2)
            report = _run(players, share, lineup, seed + i, jobs, budget)
            refused += sum(e.illegal for e in report.entrants) + len(report.errors)
            finished += report.finished
            played += report.games
        out.append(Verdict(f"no illegal action, {played} {players}-player games, each level"
                           f" in ≥ {games}",
                           f"{refused} refused, {finished}/{played} finished",
                           refused == 0 and finished == played))  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the measurements asked for, print a verdict per target; exit 1 if one fails."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=("strength", "legality"), default=None)
    p.add_argument("--games", type=int, default=400, help="games per strength run (400)")
    p.add_argument("--legal-games", type=int, default=2000, help="games per player count (2000)")
    p.add_argument("--legal-budget", type=float, default=0.1,
                   help="hard bot's budget scale in the legality runs (0.1)")  # fmt: skip
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args(argv)
    started = time.perf_counter()
    verdicts: list[Verdict] = []
    if args.only in (None, "strength"):
        verdicts += strength(args.games, args.seed, args.jobs)
    if args.only in (None, "legality"):
        verdicts += legality(args.legal_games, args.seed, args.jobs, args.legal_budget)
    print(f"\nTargets ({time.perf_counter() - started:.0f} s):")
    for v in verdicts:
        print("  " + v.line())
    return 0 if all(v.holds for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
