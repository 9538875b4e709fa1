"""Honesty: every bot level plays from its seat's view and legal actions only (RULES.md §9).

Three layers of proof:

1. What a bot is handed: plain msgpack-able data naming no fish id but its
   own cards — no other hand, no deck order, no crate marker (``Spy``).
2. What a bot can import: no module of the bots package imports the view
   builder, the table or the simulator; only the two search modules
   (``hard.py``, ``playout.py``) import the engine and the sampler, and they
   build worlds with ``sample_state`` from the view alone.
3. What the hard bot's samples come from: exactly the view object it was
   handed; and its decision is the same in two worlds that give its seat the
   same view but differ in every hidden card.
"""

from __future__ import annotations

import ast
import math
import pathlib
import random
from typing import Any

import pytest
from stacking import fish_ids_in

from net.game import Agent, Wire
from poissonnier_tui.arena.play import play_game
from poissonnier_tui.games.poissonnier import bots
from poissonnier_tui.games.poissonnier.bots import hard as hard_module
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.bots.hard import HardBot
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.determinize import sample_state
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

BOTS_DIR = pathlib.Path(bots.__file__).parent
SEARCH_MODULES = {"hard.py", "playout.py"}
"""The only bot modules that may simulate, on worlds sampled from their own view."""
ALLOWED = {
    "poissonnier_tui.games.poissonnier.rules",
    "poissonnier_tui.games.poissonnier.rules.cards",
    "poissonnier_tui.games.poissonnier.rules.orders",
    "poissonnier_tui.games.poissonnier.rules.actions",
    "poissonnier_tui.games.poissonnier.rules.errors",
}
"""Pure helpers any bot may import: card tables, order matching, action shapes."""
SEARCH_ALLOWED = {
    "poissonnier_tui.games.poissonnier.rules.determinize": {"sample_state"},
    "poissonnier_tui.games.poissonnier.rules.engine": {"apply"},
    "poissonnier_tui.games.poissonnier.rules.state": {"GameState", "Phase"},
}
"""Extra names the search modules may import, and nothing else from those modules."""


def _imports(path: pathlib.Path) -> list[tuple[str, str | None]]:
    """``(module, name)`` per imported name (``name`` None for ``import module``)."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
    return out


def test_bot_modules_import_no_game_state() -> None:
    """No bot module imports the view builder, the table, the simulator or a server; only
    the search modules import the engine's ``apply`` and the view sampler."""
    modules = sorted(BOTS_DIR.glob("*.py"))
    assert {p.name for p in modules} >= SEARCH_MODULES | {"easy.py", "medium.py"}
    for path in modules:
        for module, name in _imports(path):
            assert not module.startswith(
                ("poissonnier_tui.games.poissonnier.match", "poissonnier_tui.arena",
                 "poissonnier_tui.shell", "poissonnier_tui.games.poissonnier.rules.view",
                 "net.server", "net.table", "net.turns")
            ), (path.name, module)  # fmt: skip
            if not module.startswith("poissonnier_tui.games.poissonnier.rules"):
                continue
            if module in ALLOWED or (name and f"{module}.{name}" in ALLOWED):
                continue
            assert path.name in SEARCH_MODULES, (path.name, module, name)
            assert module in SEARCH_ALLOWED and name in SEARCH_ALLOWED[module], (module, name)


