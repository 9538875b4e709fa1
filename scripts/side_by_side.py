"""The engine's and `simulate`'s speed of this tree next to another commit's, in turn.

The CPU-time targets of the speed work (random legal play in decisions/s, `simulate
--players 4` with the default bot in games/s) are absolute figures, and a shared host's
speed moves by tens of percent within hours (docs/measurements/bench-server.txt, round
10). Run the code before the speed-ups in the same minutes, one after the other, and
the ratio holds still::

    python scripts/side_by_side.py                 # against 3a5d5ee, 3 pairs
    python scripts/side_by_side.py --before main --pairs 5 --seconds 15

The other commit is taken with ``git archive`` into a temporary folder, removed after.
Both trees play the same seeded games with the same loops (the bench's random play and
the arena's ``simulate``, which both trees have), each in a new process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BEFORE = "3a5d5ee"
"""The commit before the speed-ups (docs/measurements/bench-before.txt)."""

MEASURE = """
import json, random, sys, time
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply, legal_actions, new_game, waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.arena.simulate import simulate
budget = float(sys.argv[1])
decisions = games = 0
seconds = 0.0
deadline = time.perf_counter() + budget
while time.perf_counter() < deadline and games < 2000:
    rng = random.Random(1000 + games)
    start = time.process_time()
    state = new_game(1000 + games, 4)
    n = 0
    while state.phase is not Phase.OVER and n < 5000:
        seat = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, seat)
        apply(state, seat, legal[rng.randrange(len(legal))])
        n += 1
    seconds += time.process_time() - start
    decisions += n
    games += 1
played = 0
cpu = 0.0
deadline = time.perf_counter() + budget
while time.perf_counter() < deadline and played < 400:
    start = time.process_time()
    played += simulate(4, 2, seed=played + 1, bot="greedy").games
    cpu += time.process_time() - start
print(json.dumps({"decisions_per_s": decisions / seconds, "games_per_s": played / cpu}))
"""
"""Run in each tree: random legal play (4 players) then `simulate --players 4 --bot
greedy` in batches of 2 games, each for ``budget`` seconds; CPU time. The play loop is
scripts/bench.py ``random_game_stats``' own, written out: the old tree has no bench to
import it from, and this one's imports modules the old tree lacks."""


def measure(tree: Path, seconds: float) -> dict[str, float]:
    """One run of :data:`MEASURE` in a new process on ``tree``'s packages.

    Raises:
        subprocess.CalledProcessError: the run failed (its output is shown).
    """
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(seconds)],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    """Measure both trees in turn and print each figure's ranges and ratios.

    Raises:
        subprocess.CalledProcessError: the commit is not in this clone (a shallow one
            may lack it), or a run failed.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default=BEFORE, help=f"the other commit (default {BEFORE})")
    parser.add_argument("--pairs", type=int, default=3, help="runs of each tree (default 3)")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="seconds per figure and run (default 10)"
    )
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {"before": [], "this tree": []}
    with tempfile.TemporaryDirectory(prefix="poissonnier-before-") as folder:
        before = Path(folder)
        archive = subprocess.run(
            ["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        for _ in range(args.pairs):
            runs["before"].append(measure(before, args.seconds))
            runs["this tree"].append(measure(ROOT, args.seconds))
    print(f"{args.before} against this tree: {args.pairs} pairs, {args.seconds:g} s each, CPU time")
    figures = [
        ("decisions_per_s", "random legal play, decisions/s", 0),
        ("games_per_s", "simulate --players 4 --bot greedy, games/s", 2),
    ]
    for key, name, places in figures:
        old = [r[key] for r in runs["before"]]
        new = [r[key] for r in runs["this tree"]]
        ratios = [n / o for o, n in zip(old, new, strict=True)]
        print(
            f"{name}: {min(old):,.{places}f}–{max(old):,.{places}f} → "
            f"{min(new):,.{places}f}–{max(new):,.{places}f}; pairs "
            f"{min(ratios):.2f}–{max(ratios):.2f}× (median {statistics.median(ratios):.2f}×)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
