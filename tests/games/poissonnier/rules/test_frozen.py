"""Read-only shared data: frozen maps and lists, and the match's shared legal-action maps."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import msgpack
import pytest

from net.game import ActionRejected
from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.actions import parse_action, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import legal_actions, new_game
from poissonnier_tui.games.poissonnier.rules.frozen import (
    FrozenList,
    FrozenMap,
    action_of_shared_wire,
    frozen,
    shared_wires,
)

PLAIN: dict[str, Any] = {"t": "draw", "counts": [[0, 3], [1, 1]], "p": {"fish": [[0, 1, "F"]]}}


def test_frozen_data_equals_the_plain_data_and_refuses_changes() -> None:
    """Equal to its source everywhere it is read; every change is refused, nested too."""
    data = frozen(PLAIN)
    assert data == PLAIN and type(data) is FrozenMap
    assert type(data["counts"]) is FrozenList and type(data["counts"][0]) is FrozenList
    assert json.loads(json.dumps(data)) == PLAIN
    assert msgpack.unpackb(msgpack.packb(data)) == PLAIN
    assert pickle.loads(pickle.dumps(data)) == PLAIN
    assert copy.deepcopy(data) is data and copy.copy(data) is data
    refused = [
        lambda: data.__setitem__("t", "x"),
        lambda: data.pop("t"),
        lambda: data.update(t="x"),
        lambda: data.setdefault("new", 1),
        lambda: data.clear(),
        lambda: data["counts"].append([2, 2]),
        lambda: data["counts"][0].__setitem__(1, 9),
        lambda: data["counts"].sort(),
        lambda: data["p"]["fish"].pop(),
        lambda: data["p"].__delitem__("fish"),
    ]
    for change in refused:
        with pytest.raises(TypeError):
            change()
    assert data == PLAIN
    assert {**data, "t": "x"}["t"] == "x" and dict(data)["t"] == "draw"  # copies change freely
    assert PLAIN["counts"] == [[0, 3], [1, 1]]  # the source was not touched


def test_shared_wires_are_the_wire_maps_made_once() -> None:
    """Each action's map equals ``to_wire``, is the same object on every call, and is
    known again as that action; an equal plain map is not (it is parsed)."""
    state = new_game(3, 3)
    actions = legal_actions(state, 0)
    first, second = shared_wires(actions), shared_wires(actions)
    assert first == [to_wire(a) for a in actions] and first is not second
    assert all(a is b for a, b in zip(first, second, strict=True))
    for action, wire in zip(actions, first, strict=True):
        assert action_of_shared_wire(wire) is action
        assert parse_action(wire) == action
        assert action_of_shared_wire(dict(wire)) is None
        with pytest.raises(TypeError):
            wire["type"] = "end_turn"


def test_match_applies_shared_and_plain_maps_alike() -> None:
    """A shared legal map is applied as its action; a plain map is still checked in full."""
    shared, plain = PoissonnierMatch(new_game(5, 2)), PoissonnierMatch(new_game(5, 2))
    rng = random.Random(5)
    for _ in range(150):
        if shared.is_over:
            break
        seat = rng.choice(sorted(shared.waiting_on()))
        legal = shared.legal_actions(seat)
        wire = legal[rng.randrange(len(legal))]
        shared.apply(seat, wire)
        plain.apply(seat, json.loads(json.dumps(wire)))
        assert shared.view(None) == plain.view(None)
        assert shared.view(seat) == plain.view(seat)
    assert shared.state.turn > 2 and shared.state.log == plain.state.log
    with pytest.raises(ActionRejected) as info:
        plain.apply(0, {"type": "place", "cards": ["Z99"], "crate": 0})
    assert info.value.code in ("not_in_hand", "not_fill", "bad_action", "already_ready")