def test_search_modules_build_worlds_only_from_samples() -> None:
    """The search modules never set up a game or build a state of their own: their worlds
    come from ``sample_state(view, rng)`` (and copies of those)."""
    forbidden = {"GameState", "SeatState", "new_game", "view_for", "Crate"}
    for name in SEARCH_MODULES:
        tree = ast.parse((BOTS_DIR / name).read_text(encoding="utf-8"))
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & forbidden, (name, calls & forbidden)
    hard_calls = [
        node
        for node in ast.walk(ast.parse((BOTS_DIR / "hard.py").read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "sample_state"
    ]
    assert len(hard_calls) == 1  # one place where worlds are made


class Spy:
    """Wraps a bot; checks everything it is handed against RULES.md §9."""

    def __init__(self, inner: Agent, seat: int) -> None:
        self.inner = inner
        self.seat = seat
        self.calls = 0
        self.views: list[int] = []

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        self.calls += 1
        self.views.append(id(view))
        _assert_plain(view)
        _assert_plain(legal)
        assert view["seat"] == self.seat
        me = view["me"]
        own = set(me["hand"]) | {f for c in me["crates"] for f in c} | set(me["bought"])
        named = fish_ids_in(view) | fish_ids_in(legal)
        assert named <= own, f"seat {self.seat} was shown {sorted(named - own)}"
        return self.inner.act(view, legal)


def _assert_plain(obj: object) -> None:
    """Only msgpack-able plain values: no GameState or other object can ride along."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            assert all(type(k) is str for k in x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        else:
            assert x is None or type(x) in (str, int, bool), type(x)


@pytest.mark.parametrize(
    "kinds",
    [("hard", "medium"), ("greedy", "random"), ("hard", "medium", "easy", "greedy")],
)
def test_every_level_is_handed_only_its_seat(
    kinds: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No other hand, no deck order, no crate marker reaches a bot of any kind; and
    every world the hard bot samples is drawn from a view object it was handed."""
    sampled_from: list[int] = []

    def recording_sample(view: Any, rng: random.Random) -> GameState:
        sampled_from.append(id(view))
        return sample_state(view, rng)

    monkeypatch.setattr(hard_module, "sample_state", recording_sample)
    spies = [Spy(make_bot(kind, seat, budget=0.1), seat) for seat, kind in enumerate(kinds)]
    handed: set[int] = set()

    class Keep:
        """Keeps the views alive so that their ids stay unique during the game."""

        def __init__(self, spy: Spy) -> None:
            self.spy = spy
            self.kept: list[Wire] = []

        def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
            self.kept.append(view)
            handed.add(id(view))
            return self.spy.act(view, legal)

    keepers = [Keep(s) for s in spies]
    record = play_game(41, keepers)
    assert record.errors == [] and record.finished
    assert all(s.calls for s in spies)
    if "hard" in kinds:
        assert sampled_from, "the hard bot never searched"
    assert set(sampled_from) <= handed


def _decision_points(seed: int, players: int, seat: int) -> list[GameState]:
    """States of a medium-bot game at which ``seat`` has a fill or serve choice to make."""
    state = new_game(seed, players)
    agents = [make_bot("medium", s) for s in range(players)]
    points: list[GameState] = []
    while state.phase is not Phase.OVER and len(points) < 6:
        waiting = waiting_on(state)
        order = sorted(waiting - {state.active}) + sorted(waiting & {state.active})
        for s in order:
            legal = [to_wire(a) for a in legal_actions(state, s)]
            if s == seat and (
                (state.phase is Phase.FILL and state.turn % 3 == 0)
                or (state.phase is Phase.SERVE and sum(a["type"] == "serve" for a in legal) > 1)
            ):
                points.append(state.copy())
            action = agents[s].act(view_for(state, s), legal)
            apply_wire(state, s, action or {"type": "ready" if state.phase is Phase.FILL
                                            else "end_turn"})  # fmt: skip
            break
    return points


def test_hard_decides_the_same_in_worlds_its_seat_cannot_tell_apart() -> None:
    """Two worlds giving seat 0 the same view — one the real game, the other a sample
    with every hidden card redrawn — get the same move from the same hard bot."""
    points = _decision_points(seed=12, players=3, seat=0)
    assert len(points) >= 3
    rng = random.Random(5)
    searched = 0
    for real in points:
        view = view_for(real, 0)
        other = sample_state(view, rng)
        other.log = list(real.log)
        assert view_for(other, 0) == view
        hidden = [s.hand for i, s in enumerate(real.seats) if i != 0] + [real.fish_deck]
        assert hidden != [s.hand for i, s in enumerate(other.seats) if i != 0] + [other.fish_deck]
        legal = [to_wire(a) for a in legal_actions(real, 0)]
        assert legal == [to_wire(a) for a in legal_actions(other, 0)]
        bot_a, bot_b = _untimed_hard(), _untimed_hard()
        a = bot_a.act(view_for(real, 0), legal)
        b = bot_b.act(view_for(other, 0), [dict(x) for x in legal])
        assert a == b
        assert (bot_a.searches, bot_a.worlds) == (bot_b.searches, bot_b.worlds)
        searched += bot_a.searches
    assert searched >= 3  # the comparisons above were made by searches, not the heuristic alone


def _untimed_hard() -> HardBot:
    """A hard bot whose searches are bounded by their world count alone.

    No CPU or wall-clock cap: each search samples exactly
    :meth:`HardBot.worlds_for` worlds however loaded the machine is, so two
    runs fed the same view make the same draws and any difference in their
    moves comes from what they were handed.
    """
    return HardBot(3, budget=0.2, time_limit=math.inf, wall_limit=math.inf)
