"""Measure the Go Fish bot levels against each other and print win rates.

Seat-rotated 3-player games with shared shuffles: each shuffle (deal seed)
is played once in every distinct seating of the lineup, so every bot meets
the same cards from every seat. A shared victory (docs/GOFISH.md G3) counts
1/k to each of the k winners. Win rates come with Wilson 95 % intervals;
decision times are CPU time of the deciding thread (one core), per level.

Usage::

    python scripts/gofish_strength.py --games 402               # the default lineups
    python scripts/gofish_strength.py --games 60 --lineup hard,medium,medium --variant card

The default lineups: ``medium,easy,easy`` (medium beats easy),
``hard,medium,medium`` (hard beats medium) and ``hard,medium,easy``.
With a lineup ``X,Y,Y`` a bot no better than ``Y`` wins 1/3 of the games.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections import defaultdict
from dataclasses import dataclass, field

from poissonnier_tui.games.gofish.bots import make_bot
from poissonnier_tui.games.gofish.match import GoFishGame

DEFAULT_LINEUPS = ("medium,easy,easy", "hard,medium,medium", "hard,medium,easy")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (95 % for ``z`` 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class LevelStats:
    """Results of one level over a lineup's games (all its seats together)."""

    seats: int = 0
    wins: float = 0.0
    books: int = 0
    times: list[float] = field(default_factory=list)


def play(seating: tuple[str, ...], seed: int, options: dict[str, object], bot_seed: int,
         stats: dict[str, LevelStats]) -> None:  # fmt: skip
    """One game; adds its outcome and decision times to ``stats``."""
    match = GoFishGame().new_match(seed, len(seating), options)
    bots = [make_bot(kind, bot_seed * 10 + i) for i, kind in enumerate(seating)]
    while not match.is_over:
        (seat,) = match.waiting_on()
        view, legal = match.view(seat), match.legal_actions(seat)
        start = time.thread_time()
        action = bots[seat].act(view, legal)
        stats[seating[seat]].times.append(time.thread_time() - start)
        if action is None:
            raise RuntimeError(f"{seating[seat]} passed although it had to ask")
        match.apply(seat, action)
    result = match.result()
    assert result is not None
    winners = result["winners"]
    for i, kind in enumerate(seating):
        s = stats[kind]
        s.seats += 1
        s.books += result["scores"][i]["books"]
        if i in winners:
            s.wins += 1 / len(winners)


def measure(lineup: list[str], games: int, seed: int, options: dict[str, object]) -> None:
    """Play ``games`` seat-rotated games of ``lineup`` and print the table."""
    seatings = list(dict.fromkeys(itertools.permutations(lineup)))
    shuffles = max(1, games // len(seatings))
    stats: dict[str, LevelStats] = defaultdict(LevelStats)
    start = time.monotonic()
    for k in range(shuffles):
        for j, seating in enumerate(seatings):
            play(seating, seed * 100_000 + k, options, k * len(seatings) + j, stats)
    played = shuffles * len(seatings)
    opts = " ".join(f"{k}={v}" for k, v in options.items()) or "rank game"
    print(f"\n$ python scripts/gofish_strength.py --lineup {','.join(lineup)} --games {games} "
          f"--seed {seed}  ({opts})")  # fmt: skip
    print(f"{played} games, {len(lineup)} players, {shuffles} shuffles x {len(seatings)} "
          f"seatings; {time.monotonic() - start:.1f} s")  # fmt: skip
    print("  level    seats  win/seat     95% CI        books/seat  cpu ms p50  p95   decisions")
    for kind in dict.fromkeys(lineup):
        s = stats[kind]
        lo, hi = wilson(s.wins, s.seats)
        times = sorted(s.times)
        p50 = 1000 * times[len(times) // 2] if times else 0.0
        p95 = 1000 * times[min(len(times) - 1, int(len(times) * 0.95))] if times else 0.0
        print(f"  {kind:<8} {s.seats:>5}  {s.wins / s.seats:7.1%}  {lo:6.1%}–{hi:6.1%}"
              f"  {s.books / s.seats:10.2f}  {p50:9.2f}  {p95:6.2f}  {len(times):>8}")  # fmt: skip
    print(f"  a level no better than the others would win {1 / len(lineup):.1%} per seat")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=402)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lineup", action="append", help="e.g. hard,medium,medium (repeatable)")
    parser.add_argument("--variant", choices=("rank", "card"), default="rank")
    parser.add_argument("--bluff", action="store_true")
    parser.add_argument("--play-on", action="store_true")
    args = parser.parse_args()
    options: dict[str, object] = {}
    if args.variant != "rank":
        options["variant"] = args.variant
    if args.bluff:
        options["bluff"] = True
    if args.play_on:
        options["play_on"] = True
    for lineup in args.lineup or DEFAULT_LINEUPS:
        measure(lineup.split(","), args.games, args.seed, options)


if __name__ == "__main__":
    main()
