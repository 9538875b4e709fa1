"""Finding the winner at the end of the game (RULES.md §8, R14).

The result records every step so that players can see how the winner was
found. Result shape (a msgpack-able map)::

    {
      "winners": [seat, ...],           # one seat, or several for a shared victory
      "shared": bool,                   # "montez une poissonnerie ensemble"
      "scores": [{"seat", "coins", "clients", "stamps"}, ...],
      "steps": [{"step": str, "eliminated": seat | None, "why": str}, ...],
    }

The ``step`` and ``why`` texts are English and stay as they are (logs, replays
and pinned games hold them). A reader that speaks another language asks
:func:`explain` for the same steps as data — each a :class:`Step` with a code
and a :class:`Reason` (a code plus parameters) — and words them itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

TALLIES: Final[tuple[str, ...]] = ("coins", "clients", "stamps")
"""The three tallies of §8, as they are named in :class:`Score` and in reasons."""

STEP_NAMES: Final[Mapping[str, str]] = {
    "two_player": "2-player rule",
    "fallback": "2-player fallback (R14)",
    "fewest_coins": "1. fewest coins",
    "fewest_clients": "3. fewest clients",
    "most_stamps": "4. most stamps",
}
"""Each step's code -> the English name the result records for it (§8 steps 1, 3, 4;
the 2-player rule; its R14 fallback)."""


@dataclass(frozen=True, slots=True)
class Score:
    """One seat's final tallies: coins, clients won (inspectors never count), stamps."""

    seat: int
    coins: int
    clients: int
    stamps: int


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a step of §8 ended as it did, as a code plus parameters (no words).

    Codes and the parameters each uses (``what``/``then`` are names from
    :data:`TALLIES`, ``n``/``m`` their values, ``seats`` seat numbers):

    * ``"fewest"``: the one seat with the fewest ``what`` (``n``) is out;
    * ``"fewest_then"``: tied on fewest ``what`` (``n``) with ``seats`` (the
      others tied), out on fewest ``then`` (``m``);
    * ``"all_tied"``: ``seats`` tied on fewest ``what`` (``n``) and ``then``
      (``m``): nobody is out;
    * ``"leads"``: ``seats[0]`` leads in ``n`` of the three tallies (2-player rule);
    * ``"no_lead"``: nobody leads in 2 of the three tallies;
    * ``"most"``: ``seats[0]`` has the most ``what`` (``n``) (step 4, R14);
    * ``"shared"``: tied on stamps, clients and coins: a shared victory.
    """

    code: str
    seats: tuple[int, ...] = ()
    what: str = ""
    n: int = 0
    then: str = ""
    m: int = 0

    def english(self) -> str:
        """The English sentence the result records for this reason (the ``why`` field).

        Raises:
            ValueError: an unknown code.
        """
        what, n, then, m = self.what, self.n, self.then, self.m
        seats = ", ".join(str(s) for s in self.seats)
        if self.code == "fewest":
            return f"fewest {what} ({n})"
        if self.code == "fewest_then":
            word = "seat" if len(self.seats) == 1 else "seats"
            return f"tied on fewest {what} ({n}) with {word} {seats}; fewest {then} ({m})"
        if self.code == "all_tied":
            return f"seats {seats} tied on fewest {what} ({n}) and {then} ({m}): nobody eliminated"
        if self.code == "leads":
            return f"seat {seats} leads in {n} of coins, clients, stamps"
        if self.code == "no_lead":
            return "no seat leads in 2 of coins, clients, stamps"
        if self.code == "most":
            return f"seat {seats} has the most {what} ({n})"
        if self.code == "shared":
            return "tied on stamps, clients and coins: shared victory"
        raise ValueError(f"unknown reason code {self.code!r}")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of §8: its code (a key of :data:`STEP_NAMES`), the seat it eliminated
    (or ``None``) and its :class:`Reason`."""

    code: str
    eliminated: int | None
    reason: Reason

    def as_map(self) -> dict[str, Any]:
        """The step as the result records it: ``{"step", "eliminated", "why"}`` in English."""
        return {
            "step": STEP_NAMES[self.code],
            "eliminated": self.eliminated,
            "why": self.reason.english(),
        }


def _fewest(pool: list[Score], first: str, second: str) -> tuple[Score | None, Reason]:
    """Eliminate the seat with the fewest ``first``; ties broken by fewest ``second``."""
    low = min(getattr(s, first) for s in pool)
    tied = [s for s in pool if getattr(s, first) == low]
    if len(tied) == 1:
        return tied[0], Reason("fewest", what=first, n=low)
    low2 = min(getattr(s, second) for s in tied)
    tied2 = [s for s in tied if getattr(s, second) == low2]
    if len(tied2) == 1:
        out = tied2[0]
        others = tuple(s.seat for s in tied if s is not out)
        return out, Reason("fewest_then", others, first, low, second, low2)
    return None, Reason("all_tied", tuple(s.seat for s in tied), first, low, second, low2)


