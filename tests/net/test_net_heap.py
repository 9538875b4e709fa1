"""``settle_heap`` (net/heap.py): what lives before it is left out of later collections;
cycles made after it are still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from net.heap import FULL_EVERY, settle_heap


class Node:
    """A container object the collector tracks."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def unfreeze() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # leave the test process's collector as it was
    gc.set_threshold(*thresholds)


def test_settled_objects_are_left_out_and_new_cycles_still_go(unfreeze: None) -> None:
    kept = Node()
    assert any(o is kept for o in gc.get_objects())
    assert settle_heap() >= 1
    assert not any(o is kept for o in gc.get_objects())  # in the permanent generation
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None
    assert kept.other is None


def test_full_collections_become_rarer_young_ones_do_not(unfreeze: None) -> None:
    gc.set_threshold(700, 10, 10)
    settle_heap()
    assert gc.get_threshold() == (700, 10, FULL_EVERY) and FULL_EVERY > 10
    gc.set_threshold(700, 10, 5000)
    settle_heap()
    assert gc.get_threshold() == (700, 10, 5000)  # a higher threshold is kept
