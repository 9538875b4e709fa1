"""Keeping the garbage collector's pauses short in a process that serves many tables.

CPython's cyclic collector walks every container object of a generation when
it collects it; a full (generation 2) collection walks them all. A process
serving hundreds of tables holds a large, long-lived heap (the games, their
logs, the servers), so each full collection stalls the event loop for as
long as that walk takes (55–211 ms measured with 200 four-bot tables on a
busy 2-core machine, docs/measurements/bench-server.txt), and every table's
timers fire that late.

:func:`settle_heap`, called once the long-lived objects are built (the
tables open, before play), collects once and then moves every surviving
object to the collector's permanent generation (:func:`gc.freeze`): later
collections walk only what was made after it. Nothing else changes: objects
still go as soon as nothing refers to them, and cycles made afterwards are
still collected. A frozen object that later becomes part of a garbage cycle
stays until :func:`gc.unfreeze`, which is why this is for a process's
long-lived setup, not something to call again and again.
"""

from __future__ import annotations

import gc


def settle_heap() -> int:
    """Collect, then keep everything alive now out of later collections' walks.

    Returns:
        How many objects the collector now leaves out (:func:`gc.get_freeze_count`).
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