def _two_player(a: Score, b: Score) -> tuple[list[int], Reason]:
    """The 2-player rule: strict majority in at least 2 of coins, clients, stamps."""
    wins = {a.seat: 0, b.seat: 0}
    for attr in TALLIES:
        va, vb = getattr(a, attr), getattr(b, attr)
        if va != vb:
            wins[a.seat if va > vb else b.seat] += 1
    for s in (a, b):
        if wins[s.seat] >= 2:
            return [s.seat], Reason("leads", (s.seat,), n=wins[s.seat])
    return [], Reason("no_lead")


def _final_step(pool: list[Score]) -> tuple[list[int], Reason]:
    """Most stamps; tie: most clients; tie: most coins; still tied: shared (step 4)."""
    left = list(pool)
    for attr in ("stamps", "clients", "coins"):
        best = max(getattr(s, attr) for s in left)
        left = [s for s in left if getattr(s, attr) == best]
        if len(left) == 1:
            return [left[0].seat], Reason("most", (left[0].seat,), attr, best)
    return [s.seat for s in left], Reason("shared")


def decide_steps(scores: Sequence[Score]) -> tuple[list[int], list[Step]]:
    """Apply RULES.md §8 to final tallies: the winning seats (sorted) and every step.

    Args:
        scores: one :class:`Score` per seat, 2..5 of them.

    Raises:
        ValueError: fewer than 2 or more than 5 scores.
    """
    if not 2 <= len(scores) <= 5:
        raise ValueError(f"a game has 2 to 5 players, not {len(scores)}")
    steps: list[Step] = []
    pool = list(scores)

    def two_player_rule(a: Score, b: Score) -> list[int]:
        winners, why = _two_player(a, b)
        steps.append(Step("two_player", None, why))
        if winners:
            return winners
        winners, why = _final_step([a, b])
        steps.append(Step("fallback", None, why))
        return winners

    if len(pool) == 2:
        return sorted(two_player_rule(pool[0], pool[1])), steps

    out, why = _fewest(pool, "coins", "clients")
    steps.append(Step("fewest_coins", out.seat if out else None, why))
    if out is not None:
        pool.remove(out)
    if len(scores) == 3 and out is not None:
        return sorted(two_player_rule(pool[0], pool[1])), steps
    out, why = _fewest(pool, "clients", "stamps")
    steps.append(Step("fewest_clients", out.seat if out else None, why))
    if out is not None:
        pool.remove(out)
    winners, why = _final_step(pool)
    steps.append(Step("most_stamps", None, why))
    return sorted(winners), steps


def decide_winner(scores: Sequence[Score]) -> dict[str, Any]:
    """Apply RULES.md §8 to final tallies.

    Args:
        scores: one :class:`Score` per seat, 2..5 of them.

    Returns:
        The result map described in the module docstring.

    Raises:
        ValueError: fewer than 2 or more than 5 scores.
    """
    winners, steps = decide_steps(scores)
    return {
        "winners": winners,
        "shared": len(winners) > 1,
        "scores": [
            {"seat": s.seat, "coins": s.coins, "clients": s.clients, "stamps": s.stamps}
            for s in scores
        ],
        "steps": [step.as_map() for step in steps],
    }


def explain(result: Mapping[str, Any]) -> list[Step] | None:
    """A result's steps as codes and parameters, found again from its ``scores``.

    The scoring is pure, so the same tallies give the same steps; they are
    returned only when they are exactly the steps the result records, so a
    reader never explains a verdict other than the one it shows.

    Args:
        result: a result map (module docstring), e.g. from a view or an old log.

    Returns:
        The steps, or ``None`` when the result is malformed or its recorded
        steps are not those §8 gives for its scores.
    """
    raw = result.get("scores")
    if not isinstance(raw, list):
        return None
    scores: list[Score] = []
    for entry in raw:
        if not isinstance(entry, Mapping):
            return None
        values = [entry.get(key) for key in ("seat", *TALLIES)]
        ints = [v for v in values if type(v) is int]  # not bools, not text
        if len(ints) != len(values):
            return None
        scores.append(Score(*ints))
    try:
        _, steps = decide_steps(scores)
    except ValueError:
        return None
    recorded = result.get("steps")
    if not isinstance(recorded, list) or [s.as_map() for s in steps] != recorded:
        return None
    return steps
