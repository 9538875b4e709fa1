"""Which revision a table tells each recipient, worked out apart from the server.

A recipient group (a seat, or the spectators) is told a revision that moves on only
with the actions that changed its view (``net/server.py`` ``TableServer.rev_for``):
another seat's private move (RULES.md R15) changes nothing it sees, so its
revision must not count it either. Tests record every group's view at every table
revision (0: the deal) and map each frame back to the revisions it may stand for.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise


def told_revisions(views: Sequence[Sequence[object]]) -> list[list[int]]:
    """Per table revision, per group: the revision that group's views carry.

    Args:
        views: per table revision (0 first), each group's view (packed with msgpack,
            or as JSON: anything equal exactly when the views are).

    Returns:
        The same shape: 0 at revision 0, then one more at each revision whose view
        differs from the one before, for that group.
    """
    told = [[0] * len(views[0])] if views else []
    for before, now in pairwise(views):
        told.append([t + (a != b) for t, a, b in zip(told[-1], before, now, strict=True)])
    return told


def revisions_for(told: Sequence[Sequence[int]], group: int, rev: int) -> list[int]:
    """The table revisions at which ``group``'s views carried ``rev`` (every one of
    them shows that group the same view)."""
    return [r for r, row in enumerate(told) if row[group] == rev]
