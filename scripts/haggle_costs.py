"""Measure what reasons and quotes cost a seated bot, and whether its prices hold.

For each level, at serve steps of seeded 3-seat medium-bot games where seat 0
is active (RULES.md §4): a person at seat 0 offers the bot at seat 1 one fish
for 0 coins, declines its counters and offers 0 again until the bot declines
(as ``tests/games/poissonnier/bots/test_table_bot_reasons.py`` does). Timed:
the bare bot's answer to the first offer (the in-run anchor), the seated
bot's (``haggling.TableBot``) answer to the last one (with its reason and
quote), and a quote asked before any offer. Counted: declines naming a price,
and those prices accepted when offered.

    .venv/bin/python scripts/haggle_costs.py --moments 6
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from poissonnier_tui.games.poissonnier.bots import LEVELS, make_bot
from poissonnier_tui.games.poissonnier.haggling import TableBot
from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for


def moments(seed: int, wanted: int) -> list[GameState]:
    """Serve steps where seat 0 is active with nothing proposed and seat 1 holds fish."""
    found: list[GameState] = []
    while len(found) < wanted:
        state = new_game(seed, 3)
        agents = [make_bot("medium", seed * 3 + s) for s in range(3)]
        last = -1
        while state.phase is not Phase.OVER and len(found) < wanted:
            if (
                state.phase is Phase.SERVE and state.active == 0 and state.turn != last
                and not state.proposals and any(c.fish for c in state.seats[1].crates)
            ):  # fmt: skip
                found.append(state.copy())
                last = state.turn
            waiting = waiting_on(state)
            s = min(waiting - {state.active}) if waiting - {state.active} else state.active
            legal = [to_wire(a) for a in legal_actions(state, s)]
            action = agents[s].act(view_for(state, s), legal)
            apply_wire(state, s, action or {"type": "ready" if state.phase is Phase.FILL
                                            else "end_turn"})  # fmt: skip
        seed += 1
    return found


def timed(fn: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn(*args)
    return out, (time.perf_counter() - start) * 1000


def offer(state: GameState, coins: int) -> None:
    crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
    apply_wire(state, 0, {"type": "propose", "seller": 1, "fish": [[crate, 1]], "coins": coins})


def measure(kind: str, found: list[GameState]) -> dict[str, Any]:
    bare_ms, seated_ms, quote_ms = [], [], []
    priced = kept = declines = 0
    for n, moment in enumerate(found):

        def make(n: int = n) -> Any:
            return make_bot(kind, n, budget=0.2) if kind == "hard" else make_bot(kind, n)

        state = moment.copy()
        offer(state, 0)
        legal = [to_wire(a) for a in legal_actions(state, 1)]
        _, ms = timed(make().act, view_for(state, 1), legal)
        bare_ms.append(ms)
        state = moment.copy()
        bot = TableBot(make())
        crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
        deal = PoissonnierMatch(state).price_question(0, 1, {"seller": 1, "fish": [[crate, 1]]})
        _, ms = timed(TableBot(make()).quote, view_for(state, 1), deal)
        quote_ms.append(ms)
        for _ in range(8):
            offer(state, 0)
            legal = [to_wire(a) for a in legal_actions(state, 1)]
            answer, ms = timed(bot.act, view_for(state, 1), legal)
            if answer is None or answer["type"] == "accept":
                break
            apply_wire(state, 1, answer)
            if answer["type"] == "propose":
                apply_wire(state, 0, {"type": "decline", "proposal": state.proposals[-1].id})
                continue
            seated_ms.append(ms)
            declines += 1
            if "price" in answer:
                priced += 1
                offer(state, answer["price"])
                legal = [to_wire(a) for a in legal_actions(state, 1)]
                kept += (bot.act(view_for(state, 1), legal) or {}).get("type") == "accept"
            break
    return {
        "bare_ms": statistics.median(bare_ms),
        "seated_decline_ms": statistics.median(seated_ms) if seated_ms else float("nan"),
        "quote_ms": statistics.median(quote_ms),
        "quote_ms_max": max(quote_ms),
        "declines": declines,
        "priced": priced,
        "kept": kept,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moments", type=int, default=6)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    found = moments(args.seed, args.moments)
    print(f"{len(found)} market moments (seed {args.seed}); times in ms, medians")
    print("level   bare answer (anchor)  seated decline  quote (max)   declines priced kept")
    for kind in LEVELS:
        r = measure(kind, found)
        print(
            f"{kind:7} {r['bare_ms']:12.2f}          {r['seated_decline_ms']:9.2f}   "
            f"{r['quote_ms']:7.2f} ({r['quote_ms_max']:.2f})  {r['declines']:8} "
            f"{r['priced']:6} {r['kept']:4}"
        )


if __name__ == "__main__":
    main()
