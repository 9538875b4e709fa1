"""Honesty: every Go Fish bot plays from its seat's view and legal asks only (docs/GOFISH.md §8).

1. What a bot is handed: plain msgpack-able data naming no card but its own
   and the public ones (a shown draw, a card asked for in §6).
2. What a bot can import: nothing that holds or builds a table's state; only
   the hard bot may import the engine's ``apply`` and (with its world sampler)
   the state class, to play forward worlds it builds itself from its view.
3. What the hard bot's choice comes from: its view alone. It decides the same
   in two games that give its seat the same view but differ in every hidden
   card it could not know.
"""

from __future__ import annotations

import ast
import pathlib
import random
from collections import Counter
from typing import Any

import msgpack
from gofish_stacking import legal_wires, named_cards, public_cards

from poissonnier_tui.games.gofish import bots
from poissonnier_tui.games.gofish.bots import BOT_KINDS, make_bot
from poissonnier_tui.games.gofish.bots.hard import HardBot
from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.engine import apply_wire, new_game
from poissonnier_tui.games.gofish.rules.state import Options
from poissonnier_tui.games.gofish.rules.view import view_for

BOTS_DIR = pathlib.Path(bots.__file__).parent
PURE = {
    "poissonnier_tui.games.gofish.rules.cards",
    "poissonnier_tui.games.gofish.rules.actions",
    "poissonnier_tui.games.gofish.bots.memory",
    "poissonnier_tui.games.gofish.bots.policy",
    "poissonnier_tui.games.gofish.bots.simple",
    "poissonnier_tui.games.gofish.bots.medium",
    "poissonnier_tui.games.gofish.bots.hard",
    "poissonnier_tui.games.gofish.bots.worlds",
}
"""Modules any bot module may import from the project: card tables, ask shapes, bots."""
SEARCH_ONLY = {
    "poissonnier_tui.games.gofish.rules.engine": {"apply"},
    "poissonnier_tui.games.gofish.rules.state": {"GameState", "Options"},
}
"""What the hard bot and its world sampler alone may import besides, to play their own
worlds forward."""


def _imports(path: pathlib.Path) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
    return out


def test_bot_modules_import_no_table_state() -> None:
    modules = sorted(BOTS_DIR.glob("*.py"))
    assert {p.name for p in modules} >= {"hard.py", "medium.py", "simple.py", "memory.py"}
    for path in modules:
        for module, name in _imports(path):
            if not module.startswith(("poissonnier_tui", "net")):
                continue  # the standard library
            if module == "net.game":
                assert name in ("Agent", "Wire"), (path.name, name)
            elif module in SEARCH_ONLY:
                assert path.name in ("hard.py", "worlds.py"), (path.name, name)
                assert name in SEARCH_ONLY[module], (path.name, name)
            else:
                assert module in PURE, (path.name, module)


class Spy:
    """Wraps a bot and keeps everything it is handed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def act(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        self.seen.append((view, legal))
        action: dict[str, Any] | None = self.inner.act(view, legal)
        return action


def test_what_every_bot_is_handed_names_only_its_own_and_public_cards() -> None:
    for options in (Options(), Options(variant="card", bluff=True, play_on=True)):
        kinds = list(BOT_KINDS)
        spies = [Spy(make_bot(kind, i, budget=0.2)) for i, kind in enumerate(kinds)]
        state = new_game(77, len(kinds), options)
        checked = 0
        while not state.over:
            seat = state.active
            view = view_for(state, seat)
            legal = legal_wires(state, seat)
            assert msgpack.unpackb(msgpack.packb(view)) == view  # plain data only
            allowed = set(state.hands[seat]) | public_cards(state)
            assert named_cards(view) <= allowed
            action = spies[seat].act(view, legal)
            assert action is not None
            apply_wire(state, seat, action)
            checked += 1
        assert all(spy.seen for spy in spies) and checked > 10


def test_the_hard_bot_decides_alike_in_games_it_cannot_tell_apart() -> None:
    """Two states whose view for seat 0 is the same but whose other hands and stock
    hold different cards: the same seed makes the same choice."""
    checked = 0
    for seed in range(6):
        state = new_game(seed, 3, first_player=0)
        twin = state.copy()
        hidden = twin.hands[1] + twin.hands[2] + twin.stock
        # Trade cards between the hidden places so no rank count stays put.
        shuffled = list(hidden)
        random.Random(seed).shuffle(shuffled)
        sizes = [len(twin.hands[1]), len(twin.hands[2])]
        twin.hands[1] = shuffled[: sizes[0]]
        twin.hands[2] = shuffled[sizes[0] : sizes[0] + sizes[1]]
        twin.stock = shuffled[sizes[0] + sizes[1] :]
        if any(Counter(cards.rank_of(c) for c in h).most_common(1)[0][1] == 4
               for h in twin.hands[1:]):  # fmt: skip
            continue  # that would have been a dealt book (G2): not the same game
        assert view_for(twin, 0) == view_for(state, 0)
        assert twin.hands != state.hands
        a = HardBot(random.Random(9), budget=0.25).act(view_for(state, 0), legal_wires(state, 0))
        b = HardBot(random.Random(9), budget=0.25).act(view_for(twin, 0), legal_wires(twin, 0))
        assert a == b
        checked += 1
    assert checked >= 3
