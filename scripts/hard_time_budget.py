"""Does the hard bot play better for the same time budget? A small seat-rotated match.

The hard bot's published budget stops a search on work done (sampled worlds)
first; here its search is stopped by CPU time alone (``--cpu`` seconds per
search, no work cap below ``--max-worlds``, a wall-clock cap of 100 times that),
so a faster engine lets it sample more worlds in the same time. Run it on two
versions of the code, side by side on the same machine, to compare them: each
prints the hard bot's win rate against the medium bot (a shared victory counts
half), its worlds per search and its CPU time per search.

Games are seat-rotated pairs: the same seed is played with the hard bot in
seat 0, then in seat 1. It is a small sample (say 40 games): a 95 % interval
is printed with the rate, read it before reading the rate.

Usage::

    python scripts/hard_time_budget.py [--games 40] [--cpu 0.05] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from poissonnier_tui.arena.play import play_game
from poissonnier_tui.games.poissonnier.bots import HardBot, make_bot


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n`` (0..1 each)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    """Play the games and print one summary line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games (rounded up to pairs)")
    parser.add_argument("--cpu", type=float, default=0.05, help="CPU seconds per search")
    parser.add_argument("--max-worlds", type=int, default=2000, help="worlds per search at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    score = 0.0
    games = worlds = searches = 0
    cpu = 0.0
    started = time.process_time()
    for pair in range((args.games + 1) // 2):
        seed = args.seed * 1000 + pair
        for hard_seat in (0, 1):
            hard = HardBot(
                random.Random(seed * 8 + hard_seat),
                work=1e12,
                time_limit=args.cpu,
                wall_limit=100 * args.cpu,
                max_worlds=args.max_worlds,
            )
            medium = make_bot("medium", seed * 8 + 1 - hard_seat)
            agents = [hard, medium] if hard_seat == 0 else [medium, hard]
            record = play_game(seed, agents)
            if not record.finished:
                print(f"seed {seed}: unfinished: {record.errors[:1]}", file=sys.stderr)
            if hard_seat in record.winners:
                score += 1.0 / len(record.winners)
            games += 1
            worlds += hard.worlds
            searches += hard.searches
            cpu += sum(record.seat_cpu[hard_seat])
    low, high = wilson(score, games)
    print(
        f"{games} games, hard (CPU {args.cpu:g} s per search) vs medium, seat-rotated, "
        f"seed {args.seed}: hard won {100 * score / games:.1f} % "
        f"(95 % CI {100 * low:.1f}–{100 * high:.1f} %); "
        f"{worlds / max(1, searches):.1f} worlds per search over {searches} searches; "
        f"the hard seat's CPU {1000 * cpu / max(1, searches):.1f} ms per search "
        "(all its decisions, ÷ searches); "
        f"{time.process_time() - started:.0f} s CPU in all"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
