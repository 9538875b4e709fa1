"""``state.LazyRandom``: a game's generator that takes its state only when first used (R3)."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from poissonnier_tui.games.poissonnier.rules.state import LazyRandom


def draws(rng: random.Random) -> list[object]:
    """A mix of every kind of draw the engine and the bots make."""
    deck = list(range(40))
    rng.shuffle(deck)
    return [
        deck,
        rng.random(),
        rng.getrandbits(64),
        rng.randrange(7),
        rng.choice("abcdef"),
        rng.gauss(0.0, 1.0),
        rng.gauss(0.0, 1.0),
        rng.sample(range(100), 5),
    ]


@pytest.mark.parametrize("seed", [0, 7, 2**63 + 5])
def test_seeded_draws_as_random_random(seed: int) -> None:
    """A seeded LazyRandom draws exactly what ``random.Random(seed)`` draws."""
    assert draws(LazyRandom.seeded(seed)) == draws(random.Random(seed))
    assert LazyRandom.seeded(seed).getstate() == random.Random(seed).getstate()


def test_copies_draw_alike_and_apart() -> None:
    """A copy starts in its source's state, gauss's kept value included; drawing from
    one never moves the other; the source draws nothing when copied."""
    source = random.Random(11)
    source.gauss()  # leaves a value for the next gauss in the state
    before = source.getstate()
    first = LazyRandom.copy_of(source)
    assert source.getstate() == before
    second = LazyRandom.copy_of(first)  # a copy of a copy that has not drawn yet
    assert second.getstate() == first.getstate() == before
    assert LazyRandom.copy_of(first).gauss() == _restored(before).gauss()  # as its first draw
    expected = draws(_restored(before))
    assert draws(first) == expected
    assert draws(second) == expected  # first's draws did not move second
    assert draws(source) == expected
    third = LazyRandom.copy_of(first)  # first has drawn: its new state is taken
    assert draws(third) == draws(first)


def _restored(state: tuple[object, ...]) -> random.Random:
    rng = random.Random()
    rng.setstate(state)
    return rng


def test_state_read_again_and_set() -> None:
    """getstate follows every draw; setstate and seed replace a pending start."""
    rng = LazyRandom.seeded(3)
    plain = random.Random(3)
    assert rng.getstate() == plain.getstate()
    assert rng.random() == plain.random()
    assert rng.getstate() == plain.getstate()
    rng.setstate(random.Random(9).getstate())
    assert rng.random() == random.Random(9).random()
    pending = LazyRandom.seeded(4)
    pending.seed(5)
    assert pending.random() == random.Random(5).random()


def test_pickles_and_deep_copies() -> None:
    """Pickle and deepcopy keep the state, drawn or not."""
    for rng in (LazyRandom.seeded(21), LazyRandom.copy_of(random.Random(22))):
        expected = draws(LazyRandom.copy_of(rng))
        assert draws(pickle.loads(pickle.dumps(rng))) == expected
        assert draws(copy.deepcopy(rng)) == expected
