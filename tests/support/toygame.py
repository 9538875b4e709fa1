"""A second, tiny game for the tests: "race to N", registered as ``toy`` only in tests.

Seats take turns adding 1 or 2 to a shared total; whoever brings it to the
target (option ``target``, 10 by default) wins. Each seat holds a secret that
only its own view shows, so a leak would show up as a plain byte search. It
has everything a game gives the registry (``ENTRY``): a definition, two bot
levels, legal actions from a view, a result with ``winners`` and ``scores``;
and nothing optional (no ``omniscient_view``, no ``ask_order``, no
``play_counts``), so it takes every generic path.

Register it in a test with the ``toy`` fixture (``tests/conftest.py``), which
adds ``"toy": "toygame"`` to :data:`poissonnier_tui.games.ENTRY_MODULES`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from net.game import ActionRejected, Agent, Wire
from poissonnier_tui.games import GameEntry

NAME: Final = "toy"


class ToyMatch:
    """One race to ``target`` (a :class:`net.game.Match`)."""

    def __init__(self, seed: int, seats: int, target: int) -> None:
        rng = random.Random(seed)
        self.seats = seats
        self.target = target
        self.secrets = [f"TOYSECRET{seat}x{rng.randrange(10**9):09d}" for seat in range(seats)]
        self.total = 0
        self.to_play = rng.randrange(seats)
        self.moves: list[list[int]] = []
        self.winner: int | None = None

    def apply(self, seat: int, action: Mapping[str, Any]) -> None:
        if self.winner is not None:
            raise ActionRejected("over", "The race is over.")
        if seat != self.to_play:
            raise ActionRejected("not_your_turn", f"It is seat {self.to_play}'s turn.")
        add = action.get("add")
        if set(action) != {"add"} or isinstance(add, bool) or add not in (1, 2):
            raise ActionRejected("bad_add", "Add 1 or 2.")
        self.total += add
        self.moves.append([seat, add])
        if self.total >= self.target:
            self.winner = seat
        else:
            self.to_play = (self.to_play + 1) % self.seats

    def view(self, seat: int | None) -> Wire:
        view: Wire = {
            "total": self.total,
            "target": self.target,
            "turn": len(self.moves) + 1,
            "to_play": self.to_play,
            "waiting_on": sorted(self.waiting_on()),
            "moves": [list(m) for m in self.moves],
            "result": self.result(),
        }
        if seat is not None:
            view["seat"] = seat
            view["secret"] = self.secrets[seat]
        return view

    def legal_actions(self, seat: int) -> list[Wire]:
        return legal_from_view(self.view(seat))

    def waiting_on(self) -> frozenset[int]:
        return frozenset() if self.winner is not None else frozenset({self.to_play})

    def volunteers(self) -> frozenset[int]:
        return frozenset()

    def timeout_action(self, seat: int) -> Wire | None:
        return {"add": 1} if self.winner is None and seat == self.to_play else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def result(self) -> Wire | None:
        if self.winner is None:
            return None
        scores = [
            {"seat": s, "adds": sum(1 for m in self.moves if m[0] == s),
             "points": sum(m[1] for m in self.moves if m[0] == s)}
            for s in range(self.seats)
        ]  # fmt: skip
        return {"winners": [self.winner], "total": self.total, "scores": scores}


class ToyGame:
    """The :class:`net.game.GameDefinition` of the race. Option: ``target`` (3 to 50)."""

    name = NAME
    rules_version = "1"
    min_seats = 2
    max_seats = 3

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> ToyMatch:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"the race is for 2 or 3 players, not {seats}")
        target = options.get("target", 10)
        if isinstance(target, bool) or not isinstance(target, int) or not 3 <= target <= 50:
            raise ValueError(f"target must be a whole number from 3 to 50, not {target!r}")
        return ToyMatch(seed, seats, target)


def legal_from_view(view: Mapping[str, Any]) -> list[Wire]:
    """The seat's legal adds, from its view alone."""
    if view.get("result") is not None or view.get("seat") != view["to_play"]:
        return []
    return [{"add": 1}, {"add": 2}]


class EasyRacer:
    """Adds 1 or 2 at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        return self.rng.choice(legal) if legal else None


class HardRacer:
    """Leaves the total on the target less a multiple of 3 when it can (the winning line)."""

    kind = "hard"

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        if not legal:
            return None
        left = view["target"] - view["total"]
        return {"add": 2} if left % 3 == 2 else {"add": 1}


def make_bot(kind: str, seed: int, *, budget: float = 1.0) -> Agent:
    """A racer of ``kind`` (``easy`` or ``hard``).

    Raises:
        ValueError: another kind.
    """
    if kind == "easy":
        return EasyRacer(seed)
    if kind == "hard":
        return HardRacer()
    raise ValueError(f"unknown bot kind {kind!r}; choose from easy, hard")


ENTRY: Final = GameEntry(
    name=NAME,
    title="Toy Race",
    definition=ToyGame(),
    levels=("easy", "hard"),
    default_level="easy",
    bot_kinds=("easy", "hard"),
    make_bot=make_bot,
    legal_from_view=legal_from_view,
    ui="toygame",
    options={"target": 10},
)
