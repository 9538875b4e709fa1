"""Finding the winner at the end of the game (RULES.md §8, R14).

The result records every step so that players can see how the winner was
found. Result shape (a msgpack-able map)::

    {
      "winners": [seat, ...],           # one seat, or several for a shared victory
      "shared": bool,                   # "montez une poissonnerie ensemble"
      "scores": [{"seat", "coins", "clients", "stamps"}, ...],
      "steps": [{"step": str, "eliminated": seat | None, "why": str}, ...],
    }
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Score:
    """One seat's final tallies: coins, clients won (inspectors never count), stamps."""

    seat: int
    coins: int
    clients: int
    stamps: int


def _fewest(pool: list[Score], first: str, second: str) -> tuple[Score | None, str]:
    """Eliminate the seat with the fewest ``first``; ties broken by fewest ``second``."""
    low = min(getattr(s, first) for s in pool)
    tied = [s for s in pool if getattr(s, first) == low]
    if len(tied) == 1:
        return tied[0], f"fewest {first} ({low})"
    low2 = min(getattr(s, second) for s in tied)
    tied2 = [s for s in tied if getattr(s, second) == low2]
    seats = ", ".join(str(s.seat) for s in tied)
    if len(tied2) == 1:
        out = tied2[0]
        others = ", ".join(str(s.seat) for s in tied if s is not out)
        word = "seat" if len(tied) == 2 else "seats"
        return out, f"tied on fewest {first} ({low}) with {word} {others}; fewest {second} ({low2})"
    return (
        None,
        f"seats {seats} tied on fewest {first} ({low}) and {second} ({low2}): nobody eliminated",
    )


def _two_player(a: Score, b: Score) -> tuple[list[int], str]:
    """The 2-player rule: strict majority in at least 2 of coins, clients, stamps."""
    wins = {a.seat: 0, b.seat: 0}
    for attr in ("coins", "clients", "stamps"):
        va, vb = getattr(a, attr), getattr(b, attr)
        if va != vb:
            wins[a.seat if va > vb else b.seat] += 1
    for s in (a, b):
        if wins[s.seat] >= 2:
            return [s.seat], f"seat {s.seat} leads in {wins[s.seat]} of coins, clients, stamps"
    return [], "no seat leads in 2 of coins, clients, stamps"


def _final_step(pool: list[Score]) -> tuple[list[int], str]:
    """Most stamps; tie: most clients; tie: most coins; still tied: shared (step 4)."""
    left = list(pool)
    for attr in ("stamps", "clients", "coins"):
        best = max(getattr(s, attr) for s in left)
        left = [s for s in left if getattr(s, attr) == best]
        if len(left) == 1:
            return [left[0].seat], f"seat {left[0].seat} has the most {attr} ({best})"
    return [s.seat for s in left], "tied on stamps, clients and coins: shared victory"


def decide_winner(scores: Sequence[Score]) -> dict[str, Any]:
    """Apply RULES.md §8 to final tallies.

    Args:
        scores: one :class:`Score` per seat, 2..5 of them.

    Returns:
        The result map described in the module docstring.

    Raises:
        ValueError: fewer than 2 or more than 5 scores.
    """
    if not 2 <= len(scores) <= 5:
        raise ValueError(f"a game has 2 to 5 players, not {len(scores)}")
    steps: list[dict[str, Any]] = []
    pool = list(scores)

    def finish(winners: list[int]) -> dict[str, Any]:
        return {
            "winners": sorted(winners),
            "shared": len(winners) > 1,
            "scores": [
                {"seat": s.seat, "coins": s.coins, "clients": s.clients, "stamps": s.stamps}
                for s in scores
            ],
            "steps": steps,
        }

    def two_player_rule(a: Score, b: Score) -> dict[str, Any]:
        winners, why = _two_player(a, b)
        steps.append({"step": "2-player rule", "eliminated": None, "why": why})
        if winners:
            return finish(winners)
        winners, why = _final_step([a, b])
        steps.append({"step": "2-player fallback (R14)", "eliminated": None, "why": why})
        return finish(winners)

    if len(pool) == 2:
        return two_player_rule(pool[0], pool[1])

    out, why = _fewest(pool, "coins", "clients")
    steps.append({"step": "1. fewest coins", "eliminated": out.seat if out else None, "why": why})
    if out is not None:
        pool.remove(out)
    if len(scores) == 3 and out is not None:
        return two_player_rule(pool[0], pool[1])
    out, why = _fewest(pool, "clients", "stamps")
    steps.append({"step": "3. fewest clients", "eliminated": out.seat if out else None, "why": why})
    if out is not None:
        pool.remove(out)
    winners, why = _final_step(pool)
    steps.append({"step": "4. most stamps", "eliminated": None, "why": why})
    return finish(winners)
