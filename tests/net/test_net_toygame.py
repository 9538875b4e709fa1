"""A tiny game for the `net` tests, "count to N", and checks of its rules.

Seats take turns adding 1 or 2 to a shared total; whoever brings it to the
target (10 by default) wins. Each seat also holds a secret string that only
its own view shows, so the tests can prove it never reaches anyone else.
Other test modules import :class:`CountGame` and the bots from here.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from typing import Any

import pytest

from net.game import ActionRejected, Agent, GameDefinition, Match, Wire


class CountMatch:
    """One game of "count to N".

    Options: ``target`` (int); ``pad`` (bytes of padding in every view);
    ``free`` (bool: anyone may add at any time, so every seat is waited on);
    ``cheers`` (bool: a seat whose turn it is not may ``{"cheer": 1}`` the
    one whose turn it is — a move out of turn nobody waits for, listed by
    ``volunteers()``).
    """

    def __init__(self, seed: int, seats: int, options: Mapping[str, Any]) -> None:
        rng = random.Random(seed)
        self.seats = seats
        self.target: int = options.get("target", 10)
        self.pad: str = "p" * options.get("pad", 0)
        self.free: bool = options.get("free", False)
        self.cheering: bool = options.get("cheers", False)
        self.cheers: list[list[int]] = []  # [seat, total then] per cheer
        # Distinctive, so a leak shows up as a plain byte search.
        self.secrets = [f"SECRET{seat}x{rng.randrange(10**9):09d}" for seat in range(seats)]
        self.total = 0
        self.turn = 0
        self.moves: list[list[int]] = []
        self.winner: int | None = None

    def apply(self, seat: int, action: Mapping[str, Any]) -> None:
        if self.winner is not None:
            raise ActionRejected("over", "The count is over.")
        if self.cheering and seat != self.turn and action == {"cheer": 1}:
            self.cheers.append([seat, self.total])
            return
        if seat != self.turn and not self.free:
            raise ActionRejected("not_your_turn", f"It is seat {self.turn}'s turn, not {seat}'s.")
        add = action.get("add")
        if set(action) != {"add"} or isinstance(add, bool) or add not in (1, 2):
            raise ActionRejected("bad_add", "Add 1 or 2.")
        self.total += add
        self.moves.append([seat, add])
        if self.total >= self.target:
            self.winner = seat
        else:
            self.turn = (self.turn + 1) % self.seats

    def view(self, seat: int | None) -> Wire:
        view: Wire = {
            "total": self.total,
            "turn": self.turn,
            "moves": self.moves[-20:],
            "winner": self.winner,
        }
        if self.pad:
            view["pad"] = self.pad
        if self.cheering:
            view["cheers"] = [list(c) for c in self.cheers]
        if seat is not None:
            view["seat"] = seat
            view["secret"] = self.secrets[seat]
        return view

    def legal_actions(self, seat: int) -> list[Wire]:
        if self.winner is not None:
            return []
        if seat != self.turn and self.cheering:
            return [{"cheer": 1}]
        if seat != self.turn and not self.free:
            return []
        return [{"add": 1}, {"add": 2}]

    def waiting_on(self) -> frozenset[int]:
        if self.winner is not None:
            return frozenset()
        return frozenset(range(self.seats)) if self.free else frozenset({self.turn})

    def volunteers(self) -> frozenset[int]:
        if self.winner is not None or not self.cheering:
            return frozenset()
        return frozenset(range(self.seats)) - self.waiting_on()

    def timeout_action(self, seat: int) -> Wire | None:
        return {"add": 1} if self.winner is None and seat == self.turn else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def result(self) -> Wire | None:
        if self.winner is None:
            return None
        return {"winner": self.winner, "total": self.total}


class CountGame:
    """The :class:`~net.game.GameDefinition` of "count to N"."""

    name = "count"
    rules_version = "1"
    min_seats = 2
    max_seats = 4

    def __init__(self) -> None:
        self.matches: list[CountMatch] = []

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> Match:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError("2 to 4 seats.")
        match = CountMatch(seed, seats, options)
        self.matches.append(match)  # tests inspect the real state through this
        return match


class FirstBot:
    """Plays the first legal action."""

    name = "First"

    def __init__(self) -> None:
        self.views: list[Wire] = []

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        self.views.append(view)
        return legal[0] if legal else None


class RandomBot:
    """Plays a seeded random legal action."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        return self.rng.choice(legal) if legal else None


class BadBot:
    """Always answers something illegal (or raises, with ``explode``)."""

    def __init__(self, explode: bool = False) -> None:
        self.explode = explode
        self.calls = 0

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        self.calls += 1
        if self.explode:
            raise RuntimeError("bot bug")
        return {"add": 5}


class CheerBot:
    """Plays the first legal action on its turn; out of turn, cheers once per total
    (with ``wrong``: answers something illegal instead)."""

    def __init__(self, wrong: bool = False) -> None:
        self.wrong = wrong
        self.asked_out_of_turn: list[int] = []  # the total each time it was asked

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        if legal != [{"cheer": 1}]:
            return legal[0] if legal else None
        self.asked_out_of_turn.append(view["total"])
        if self.wrong:
            return {"add": 2}
        cheered = any(s == view["seat"] and t == view["total"] for s, t in view["cheers"])
        return None if cheered else {"cheer": 1}


class SlowBot:
    """Blocks its thread for ``delay`` seconds, then plays ``choice``.

    With ``after_first`` set, every answer but the first is that instead.
    """

    def __init__(self, delay: float, choice: Wire) -> None:
        self.delay = delay
        self.choice = choice
        self.after_first: Wire | None = None
        self.started = threading.Event()
        self.answered = 0

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        self.started.set()
        time.sleep(self.delay)
        self.answered += 1
        if self.answered > 1 and self.after_first is not None:
            return self.after_first
        return self.choice


def test_protocol_conformance() -> None:
    game: GameDefinition = CountGame()
    match: Match = game.new_match(1, 2, {})
    bots: list[Agent] = [FirstBot(), RandomBot(1), BadBot(), SlowBot(0, {})]
    assert match.waiting_on() == frozenset({0})
    assert len(bots) == 4


def test_count_rules_exact() -> None:
    match = CountMatch(3, 2, {"target": 4})
    with pytest.raises(ActionRejected) as info:
        match.apply(1, {"add": 1})
    assert info.value.code == "not_your_turn"
    with pytest.raises(ActionRejected):
        match.apply(0, {"add": True})
    match.apply(0, {"add": 2})
    match.apply(1, {"add": 1})
    assert (match.total, match.turn, match.is_over) == (3, 0, False)
    match.apply(0, {"add": 2})
    assert match.result() == {"winner": 0, "total": 5}
    assert match.waiting_on() == frozenset()
    assert "secret" not in match.view(None)
    assert match.view(1)["secret"] == match.secrets[1] != match.secrets[0]
