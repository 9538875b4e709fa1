"""Compare two settings of the Go Fish hard bot on the same deals (paired games).

Each shuffle (deal seed) is played in the three seatings of ``hard`` and two
opponents, once with setting A and once with setting B of the hard bot's
module constants (``poissonnier_tui/games/gofish/bots/hard.py``). Most pairs
play out alike; only the games where the settings chose differently differ,
so the paired difference of hard's win share (a shared win, docs/GOFISH.md
G3, counts 1/k) is far less noisy than two separate tournaments. Printed:
both win rates, the mean difference B − A with two standard errors, the
games that differed, and how often each setting's search left its first choice.

Usage::

    python scripts/gofish_paired.py --a CANDIDATES=1 --b "" --shuffles 60   # search vs none
    python scripts/gofish_paired.py --a CANDIDATES=1 --b CLOSE_STOCK=20,CLOSE_WORLDS=64
"""

from __future__ import annotations

import argparse
import time

from poissonnier_tui.games.gofish.bots import hard, make_bot
from poissonnier_tui.games.gofish.bots.hard import HardBot
from poissonnier_tui.games.gofish.rules.actions import to_wire
from poissonnier_tui.games.gofish.rules.engine import apply_wire, legal_actions, new_game
from poissonnier_tui.games.gofish.rules.state import Options
from poissonnier_tui.games.gofish.rules.view import view_for

TUNABLE = ("WORLDS", "CANDIDATES", "MARGIN", "Z_SCORE", "CLOSE_STOCK", "CLOSE_WORLDS",
           "CLOSE_MARGIN", "CLOSE_Z", "LEAD_WORTH")  # fmt: skip
DEFAULTS = {name: getattr(hard, name) for name in TUNABLE}


def parse_setting(text: str) -> dict[str, float]:
    """``"A=1,B=0.5"`` as a map; unknown names raise ValueError."""
    out: dict[str, float] = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in TUNABLE:
            raise ValueError(f"{name!r} is not one of {', '.join(TUNABLE)}")
        out[name] = float(value) if "." in value else int(value)
    return out


def play(lineup: list[str], seed: int, setting: dict[str, float]) -> tuple[float, int, int]:
    """One rank game; returns (hard's win share, searches that left the first, searches)."""
    for name, value in {**DEFAULTS, **setting}.items():
        setattr(hard, name, value)
    bots = [make_bot(kind, seed * 10 + i) for i, kind in enumerate(lineup)]
    state = new_game(seed, len(lineup), Options())
    me = lineup.index("hard")
    left = searched = 0
    while not state.over:
        seat = state.active
        bot = bots[seat]
        action = bot.act(view_for(state, seat), [to_wire(a) for a in legal_actions(state, seat)])
        assert action is not None
        if isinstance(bot, HardBot) and bot.last is not None:
            searched += 1
            left += bot.last.chosen != 0
        apply_wire(state, seat, action)
    assert state.result is not None
    winners = state.result["winners"]
    return (me in winners) / len(winners), left, searched


def main() -> None:
    """Parse the arguments, play the pairs, print one line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", default="CANDIDATES=1", help="setting A, NAME=VALUE,...")
    parser.add_argument("--b", default="", help="setting B (empty: the module's defaults)")
    parser.add_argument("--shuffles", type=int, default=60, help="deals, each in 3 seatings")
    parser.add_argument("--opponents", default="medium,medium")
    parser.add_argument("--seed", type=int, default=5000, help="first deal seed")
    args = parser.parse_args()
    a, b = parse_setting(args.a), parse_setting(args.b)
    base = ["hard", *args.opponents.split(",")]
    diffs: list[float] = []
    total = [0.0, 0.0]
    left = [0, 0]
    searched = [0, 0]
    start = time.monotonic()
    for shuffle in range(args.shuffles):
        for turn in range(len(base)):
            lineup = base[turn:] + base[:turn]
            results = [play(lineup, args.seed + shuffle, s) for s in (a, b)]
            for i, (share, gone, n) in enumerate(results):
                total[i] += share
                left[i] += gone
                searched[i] += n
            diffs.append(results[1][0] - results[0][0])
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    differing = sum(d != 0 for d in diffs)
    print(
        f"$ python scripts/gofish_paired.py --a {args.a!r} --b {args.b!r} "
        f"--shuffles {args.shuffles} --opponents {args.opponents} --seed {args.seed}"
    )
    print(
        f"games {n}: A {total[0] / n:.3f}  B {total[1] / n:.3f}  "
        f"B-A {mean:+.3f} ± {2 * (var / n) ** 0.5:.3f}  differing {differing}  "
        f"left first A {left[0]}/{searched[0]} B {left[1]}/{searched[1]}  "
        f"{time.monotonic() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
