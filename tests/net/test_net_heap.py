"""``settle_heap`` (net/heap.py): what lives before it is left out of later collections;
cycles made after it are still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from net.heap import settle_heap


class Node:
    """A container object the collector tracks."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def unfreeze() -> Iterator[None]:
    yield
    gc.unfreeze()  # leave the test process's collector as it was


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
