"""Python's cyclic garbage collector, held off while the TUI starts.

Starting the TUI imports some 600 modules and builds the app, the table server,
its bots and the table screen: about 90,000 objects, nearly all of which live as
long as the process. The cyclic collector, run every 700 allocations, walks
them again and again while they are made (some 200 passes, one over everything)
and finds almost no garbage: without it a cold ``poissonnier solo`` start takes
about 35 ms less CPU time, a tenth of it (``scripts/bench.py``, TUI cold start).
So the command holds it off from its first
line (:func:`hold`) and the app lets it run again (:func:`release`) once its first
screen is drawn, or after :data:`LONGEST_HOLD` seconds whatever happens; the
collector then catches up in one pass, after the first frame. Reference counting
frees everything that is not in a cycle meanwhile, as always.

Only the ``poissonnier`` command holds it (:mod:`poissonnier_tui.cli`), and only
for the commands that open the TUI at once (solo and the home screen); every
other command gets the collector back before it runs.

The ``simulate`` and ``tournament`` commands (and the bot measurements behind
them) pause it for the length of each headless game (:func:`paused`): a searching
bot fills caches with tens of thousands of small objects that live for the game,
and the collector's passes over them cost about 3 % of the CPU time of a
hard-against-medium tournament (8 games played side by side each way, twice:
13.3–13.6 s paused against 14.0 s), for no garbage (none was found in such
games: everything they drop is freed by reference counting). It runs again
between games.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

LONGEST_HOLD: Final = 5.0
"""Seconds after the app is mounted when it releases the collector even if no first
screen was drawn (e.g. a table that cannot be reached)."""

_held = False


def hold() -> None:
    """Stop automatic collections until :func:`release` (nothing if they are off already:
    someone else turned them off, and only they turn them back on)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """Automatic collections again, if :func:`hold` stopped them (safe to call twice)."""
    global _held
    if _held:
        _held = False
        gc.enable()


def held() -> bool:
    """Whether :func:`hold` stopped automatic collections and they have not come back."""
    return _held


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collections inside the ``with`` block; back as before after it (even on
    an exception). If they were off already, they stay off. Reference counting frees
    everything not in a cycle meanwhile; a cycle made inside waits for the first
    collection after the block."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
