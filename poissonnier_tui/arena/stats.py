"""Statistics for bot runs: derived seeds, Wilson intervals, percentiles, score means."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

WILSON_Z = 1.959963984540054
"""z for a two-sided 95 % interval."""


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of ``games`` games derived from ``seed`` (deterministic, R3)."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


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


def numeric_scores(score: Any) -> dict[str, float]:
    """The numeric fields of one seat's score map (``seat`` and flags left out), e.g.
    ``{"coins": 31, "clients": 12, "stamps": 20}``; empty for anything else."""
    if not isinstance(score, dict):
        return {}
    return {
        k: v
        for k, v in score.items()
        if k != "seat" and isinstance(v, int | float) and not isinstance(v, bool)
    }


def seat_scores(result: dict[str, Any] | None) -> list[dict[str, float]]:
    """Per seat, the numeric fields of a result's ``scores`` list (empty if it has none)."""
    scores = result.get("scores") if result else None
    return [numeric_scores(s) for s in scores] if isinstance(scores, list) else []


def means(rows: Iterable[dict[str, float]]) -> dict[str, float]:
    """Field by field, the mean of ``rows`` over the rows that have the field (first-seen
    order)."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for row in rows:
        for k, v in row.items():
            sums[k] = sums.get(k, 0) + v
            counts[k] = counts.get(k, 0) + 1
    return {k: sums[k] / counts[k] for k in sums}
